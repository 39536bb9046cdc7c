"""Helpers of the translation tests: the languages, a player's language, games and a
club world in known states."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from games import services
from games.models import Game, Player
from tests.games.gamehelpers import play_until

LANGUAGES = ("de", "fr", "ru")


def speak(user: Any, language: str, time_zone: str = "UTC") -> None:
    Player.objects.filter(user=user).update(language=language, time_zone=time_zone)
    user.refresh_from_db()


def two_player_game(alice: Any, bob: Any, **options: Any) -> Game:
    game = services.create_game(alice, players=2, **options)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    return game


# Names of the club and events the tournament tests make: not English, so they never hide
# a leftover (``leftovers`` spares them as names).
CLUB_NAMES = {"zorblax", "quorvin"}


def tournament(organizer: Any, *members: Any, newcomer: Any = None) -> SimpleNamespace:
    """An invite-only club with ``members``, a Swiss event of 2-player tables (rated, three
    players: a bye) whose round 1 is played and adjudicated and round 2 seated, a league
    season open for registration, a draft event, and ``newcomer``'s request to join."""
    from games import ratings
    from tournaments import services as events
    from tournaments.models import Event, Table

    club = events.create_club(organizer, "Zorblax", "Zorblax", invite_only=True)
    for member in members:
        events.join_by_invite(club.invite_code, member)
    if newcomer is not None:
        events.request_to_join(club, newcomer, "Quorvin")
    swiss = events.create_event(
        club, organizer, name="Quorvin", format=Event.Format.SWISS, rounds=3, table_size=2,
        min_table_size=2, rated=True, bye_points=1, vacation_limit_days=5,
        tiebreaks=["opponents", "score"],
    )  # fmt: skip
    events.open_registration(swiss, organizer)
    for player in (organizer, *members):
        events.register(swiss, player)
    events.start_event(swiss, organizer)
    for table in Table.objects.filter(round__event=swiss).select_related("game"):
        play_until(table.game, lambda s: s.season >= 2)
        events.adjudicate_table(table, organizer)
        ratings.rate_game(table.game_id)
    events.seat_next_round(swiss, organizer)
    league = events.create_event(
        club, organizer, name="Quorvin 2", format=Event.Format.LEAGUE, table_size=2,
        min_table_size=2, division_size=4, promote=1, relegate=1, timeout_policy="last",
        timeouts_before_decision=2, vacation_limit_days=0,
    )  # fmt: skip
    events.open_registration(league, organizer)
    events.register(league, organizer)
    draft = events.create_event(
        club, organizer, name="Quorvin 3", format=Event.Format.KNOCKOUT, table_size=4,
        min_table_size=2, knockout_advance=2,
    )  # fmt: skip
    swiss.refresh_from_db()
    return SimpleNamespace(club=club, swiss=swiss, league=league, draft=draft)
