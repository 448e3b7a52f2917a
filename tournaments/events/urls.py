"""URLs of multi-section events (issue 14): the pages under ``/events/`` and the API under
``/api/events/`` — included once by the root URLconf (``federation/urls.py``)."""
from django.urls import path

from tournaments.events import api as event_api
from tournaments.events import views as v

urlpatterns = [
    path("events/", v.event_list, name="event-list"),
    path("events/new/", v.event_create, name="event-create"),
    path("events/<slug:slug>/", v.event_detail, name="event-detail"),
    path("events/<slug:slug>/edit/", v.event_edit, name="event-edit"),
    path("events/<slug:slug>/sections/new/", v.event_section_add, name="event-section-add"),
    path("events/<slug:slug>/registrations/", v.event_registrations, name="event-registrations"),
    path("events/<slug:slug>/registrations/add/", v.event_register, name="event-register"),
    path("events/<slug:slug>/registrations/<int:reg_id>/move/", v.event_registration_move,
         name="event-registration-move"),
    path("events/<slug:slug>/registrations/<int:reg_id>/remove/", v.event_registration_remove,
         name="event-registration-remove"),
    path("events/<slug:slug>/registrations/sync/", v.event_sync, name="event-sync"),
    path("events/<slug:slug>/report/", v.event_report, name="event-report"),
    path("events/<slug:slug>/report.pdf", v.event_report_pdf, name="event-report-pdf"),
    path("api/events/", event_api.EventListApi.as_view(), name="api-events"),
    path("api/events/<slug:slug>/", event_api.EventDetailApi.as_view(), name="api-event"),
]
