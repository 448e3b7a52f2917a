from django.urls import path

from ratings import views

urlpatterns = [path("", views.rating_list, name="rating-list")]
