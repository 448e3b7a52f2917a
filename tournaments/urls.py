"""Tournament pages."""
from django.urls import path

from tournaments import views
from tournaments.entries import views as entry_views
from tournaments.knockout import views as knockout_views
from tournaments.prizes import views as category_views
from tournaments.results import views as result_views
from tournaments.rounds import views as round_views

urlpatterns = [
    path("", views.home, name="home"),
    path("t/new/", views.tournament_create, name="tournament-create"),
    path("t/import/", views.trf_import, name="trf-import"),
    path("t/import/<int:import_id>/", views.trf_import_detail, name="trf-import-detail"),
    path("t/<slug:slug>/", views.tournament_detail, name="tournament-detail"),
    path("t/<slug:slug>/entries/", entry_views.tournament_entries, name="tournament-entries"),
    path("t/<slug:slug>/entries/<int:start_no>/withdraw/", entry_views.entry_withdraw, name="entry-withdraw"),
    path("t/<slug:slug>/entries/<int:start_no>/reinstate/", entry_views.entry_reinstate, name="entry-reinstate"),
    path("t/<slug:slug>/byes/<int:start_no>/<int:number>/withdraw/", entry_views.bye_withdraw, name="bye-withdraw"),
    path("t/<slug:slug>/edit/", views.tournament_edit, name="tournament-edit"),
    path("t/<slug:slug>/delete/", views.tournament_delete, name="tournament-delete"),
    path("t/<slug:slug>/restore/", views.tournament_restore, name="tournament-restore"),
    path("t/<slug:slug>/history/", views.tournament_history_page, name="tournament-history"),
    path("t/<slug:slug>/round/<int:number>/delete/", round_views.round_delete, name="round-delete"),
    path("t/<slug:slug>/round/<int:number>/reopen/", round_views.round_reopen, name="round-reopen"),
    path("t/<slug:slug>/byes/", entry_views.entry_request_bye, name="entry-request-bye"),
    path("t/<slug:slug>/tiebreaks/", views.tiebreaks_update, name="tiebreaks-update"),
    path("t/<slug:slug>/forbidden-pairs/", round_views.forbidden_pairs, name="forbidden-pairs"),
    path("t/<slug:slug>/forbidden-pairs/<int:pair_id>/delete/", round_views.forbidden_pair_delete,
         name="forbidden-pair-delete"),
    path("t/<slug:slug>/pair/", round_views.round_pair, name="round-pair"),
    path("t/<slug:slug>/round/<int:number>/", round_views.round_detail, name="round-detail"),
    path("t/<slug:slug>/round/<int:number>/publish/", round_views.round_publish, name="round-publish"),
    path("t/<slug:slug>/round/<int:number>/close/", round_views.round_close, name="round-close"),
    path("t/<slug:slug>/round/<int:number>/swap/", round_views.round_swap, name="round-swap"),
    path("t/<slug:slug>/round/<int:number>/board/<int:board>/", result_views.match_result, name="match-result"),
    path("referee/", result_views.referee_home, name="referee-home"),
    path("t/<slug:slug>/live/", result_views.live, name="live"),
    path("t/<slug:slug>/tv/", result_views.live, {"tv": True}, name="live-tv"),
    path("t/<slug:slug>/live.json", result_views.live_json, name="live-json"),
    path("t/<slug:slug>/round/<int:number>/pairings.pdf", round_views.round_pairings_pdf, name="round-pairings-pdf"),
    path("t/<slug:slug>/round/<int:number>/slips.pdf", round_views.round_slips_pdf, name="round-slips-pdf"),
    path("t/<slug:slug>/standings/", views.standings, name="standings"),
    path("t/<slug:slug>/standings/publish/", views.standings_publish, name="standings-publish"),
    path("t/<slug:slug>/standings.pdf", views.standings_pdf, name="standings-pdf"),
    path("t/<slug:slug>/crosstable/", views.crosstable, name="crosstable"),
    path("t/<slug:slug>/crosstable.pdf", views.crosstable_pdf, name="crosstable-pdf"),
    path("t/<slug:slug>/export.trf", views.export_trf, name="export-trf"),
    # knockout sections (issue 14)
    path("t/<slug:slug>/bracket/", knockout_views.bracket, name="bracket"),
    path("tournaments/<slug:slug>/bracket/", knockout_views.bracket_redirect, name="bracket-alias"),
    path("t/<slug:slug>/bracket.pdf", knockout_views.bracket_pdf, name="bracket-pdf"),
    path("t/<slug:slug>/qualifiers/", knockout_views.qualifiers_take, name="knockout-qualifiers"),
    path("t/<slug:slug>/playoff/", knockout_views.playoff_create, name="playoff-create"),
    # category rankings and the prize list (issue 14)
    path("t/<slug:slug>/categories/", category_views.categories, name="categories"),
    path("t/<slug:slug>/categories/quick-add/", category_views.category_quick_add, name="category-quick-add"),
    path("t/<slug:slug>/categories/<int:category_id>/", category_views.category_edit, name="category-edit"),
    path("t/<slug:slug>/categories/<int:category_id>/delete/", category_views.category_delete,
         name="category-delete"),
    path("t/<slug:slug>/prizes/", category_views.prizes, name="prizes"),
    path("t/<slug:slug>/prizes.pdf", category_views.prizes_pdf, name="prizes-pdf"),
    path("t/<slug:slug>/prizes/lot/", category_views.prize_lot_draw, name="prize-lot-draw"),
    path("t/<slug:slug>/prizes/<int:prize_id>/", category_views.prize_edit, name="prize-edit"),
    path("t/<slug:slug>/prizes/<int:prize_id>/delete/", category_views.prize_delete, name="prize-delete"),
]
