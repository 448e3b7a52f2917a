"""Rating API, included at ``/api/ratings/`` (``federation.urls_api``)."""
from django.urls import path

from ratings import api

urlpatterns = [
    path("", api.RatingListApi.as_view(), name="api-ratings"),
    path("players/<str:federation_id>/history/", api.PlayerRatingHistoryApi.as_view(), name="api-rating-history"),
]
