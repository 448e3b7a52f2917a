"""Game pages: set replay and bulk import of set records (mounted at ``/games/``)."""
from django.urls import path

from tournaments.records import views

urlpatterns = [
    path("sets/<int:set_id>/", views.set_replay, name="set-replay"),
    path("import/", views.record_import, name="record-import"),
    path("import/<int:import_id>/", views.record_import_detail, name="record-import-detail"),
]
