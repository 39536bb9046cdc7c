"""The demo_events command: a demo club with a Swiss under way, made once."""

from __future__ import annotations

from io import StringIO
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.evergreen.management.commands.demo_events import CLUB_SLUG
from games.models import Game
from tests.tournaments.tourhelpers import event_with, make_players
from tournaments import results, services
from tournaments.models import Club, Event, Round, Table


def run(*args: str) -> str:
    out = StringIO()
    call_command("demo_events", *args, "--bot=random", stdout=out)
    return out.getvalue()


def test_reset_makes_a_club_with_a_running_swiss_waiting_for_demo_and_again_changes_nothing(
    alice: Any,
) -> None:
    # An earlier demo club (made by hand here), with a game under way: --reset replaces it.
    old_club = services.create_club(alice, "Old demo", slug=CLUB_SLUG)
    old = event_with(
        alice, make_players(2, "old"), club=old_club, rounds=1, table_size=2, min_table_size=2
    )
    services.start_event(old, alice)
    old_games = set(Game.objects.values_list("pk", flat=True))
    assert old_games

    out = run("--reset")
    assert old_games.isdisjoint(Game.objects.values_list("pk", flat=True))
    club = Club.objects.get(slug=CLUB_SLUG)
    assert club.name == "Sunday Gardeners"
    rowan = get_user_model().objects.get(email="rowan@example.org")
    assert club.is_organizer(rowan)
    event = Event.objects.get(club=club)
    assert event.status == Event.Status.RUNNING and event.current_round == 2
    assert Round.objects.get(event=event, number=1).status == Round.Status.FINISHED
    demo = get_user_model().objects.get(email="demo@example.org")
    table = Table.objects.get(round__event=event, round__number=2, game__seats__user=demo)
    state = table.game.engine_state()
    seat = table.game.seats.get(user=demo).position
    assert state.awaiting == (seat,)
    rows = results.event_standings(event)
    assert len(rows) == 6 and sum(r.points for r in rows) == 2 * 3  # two tables of 3
    assert "Autumn Swiss is in round 2" in out

    games = set(Game.objects.values_list("pk", flat=True))
    assert "there already" in run()
    assert set(Game.objects.values_list("pk", flat=True)) == games
    assert Event.objects.filter(club__slug=CLUB_SLUG).count() == 1
