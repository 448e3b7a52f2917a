"""The rules page (issue 25), included from ``federation/urls.py``."""
from django.urls import path

from tournaments.rules import views

urlpatterns = [
    path("t/<slug:slug>/rules/", views.rules, name="tournament-rules"),
]
