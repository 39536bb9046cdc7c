"""Evergreen's own pages and steps, added to the ``games`` URLs by the registry (their
names, such as ``games:turn``, are the ones Evergreen's templates use)."""

from django.urls import path

from games.views import play

from . import rules_page, views

urlpatterns = [
    path("rules/", rules_page.rules_page, name="rules"),
    path("games/<int:pk>/pick/", play.move, name="pick"),
    path("games/<int:pk>/ranking/", views.ranking, name="ranking"),
    path("games/<int:pk>/turn/", views.turn_builder, name="turn"),
    path("games/<int:pk>/turn/submit/", views.submit_turn, name="submit_turn"),
]
