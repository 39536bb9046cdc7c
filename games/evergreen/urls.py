"""Evergreen's own pages and steps, added to the ``games`` URLs by the registry (their
names, such as ``games:turn``, are the ones Evergreen's templates use)."""

from django.urls import path

from games.views import play

from . import api, rules_page, views

urlpatterns = [
    path("rules/", rules_page.rules_page, name="rules"),
    path("games/<int:pk>/pick/", play.move, name="pick"),
    path("games/<int:pk>/ranking/", views.ranking, name="ranking"),
    path("games/<int:pk>/turn/", views.turn_builder, name="turn"),
    path("games/<int:pk>/turn/submit/", views.submit_turn, name="submit_turn"),
]

# Under /api/, in the "api" namespace.
api_urlpatterns = [
    path("games/<int:pk>/targets/", api.targets, name="targets"),
    path("games/<int:pk>/pick/", api.pick, name="pick"),
    path("games/<int:pk>/turn/", api.turn, name="turn"),
]
