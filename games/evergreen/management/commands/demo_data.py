"""Demo users and demo games in different phases, for ``make run``.

Idempotent: users are found by e-mail, and the games are made only when none of the
demo users has a seat anywhere yet (``--reset`` deletes their games and makes new ones).
Every move is played through ``games.services`` by the computer players of
``games.evergreen.rules.bots``, exactly as a person's moves would be.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sites.models import Site
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games import services
from games.evergreen import rules
from games.evergreen.rules.bots import make_bot
from games.models import Game, Player
from games.verdant import demo as verdant_demo

DEMO_PASSWORD = "evergreen-demo"
ADMIN_PASSWORD = "evergreen-admin"

# (username, e-mail, display name, password, staff)
DEMO_USERS: list[tuple[str, str, str, str, bool]] = [
    ("demo", "demo@example.org", "Demo", DEMO_PASSWORD, False),
    ("rowan", "rowan@example.org", "Rowan", DEMO_PASSWORD, False),
    ("hazel", "hazel@example.org", "Hazel", DEMO_PASSWORD, False),
    ("admin", "admin@example.org", "Admin", ADMIN_PASSWORD, True),
]
MOVE_LIMIT = 400

Predicate = Callable[[rules.GameState], bool]


class Command(BaseCommand):
    help = "Create demo users (see the README) and demo games; safe to run again."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--reset",
            action="store_true",
            help="Delete the demo users' games and make new ones; reset their passwords.",
        )
        parser.add_argument(
            "--bot",
            choices=["greedy", "random"],
            default="greedy",
            help="The computer player who makes everyone's moves (random is quicker).",
        )

    def handle(self, *args: Any, reset: bool = False, bot: str = "greedy", **options: Any) -> None:
        with transaction.atomic():
            users = {row[0]: self.user(*row, reset=reset) for row in DEMO_USERS}
            self.site()
            players = [users[name] for name in ("demo", "rowan", "hazel")]
            existing = Game.objects.filter(seats__user__in=players)
            if reset:
                Game.objects.filter(pk__in=existing.values("pk")).delete()
            if existing.exists():
                self.stdout.write("Demo games are there already (use --reset to make new ones).")
            else:
                self.games(users["demo"], users["rowan"], users["hazel"], bot)
        self.stdout.write("Demo users (e-mail / password):")
        for _name, email, display, password, staff in DEMO_USERS:
            role = " (staff: /admin/)" if staff else ""
            self.stdout.write(f"  {email} / {password}  {display}{role}")

    def user(
        self, username: str, email: str, display: str, password: str, staff: bool, *, reset: bool
    ) -> Any:
        User = get_user_model()
        user = User.objects.filter(email__iexact=email).first()
        if user is None:
            taken = set(
                User.objects.filter(username__startswith=username).values_list(
                    "username", flat=True
                )
            )
            free = next(
                n for n in (username, *(f"{username}{k}" for k in range(2, 99))) if n not in taken
            )
            user = User.objects.create_user(username=free, email=email, password=password)
            user.is_staff = user.is_superuser = staff
            user.save(update_fields=["is_staff", "is_superuser"])
            player = Player.for_user(user)
            player.display_name = display
            player.save(update_fields=["display_name"])
        elif reset:
            user.set_password(password)
            user.save(update_fields=["password"])
        EmailAddress.objects.get_or_create(
            user=user, email=email, defaults={"verified": True, "primary": True}
        )
        return user

    def site(self) -> None:
        """Mails (password reset, verification) name the site, not ``example.com``."""
        Site.objects.filter(pk=settings.SITE_ID, domain="example.com").update(
            domain="127.0.0.1:8000", name="Evergreen"
        )

    def games(self, demo: Any, rowan: Any, hazel: Any, bot: str) -> None:
        # 1. Waiting for the demo user's pick, in the second season's Draft.
        game = services.create_game(demo, players=2, sun_start="E", days_per_move=3)
        services.join_game(game.pk, rowan)
        play(game, demo, bot, lambda s: s.season >= 2 and s.phase is rules.Phase.DRAFT)
        self.report(game, "waiting for Demo's pick")

        # 2. Mid-turn: the others have submitted their turns, Demo has not.
        game = services.create_game(demo, players=3, days_per_move=2)
        services.join_game(game.pk, rowan)
        services.join_game(game.pk, hazel)
        play(game, demo, bot, lambda s: s.round >= 3 and s.phase is rules.Phase.ACTION)
        self.report(game, "Demo's turn to play (Action phase)")

        # 3. Finished: Hazel, a computer player and Demo.
        game = services.create_game(hazel, players=3, computer_seats=1, bot=bot, sun_start="S")
        services.join_game(game.pk, demo)
        play(game, demo, bot, lambda s: False)
        self.report(game, "finished")

        # 4. Open in the lobby: Rowan and Hazel wait for a third player.
        game = services.create_game(rowan, players=3, sun_start="W", rated=True)
        services.join_game(game.pk, hazel)
        self.report(game, "open in the lobby")

        # 5. Verdant: one in progress on Demo's turn, one finished (games.verdant.demo).
        for game, what in verdant_demo.make_games(demo, rowan, hazel, bot):
            self.report(game, what)

    def report(self, game: Game, what: str) -> None:
        game.refresh_from_db()
        self.stdout.write(f"Demo game #{game.pk}: {what}.")


def play(game: Game, stop_for: Any, bot: str, until: Predicate) -> None:
    """Play bot moves for every seat until ``until(state)`` holds on ``stop_for``'s move.

    The others move first whenever they can, so the game stops where only ``stop_for``
    is awaited (or at the end of the game).
    """
    seats = {seat.position: seat for seat in game.seats.select_related("user")}
    mine = next(p for p, seat in seats.items() if seat.user_id == stop_for.pk)
    bots = {p: make_bot(bot, seed=game.pk * 10 + p) for p in seats}
    for _ in range(MOVE_LIMIT):
        game.refresh_from_db()
        state = game.engine_state()
        if state.is_over or (state.awaiting == (mine,) and until(state)):
            return
        position = next((p for p in state.awaiting if p != mine), state.awaiting[0])
        move = bots[position].choose(state, position)
        result = services.submit_move(game.pk, seats[position].user, move)
        if result.game.needs_closing:  # no worker runs yet: reveal the round here
            services.close_game_round(game.pk)
    raise CommandError(f"Demo game #{game.pk} did not reach its phase in {MOVE_LIMIT} moves.")
