"""The "why am I placed here" page and its JSON twin (issue 25), included from ``federation/urls.py``."""
from django.urls import path

from tournaments.placement import api, views

urlpatterns = [
    path("t/<slug:slug>/standings/<int:start_no>/why/", views.placement, name="placement"),
    path("api/tournaments/<slug:slug>/standings/<int:start_no>/why/", api.PlacementApi.as_view(),
         name="api-standings-placement"),
]
