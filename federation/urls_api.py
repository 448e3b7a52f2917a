"""URLs of the REST API, included at ``/api/`` by the root URLconf (schema at ``/api/schema/``)."""
from django.urls import path

from federation import api_views
from games import api as games_api
from tournaments import api as t
from tournaments.entries import api as entry_api
from tournaments.results import api as result_api
from tournaments.rounds import api as round_api
from tournaments.knockout import api as knockout_api

urlpatterns = [
    path("players/", api_views.PlayerListApi.as_view(), name="api-players"),
    path("players/<str:federation_id>/", api_views.PlayerDetailApi.as_view(), name="api-player"),
    path("players/<str:federation_id>/deactivate/", api_views.PlayerDeactivateApi.as_view(),
         name="api-player-deactivate"),
    path("players/<str:federation_id>/activate/", api_views.PlayerActivateApi.as_view(), name="api-player-activate"),
    path("players/<str:federation_id>/merge/", api_views.PlayerMergeApi.as_view(), name="api-player-merge"),
    path("players/<str:federation_id>/anonymise/", api_views.PlayerAnonymiseApi.as_view(),
         name="api-player-anonymise"),
    path("clubs/", api_views.ClubListApi.as_view(), name="api-clubs"),
    path("clubs/<int:club_id>/", api_views.ClubDetailApi.as_view(), name="api-club"),
    path("clubs/<int:club_id>/deactivate/", api_views.ClubDeactivateApi.as_view(), name="api-club-deactivate"),
    path("clubs/<int:club_id>/activate/", api_views.ClubActivateApi.as_view(), name="api-club-activate"),
    path("tournaments/", t.TournamentListApi.as_view(), name="api-tournaments"),
    path("tournaments/import-trf/", t.TournamentImportTrfApi.as_view(), name="api-tournament-import-trf"),
    path("tournaments/import-trf/<int:import_id>/", t.TournamentImportTrfStatusApi.as_view(),
         name="api-tournament-import-trf-status"),
    path("tournaments/<slug:slug>/", t.TournamentDetailApi.as_view(), name="api-tournament"),
    path("tournaments/<slug:slug>/entries/", entry_api.EntryAddApi.as_view(), name="api-entry-add"),
    path("tournaments/<slug:slug>/entries/<int:start_no>/withdraw/", entry_api.EntryWithdrawApi.as_view(),
         name="api-entry-withdraw"),
    path("tournaments/<slug:slug>/entries/<int:start_no>/reinstate/", entry_api.EntryReinstateApi.as_view(),
         name="api-entry-reinstate"),
    path("tournaments/<slug:slug>/byes/", entry_api.ByeRequestApi.as_view(), name="api-bye-request"),
    path("tournaments/<slug:slug>/byes/<int:start_no>/<int:number>/", entry_api.ByeWithdrawApi.as_view(),
         name="api-bye-withdraw"),
    path("tournaments/<slug:slug>/restore/", t.TournamentRestoreApi.as_view(), name="api-tournament-restore"),
    path("tournaments/<slug:slug>/history/", t.TournamentHistoryApi.as_view(), name="api-tournament-history"),
    path("tournaments/<slug:slug>/forbidden-pairs/", round_api.ForbiddenPairListApi.as_view(), name="api-forbidden-pairs"),
    path("tournaments/<slug:slug>/forbidden-pairs/<int:pair_id>/", round_api.ForbiddenPairDetailApi.as_view(),
         name="api-forbidden-pair"),
    path("tournaments/<slug:slug>/rounds/<int:number>/reopen/", round_api.RoundReopenApi.as_view(), name="api-round-reopen"),
    path("tournaments/<slug:slug>/rounds/", round_api.RoundPairApi.as_view(), name="api-round-pair"),
    path("tournaments/<slug:slug>/rounds/<int:number>/", round_api.RoundDetailApi.as_view(), name="api-round"),
    path("tournaments/<slug:slug>/rounds/<int:number>/publish/", round_api.RoundPublishApi.as_view(), name="api-round-publish"),
    path("tournaments/<slug:slug>/rounds/<int:number>/close/", round_api.RoundCloseApi.as_view(), name="api-round-close"),
    path("tournaments/<slug:slug>/rounds/<int:number>/boards/<int:board>/result/", result_api.MatchResultApi.as_view(),
         name="api-match-result"),
    path("tournaments/<slug:slug>/standings/", t.StandingsApi.as_view(), name="api-standings"),
    path("tournaments/<slug:slug>/bracket/", knockout_api.BracketApi.as_view(), name="api-bracket"),
    path("tournaments/<slug:slug>/standings/publish/", t.StandingsPublishApi.as_view(), name="api-standings-publish"),
    path("games/validate-record/", games_api.ValidateRecordApi.as_view(), name="api-validate-record"),
]
