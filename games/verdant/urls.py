"""Verdant's own pages, added to the ``games`` URLs by the registry."""

from __future__ import annotations

from django.urls import path

from . import api, rules_page

urlpatterns = [
    path("rules/verdant/", rules_page.rules_page, name="verdant_rules"),
]

# Under /api/, in the "api" namespace.
api_urlpatterns = [
    path("games/<int:pk>/choices/", api.choices, name="verdant_choices"),
]
