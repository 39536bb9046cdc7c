"""The daily challenge's rules, written once for the pages, the API and the tasks.

* Every UTC day each kind that can be played alone has one challenge: one seed for
  everyone (``days.seed_for``), the kind's default options, solo, no clock.
* A player starts it once per day and kind; starting again returns the same game.
* Only games finished within the challenge's UTC day make its leaderboard and the
  streaks. A game still unfinished when the day ends stays playable (nothing is taken
  from a player mid-game) but never joins the leaderboard: the board of a day is final
  once that day is over.
* Others' games and scores stay hidden from a player until they have finished their own
  game of that challenge (``can_see_others``); whoever did not take it up may look once
  the day is over, when it can no longer be started.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games import handoff, kinds, services
from games.kinds import GameKind, Refusal
from games.models import Game
from games.services import ServiceError

from . import days
from .models import ChallengeEntry, DailyChallenge

TARGET_TASK = "challenges.tasks.compute_target"


def challenge_kinds() -> list[GameKind]:
    """The kinds that have a daily challenge: every registered one that can be played solo."""
    return [kind for kind in kinds.kinds().values() if kind.min_players <= 1]


def challenge_kind(name: str) -> GameKind:
    """The kind called ``name`` if it has a daily challenge; else a 404 refusal."""
    for kind in challenge_kinds():
        if kind.name == name:
            return kind
    raise no_such_challenge()


def no_such_challenge() -> ServiceError:
    return ServiceError(_("There is no such daily challenge."), "no_such_challenge", 404)


def target_bot(kind: GameKind) -> str:
    """The computer player that sets the target: the kind's strongest (``strong``) if it
    has one, else its best (``default_bot``)."""
    return "strong" if "strong" in kind.bots else kind.default_bot


def todays(kind_name: str) -> DailyChallenge:
    """Today's challenge of the kind, made by whoever asks first (the seed does not depend
    on who that is); its target is computed by a task once this transaction commits."""
    kind = challenge_kind(kind_name)
    day = days.today()
    challenge = DailyChallenge.objects.filter(day=day, kind=kind.name).first()
    if challenge is not None:
        return challenge
    try:
        options = kind.check_setup(1, {})
    except Refusal as exc:  # a kind that cannot be dealt alone after all
        raise services.refused(exc) from exc
    try:
        with transaction.atomic():
            challenge = DailyChallenge.objects.create(
                day=day,
                kind=kind.name,
                seed=days.seed_for(day, kind.name),
                options=options,
                target_bot=target_bot(kind),
            )
    except IntegrityError:  # another request opened the day first: the same values
        return DailyChallenge.objects.get(day=day, kind=kind.name)
    schedule_target(challenge.pk)
    return challenge


def schedule_target(challenge_id: int) -> None:
    """Have a worker compute the target after this transaction commits (the search player
    takes a while: never inside a player's request)."""
    from celery import current_app

    task = current_app.tasks[TARGET_TASK]  # by name: the tasks import this module
    handoff.send_after_commit(task, challenge_id)


def on_day(day: date, kind_name: str) -> DailyChallenge | None:
    """The challenge of a past or present day, if anyone opened it."""
    kind = challenge_kind(kind_name)
    return DailyChallenge.objects.filter(day=day, kind=kind.name).first()


def entry_of(challenge: DailyChallenge, user: Any) -> ChallengeEntry | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return (
        ChallengeEntry.objects.select_related("game").filter(challenge=challenge, user=user).first()
    )


def start(user: Any, kind_name: str) -> tuple[ChallengeEntry, bool]:
    """The player's game of today's challenge, started now if they have none yet; and
    whether it was started by this call."""
    challenge = todays(kind_name)
    existing = entry_of(challenge, user)
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            game = services.create_game(
                user,
                kind=challenge.kind,
                players=1,
                options=dict(challenge.options),
                seed=challenge.seed,
            )
            entry = ChallengeEntry.objects.create(challenge=challenge, user=user, game=game)
    except IntegrityError:
        # The same player started it twice at once: the first game stands, this one was
        # rolled back with the failed row.
        return ChallengeEntry.objects.select_related("game").get(
            challenge=challenge, user=user
        ), False
    return entry, True


def finished_in_time(game: Game, challenge: DailyChallenge) -> bool:
    """Whether the game counts: finished (not aborted) within the challenge's UTC day."""
    return (
        game.status == Game.Status.FINISHED and days.finished_on(game.finished_at) == challenge.day
    )


def can_see_others(challenge: DailyChallenge, user: Any) -> bool:
    """Whether ``user`` may see the other players' games and scores of ``challenge``."""
    entry = entry_of(challenge, user)
    if entry is None:
        return days.is_over(challenge.day)
    return entry.game.is_finished


def require_sight(challenge: DailyChallenge, user: Any) -> None:
    """Refuse (403 ``challenge_unfinished``) to show the others' results too early."""
    if not can_see_others(challenge, user):
        raise ServiceError(
            _(
                "Finish your own game of this challenge first: until then the others' "
                "games stay hidden."
            ),
            "challenge_unfinished",
            403,
        )


def streak(user: Any, kind_name: str) -> int:
    """How many UTC days in a row, up to today (or up to yesterday while today's game is
    still open), the player finished the kind's challenge within its day."""
    if not getattr(user, "is_authenticated", False):
        return 0
    entries = ChallengeEntry.objects.filter(
        user=user, challenge__kind=kind_name, game__status=Game.Status.FINISHED
    ).values_list("challenge__day", "game__finished_at")
    done = {day for day, finished in entries if days.finished_on(finished) == day}
    day = days.today()
    if day not in done:
        day -= timedelta(days=1)
    count = 0
    while day in done:
        count += 1
        day -= timedelta(days=1)
    return count
