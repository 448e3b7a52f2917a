"""Tournament pages."""
from django.urls import path

from tournaments import views

urlpatterns = [
    path("", views.home, name="home"),
    path("t/new/", views.tournament_create, name="tournament-create"),
    path("t/import/", views.trf_import, name="trf-import"),
    path("t/import/<int:import_id>/", views.trf_import_detail, name="trf-import-detail"),
    path("t/<slug:slug>/", views.tournament_detail, name="tournament-detail"),
    path("t/<slug:slug>/entries/", views.tournament_entries, name="tournament-entries"),
    path("t/<slug:slug>/entries/<int:start_no>/withdraw/", views.entry_withdraw, name="entry-withdraw"),
    path("t/<slug:slug>/entries/<int:start_no>/reinstate/", views.entry_reinstate, name="entry-reinstate"),
    path("t/<slug:slug>/byes/<int:start_no>/<int:number>/withdraw/", views.bye_withdraw, name="bye-withdraw"),
    path("t/<slug:slug>/edit/", views.tournament_edit, name="tournament-edit"),
    path("t/<slug:slug>/delete/", views.tournament_delete, name="tournament-delete"),
    path("t/<slug:slug>/restore/", views.tournament_restore, name="tournament-restore"),
    path("t/<slug:slug>/history/", views.tournament_history_page, name="tournament-history"),
    path("t/<slug:slug>/round/<int:number>/delete/", views.round_delete, name="round-delete"),
    path("t/<slug:slug>/round/<int:number>/reopen/", views.round_reopen, name="round-reopen"),
    path("t/<slug:slug>/byes/", views.entry_request_bye, name="entry-request-bye"),
    path("t/<slug:slug>/tiebreaks/", views.tiebreaks_update, name="tiebreaks-update"),
    path("t/<slug:slug>/forbidden-pairs/", views.forbidden_pairs, name="forbidden-pairs"),
    path("t/<slug:slug>/forbidden-pairs/<int:pair_id>/delete/", views.forbidden_pair_delete,
         name="forbidden-pair-delete"),
    path("t/<slug:slug>/pair/", views.round_pair, name="round-pair"),
    path("t/<slug:slug>/round/<int:number>/", views.round_detail, name="round-detail"),
    path("t/<slug:slug>/round/<int:number>/publish/", views.round_publish, name="round-publish"),
    path("t/<slug:slug>/round/<int:number>/close/", views.round_close, name="round-close"),
    path("t/<slug:slug>/round/<int:number>/swap/", views.round_swap, name="round-swap"),
    path("t/<slug:slug>/round/<int:number>/board/<int:board>/", views.match_result, name="match-result"),
    path("t/<slug:slug>/standings/", views.standings, name="standings"),
    path("t/<slug:slug>/standings/publish/", views.standings_publish, name="standings-publish"),
    path("t/<slug:slug>/crosstable/", views.crosstable, name="crosstable"),
    path("t/<slug:slug>/crosstable.pdf", views.crosstable_pdf, name="crosstable-pdf"),
    path("t/<slug:slug>/export.trf", views.export_trf, name="export-trf"),
]
