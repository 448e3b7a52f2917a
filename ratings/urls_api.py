"""Rating API, included at ``/api/ratings/`` (``federation.urls_api``)."""
from django.urls import include, path

from ratings import api, converters  # noqa: F401  (converters: <isodate:...>)

urlpatterns = [
    path("", api.RatingListApi.as_view(), name="api-ratings"),
    path("players/<str:federation_id>/history/", api.PlayerRatingHistoryApi.as_view(), name="api-rating-history"),
    path("lists/", api.OfficialListArchiveApi.as_view(), name="api-rating-lists"),
    path("lists/current/", api.OfficialListCurrentApi.as_view(), name="api-rating-list-current"),
    path("lists/<isodate:on>/", api.OfficialListDetailApi.as_view(), name="api-rating-list"),
    path("lists/<isodate:on>/withdraw/", api.OfficialListWithdrawApi.as_view(), name="api-rating-list-withdraw"),
    path("parameters/", include("ratings.parameters_urls_api")),  # staff: tuning and adoption of parameter sets
]
