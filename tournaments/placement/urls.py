"""The "why am I placed here" page (issue 25), included from ``federation/urls.py``."""
from django.urls import path

from tournaments.placement import views

urlpatterns = [
    path("t/<slug:slug>/standings/<int:start_no>/why/", views.placement, name="placement"),
]
