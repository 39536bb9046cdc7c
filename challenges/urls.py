from django.urls import path

from . import views

app_name = "challenges"

urlpatterns = [
    path("daily/", views.daily, name="daily"),
    path("daily/<slug:kind>/start/", views.start, name="start"),
    path("daily/<slug:kind>/<str:day>/", views.day_board, name="day"),
]
