"""Staff pages of the rating parameters, included at ``/ratings/parameters/`` (``ratings.urls``);
see :mod:`ratings.parameters_views`."""
from django.urls import path

from ratings import parameters_views

urlpatterns = [
    path("", parameters_views.parameters_page, name="rating-parameters"),
    path("new/", parameters_views.parameters_create, name="rating-parameters-create"),
    path("<int:pk>/adopt/", parameters_views.parameters_adopt, name="rating-parameters-adopt"),
    path("revert/", parameters_views.parameters_revert, name="rating-parameters-revert"),
]
