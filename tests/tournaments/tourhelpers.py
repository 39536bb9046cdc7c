"""Helpers for the event tests: clubs full of players, events, rounds played by bots,
and an independent recomputation of the standings from the Table and Seat rows."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from games import services as games
from games.models import Game, Seat
from tests.games.gamehelpers import committed, make_user
from tournaments import services
from tournaments.models import Club, Event, Round, Table


def make_players(count: int, prefix: str = "p") -> list[Any]:
    return [make_user(f"{prefix}{i:02d}") for i in range(1, count + 1)]


def club_of(organizer: Any, name: str = "Pine Club") -> Club:
    return services.create_club(organizer, name)


def event_with(
    organizer: Any, players: list[Any], club: Club | None = None, **fields: Any
) -> Event:
    """An event open for registration with ``players`` registered (in this order)."""
    club = club or club_of(organizer)
    fields.setdefault("name", "Spring Open")
    event = services.create_event(club, organizer, **fields)
    services.open_registration(event, organizer)
    for player in players:
        services.register(event, player)
    event.refresh_from_db()
    return event


def current_tables(event: Event) -> list[Table]:
    event.refresh_from_db()
    return list(
        Table.objects.filter(round__event=event, round__number=event.current_round)
        .select_related("game")
        .order_by("number")
    )


def finish_by_bots(game_id: int, bot: str = "random") -> None:
    """Hand every seat still played by a person to a bot: the game plays to its end."""
    for seat in Seat.objects.filter(game_id=game_id, bot="").order_by("position"):
        with committed():
            games.hand_seat_to_bot(game_id, seat.position, bot=bot)


def play_round(event: Event, bot: str = "random") -> Round | None:
    """Play every game of the current round to its end by bots, then take the step the
    Celery task takes after the last game (seat the next round or finish the event)."""
    for table in current_tables(event):
        finish_by_bots(table.game_id, bot)
        table.game.refresh_from_db()
        assert table.game.status == Game.Status.FINISHED
    return services.advance(event.pk)


def play_to_the_end(event: Event, bot: str = "random", limit: int = 20) -> None:
    for _ in range(limit):
        event.refresh_from_db()
        if event.status == Event.Status.FINISHED:
            return
        play_round(event, bot)
    raise AssertionError("the event never finished")


def default_points(
    scores: list[int], last: frozenset[int] = frozenset(), players=None
) -> list[float]:
    """Points by the default scheme (players at the table minus place, ties share),
    written independently of tournaments.standings."""
    n = len(scores)
    keys = list(range(n))
    ranked_out = {i for i in keys if players is not None and players[i] in last}
    effective = [(-1 if i in ranked_out else 0, scores[i]) for i in keys]
    points = []
    for i in keys:
        better = sum(1 for j in keys if effective[j] > effective[i])
        same = sum(1 for j in keys if effective[j] == effective[i])
        worth = [n - place for place in range(1, n + 1)]
        points.append(sum(worth[better : better + same]) / same)
    return points


def expected_points(event: Event) -> dict[int, float]:
    """Tournament points per user straight from the rows: tables of finished games by
    the default scheme, plus byes."""
    totals: dict[int, float] = defaultdict(float)
    for table in Table.objects.filter(round__event=event).select_related("game"):
        if table.game.status != Game.Status.FINISHED:
            continue
        seats = list(table.game.seats.order_by("position"))
        players = [s.user_id for s in seats]
        last = frozenset(d.user_id for d in table.timeout_decisions.all() if d.ranks_last)
        for user_id, pts in zip(
            players, default_points([s.score for s in seats], last, players), strict=True
        ):
            totals[user_id] += pts
    for round_ in event.rounds_played.all():
        for bye in round_.byes.all():
            totals[bye.user_id] += event.bye_points
    return dict(totals)
