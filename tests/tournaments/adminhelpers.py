"""The organizers' admin in the tests: its addresses, its messages and its actions."""

from __future__ import annotations

from typing import Any

from django.contrib.messages import get_messages
from django.urls import reverse

from tournaments.models import Event


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def admin_url(model: str, action: str = "changelist", *args: Any) -> str:
    return reverse(f"admin:tournaments_{model}_{action}", args=args)


def run_url(event: Event, operation: str) -> str:
    return reverse("admin:tournaments_event_run", args=[event.pk, operation])


def act(client: Any, model: str, action: str, *objects: Any) -> Any:
    return client.post(
        admin_url(model),
        {"action": action, "_selected_action": [str(o.pk) for o in objects], "post": "yes"},
        follow=False,
    )
