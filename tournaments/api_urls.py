"""The clubs and events API under /api/ (names in the "tournaments_api" namespace)."""

from django.urls import path

from . import api

app_name = "tournaments_api"

urlpatterns = [
    path("clubs/", api.clubs, name="clubs"),
    path("clubs/<slug:slug>/", api.club, name="club"),
    path("events/", api.events, name="events"),
    path("events/<int:pk>/", api.event, name="event"),
    path("events/<int:pk>/standings/", api.standings, name="standings"),
    path("events/<int:pk>/rounds/", api.rounds, name="rounds"),
    path("events/<int:pk>/rounds/<int:number>/", api.round_detail, name="round"),
    path("events/<int:pk>/register/", api.register, name="register"),
    path("events/<int:pk>/withdraw/", api.withdraw, name="withdraw"),
]
