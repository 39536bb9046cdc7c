"""The landing page, the lobby (open games, create, join, invitations) and "My games"."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.db.models import Prefetch, QuerySet
from django.db.models.fields.json import KT
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from conversations.services import set_spectators_read

from .. import kinds, services
from ..access import game_for_viewer
from ..forms import CreateGameForm
from ..models import Game, Seat

FINISHED_SHOWN = 50


def _seats() -> Prefetch[Any]:
    return Prefetch("seats", queryset=Seat.objects.select_related("user__player"))


def invite_url(request: HttpRequest, game: Game) -> str:
    return request.build_absolute_uri(reverse("games:invite", args=[game.invite_code]))


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    open_games = Game.objects.filter(status=Game.Status.OPEN).count()
    kind = kinds.get(kinds.default_name())
    context = {"open_games": open_games, "showcase_template": kind.showcase_template}
    if kind.showcase_template:
        context.update(head_template=kind.head_template, **kind.showcase_context())
    return render(request, "games/home.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def try_solo(request: HttpRequest) -> HttpResponse:
    """One click from the home page: a solo game of the default game, opened at once.

    A GET (where signing up or in leads back to) asks for that click; only a POST creates.
    """
    if request.method != "POST":
        return render(request, "games/try_solo.html")
    try:
        game = services.create_game(request.user, players=1)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("games:home")
    return redirect(game)


@require_safe
def lobby(request: HttpRequest) -> HttpResponse:
    games = (
        Game.objects.filter(status=Game.Status.OPEN)
        .select_related("created_by__player")
        .prefetch_related(_seats())
        .order_by("-created_at")
    )
    page = Paginator(games, 25).get_page(request.GET.get("page"))
    rows = []
    for game in page:
        seats = list(game.seats.all())
        kind = kinds.of(game)
        rows.append(
            {
                "game": game,
                "title": kind.title,
                "options": kind.lobby_options(game),
                "taken": sum(not seat.is_open for seat in seats),
                "bots": sum(bool(seat.bot) for seat in seats),
                "names": [seat.name for seat in seats if not seat.is_open],
                "mine": request.user.is_authenticated
                and any(seat.user_id == request.user.pk for seat in seats),
            }
        )
    return render(request, "games/lobby.html", {"page": page, "rows": rows})


@login_required
def create(request: HttpRequest) -> HttpResponse:
    form = CreateGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            game = services.create_game(
                request.user,
                kind=data["kind"] or None,
                players=data["players"],
                computer_seats=data["computer_seats"],
                bot=data["bot"],
                sun_start=data["sun_start"],
                rated=data["rated"],
                days_per_move=data["days_per_move"],
                hours_per_move=data["hours_per_move"],
                time_bank_hours=data["time_bank_hours"],
                timeout_policy=data["timeout_policy"],
                options=form.kind_options(),
            )
        except services.ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            set_spectators_read(game, data["chat_spectators"])
            if game.status == Game.Status.OPEN:
                url = invite_url(request, game)
                messages.success(
                    request,
                    format_html(
                        '{} <a href="{}">{}</a>',
                        _("Game created. Invite players with this link:"),
                        url,
                        url,
                    ),
                )
            else:
                messages.success(request, _("Game created: it has started."))
            return redirect(game)
    return render(request, "games/create.html", {"form": form})


@require_POST
@login_required
def join(request: HttpRequest, pk: int) -> HttpResponse:
    game, _seat = game_for_viewer(pk, request.user)
    try:
        services.join_game(game.pk, request.user)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("games:lobby")
    messages.success(request, _("You have joined %(game)s.") % {"game": game})
    return redirect(game)


def invite(request: HttpRequest, code: str) -> HttpResponse:
    game = (
        Game.objects.filter(invite_code=code)
        .select_related("created_by__player")
        .prefetch_related(_seats())
        .first()
    )
    if game is None:
        return render(request, "games/invite.html", {"game": None}, status=404)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            services.join_game(game.pk, request.user, invite_code=code)
        except services.ServiceError as exc:
            messages.error(request, exc.message)
            return redirect("games:invite", code=code)
        messages.success(request, _("You have joined %(game)s.") % {"game": game})
        return redirect(game)
    seats = list(game.seats.all())
    kind = kinds.of(game)
    context = {
        "game": game,
        "title": kind.title,
        "options": kind.lobby_options(game),
        "seats": seats,
        "taken": sum(not seat.is_open for seat in seats),
        "mine": request.user.is_authenticated
        and any(seat.user_id == request.user.pk for seat in seats),
        "next": request.get_full_path(),
    }
    return render(request, "games/invite.html", context)


# --- My games ---------------------------------------------------------------------------


@dataclass
class GameRow:
    game: Game
    seat: Seat | None
    seats: list[Seat]
    my_move: bool
    awaiting_names: list[str]
    winner: Seat | None = None
    title: str | None = None
    deadline: Any = None  # the soonest deadline of the seats that must act


def with_projection(games: QuerySet[Game]) -> QuerySet[Game]:
    """Only the parts of the snapshot that say who must move and who won, as each game
    kind names them (``GameKind.projection``).

    The snapshot itself (every board, the deck) is never loaded for this list: the
    database hands over a few keys per game instead.
    """
    keys: dict[str, Any] = {}
    for kind in kinds.kinds().values():
        keys.update({name: KT(path) for name, path in kind.projection().items()})
    return games.defer("state").annotate(**keys)


def awaiting_positions(game: Game) -> tuple[int, ...]:
    """Who must move now, read from ``with_projection``'s keys by the game's kind."""
    if game.status != Game.Status.ACTIVE:
        return ()
    return kinds.of(game).awaiting_in(game)


def _row(game: Game, user: Any) -> GameRow:
    seats = list(game.seats.all())
    seat = next((s for s in seats if s.user_id == user.pk), None)
    awaiting = awaiting_positions(game)
    row = GameRow(
        game=game,
        seat=seat,
        seats=seats,
        my_move=seat is not None and seat.position in awaiting,
        awaiting_names=[s.name for s in seats if s.position in awaiting],
    )
    deadlines = [s.deadline for s in seats if s.position in awaiting and s.deadline]
    if row.my_move and seat is not None:
        row.deadline = seat.deadline
    elif deadlines:
        row.deadline = min(deadlines)
    winner, title = kinds.of(game).winner_in(game)
    if game.status == Game.Status.FINISHED and winner is not None:
        row.winner = next((s for s in seats if s.position == winner), None)
        row.title = title
    return row


@require_safe
@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    assert request.user.is_authenticated  # login_required
    mine = Game.objects.filter(seats__user=request.user).prefetch_related(_seats())
    playing = [
        _row(game, request.user)
        for game in with_projection(mine.filter(status__lt=Game.Status.FINISHED)).order_by(
            "updated_at"
        )
    ]
    finished = [
        _row(game, request.user)
        for game in with_projection(mine.filter(status__gte=Game.Status.FINISHED)).order_by(
            "-finished_at", "-pk"
        )[:FINISHED_SHOWN]
    ]
    context = {
        "my_move": sorted(
            (row for row in playing if row.my_move),
            key=lambda row: (row.deadline is None, row.deadline or 0),
        ),
        "waiting": [row for row in playing if not row.my_move],
        "finished": finished,
        "finished_shown": FINISHED_SHOWN,
    }
    return render(request, "games/my_games.html", context)
