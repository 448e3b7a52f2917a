"""Rating pages, included at ``/ratings/``."""
from django.urls import path

from ratings import views

urlpatterns = [
    path("", views.rating_list, name="rating-list"),
    path("events/<slug:slug>/", views.rating_event, name="rating-event"),
]
