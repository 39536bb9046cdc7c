"""A site of one page for ``test_handoff``: the page hands a task to the workers."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import include, path

from games import handoff

# What the test hands off (a stand-in for a Celery task): set by the test before it asks.
task: Any = None


def hand_off(request: HttpRequest) -> HttpResponse:
    handoff.send_after_commit(task, "from the page")
    return HttpResponse("handed off")


# The site's own addresses too: its middleware reverses some of them.
urlpatterns = [path("hand-off/", hand_off), path("", include("evergreen.urls"))]
