"""The example bot (examples/bot_client.py) plays whole games against a live server.

The bot speaks plain HTTP with the standard library, so these tests run a real server
(pytest-django's ``live_server``, which needs transactions that really commit).
"""

from __future__ import annotations

import importlib.util
import io
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.authtoken.models import Token

from games.models import Game
from tests.games.apihelpers import fixed_seed  # noqa: F401
from tests.games.gamehelpers import PASSWORD

BOT_PATH = Path(__file__).resolve().parents[2] / "examples" / "bot_client.py"

# slow: bots play whole games through a live server
pytestmark = [pytest.mark.usefixtures("fixed_seed"), pytest.mark.slow]
live = pytest.mark.django_db(transaction=True)  # the live server sees only committed rows


@pytest.fixture(scope="module")
def bot() -> ModuleType:
    spec = importlib.util.spec_from_file_location("evergreen_bot_client", BOT_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def _fresh_throttle() -> None:
    cache.clear()


def token_for(user: Any) -> str:
    return str(Token.objects.get_or_create(user=user)[0].key)


def final_scores(game: Game) -> list[int]:
    game.refresh_from_db()
    return [seat.score for seat in game.seats.order_by("position")]


def run_in_thread(bot: ModuleType, argv: list[str]) -> tuple[threading.Thread, dict[str, Any]]:
    result: dict[str, Any] = {"out": io.StringIO()}

    def target() -> None:
        try:
            result["code"] = bot.main(argv, out=result["out"])
        except BaseException as exc:  # reported by the test, not lost in the thread
            result["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread, result


@live
def test_two_bots_play_a_whole_game_against_each_other(
    bot: ModuleType, live_server: Any, alice: Any, bob: Any
) -> None:
    client = bot.Client(live_server.url, token_for(alice))
    game_id = client.create_game(2)["id"]
    common = ["--base-url", live_server.url, "--game", str(game_id), "--poll", "0.02"]
    runs = [
        run_in_thread(bot, [*common, "--token", token_for(alice), "--timeout", "150"]),
        run_in_thread(
            bot,
            [*common, "--email", "bob@example.org", "--password", PASSWORD, "--timeout", "150"],
        ),
    ]
    for thread, _result in runs:
        thread.join(timeout=180)
        assert not thread.is_alive(), "the bot did not finish"
    for _thread, result in runs:
        assert "error" not in result, result.get("error")
        assert result["code"] == 0, result["out"].getvalue()

    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED
    assert game.engine_state().is_over
    assert game.moves.filter(kind="turn").count() == 2 * 14  # 14 rounds, both seats
    assert set(game.moves.values_list("user__username", flat=True)) == {"alice", "bob"}
    scores = final_scores(game)
    alice_out, bob_out = (result["out"].getvalue() for _thread, result in runs)
    assert "joined game" in bob_out
    for out in (alice_out, bob_out):
        assert f"Game {game_id}: finished" in out
        assert "seat 0: Alice" in out and f": {scores[0]}" in out
        assert "seat 1: Bob" in out and f": {scores[1]}" in out
        assert "(winner)" in out


@live
def test_a_bot_creates_a_game_against_a_computer_player_and_plays_it_out(
    bot: ModuleType, live_server: Any, alice: Any
) -> None:
    out = io.StringIO()
    argv = ["--base-url", live_server.url, "--token", token_for(alice), "--create", "2"]
    code = bot.main([*argv, "--computer", "1", "--poll", "0.01", "--timeout", "120"], out=out)
    assert code == 0, out.getvalue()
    game = Game.objects.get(created_by=alice)
    assert game.status == Game.Status.FINISHED
    assert f"created game {game.pk}" in out.getvalue()
    assert "Computer (Greedy)" in out.getvalue()
    # Every move of seat 0 came from the bot's requests, each with its own key.
    keys = list(game.moves.filter(seat=0).values_list("idempotency_key", flat=True))
    assert len(keys) == len(set(keys)) and all(keys)


@live
def test_two_bots_play_a_whole_verdant_game_against_each_other(
    bot: ModuleType, live_server: Any, alice: Any, bob: Any
) -> None:
    client = bot.Client(live_server.url, token_for(alice))
    game_id = client.create_game(2, kind="verdant")["id"]
    common = ["--base-url", live_server.url, "--game", str(game_id), "--poll", "0.02"]
    runs = [
        run_in_thread(bot, [*common, "--token", token_for(alice), "--timeout", "150"]),
        run_in_thread(bot, [*common, "--token", token_for(bob), "--timeout", "150"]),
    ]
    for thread, _result in runs:
        thread.join(timeout=180)
        assert not thread.is_alive(), "the bot did not finish"
    for _thread, result in runs:
        assert "error" not in result, result.get("error")
        assert result["code"] == 0, result["out"].getvalue()

    game = Game.objects.get(pk=game_id)
    assert game.kind == "verdant" and game.status == Game.Status.FINISHED
    assert game.moves.filter(kind="start").count() == 2  # chosen at once, hidden
    assert game.moves.filter(kind="turn").count() == 2 * 13  # 13 turns each
    assert set(game.moves.values_list("user__username", flat=True)) == {"alice", "bob"}
    scores = final_scores(game)
    for _thread, result in runs:
        out = result["out"].getvalue()
        assert f"Game {game_id}: finished" in out
        assert "seat 0: Alice" in out and f": {scores[0]}" in out
        assert "(winner)" in out


@live
def test_a_bot_creates_a_verdant_game_against_a_computer_player_and_plays_it_out(
    bot: ModuleType, live_server: Any, alice: Any
) -> None:
    out = io.StringIO()
    argv = ["--base-url", live_server.url, "--token", token_for(alice), "--create", "2"]
    argv += ["--computer", "1", "--kind", "verdant", "--poll", "0.01", "--timeout", "120"]
    assert bot.main(argv, out=out) == 0, out.getvalue()
    game = Game.objects.get(created_by=alice)
    assert game.kind == "verdant" and game.status == Game.Status.FINISHED
    assert "Computer (Greedy)" in out.getvalue()


@live
def test_a_wrong_password_ends_the_bot_with_a_clear_message(
    bot: ModuleType, live_server: Any, alice: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--base-url", live_server.url, "--email", "alice@example.org", "--password", "no"]
    assert bot.main([*argv, "--create", "2"]) == 1
    assert "The e-mail address or the password is wrong. (400 bad_credentials)" in (
        capsys.readouterr().err
    )
    assert not Game.objects.exists()


def test_the_bot_needs_credentials(bot: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        bot.main(["--game", "1", "--token", ""])
    assert stopped.value.code == 2
    assert "give --token, or --email and --password" in capsys.readouterr().err


@live
def test_the_bot_polls_with_the_version_it_read_and_hears_of_nothing_until_it_moves(
    bot: ModuleType, live_server: Any, alice: Any, bob: Any
) -> None:
    alices = bot.Client(live_server.url, token_for(alice))
    waiting = alices.create_game(2)
    assert alices.game_since(waiting["id"], waiting["version"]) is None  # nobody joined yet
    bot.Client(live_server.url, token_for(bob)).join(waiting["id"])
    started = alices.game_since(waiting["id"], waiting["version"])
    assert started is not None and started["status"] == "active"
    assert started["version"] > waiting["version"]
    assert alices.game_since(waiting["id"], started["version"]) is None
