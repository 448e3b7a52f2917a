"""Member pages."""
from django.urls import path

from federation import views

urlpatterns = [
    path("players/", views.player_list, name="player-list"),
    path("players/<str:federation_id>/", views.player_detail, name="player-detail"),
]
