"""URLs of the REST API, included at ``/api/`` by the root URLconf (schema at ``/api/schema/``)."""
from django.urls import path

from federation import api_views
from games import api as games_api
from tournaments import api as t

urlpatterns = [
    path("players/", api_views.PlayerListApi.as_view(), name="api-players"),
    path("players/<str:federation_id>/", api_views.PlayerDetailApi.as_view(), name="api-player"),
    path("clubs/", api_views.ClubListApi.as_view(), name="api-clubs"),
    path("tournaments/", t.TournamentListApi.as_view(), name="api-tournaments"),
    path("tournaments/import-trf/", t.TournamentImportTrfApi.as_view(), name="api-tournament-import-trf"),
    path("tournaments/<slug:slug>/", t.TournamentDetailApi.as_view(), name="api-tournament"),
    path("tournaments/<slug:slug>/entries/", t.EntryAddApi.as_view(), name="api-entry-add"),
    path("tournaments/<slug:slug>/entries/<int:start_no>/withdraw/", t.EntryWithdrawApi.as_view(),
         name="api-entry-withdraw"),
    path("tournaments/<slug:slug>/rounds/", t.RoundPairApi.as_view(), name="api-round-pair"),
    path("tournaments/<slug:slug>/rounds/<int:number>/", t.RoundDetailApi.as_view(), name="api-round"),
    path("tournaments/<slug:slug>/rounds/<int:number>/publish/", t.RoundPublishApi.as_view(), name="api-round-publish"),
    path("tournaments/<slug:slug>/rounds/<int:number>/close/", t.RoundCloseApi.as_view(), name="api-round-close"),
    path("tournaments/<slug:slug>/rounds/<int:number>/boards/<int:board>/result/", t.MatchResultApi.as_view(),
         name="api-match-result"),
    path("tournaments/<slug:slug>/standings/", t.StandingsApi.as_view(), name="api-standings"),
    path("tournaments/<slug:slug>/standings/publish/", t.StandingsPublishApi.as_view(), name="api-standings-publish"),
    path("games/validate-record/", games_api.ValidateRecordApi.as_view(), name="api-validate-record"),
]
