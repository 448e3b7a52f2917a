"""Rating pages, included at ``/ratings/``."""
from django.urls import include, path

from ratings import converters, views  # noqa: F401  (converters: <isodate:...>)

urlpatterns = [
    path("", views.rating_list, name="rating-list"),
    path("events/<slug:slug>/", views.rating_event, name="rating-event"),
    # official lists: archive, staff's publish form, one list, its downloads, the staff's withdrawal
    path("lists/", views.official_lists, name="rating-lists"),
    path("lists/publish/", views.official_list_publish, name="rating-list-publish"),
    path("lists/<isodate:on>/", views.official_list, name="rating-list-official"),
    path("lists/<isodate:on>.csv", views.official_list_csv, name="rating-list-official-csv"),
    path("lists/<isodate:on>.pdf", views.official_list_pdf, name="rating-list-official-pdf"),
    path("lists/<isodate:on>/withdraw/", views.official_list_withdraw, name="rating-list-withdraw"),
    path("parameters/", include("ratings.parameters_urls")),  # staff: tuning and adoption of parameter sets
]
