"""The daily challenge's API under /api/ (names in the "challenges_api" namespace)."""

from django.urls import path

from . import api

app_name = "challenges_api"

urlpatterns = [
    path("challenges/", api.challenges, name="challenges"),
    path("challenges/<slug:kind>/", api.challenge, name="challenge"),
    path("challenges/<slug:kind>/start/", api.start, name="start"),
    path("challenges/<slug:kind>/leaderboard/", api.leaderboard, name="leaderboard"),
]
