"""A demo club running a Swiss event, for ``make run`` (after ``demo_data``).

Idempotent: nothing is made when the demo club exists (``--reset`` deletes it, its
events and their games, and makes them again). Every move is played through
``games.services`` by computer players and every round is seated through
``tournaments.services``, exactly as in a real event.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand
from django.db import transaction

from games.evergreen import rules
from games.evergreen.management.commands.demo_data import DEMO_PASSWORD, DEMO_USERS, play
from games.evergreen.management.commands.demo_data import Command as DemoData
from games.models import Game, Player
from tournaments import services
from tournaments.models import Club, Event, Table

CLUB_SLUG = "sunday-gardeners"
# (username, e-mail, display name): club members who fill the event's tables.
MEMBERS = [
    ("ash", "ash@example.org", "Ash"),
    ("birch", "birch@example.org", "Birch"),
    ("cedar", "cedar@example.org", "Cedar"),
]


class Command(BaseCommand):
    help = "Create a demo club with a running Swiss event (see the README); safe to run again."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--reset", action="store_true", help="Delete the demo club and make it again."
        )
        parser.add_argument(
            "--bot",
            choices=["greedy", "random"],
            default="random",
            help="The computer player who makes everyone's moves (random is quicker).",
        )

    def handle(self, *args: Any, reset: bool = False, bot: str = "random", **options: Any) -> None:
        with transaction.atomic():
            existing = Club.objects.filter(slug=CLUB_SLUG).first()
            if existing is not None and reset:
                games = list(
                    Table.objects.filter(round__event__club=existing).values_list("game", flat=True)
                )
                existing.delete()
                Game.objects.filter(pk__in=games).delete()
                existing = None
            if existing is not None:
                self.stdout.write("The demo club is there already (use --reset to make it again).")
                return
            users = self.users()
            event = self.event(users, bot)
        self.stdout.write(
            f"Demo club /clubs/{CLUB_SLUG}/: {event.name} is in round {event.current_round}; "
            "rowan@example.org organizes it (admin: /admin/)."
        )

    def users(self) -> dict[str, Any]:
        """The demo users (made by ``demo_data`` already, unless it did not run) and the
        club's other members, who share the demo password (hashed once: it is slow)."""
        maker = DemoData()
        users = {
            name: maker.user(name, email, display, password, staff, reset=False)
            for name, email, display, password, staff in DEMO_USERS
        }
        User = get_user_model()
        hashed = make_password(DEMO_PASSWORD)
        for name, email, display in MEMBERS:
            user = User.objects.filter(email__iexact=email).first()
            if user is None:
                user = User.objects.create(username=name, email=email, password=hashed)
                player = Player.for_user(user)
                player.display_name = display
                player.save(update_fields=["display_name"])
            users[name] = user
        return users

    def event(self, users: dict[str, Any], bot: str) -> Event:
        organizer = users["rowan"]
        club = services.create_club(
            organizer,
            "Sunday Gardeners",
            "A friendly club: one move a day or so, a Swiss every season.",
            slug=CLUB_SLUG,
        )
        event = services.create_event(
            club,
            organizer,
            name="Autumn Swiss",
            description="Three rounds at tables of three; the bot finishes a timed-out seat.",
            rounds=3,
            table_size=3,
            min_table_size=3,
            days_per_move=3,
            rated=True,
            bye_points=1.0,
        )
        services.open_registration(event, organizer)
        players = ["demo", "rowan", "hazel", *(name for name, _e, _d in MEMBERS)]
        for name in players:
            services.register(event, users[name])
        services.start_event(event, organizer)
        # Round 1 played out; round 2 seated and under way, waiting for Demo's move.
        for table in current_tables(event):
            stop_for = table.game.seats.order_by("position")[0].user
            play(table.game, stop_for, bot, lambda state: False)
        services.advance(event.pk)  # what the task does after the last game (no worker yet)
        demo = users["demo"]
        for table in current_tables(event):
            seats = list(table.game.seats.order_by("position"))
            mine = next((s.user for s in seats if s.user_id == demo.pk), None)
            if mine is not None:
                play(table.game, demo, bot, lambda state: state.phase is rules.Phase.DRAFT)
            else:
                play(table.game, seats[0].user, bot, lambda state: state.round >= 2)
        event.refresh_from_db()
        return event


def current_tables(event: Event) -> list[Table]:
    event.refresh_from_db()
    return list(
        Table.objects.filter(round__event=event, round__number=event.current_round)
        .select_related("game")
        .order_by("number")
    )
