"""Helpers for the Django tests (the named users are fixtures: ``tests/users.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client, TestCase
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import services
from games.models import Game, Player

PASSWORD = "correct-horse-battery-staple"


def make_user(name: str, *, staff: bool = False) -> Any:
    user = get_user_model().objects.create_user(
        username=name, email=f"{name}@example.org", password=PASSWORD, is_staff=staff
    )
    player, _ = Player.objects.get_or_create(
        user=user, defaults={"display_name": name.capitalize()}
    )
    if player.display_name != name.capitalize():
        player.display_name = name.capitalize()
        player.save(update_fields=["display_name"])
    return user


def client_for(user: Any | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def api_client_for(user: Any | None) -> APIClient:
    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def user_at(game: Game, position: int) -> Any:
    return game.seats.get(position=position).user


@contextmanager
def committed() -> Iterator[list[Any]]:
    """What the block writes, as if committed: on leaving it, the callbacks it left for
    ``transaction.on_commit`` run (and those they leave in turn), in production's order.

    A test runs inside a transaction that is never committed, so without this nothing
    scheduled for after the commit (closing a round, mails, ratings, tournaments' next
    steps) would happen. pytest-django's ``django_capture_on_commit_callbacks`` fixture
    is the same thing for a test body."""
    with TestCase.captureOnCommitCallbacks(execute=True) as callbacks:
        yield callbacks


def submit(game_id: int, user: Any, move: Any, **options: Any) -> services.SubmitResult:
    """``services.submit_move``, committed: what the move schedules has happened after it
    (a worker's closing of the round included, as the test settings run tasks eagerly)."""
    with committed():
        return services.submit_move(game_id, user, move, **options)


def play_until(game: Game, predicate: Any, bot_seed: int = 0, limit: int = 500) -> Game:
    """Play random legal moves through the services until ``predicate(state)`` holds
    (each move committed: see ``committed``)."""
    from games.evergreen.rules.bots import RandomBot

    bot = RandomBot(bot_seed)
    for _ in range(limit):
        game.refresh_from_db()
        state = game.engine_state()
        if predicate(state) or state.is_over:
            return game
        seat = state.awaiting[0]
        submit(game.pk, user_at(game, seat), bot.choose(state, seat))
    raise AssertionError("predicate never held")


def turn_text(*steps: Any, seat: int = 0) -> str:
    """The text of a turn being built on Evergreen's game page (the turn's JSON form, as
    the page's turn form carries it) after these steps: an Action letter, a timing
    (``before``, ``after``, ``none``), ``next``, and effects as ``(kind, (row, col))``."""
    from games.evergreen.rules.moves import POWER_EFFECTS
    from games.evergreen.turnbuilder import TurnBuilder

    kinds = [s[0] for s in steps if isinstance(s, tuple) and s[0] in POWER_EFFECTS]
    power = "lake" if "lake_grow" in kinds else (kinds[0] if kinds else "bud")
    return TurnBuilder(seat, power, tuple(steps)).encode()


class Clock:
    """A controllable ``timezone.now`` for tests of time-dependent behaviour."""

    def __init__(self, now: Any) -> None:
        self.now = now

    def __call__(self) -> Any:
        return self.now

    def advance(self, **kwargs: float) -> Any:
        from datetime import timedelta

        self.now += timedelta(**kwargs)
        return self.now

    @classmethod
    def installed(cls, monkeypatch: Any, now: Any) -> Clock:
        from django.utils import timezone

        clock = cls(now)
        monkeypatch.setattr(timezone, "now", clock)
        return clock


def marks_gone() -> None:
    """As some seconds later: the marks the fixtures' saves left (a user saved is
    forgotten for a while by ``games.usercache``, so nothing read meanwhile is kept) have
    gone."""
    from django.core.cache import cache

    cache.clear()


@contextmanager
def deactivated_between_reading_and_keeping(monkeypatch: Any, user: Any) -> Iterator[None]:
    """Inside the block, a lookup of users that reads the rows sees ``user`` deactivated
    and saved after it read them and before it keeps them (``usercache.values_of``)."""
    from games import usercache

    values_of = usercache.values_of

    def change_then_keep(found: Any) -> Any:
        user.is_active = False
        user.save()  # the change lands between reading the rows and keeping them
        return values_of(found)

    monkeypatch.setattr(usercache, "values_of", change_then_keep)
    yield
    monkeypatch.setattr(usercache, "values_of", values_of)


def tellings(monkeypatch: Any, kind_class: type) -> list[Any]:
    """The viewer of every telling of ``kind_class``'s log (its ``story_on``) from now on."""
    told: list[Any] = []
    kind_story_on = kind_class.story_on

    def counting(self: Any, record: Any, bookmark: Any, state: Any, viewer: Any, *rest: Any) -> Any:
        told.append(viewer)
        return kind_story_on(self, record, bookmark, state, viewer, *rest)

    monkeypatch.setattr(kind_class, "story_on", counting)
    return told
