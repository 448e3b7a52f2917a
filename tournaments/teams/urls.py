"""URLs of team championships (issue 14): the pages under ``/t/<slug>/teams/`` (and ``/teams/new/``) and
the API under ``/api/tournaments/<slug>/teams/`` — included once by the root URLconf
(``federation/urls.py``)."""
from django.urls import path

from tournaments.teams import api as team_api
from tournaments.teams import views as v

urlpatterns = [
    path("teams/new/", v.team_tournament_create, name="team-tournament-create"),
    path("t/<slug:slug>/teams/", v.team_list, name="team-list"),
    path("t/<slug:slug>/teams/add/", v.team_add, name="team-add"),
    path("t/<slug:slug>/teams/seeds/", v.team_seeds, name="team-seeds"),
    path("t/<slug:slug>/teams/standings/", v.team_standings, name="team-standings"),
    path("t/<slug:slug>/teams/crosstable/", v.team_crosstable, name="team-crosstable"),
    path("t/<slug:slug>/teams.pdf", v.team_pdf, name="team-pdf"),
    path("t/<slug:slug>/teams/<int:team_id>/withdraw/", v.team_withdraw, name="team-withdraw"),
    path("t/<slug:slug>/teams/<int:team_id>/members/add/", v.team_member_add, name="team-member-add"),
    path("t/<slug:slug>/teams/members/<int:member_id>/move/", v.team_member_move, name="team-member-move"),
    path("t/<slug:slug>/teams/members/<int:member_id>/remove/", v.team_member_remove, name="team-member-remove"),
    path("api/tournaments/<slug:slug>/teams/", team_api.TeamListApi.as_view(), name="api-teams"),
    path("api/tournaments/<slug:slug>/rounds/<int:number>/team-matches/", team_api.RoundTeamMatchesApi.as_view(),
         name="api-round-team-matches"),
]
