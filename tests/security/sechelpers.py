"""Games in every phase for the security tests, and a fingerprint of a game's stored state."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.evergreen import rules
from games.models import Game
from tests.games.gamehelpers import play_until, submit


def fixed_seed(monkeypatch: pytest.MonkeyPatch, seed: int = 20240917) -> None:
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: seed)


def draft_game(alice: Any, bob: Any) -> Game:
    """Alice (seat 0) and Bob (seat 1) in the first Draft, Alice to pick."""
    game = services.create_game(alice, players=2)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    return game


def hidden_pick_game(alice: Any, bob: Any) -> Game:
    """A Draft in which one seat has picked a card the others cannot see yet.

    (Picks are visible as cards leave the pool; what a seat holds is hidden until the
    Action phase reveals it.)"""
    game = draft_game(alice, bob)
    state = game.engine_state()
    seat = state.awaiting[0]
    user = alice if seat == 0 else bob
    submit(game.pk, user, rules.Pick(seat, state.pool[0]))
    game.refresh_from_db()
    return game


def turn_submitted_game(alice: Any, bob: Any) -> Game:
    """The Action phase of round 1: Bob has submitted a turn (planting at 3,3), Alice not."""
    game = play_until(draft_game(alice, bob), lambda s: s.phase is rules.Phase.ACTION)
    turn = {"type": "turn", "action": "D", "effects": [{"plant": [3, 3]}], "power": None}
    submit(game.pk, bob, turn)
    game.refresh_from_db()
    state = game.engine_state()
    assert state.seats[1].turn is not None and state.seats[0].turn is None
    return game


def solo_game(user: Any) -> Game:
    game = services.create_game(user, players=1)
    game.refresh_from_db()
    return game


def finished_game(alice: Any, bob: Any) -> Game:
    return play_until(draft_game(alice, bob), lambda s: s.is_over, limit=2000)


def open_game(user: Any) -> Game:
    return services.create_game(user, players=3)


def fingerprint(game_id: int) -> tuple[Any, ...]:
    """Everything a refused write must leave as it was."""
    from games.evergreen.models import FertilityCard
    from games.models import Move, Seat

    game = Game.objects.get(pk=game_id)
    return (
        game.version,
        game.status,
        game.moves_count,
        game.state,
        Move.objects.filter(game_id=game_id).count(),
        list(Seat.objects.filter(game_id=game_id).order_by("position").values()),
        list(FertilityCard.objects.filter(game_id=game_id).order_by("pk").values()),
    )


class Clubs:
    """Two clubs made as organizers make them (``tournaments.services``).

    ``organizer`` runs the public "Pine Club": a running Swiss event (Alice against Bob at
    round 1's one table, whose game is in its Action phase with Bob's turn in but not
    revealed), a draft event only organizers see, and Erin's pending join request.
    ``other_organizer`` runs the invite-only "Oak Club" with an event of its own. Pine's
    rows are made first: the first row of each tournaments model is Pine's.
    """

    def __init__(
        self, organizer: Any, other_organizer: Any, alice: Any, bob: Any, erin: Any
    ) -> None:
        from games.evergreen.rules.bots import RandomBot
        from tournaments import services as clubs
        from tournaments.models import Event, Table

        swiss = {
            "format": Event.Format.SWISS,
            "rounds": 2,
            "table_size": 2,
            "min_table_size": 2,
            "knockout_advance": 1,
        }
        self.club = clubs.create_club(organizer, "Pine Club", "The Pine club.")
        self.event = clubs.create_event(self.club, organizer, name="Spring Swiss", **swiss)
        clubs.open_registration(self.event, organizer)
        for player in (alice, bob):
            clubs.register(self.event, player)
        clubs.start_event(self.event, organizer)
        self.event.refresh_from_db()
        self.table = Table.objects.select_related("game").get(round__event=self.event)
        game = play_until(self.table.game, lambda s: s.phase is rules.Phase.ACTION)
        bob_seat = game.seats.get(user=bob).position
        submit(game.pk, bob, RandomBot(3).choose(game.engine_state(), bob_seat))
        game.refresh_from_db()
        self.game = game
        self.bob_seat = bob_seat
        self.draft = clubs.create_event(self.club, organizer, name="Autumn Draft", rounds=1)
        self.join_request = clubs.request_to_join(self.club, erin, "May I?")
        self.other_club = clubs.create_club(
            other_organizer, "Oak Club", "The Oak club.", invite_only=True
        )
        self.other_event = clubs.create_event(
            self.other_club, other_organizer, name="Oak Open", **swiss
        )
