"""The daily challenge's pages: today's challenges, starting one, the leaderboard and the
other players' games hidden until the player has finished, the board of an earlier day."""

from __future__ import annotations

from typing import Any

import pytest

from challenges import services, targets
from challenges.models import ChallengeEntry
from tests.challenges.challengehelpers import clock_at, finish
from tests.games.gamehelpers import client_for

pytestmark = pytest.mark.django_db

HIDDEN = "stays hidden until you have finished your game"


def test_the_navigation_and_the_home_page_lead_to_the_challenge(alice: Any) -> None:
    page = client_for(None).get("/").content.decode()
    assert page.count('href="/daily/"') == 2  # the navigation and a link on the home page


def test_a_visitor_sees_the_challenges_and_is_asked_to_log_in(monkeypatch: Any, db: Any) -> None:
    clock_at(monkeypatch)
    page = client_for(None).get("/daily/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Evergreen" in text and "Verdant" in text
    assert "Log in to play" in text
    assert HIDDEN in text


def test_starting_leads_to_the_game_and_a_second_start_to_the_same_one(
    alice: Any, monkeypatch: Any
) -> None:
    clock_at(monkeypatch)
    client = client_for(alice)
    assert "Play today's challenge" in client.get("/daily/").content.decode()
    first = client.post("/daily/evergreen/start/")
    entry = ChallengeEntry.objects.get(user=alice)
    assert first.status_code == 302 and first["Location"] == f"/games/{entry.game_id}/"
    again = client.post("/daily/evergreen/start/")
    assert again["Location"] == f"/games/{entry.game_id}/"
    assert ChallengeEntry.objects.count() == 1
    assert "Continue your game" in client.get("/daily/").content.decode()


def test_starting_needs_a_post_and_a_player(alice: Any, monkeypatch: Any) -> None:
    clock_at(monkeypatch)
    assert client_for(alice).get("/daily/evergreen/start/").status_code == 405
    anonymous = client_for(None).post("/daily/evergreen/start/")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert client_for(alice).post("/daily/chess/start/").status_code == 404
    assert not ChallengeEntry.objects.exists()


def test_the_board_and_the_others_games_stay_hidden_until_finished(
    alice: Any, bob: Any, monkeypatch: Any
) -> None:
    clock_at(monkeypatch)
    bobs, _ = services.start(bob, "verdant")
    bobs_game = finish(bobs.game, bob)
    bobs_score = bobs_game.seats.get().score
    alices, _ = services.start(alice, "verdant")
    client = client_for(alice)

    page = client.get("/daily/").content.decode()
    assert HIDDEN in page
    assert f"/games/{bobs.game_id}/" not in page
    for url in (
        f"/games/{bobs.game_id}/",
        f"/games/{bobs.game_id}/replay/",
        f"/games/{bobs.game_id}/record.json",
    ):
        refused = client.get(url)
        assert refused.status_code == 403, url
        assert "until you have finished yours" in refused.content.decode()
        assert f">{bobs_score}<" not in refused.content.decode()

    finish(alices.game, alice)
    page = client.get("/daily/").content.decode()
    assert f'href="/games/{bobs.game_id}/">Bob</a>' in page
    assert f'<td data-label="Score">{bobs_score}</td>' in page
    assert client.get(f"/games/{bobs.game_id}/").status_code == 200
    assert client.get(f"/games/{bobs.game_id}/replay/").status_code == 200


def test_the_board_shows_titles_and_the_target(alice: Any, monkeypatch: Any) -> None:
    clock_at(monkeypatch)
    entry, _ = services.start(alice, "evergreen")
    targets.compute_target(entry.challenge.pk)
    entry.challenge.refresh_from_db()
    game = finish(entry.game, alice)
    title = game.engine_state().outcome.title
    page = client_for(alice).get("/daily/").content.decode()
    assert f'<td data-label="Title">{title}</td>' in page
    assert f"scored {entry.challenge.target_score} on this deal" in page
    assert "1 day" in page  # the streak


def test_the_page_speaks_the_players_language(alice: Any, monkeypatch: Any) -> None:
    clock_at(monkeypatch)
    alice.player.language = "de"
    alice.player.save(update_fields=["language"])
    page = client_for(alice).get("/daily/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Tägliche Herausforderung" in page


def test_an_earlier_days_board(alice: Any, bob: Any, monkeypatch: Any) -> None:
    clock = clock_at(monkeypatch)
    entry, _ = services.start(alice, "verdant")
    finish(entry.game, alice)
    clock.advance(days=1)
    page = client_for(bob).get("/daily/verdant/2026-11-26/")  # bob did not play that day
    assert page.status_code == 200
    assert f'href="/games/{entry.game_id}/">Alice</a>' in page.content.decode()
    assert client_for(bob).get("/daily/verdant/2020-01-01/").status_code == 404
    assert client_for(bob).get("/daily/verdant/someday/").status_code == 404
    assert client_for(bob).get("/daily/verdant/20261126/").status_code == 404  # one spelling


def test_the_page_links_to_yesterdays_board(alice: Any, monkeypatch: Any) -> None:
    clock = clock_at(monkeypatch)
    client = client_for(alice)
    assert "Yesterday" not in client.get("/daily/").content.decode()
    clock.advance(days=1)
    page = client.get("/daily/").content.decode()
    assert '<a href="/daily/verdant/2026-11-26/">Yesterday\'s leaderboard</a>' in page
    assert '<a href="/daily/evergreen/2026-11-26/">' in page
