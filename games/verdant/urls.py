"""Verdant's own pages, added to the ``games`` URLs by the registry."""

from __future__ import annotations

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
