"""API of the rating parameters (federation staff), included at ``/api/ratings/parameters/``
(``ratings.urls_api``); see :mod:`ratings.parameters_api`."""
from django.urls import path

from ratings import parameters_api

urlpatterns = [
    path("", parameters_api.RatingParametersApi.as_view(), name="api-rating-parameters"),
    path("<int:pk>/adopt/", parameters_api.RatingParametersAdoptApi.as_view(), name="api-rating-parameters-adopt"),
    path("revert/", parameters_api.RatingParametersRevertApi.as_view(), name="api-rating-parameters-revert"),
]
