"""The demo_data command: demo users with known passwords and games in three phases."""

from __future__ import annotations

from io import StringIO

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from games.evergreen import rules
from games.evergreen.management.commands.demo_data import ADMIN_PASSWORD, DEMO_PASSWORD, Command
from games.models import Game, Move, Player, Seat
from tests.games.gamehelpers import client_for


def run(*args: str, bot: str = "random") -> str:
    out = StringIO()
    call_command("demo_data", *args, f"--bot={bot}", stdout=out)
    return out.getvalue()


def demo_games() -> dict[str, list[Game]]:
    demo = get_user_model().objects.get(email="demo@example.org")
    found: dict[str, list[Game]] = {"pick": [], "turn": [], "finished": [], "open": []}
    for game in Game.objects.filter(kind="evergreen"):  # Verdant's: tests/verdant/site
        position = next((s.position for s in game.seats.all() if s.user_id == demo.pk), None)
        if game.status == Game.Status.OPEN:
            found["open"].append(game)
        elif game.status == Game.Status.FINISHED:
            found["finished"].append(game)
        elif game.engine_state().awaiting == (position,):
            phase = game.engine_state().phase
            found["pick" if phase is rules.Phase.DRAFT else "turn"].append(game)
    return found


class TestDemoData:
    def test_it_makes_games_in_the_three_phases_and_an_open_one(self, db):
        out = run(bot="greedy")
        games = demo_games()
        assert {kind: len(found) for kind, found in games.items()} == {
            "pick": 1,
            "turn": 1,
            "finished": 1,
            "open": 1,
        }
        turn = games["turn"][0].engine_state()
        assert turn.phase is rules.Phase.ACTION
        assert sum(s.turn is not None for s in turn.seats) == 2  # the others have played
        assert games["finished"][0].engine_state().outcome is not None
        assert "demo@example.org / evergreen-demo" in out

    def test_running_it_again_duplicates_nothing_and_reset_replaces_the_games(self, db):
        run()
        counts = (get_user_model().objects.count(), Game.objects.count(), Move.objects.count())
        first = set(Game.objects.values_list("pk", flat=True))
        out = run()
        assert (
            get_user_model().objects.count(),
            Game.objects.count(),
            Move.objects.count(),
        ) == counts
        assert "Demo games are there already" in out
        run("--reset")
        assert first.isdisjoint(Game.objects.values_list("pk", flat=True))
        assert Game.objects.count() == len(first)
        assert get_user_model().objects.count() == counts[0]
        assert not Seat.objects.filter(game_id__in=first).exists()

    def test_the_demo_accounts_log_in_with_the_documented_passwords(self, db):
        run()
        response = client_for(None).post(
            reverse("account_login"), {"login": "demo@example.org", "password": DEMO_PASSWORD}
        )
        assert response["Location"] == reverse("games:my_games")
        demo = get_user_model().objects.get(email="demo@example.org")
        my_games = client_for(demo).get(reverse("games:my_games"))
        assert len(my_games.context["my_move"]) == 2 + 1  # and Verdant's
        assert len(my_games.context["finished"]) == 1 + 1
        admin = get_user_model().objects.get(email="admin@example.org")
        assert admin.is_staff and admin.is_superuser
        assert admin.check_password(ADMIN_PASSWORD)
        assert client_for(admin).get(reverse("admin:games_game_changelist")).status_code == 200

    def test_it_keeps_a_user_who_already_has_the_username(self, db):
        get_user_model().objects.create_user("demo", "someone@example.org", "x")
        user = Command().user("demo", "demo@example.org", "Demo", DEMO_PASSWORD, False, reset=False)
        assert user.username == "demo2"
        assert Player.objects.get(user=user).display_name == "Demo"
        assert get_user_model().objects.get(username="demo").email == "someone@example.org"
