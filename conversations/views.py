"""The pages of conversations: a game's chat panel (on the game page, polled by htmx, and
as a page of its own without JavaScript), a club's announcements and discussion, and the
forms every message carries (report, hide, mute, block).

An htmx request gets the panel back (or 204 to a poll when nothing changed); any other
request is redirected to the page (303), so everything works without JavaScript.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.access import game_for_viewer
from games.ratelimit import RateLimited
from games.services import ServiceError
from games.views import play
from tournaments.access import club_or_404

from . import editing, places, reading, services
from .models import EDIT_WINDOW_MINUTES, MAX_LENGTH, Message
from .places import Place
from .shields import kept_choices_of


def _htmx(request: HttpRequest) -> bool:
    """Whether htmx asked (django-htmx's ``request.htmx``), not restoring its history."""
    details = getattr(request, "htmx", None)
    return bool(details) and not details.history_restore_request  # type: ignore[union-attr]


def panel_context(
    request: HttpRequest, place: Place, error: ServiceError | None = None, notice: str = ""
) -> dict[str, Any]:
    user = request.user
    shields, blocked, mail = kept_choices_of(user)
    # A game nobody has written in yet (``Game.last_message_at``, set with every message)
    # has no messages to read: its panel costs no query for them.
    silent = place.game is not None and place.game.last_message_at is None
    rows = reading.window(place.messages) if place.may_read and not silent else []
    lines = reading.lines_of(rows, user, see_hidden=place.may_hide, shields=shields)
    return {
        "place": place,
        "lines": lines,
        "blocked": blocked,
        "stamp": reading.stamp_of([(m.pk, m.hidden, m.revision) for m in rows])
        if place.may_read or silent
        else reading.stamp(place.messages),
        "poll_seconds": play.POLL_SECONDS,  # the game page's polling rhythm
        "zone": timezone.get_current_timezone_name(),
        "mail_new_messages": mail,
        "error": error,
        "notice": notice,
        "max_length": MAX_LENGTH,
        "edit_minutes": EDIT_WINDOW_MINUTES,
    }


def _panel(
    request: HttpRequest,
    place: Place,
    *,
    status: int = 200,
    error: ServiceError | None = None,
    notice: str = "",
) -> HttpResponse:
    response = render(
        request,
        "conversations/_panel.html",
        panel_context(request, place, error, notice),
        status=status,
    )
    patch_vary_headers(response, ("HX-Request",))
    if isinstance(error, RateLimited):
        response["Retry-After"] = str(error.retry_after)
    return response


def _poll_or_panel(request: HttpRequest, place: Place) -> HttpResponse:
    """To a poll (``?stamp=``): 204 when nothing changed, else the messages; else the panel."""
    stamp = request.GET.get("stamp")
    if stamp is not None and _htmx(request):
        if stamp == reading.stamp(place.messages):
            return HttpResponse(status=204)
        response = render(request, "conversations/_log.html", panel_context(request, place))
        patch_vary_headers(response, ("HX-Request",))
        return response
    if _htmx(request):
        return _panel(request, place)
    return render(request, "conversations/chat_page.html", panel_context(request, place))


def _after(
    request: HttpRequest, place: Place, error: ServiceError | None = None, notice: str = ""
) -> HttpResponse:
    if _htmx(request):
        status = error.status if error else 200
        return _panel(request, place, status=status, error=error, notice=notice)
    if notice:
        messages.success(request, notice)
    if error is not None:
        return render(
            request,
            "conversations/chat_page.html",
            panel_context(request, place, error),
            status=error.status,
        )
    response = HttpResponse(status=303)
    response["Location"] = place.page_url if place.game is None else place.panel_url
    return response


@require_GET
def game_chat(request: HttpRequest, pk: int) -> HttpResponse:
    game, _seat = game_for_viewer(pk, request.user)
    return _poll_or_panel(request, places.for_game(request.user, game))


@require_POST
@login_required
def game_post(request: HttpRequest, pk: int) -> HttpResponse:
    game, _seat = game_for_viewer(pk, request.user)
    place = places.for_game(request.user, game)
    try:
        services.post_to_game(request.user, game, request.POST.get("text", ""))
    except ServiceError as exc:
        return _after(request, place, exc)
    return _after(request, place)


@require_GET
def club_talk(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_or_404(slug)
    panels = [
        panel_context(request, places.for_club(request.user, club, channel))
        for channel in (Message.Channel.ANNOUNCEMENTS, Message.Channel.DISCUSSION)
    ]
    return render(request, "conversations/club_talk.html", {"club": club, "panels": panels})


@require_GET
def club_panel(request: HttpRequest, slug: str, channel: str) -> HttpResponse:
    return _poll_or_panel(request, places.for_club(request.user, club_or_404(slug), channel))


@require_POST
@login_required
def club_post(request: HttpRequest, slug: str, channel: str) -> HttpResponse:
    club = club_or_404(slug)
    place = places.for_club(request.user, club, channel)
    try:
        services.post_to_club(request.user, club, channel, request.POST.get("text", ""))
    except ServiceError as exc:
        return _after(request, place, exc)
    return _after(request, place)


@require_POST
@login_required
def hide(request: HttpRequest, pk: int) -> HttpResponse:
    hidden = request.POST.get("hidden") != "0"
    return _on_message(
        request, pk, lambda user, message: services.hide(user, message, hidden=hidden)
    )


@require_POST
@login_required
def report(request: HttpRequest, pk: int) -> HttpResponse:
    place = places.from_key(request.user, request.POST.get("place", ""))
    try:
        services.report(request.user, services.message_or_404(pk), request.POST.get("reason", ""))
    except ServiceError as exc:
        return _after(request, place, exc)
    notice = _("Thank you: the report reached the people who look after this conversation.")
    return _after(request, place, notice=notice)


@require_POST
@login_required
def edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The author changes their message (within ``EDIT_WINDOW_MINUTES``)."""
    text = request.POST.get("new_text", "")
    return _on_message(request, pk, lambda user, message: editing.edit(user, message, text))


@require_POST
@login_required
def delete(request: HttpRequest, pk: int) -> HttpResponse:
    """The author deletes their message: "message deleted" stays in its place."""
    return _on_message(request, pk, editing.delete)


def _on_message(request: HttpRequest, pk: int, action: Callable[[Any, Any], Any]) -> HttpResponse:
    """Do ``action`` (user, message) and answer with the conversation it was done in."""
    place = places.from_key(request.user, request.POST.get("place", ""))
    try:
        action(request.user, services.message_or_404(pk))
    except ServiceError as exc:
        return _after(request, place, exc)
    return _after(request, place)


@require_POST
@login_required
def shield(request: HttpRequest, pk: int) -> HttpResponse:
    place = places.from_key(request.user, request.POST.get("place", ""))
    try:
        services.shield(request.user, pk, request.POST.get("kind") or None)
    except ServiceError as exc:
        return _after(request, place, exc)
    return _after(request, place)


@require_POST
@login_required
def mail_choice(request: HttpRequest) -> HttpResponse:
    place = places.from_key(request.user, request.POST.get("place", ""))
    services.set_mail(request.user, request.POST.get("new_messages") == "1")
    return _after(request, place)
