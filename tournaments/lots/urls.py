"""The lots page (issue 25), included from ``federation/urls.py``."""
from django.urls import path

from tournaments.lots import views

urlpatterns = [
    path("t/<slug:slug>/lots/", views.lots, name="tournament-lots"),
]
