"""Member pages: players and clubs."""
from django.urls import path

from federation import views

urlpatterns = [
    path("players/", views.player_list, name="player-list"),
    path("players/new/", views.player_create, name="player-create"),
    path("players/<str:federation_id>/", views.player_detail, name="player-detail"),
    path("players/<str:federation_id>/edit/", views.player_edit, name="player-edit"),
    path("players/<str:federation_id>/deactivate/", views.player_deactivate, name="player-deactivate"),
    path("players/<str:federation_id>/activate/", views.player_activate, name="player-activate"),
    path("players/<str:federation_id>/merge/", views.player_merge, name="player-merge"),
    path("players/<str:federation_id>/my-data.json", views.player_my_data, name="player-my-data"),
    path("players/<str:federation_id>/anonymise/", views.player_anonymise, name="player-anonymise"),
    path("clubs/", views.club_list, name="club-list"),
    path("clubs/new/", views.club_create, name="club-create"),
    path("clubs/<int:club_id>/", views.club_detail, name="club-detail"),
    path("clubs/<int:club_id>/edit/", views.club_edit, name="club-edit"),
    path("clubs/<int:club_id>/deactivate/", views.club_deactivate, name="club-deactivate"),
    path("clubs/<int:club_id>/activate/", views.club_activate, name="club-activate"),
]
