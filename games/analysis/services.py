"""Asking for an analysis, running it, and the hint: every rule of them, once, for the
pages, the API and the task.

An analysis is stored once per game and player (a unique constraint; the user's row is
locked while the daily limit is counted, so two requests at once cannot both pass it).
The task appends each review with a conditional UPDATE on the count done so far, so a
task that runs twice, is retried or races another changes nothing the second time.
"""

from __future__ import annotations

import functools
from datetime import UTC, datetime, time
from typing import Any

from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import ForeignObjectRel
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import fragments, handoff, kinds
from games.kinds import Analyst, Refusal
from games.models import Game, Seat
from games.rowsread import quoted_column, quoted_table
from games.services import Conflict, ServiceError, not_a_player, refused

from .hints import record_hint
from .models import Analysis

RUN_TASK = "games.analysis.tasks.run_analysis"


class LimitReached(ServiceError):
    status = 429


class NotAllowed(ServiceError):
    status = 403


def analyst_of(game: Game) -> Analyst:
    """The game's analyst; refuses (``no_analysis``) for a kind that offers none."""
    analyst = kinds.of(game).analyst
    if analyst is None:
        raise ServiceError(_("This game offers no analysis."), "no_analysis")
    return analyst


def _seat(game: Game, user: Any) -> Seat:
    seat = None
    if getattr(user, "is_authenticated", False):
        seat = Seat.objects.filter(game=game, user_id=user.pk).first()
    if seat is None:
        raise not_a_player()
    return seat


def _today_start() -> datetime:
    return datetime.combine(timezone.now().date(), time.min, tzinfo=UTC)


def asked_today(user: Any) -> int:
    """Analyses ``user`` asked for since midnight UTC."""
    return Analysis.objects.filter(user_id=user.pk, created_at__gte=_today_start()).count()


def analysis_of(game: Game, user: Any) -> Analysis | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Analysis.objects.filter(game=game, user_id=user.pk).first()


def request_analysis(game_id: int, user: Any) -> tuple[Analysis, bool]:
    """The player's analysis of a finished game: the stored one, or a new one queued
    (True). Raises ``NotAPlayer``, ``ServiceError`` (``no_analysis``), ``Conflict``
    (``game_not_over``) or ``LimitReached`` (``analysis_daily_limit``); raises
    ``Game.DoesNotExist`` for no such game."""
    with transaction.atomic():
        game = Game.objects.get(pk=game_id)
        seat = _seat(game, user)
        analyst_of(game)
        if game.status != Game.Status.FINISHED:
            raise Conflict(
                _("A game is analysed once it is over: finish it first."), "game_not_over"
            )
        # The user's row serialises this user's requests: the count below stays true.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        analysis = Analysis.objects.filter(game=game, user_id=user.pk).first()
        if analysis is not None and analysis.status != Analysis.Status.FAILED:
            return analysis, False
        if analysis is None:
            limit = settings.ANALYSIS_DAILY_LIMIT
            if asked_today(user) >= limit:
                raise LimitReached(
                    ngettext(
                        "You may ask for %(limit)s analysis a day; ask again tomorrow (UTC).",
                        "You may ask for %(limit)s analyses a day; ask again tomorrow (UTC).",
                        limit,
                    )
                    % {"limit": limit},
                    "analysis_daily_limit",
                )
            total = game.moves.filter(seat=seat.position).count()
            analysis = Analysis.objects.create(
                game=game,
                user=user,
                seat=seat.position,
                budget=settings.ANALYSIS_BUDGET,
                total=total,
            )
        else:  # a failed run is tried again from where it stopped, not counted again
            analysis.status, analysis.error = Analysis.Status.QUEUED, ""
            analysis.save(update_fields=["status", "error"])
        _queue(analysis.pk)
    return analysis, True


def rerun(analysis_id: int) -> bool:
    """Queue a failed analysis again, from where it stopped (the admin's action); False,
    changing nothing, for one that has not failed. A conditional UPDATE: asked twice at
    once, it is queued once."""
    with transaction.atomic():
        queued = Analysis.objects.filter(pk=analysis_id, status=Analysis.Status.FAILED).update(
            status=Analysis.Status.QUEUED, error=""
        )
        if queued:
            _queue(analysis_id)
    return bool(queued)


def _queue(analysis_id: int) -> None:
    # Sent by the task's name: the tasks module imports the services, not the reverse.
    task = current_app.tasks[RUN_TASK]
    handoff.send_after_commit(task, analysis_id)


def run(analysis_id: int, *, limit: int | None = None) -> str:
    """Review the analysis' decisions not yet reviewed (``limit``: at most that many now),
    storing each at once; returns "done", "paused", "raced" (another run moved on) or
    "gone"."""
    analysis = Analysis.objects.select_related("game").filter(pk=analysis_id).first()
    if analysis is None:
        return "gone"
    if analysis.status == Analysis.Status.DONE:
        return "done"
    game = analysis.game
    kind = kinds.of(game)
    analyst = analyst_of(game)
    record = game.record()
    Analysis.objects.filter(pk=analysis_id, status=Analysis.Status.QUEUED).update(
        status=Analysis.Status.RUNNING
    )
    done, reviews, seen, steps = analysis.done, list(analysis.reviews), 0, 0
    for number, (state, move) in enumerate(
        zip(record.states(), record.moves, strict=False), start=1
    ):
        if kind.move_seat(move) != analysis.seat:
            continue
        seen += 1
        if seen <= done:
            continue  # reviewed by an earlier run
        if limit is not None and steps >= limit:
            return "paused"
        found = analyst.review(state, move, analysis.budget)
        if found is not None:
            reviews.append({"move": number, **found})
        if not Analysis.objects.filter(pk=analysis_id, done=done).update(
            done=done + 1, reviews=reviews
        ):
            return "raced"
        done, steps = done + 1, steps + 1
    Analysis.objects.filter(pk=analysis_id, done=done).exclude(status=Analysis.Status.DONE).update(
        status=Analysis.Status.DONE, total=done, finished_at=timezone.now()
    )
    return "done"


def fail(analysis_id: int, error: str = "") -> None:
    """Mark a run that broke, with why (for the admin): the page offers to try again (the
    reviews made are kept)."""
    Analysis.objects.filter(pk=analysis_id).exclude(status=Analysis.Status.DONE).update(
        status=Analysis.Status.FAILED, error=error[:2000]
    )


# The rows that put a game in an event, by the reverse relation their apps give Game (the
# platform imports neither app): a table of an event, a daily challenge's entry.
EVENT_RELATIONS = ("event_table", "challenge_entry")


def in_event(game: Game) -> bool:
    """Whether the game is played for a result others compare: a table of an event
    (``tournaments``' Table.game) or a daily challenge's game (``challenges``' entry)."""
    with connection.cursor() as cursor:
        cursor.execute(_in_event_sql(connection.vendor), [game.pk] * len(EVENT_RELATIONS))
        (found,) = cursor.fetchone()
    return bool(found)


@functools.cache
def _in_event_sql(vendor: str) -> str:
    """``in_event``'s query, written once per process: the ORM's, with its two joins, cost
    1.2-1.9 ms of CPU to compile on each new table's first look (a tenth of it)."""
    clauses = []
    for name in EVENT_RELATIONS:
        relation = Game._meta.get_field(name)
        assert isinstance(relation, ForeignObjectRel), name  # a row of another app's table
        table, column = quoted_table(relation.related_model), quoted_column(relation.field)
        clauses.append(f"EXISTS (SELECT 1 FROM {table} WHERE {column} = %s)")
    return "SELECT " + " OR ".join(clauses)


def hint(game_id: int, user: Any) -> dict[str, Any]:
    """The strongest player's suggestion for the asking player's current decision:
    ``move`` (its JSON) and ``text``; counted for the seat (``hints``), which everyone
    sees. Refused in rated and event games (``hint_not_allowed``), outside a running game
    (``game_not_active``), when the player has nothing to decide (``no_decision``); raises ``Game.DoesNotExist`` for no such game."""
    game = Game.objects.get(pk=game_id)
    seat = _seat(game, user)
    analyst = analyst_of(game)
    if game.rated or in_event(game):
        raise NotAllowed(_("Hints are only for unrated games outside events."), "hint_not_allowed")
    if not game.is_playable:
        raise Conflict(_("This game is not being played."), "game_not_active")
    try:
        move = analyst.hint(game.engine_state(), seat.position, settings.HINT_BUDGET)
    except Refusal as exc:
        raise refused(exc) from exc
    record_hint(game, seat.position)  # the others are told: the count is kept per seat
    return {"move": kinds.of(game).move_to_json(move), "text": analyst.describe(move)}


def hints_allowed(game: Game, seat: Seat | None) -> bool:
    """Whether the game page offers the hint button to ``seat``."""
    return bool(
        seat is not None
        and kinds.of(game).analyst is not None
        and game.is_playable
        and not game.rated
        and not kept_in_event(game)
    )


# ``in_event`` of the games this process has asked about, by game and invitation code (a
# number is unique only within one database): it never changes. Forgotten all at once
# past ``_KNOWN_MOST`` (a few MB).
_known: dict[tuple[int, str], bool] = {}
_KNOWN_MOST = 50_000


def kept_in_event(game: Game) -> bool:
    """``in_event``, kept in the cache under the game alone, not its version: it never
    changes (a game's table or challenge entry is written with it). Known in this process
    once asked; else one round trip; a query on a miss only, not once per version."""
    known = _known.get((game.pk, game.invite_code))
    if known is not None:
        return known
    where = f"game-in-event:{game.pk}"
    found = fragments.first_found([where])
    if found is not None:
        event = bool(found[1])
    else:
        event = in_event(game)
        fragments.keep(where, event)
    if len(_known) >= _KNOWN_MOST:
        _known.clear()
    _known[(game.pk, game.invite_code)] = event
    return event
