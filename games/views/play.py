"""The game page and everything played on it: picks, turns built step by step, polling,
the replay and the record download.

Every view starts from ``game_for_viewer``; writes need a seat (else 403) and go through
``games.services``; the state reaches a template only through ``player_view`` and
``games.presenters``. A request made by htmx gets the play region back (``_play.html``),
any other request the whole page, so everything works without JavaScript.
"""

from __future__ import annotations

import hashlib
import uuid
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from evergreen import rules
from evergreen.rules.errors import RulesError
from evergreen.rules.targets import preview_board
from evergreen.rules.view import player_view

from .. import presenters, refusals, services, turnbuilder
from ..access import game_for_viewer
from ..models import Game, Seat
from ..ratelimit import RateLimited, check_move_rate
from ..turnbuilder import BuildError, TurnBuilder

POLL_SECONDS = 15


class PageError:
    """A refusal shown on the page: the engine's or the service's code and message."""

    def __init__(self, message: str, code: str, status: int = 400) -> None:
        self.message, self.code, self.status = message, code, status

    @classmethod
    def of(cls, exc: Exception) -> PageError:
        if isinstance(exc, services.ServiceError):
            return cls(exc.message, exc.code, exc.status)
        if isinstance(exc, RulesError):
            return cls(refusals.message(exc), exc.code, 400)
        raise exc


def _seated(pk: int, user: Any) -> tuple[Game, Seat]:
    game, seat = game_for_viewer(pk, user)
    if seat is None:
        raise PermissionDenied(_("You are not a player of this game."))
    return game, seat


def _names(game: Game) -> list[str]:
    return [seat.name for seat in sorted(game.seats.all(), key=lambda s: s.position)]


def _can_build(state: rules.GameState, position: int) -> bool:
    seat = state.seats[position]
    return state.phase is rules.Phase.ACTION and seat.card is not None and seat.turn is None


def _builder(state: rules.GameState, position: int, text: str | None) -> TurnBuilder:
    """The turn in progress read from ``text``; raises ``RulesError`` if the engine refuses it."""
    card = state.seats[position].card
    assert card is not None
    power = rules.load_edition(state.edition).cards[card].power
    builder = TurnBuilder.decode(position, power, text)
    turnbuilder.check(state, builder)
    return builder


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _page_url(pk: int, *, steps: str = "", focus: int | None = None) -> str:
    params = {k: v for k, v in (("turn", steps), ("focus", focus)) if v not in ("", None)}
    url = reverse("games:detail", args=[pk])
    return f"{url}?{urlencode(params)}" if params else url


# --- The page -----------------------------------------------------------------------------


def _context(
    request: HttpRequest,
    game: Game,
    seat: Seat | None,
    *,
    steps: str | None = None,
    builder: TurnBuilder | None = None,
    focus: int | None = None,
    error: PageError | None = None,
) -> dict[str, Any]:
    names = _names(game)
    position = seat.position if seat else None
    context: dict[str, Any] = {
        "game": game,
        "seat": seat,
        "names": names,
        "error": error,
        "version": game.version,
        "poll_seconds": POLL_SECONDS,
        "key": uuid.uuid4().hex,
        "steps": "",
        "view": None,
        "turn": None,
        **presenters.legend(),
    }
    if game.state is None:
        context["status"] = presenters.status_text(None, names, _status_key(game))
        context["seats"] = sorted(game.seats.all(), key=lambda s: s.position)
        context["can_join"] = (
            request.user.is_authenticated and seat is None and game.status == Game.Status.OPEN
        )
        context["poll"] = game.status == Game.Status.OPEN
        return context
    state = game.engine_state()
    edition = rules.load_edition(state.edition)
    view = player_view(state, position)
    planets = presenters.planets(edition, view, names)
    if position is not None and game.is_playable and _can_build(state, position):
        if builder is None:
            builder, stale = _builder_or_fresh(state, position, steps)
            error = error or stale
        planets[position] = _my_planet(state, edition, view, names, position, builder)
        card = presenters.card_info(edition, str(state.seats[position].card))
        level = turnbuilder.power_level(state, builder)
        context["turn"] = presenters.turn_panel(builder, card, level, planets[position])
        context["steps"] = builder.encode()
    elif position is not None and state.seats[position].turn is not None:
        planets[position] = _my_planet(state, edition, view, names, position, None)
    if focus is None or not 0 <= focus < len(planets):
        focus = position if position is not None else 0
    context.update(
        {
            "view": view,
            "viewer": position,
            "error": error,
            "status": presenters.status_text(view, names, _status_key(game)),
            "my_move": presenters.is_my_move(view),
            "season_name": presenters.season_name(view["season"]),
            "season_line": presenters.season_line(
                view, planets[focus].sun, planets[focus].next_sun
            ),
            "focus": focus,
            "main_planet": planets[focus],
            "other_planets": [p for p in planets if p.seat != focus],
            "pool": presenters.pool(edition, view),
            "ai_cards": presenters.cards(edition, view["ai_cards"]),
            "can_pick": game.is_playable
            and view["phase"] == "draft"
            and position is not None
            and view["to_pick"] == position,
            "fertility": presenters.fertility_zone(edition, view),
            "tracks": presenters.power_tracks(edition, view["seats"][focus]),
            "tracks_name": names[focus],
            "scores": presenters.scores(edition, view, names),
            "poll": not game.is_finished,
        }
    )
    context.update(_clocks(game, seat, state, view, edition))
    return context


def _clocks(
    game: Game,
    seat: Seat | None,
    state: rules.GameState,
    view: dict[str, Any],
    edition: rules.Edition,
) -> dict[str, Any]:
    """Deadlines, vacations, the time control and my standing order (only ever mine)."""
    now = timezone.now()
    position = seat.position if seat else None
    ranking = None
    if seat is not None and _can_rank(game, view, seat.position):
        key = services.round_key(state)
        stored = seat.standing_order if seat.standing_order_round == key else []
        ranking = presenters.ranking(edition, view, stored)
    return {
        "clocks": presenters.seat_clocks(game, game.seats.all(), position, now),
        "time_control": presenters.time_control(game, seat, now),
        "ranking": ranking,
    }


def _can_rank(game: Game, view: dict[str, Any], position: int) -> bool:
    """A standing order makes sense in the Draft before my pick comes (and before I picked)."""
    return (
        game.is_playable
        and view["phase"] == "draft"
        and view["to_pick"] != position
        and view["seats"][position]["card"] is None
        and bool(view["pool"])
    )


def _builder_or_fresh(
    state: rules.GameState, position: int, steps: str | None
) -> tuple[TurnBuilder, PageError | None]:
    """The turn in progress from the page address, or a fresh one saying why it was dropped."""
    try:
        return _builder(state, position, steps), None
    except RulesError as exc:
        reason = _("Your turn in progress no longer fits the game: %(reason)s") % {
            "reason": refusals.message(exc)
        }
        return _builder(state, position, ""), PageError(reason, exc.code)


def _my_planet(
    state: rules.GameState,
    edition: rules.Edition,
    view: dict[str, Any],
    names: list[str],
    position: int,
    builder: TurnBuilder | None,
) -> presenters.Planet:
    """My planet with the turn I am building (and its clickable spaces) or have submitted."""
    if builder is not None:
        board = turnbuilder.check(state, builder)
        targets = turnbuilder.spaces_now(state, builder)
    else:
        board = preview_board(state, position, state.seats[position].turn)
        targets = {}
    return presenters.planet(
        edition,
        board,
        view["sun"],
        view["next_sun"],
        seat=position,
        name=names[position],
        targets=targets,
        before=state.seats[position].board,
        preview="building" if builder is not None else "submitted",
    )


def _status_key(game: Game) -> str:
    return {
        Game.Status.OPEN: "open",
        Game.Status.ACTIVE: "active",
        Game.Status.FINISHED: "finished",
        Game.Status.ABORTED: "aborted",
    }[Game.Status(game.status)]


def _render(
    request: HttpRequest, game: Game, seat: Seat | None, *, status: int = 200, **kwargs: Any
) -> HttpResponse:
    context = _context(request, game, seat, **kwargs)
    htmx = request.htmx
    region = bool(htmx) and not htmx.history_restore_request
    template = "games/_play.html" if region else "games/detail.html"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


def _refused(request: HttpRequest, pk: int, exc: Exception, **kwargs: Any) -> HttpResponse:
    """The page (or region) as it is now, with the reason a write was refused."""
    error = PageError.of(exc)
    game, seat = game_for_viewer(pk, request.user)
    response = _render(request, game, seat, status=error.status, error=error, **kwargs)
    if isinstance(exc, RateLimited):
        response["Retry-After"] = str(exc.retry_after)
    return response


def _after_write(request: HttpRequest, pk: int, *, steps: str = "") -> HttpResponse:
    """htmx: the new region (and the address to come back to); otherwise redirect (303)."""
    url = _page_url(pk, steps=steps)
    if not request.htmx:
        return _see_other(url)
    game, seat = game_for_viewer(pk, request.user)
    response = _render(request, game, seat, steps=steps)
    response["HX-Replace-Url"] = url
    return response


def _see_other(url: str) -> HttpResponse:
    response = HttpResponse(status=303)
    response["Location"] = url
    return response


@require_GET
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    steps, focus = request.GET.get("turn"), _int(request.GET.get("focus"))
    key = _page_cache_key(request, pk, steps, focus)
    if key is not None:
        cached = cache.get(key)
        if cached is not None:
            response = HttpResponse(cached)
            patch_vary_headers(response, ("HX-Request",))
            return response
    game, seat = game_for_viewer(pk, request.user)
    response = _render(request, game, seat, steps=steps, focus=focus)
    if key is not None and response.status_code == 200:
        cache.set(key, response.content, settings.GAME_PAGE_CACHE_SECONDS)
    return response


def _page_cache_key(
    request: HttpRequest, pk: int, steps: str | None, focus: int | None
) -> str | None:
    """Where the rendered page for this viewer is cached, or None when it must be rendered.

    A page only changes when the game's version does, or as its countdowns tick: the key
    holds the version, the viewer (user, language, time zone, CSRF secret, since the page
    embeds a token), what was asked for, and the current minute. Pages with flash
    messages, or for a visitor without a CSRF cookie yet, are never cached.
    """
    seconds = getattr(settings, "GAME_PAGE_CACHE_SECONDS", 0)
    secret = request.META.get("CSRF_COOKIE")
    if not seconds or not secret or len(messages.get_messages(request)):
        return None
    with connection.cursor() as cursor:  # the hot path of a cache hit: no ORM
        cursor.execute(f"SELECT version FROM {Game._meta.db_table} WHERE id = %s", [pk])
        row = cursor.fetchone()
    if row is None:
        return None
    version = row[0]
    htmx = request.htmx
    region = bool(htmx) and not htmx.history_restore_request
    parts = (
        pk,
        version,
        getattr(request.user, "pk", None),
        translation.get_language(),
        timezone.get_current_timezone_name(),
        secret,
        steps or "",
        focus,
        region,
        int(timezone.now().timestamp() // 60),
    )
    return "game-page:" + hashlib.sha256(repr(parts).encode()).hexdigest()


@require_GET
def poll(request: HttpRequest, pk: int) -> HttpResponse:
    """204 while the game's version has not moved (one query); else the refreshed region."""
    version = Game.objects.filter(pk=pk).values_list("version", flat=True).first()
    if version is None:
        raise Http404("No such game")
    if str(version) == request.GET.get("version", ""):
        return HttpResponse(status=204)
    steps, focus = request.GET.get("turn", ""), _int(request.GET.get("focus"))
    if not request.htmx:
        return _see_other(_page_url(pk, steps=steps, focus=focus))
    game, seat = game_for_viewer(pk, request.user)
    return _render(request, game, seat, steps=steps, focus=focus)


# --- Writes ---------------------------------------------------------------------------------


def _key(request: HttpRequest) -> str | None:
    return request.POST.get("key", "").strip()[:80] or None


@require_POST
@login_required
def pick(request: HttpRequest, pk: int) -> HttpResponse:
    _seated(pk, request.user)
    version = _int(request.POST.get("version"))
    try:
        if version is None:
            raise services.ServiceError(
                _("This form is incomplete: reload the page and try again."), "bad_form"
            )
        check_move_rate(request)
        services.submit_move(
            pk,
            request.user,
            {"type": "pick", "card": request.POST.get("card", "")},
            idempotency_key=_key(request),
            expected_version=version,
        )
    except services.ServiceError as exc:
        return _refused(request, pk, exc)
    return _after_write(request, pk)


def _ranking_from(data: Any) -> list[str]:
    """The cards ranked in the form (``rank_<card>`` = 1, 2, …; blank: not ranked), in order.
    Which cards may be ranked is the service's to say."""
    ranked: list[tuple[int, str]] = []
    for name, value in data.items():
        if not name.startswith("rank_") or not value.strip():
            continue
        number = _int(value.strip())
        if number is None or number < 1:
            raise services.ServiceError(_("A rank is a whole number from 1 up."), "bad_rank")
        ranked.append((number, name.removeprefix("rank_")))
    if len({number for number, _card in ranked}) != len(ranked):
        raise services.ServiceError(_("Give each card a different rank."), "duplicate_rank")
    return [card for _number, card in sorted(ranked)]


@require_POST
@login_required
def ranking(request: HttpRequest, pk: int) -> HttpResponse:
    """My standing order for this round's Draft: the first ranked card still in the pool is
    taken for me as soon as my pick comes. ``clear`` removes it."""
    _seated(pk, request.user)
    try:
        order = [] if request.POST.get("clear") else _ranking_from(request.POST)
        services.set_standing_order(pk, request.user, order)
    except services.ServiceError as exc:
        return _refused(request, pk, exc)
    return _after_write(request, pk)


@require_POST
@login_required
def turn_builder(request: HttpRequest, pk: int) -> HttpResponse:
    """One step of the turn in progress: checked by the engine, nothing stored."""
    game, seat = _seated(pk, request.user)
    steps = request.POST.get("steps", "")
    state = game.engine_state() if game.is_playable else None
    if state is None or not _can_build(state, seat.position):
        error = services.Conflict(_("You have no turn to build now."), "no_turn_to_build")
        return _refused(request, pk, error)
    try:
        builder = _builder(state, seat.position, steps)
    except RulesError as exc:
        return _refused(request, pk, exc, steps="")
    try:
        builder = turnbuilder.step(state, builder, request.POST.get("step", ""))
    except RulesError as exc:
        return _render(request, game, seat, status=400, builder=builder, error=PageError.of(exc))
    return _after_write(request, pk, steps=builder.encode())


@require_POST
@login_required
def submit_turn(request: HttpRequest, pk: int) -> HttpResponse:
    game, seat = _seated(pk, request.user)
    steps = request.POST.get("steps", "")
    try:
        state = game.engine_state() if game.state is not None else None
        if state is not None and _can_build(state, seat.position):
            turn = _builder(state, seat.position, steps).final_turn()
            if turn is None:
                raise BuildError(_("Choose your Action first."), "choose_action")
            move: rules.Move | dict[str, Any] = turn
        else:
            # Not this seat's turn to build: the service says why (or repeats an earlier
            # submission with the same idempotency key).
            move = services.earlier_move(pk, request.user, _key(request)) or {
                "type": "turn",
                "action": "D",
            }
        check_move_rate(request)
        services.submit_move(pk, request.user, move, idempotency_key=_key(request))
    except (services.ServiceError, RulesError) as exc:
        return _refused(request, pk, exc, steps=steps)
    return _after_write(request, pk)


# --- Replay and record ----------------------------------------------------------------------


@require_GET
def replay(request: HttpRequest, pk: int) -> HttpResponse:
    """The game after move N (``?move=N``) as the viewer may see it."""
    game, seat = game_for_viewer(pk, request.user)
    position = seat.position if seat else None
    context: dict[str, Any] = {
        "game": game,
        "started": game.state is not None,
        **presenters.legend(),
    }
    if game.state is None:
        return render(request, "games/replay.html", context)
    record = game.record()
    names = list(record.players)
    edition = rules.load_edition(record.edition)
    total = len(record.moves)
    number = _int(request.GET.get("move"))
    number = total if number is None else max(0, min(number, total))
    states = record.states()
    state = next(states)
    for _move in range(number):
        state = next(states)
    view = player_view(state, position)
    context.update(
        {
            "view": view,
            "number": number,
            "total": total,
            "previous": max(number - 1, 0),
            "next": min(number + 1, total),
            "moves": [
                (k, presenters.describe_move(edition, move, names))
                for k, move in enumerate(record.moves, start=1)
            ],
            "current_move": presenters.describe_move(edition, record.moves[number - 1], names)
            if number
            else _("The game is set up."),
            "planets": presenters.planets(edition, view, names),
            "pool": presenters.pool(edition, view),
            "ai_cards": presenters.cards(edition, view["ai_cards"]),
            "fertility": presenters.fertility_zone(edition, view),
            "scores": presenters.scores(edition, view, names),
            "season_name": presenters.season_name(view["season"]),
            "status": presenters.status_text(
                view, names, "finished" if view["phase"] == "over" else "active"
            ),
        }
    )
    return render(request, "games/replay.html", context)


@require_GET
def record(request: HttpRequest, pk: int) -> HttpResponse:
    """The game record as a JSON download (no seed and no unrevealed turns while it runs)."""
    game, seat = game_for_viewer(pk, request.user)
    if game.state is None:
        raise Http404("This game has not started: it has no record yet.")
    data = presenters.record_for_viewer(
        game.record(),
        game.engine_state(),
        seat.position if seat else None,
        finished=game.is_finished,
    )
    response = JsonResponse(data, json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="evergreen-game-{game.pk}.json"'
    return response
