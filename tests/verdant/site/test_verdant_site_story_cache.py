"""Verdant's game log kept in the cache (games.fragments): a seat's hidden start placement
is told to that seat only, and every move brings a log told afresh."""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.models import Game
from games.verdant import rules
from games.verdant.kind import Verdant
from tests.games.gamehelpers import tellings

from .verdant_site_helpers import client_for, user_at

HIDDEN = "Alice chose where their starting plant grows."


def log_text(user: Any, game: Game) -> str:
    page = client_for(user).get(reverse("games:detail", args=[game.pk])).content.decode()
    found = re.search(r'<section class="panel story".*?</section>', page, re.S)
    return (
        " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", found.group(0))).split())
        if found
        else ""
    )


def test_a_log_kept_for_one_seat_never_tells_another_its_hidden_start(
    kept_parts: Any, verdant_game: Game, bob: Any
) -> None:
    alice = user_at(verdant_game, 0)
    services.submit_move(verdant_game.pk, alice, rules.Start(0, "left"))
    assert HIDDEN in log_text(alice, verdant_game)  # kept, with what only Alice may know
    assert HIDDEN not in log_text(bob, verdant_game)
    assert HIDDEN not in log_text(None, verdant_game)


def test_the_move_that_reveals_it_brings_a_log_told_afresh(
    kept_parts: Any, verdant_game: Game, bob: Any
) -> None:
    services.submit_move(verdant_game.pk, user_at(verdant_game, 0), rules.Start(0, "left"))
    assert HIDDEN not in log_text(bob, verdant_game)
    services.submit_move(verdant_game.pk, bob, rules.Start(1, "right"))
    assert HIDDEN in log_text(bob, verdant_game)
    assert HIDDEN in log_text(None, verdant_game)


def test_a_second_view_of_the_same_version_tells_the_log_without_replaying_the_moves(
    kept_parts: Any, verdant_game: Game, bob: Any
) -> None:
    services.submit_move(verdant_game.pk, user_at(verdant_game, 0), rules.Start(0, "left"))
    url = reverse("games:detail", args=[verdant_game.pk])
    client = client_for(bob)
    reads = []
    for _ in range(2):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        reads.append(sum('"games_move"' in q["sql"] for q in queries.captured_queries))
    assert reads[0] >= 1 and reads[1] == 0


@pytest.fixture
def told(monkeypatch: Any) -> list[Any]:
    """The viewer of every telling of Verdant's log from now on."""
    return tellings(monkeypatch, Verdant)


def test_once_the_start_is_over_the_log_is_told_once_for_every_viewer(
    kept_parts: Any, verdant_game: Game, bob: Any, told: list[Any]
) -> None:
    alice = user_at(verdant_game, 0)
    services.submit_move(verdant_game.pk, alice, rules.Start(0, "left"))
    services.submit_move(verdant_game.pk, bob, rules.Start(1, "right"))
    logs = [log_text(viewer, verdant_game) for viewer in (alice, bob, None)]
    assert told == [None]  # as a spectator's, once
    assert logs[0] == logs[1] == logs[2] and HIDDEN in logs[0]


def test_while_the_start_lasts_each_seat_is_told_its_own_log(
    kept_parts: Any, verdant_game: Game, bob: Any, told: list[Any]
) -> None:
    services.submit_move(verdant_game.pk, user_at(verdant_game, 0), rules.Start(0, "left"))
    for viewer in (user_at(verdant_game, 0), bob, None):
        log_text(viewer, verdant_game)
    assert told == [0, 1, None]
