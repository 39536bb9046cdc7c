"""Helpers for the pages, admin, API and permissions tests of tournaments (no tests here).

Clubs and events are made through ``tournaments.services``, as organizers make them.
Games of a round end by adjudication (an organizer's ruling with the current scores),
after a few moves when the test needs scores that differ.
"""

from __future__ import annotations

from typing import Any

from games.evergreen.rules import GameState
from tests.games.gamehelpers import play_until
from tournaments import services
from tournaments.models import Club, Event, Table


def club_of(organizer: Any, name: str, *members: Any, invite_only: bool = False) -> Club:
    club = services.create_club(organizer, name, f"The {name} club.", invite_only=invite_only)
    for member in members:
        if invite_only:
            services.join_by_invite(club.invite_code, member)
        else:
            services.join_club(club, member)
    return club


def event_of(club: Club, organizer: Any, *players: Any, **settings: Any) -> Event:
    """A Swiss event of 2-player tables with registration open and ``players`` registered."""
    fields = {
        "name": "Autumn Swiss",
        "format": Event.Format.SWISS,
        "rounds": 2,
        "table_size": 2,
        "min_table_size": 2,
        "knockout_advance": 1,
        **settings,
    }
    event = services.create_event(club, organizer, **fields)
    services.open_registration(event, organizer)
    for player in players:
        services.register(event, player)
    event.refresh_from_db()
    return event


def started(event: Event, organizer: Any) -> Event:
    services.start_event(event, organizer)
    event.refresh_from_db()
    return event


def into_second_season(state: GameState) -> bool:
    return state.season >= 2


def end_round(event: Event, organizer: Any, *, play: bool = False) -> None:
    """End every unfinished game of the current round (after the first season if ``play``).

    The next round is not seated here: in tests the after-commit work of the services
    does not run (pytest-django's transaction never commits), so a test seats it itself.
    """
    event.refresh_from_db()
    for table in Table.objects.filter(
        round__event=event, round__number=event.current_round
    ).select_related("game", "round__event__club"):
        if table.game.is_finished:
            continue
        if play:
            play_until(table.game, into_second_season)
        services.adjudicate_table(table, organizer)
    event.refresh_from_db()
