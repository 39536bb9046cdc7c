"""Calls to the shared cache counted by a test: one list of keys per call (``counted``),
and a request answered through ``games.handoff`` with its response sent later
(``answered``, ``response_sent``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.core.signals import request_finished
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory

from games import handoff


def counted(monkeypatch: pytest.MonkeyPatch, one: str, many: str) -> list[list[str]]:
    """The keys of each call of the cache's method ``one`` (a key) or ``many`` (keys, or a
    dict by key) from now on, one list a call. The test cache's ``many`` calls ``one``
    key by key: those count as its one call."""
    calls: list[list[str]] = []
    call_one, call_many = getattr(cache, one), getattr(cache, many)
    within_many = []

    def counted_one(key: str, *args: Any, **kwargs: Any) -> Any:
        if not within_many:
            calls.append([key])
        return call_one(key, *args, **kwargs)

    def counted_many(keys: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(list(keys))
        within_many.append(True)
        try:
            return call_many(keys, *args, **kwargs)
        finally:
            within_many.pop()

    monkeypatch.setattr(cache, one, counted_one)
    monkeypatch.setattr(cache, many, counted_many)
    return calls


def answered(view: Callable[[], None]) -> None:
    """A request whose view runs ``view``, answered through the middleware (its response
    not yet sent: ``response_sent``)."""

    def get_response(request: HttpRequest) -> HttpResponse:
        view()
        return HttpResponse()

    handoff.HandOffMiddleware(get_response)(RequestFactory().get("/"))


def response_sent() -> None:
    request_finished.send(sender=None)  # what a WSGI server's close() of the response sends
