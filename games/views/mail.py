"""Links from e-mails that work without logging in: one-click unsubscribe and the iCal feed.

Unsubscribe links are signed and expire; the calendar address is the player's own secret
(``games.signed_links``). A forged, altered, expired or reset one changes nothing and gets
a clear answer.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods

from .. import signed_links
from ..models import Player


def _masked(email: str) -> str:
    name, _at, domain = email.partition("@")
    return f"{name[:1]}…@{domain}" if domain else email


@csrf_exempt  # RFC 8058 one-click POSTs come from mail providers, without a CSRF token
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET: say what will change and offer a button. POST (the button, or a mail
    provider's ``List-Unsubscribe=One-Click``): turn all e-mail off and say so."""
    link, user = signed_links.user_for_unsubscribe(token)
    if link is signed_links.Link.EXPIRED:
        return render(
            request,
            "games/unsubscribe.html",
            {"expired": True, "days": signed_links.unsubscribe_max_age().days},
            status=410,
        )
    if link is not signed_links.Link.GOOD or user is None:
        return render(
            request,
            "games/unsubscribe.html",
            {"invalid": True},
            status=400 if link is signed_links.Link.BAD else 404,
        )
    player = Player.for_user(user)
    with translation.override(player.language):
        if request.method == "POST":
            if player.email_mode != Player.EmailMode.OFF:
                player.email_mode = Player.EmailMode.OFF
                player.save(update_fields=["email_mode"])
            return render(
                request, "games/unsubscribe.html", {"done": True, "email": _masked(user.email)}
            )
        return render(
            request,
            "games/unsubscribe.html",
            {
                "email": _masked(user.email),
                "mode": player.get_email_mode_display(),
                "already_off": player.email_mode == Player.EmailMode.OFF,
            },
        )


@require_GET
def calendar(request: HttpRequest, token: str) -> HttpResponse:
    """The player's current deadlines as an iCalendar feed (a private, signed URL)."""
    user = signed_links.user_for_calendar(token)
    if user is None:
        return HttpResponse(
            _("This calendar address is not valid."),
            status=404,
            content_type="text/plain; charset=utf-8",
        )
    from ..notifications import calendar_feed

    response = HttpResponse(calendar_feed(user), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="evergreen-deadlines.ics"'
    response["Cache-Control"] = "private, max-age=300"
    response["X-Robots-Tag"] = "noindex"
    return response
