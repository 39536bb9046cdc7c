"""The daily challenge's rules: one deal a day for everyone, one game a player, the
board of games finished within the day, streaks, and the target stored once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from challenges import services, targets, tasks
from challenges.board import board
from challenges.models import ChallengeEntry, DailyChallenge
from games import kinds
from games.models import Game
from games.services import ServiceError
from tests.challenges.challengehelpers import clock_at, finish

pytestmark = pytest.mark.django_db

KINDS = ["evergreen", "verdant"]


@pytest.mark.parametrize("kind", KINDS)
def test_everyone_is_dealt_the_same_game_today_and_another_tomorrow(
    kind: str, alice: Any, bob: Any, monkeypatch: Any
) -> None:
    clock = clock_at(monkeypatch)
    mine, _ = services.start(alice, kind)
    theirs, _ = services.start(bob, kind)
    assert mine.game_id != theirs.game_id
    assert mine.game.seed == theirs.game.seed == mine.challenge.seed
    assert mine.game.state == theirs.game.state  # the same deal, not only the same number

    clock.advance(days=1)
    tomorrow, created = services.start(alice, kind)
    assert created
    assert tomorrow.challenge.day == mine.challenge.day + timedelta(days=1)
    assert tomorrow.game.seed != mine.game.seed
    assert tomorrow.game.state != mine.game.state


def test_each_game_has_its_own_seed_on_the_same_day(alice: Any, monkeypatch: Any) -> None:
    clock_at(monkeypatch)
    evergreen, _ = services.start(alice, "evergreen")
    verdant, _ = services.start(alice, "verdant")
    assert evergreen.game.kind == "evergreen" and verdant.game.kind == "verdant"
    assert evergreen.challenge.seed != verdant.challenge.seed


def test_a_challenge_game_is_solo_unrated_and_without_a_clock(alice: Any, monkeypatch: Any) -> None:
    clock_at(monkeypatch)
    entry, _ = services.start(alice, "evergreen")
    game = entry.game
    assert (game.players, game.solo, game.rated) == (1, True, False)
    assert game.status == Game.Status.ACTIVE
    assert game.move_hours is None


def test_a_second_start_returns_the_game_already_started(alice: Any, monkeypatch: Any) -> None:
    clock = clock_at(monkeypatch)
    first, created = services.start(alice, "evergreen")
    assert created
    clock.advance(hours=5)
    again, created_again = services.start(alice, "evergreen")
    assert not created_again
    assert again.pk == first.pk and again.game_id == first.game_id
    assert ChallengeEntry.objects.filter(user=alice).count() == 1
    assert Game.objects.filter(seats__user=alice).count() == 1


def test_a_game_without_a_daily_challenge_is_refused_with_a_stable_code(alice: Any) -> None:
    with pytest.raises(ServiceError) as refused:
        services.start(alice, "nim")  # the toy game of the tests: two players only
    assert (refused.value.code, refused.value.status) == ("no_such_challenge", 404)
    with pytest.raises(ServiceError) as unknown:
        services.start(alice, "chess")
    assert unknown.value.code == "no_such_challenge"
    assert not DailyChallenge.objects.exists() and not Game.objects.exists()


def test_the_others_results_stay_hidden_until_a_player_has_finished(
    alice: Any, bob: Any, carol: Any, monkeypatch: Any
) -> None:
    clock = clock_at(monkeypatch)
    entry, _ = services.start(alice, "verdant")
    services.start(bob, "verdant")
    challenge = entry.challenge
    assert not services.can_see_others(challenge, alice)
    assert not services.can_see_others(challenge, carol)  # she may still start it today
    with pytest.raises(ServiceError) as refused:
        services.require_sight(challenge, alice)
    assert (refused.value.code, refused.value.status) == ("challenge_unfinished", 403)

    finish(entry.game, alice)
    assert services.can_see_others(challenge, alice)
    assert not services.can_see_others(challenge, bob)

    clock.advance(days=1)
    assert services.can_see_others(challenge, carol)  # the day is over: she cannot play it
    assert not services.can_see_others(challenge, bob)  # still playing: still hidden


def test_streaks_count_days_finished_in_a_row(alice: Any, monkeypatch: Any) -> None:
    clock = clock_at(monkeypatch)
    for _day in range(3):
        entry, _ = services.start(alice, "verdant")
        finish(entry.game, alice)
        clock.advance(days=1)
    # A new day has begun and today's game is not played yet: the streak still stands.
    assert services.streak(alice, "verdant") == 3
    assert services.streak(alice, "evergreen") == 0

    entry, _ = services.start(alice, "verdant")
    finish(entry.game, alice)
    assert services.streak(alice, "verdant") == 4

    clock.advance(days=2)  # a day missed
    assert services.streak(alice, "verdant") == 0


def test_a_game_finished_after_its_day_keeps_no_streak(alice: Any, monkeypatch: Any) -> None:
    clock = clock_at(monkeypatch)
    late, _ = services.start(alice, "verdant")
    clock.advance(days=1)
    finish(late.game, alice)  # still playable after midnight, but late
    assert late.game.status == Game.Status.FINISHED
    assert not services.finished_in_time(late.game, late.challenge)
    assert services.streak(alice, "verdant") == 0


def test_the_target_is_the_computer_players_score_stored_once(
    alice: Any, monkeypatch: Any, django_capture_on_commit_callbacks: Any
) -> None:
    clock_at(monkeypatch)
    played: list[tuple[Any, Any, Any]] = []  # (setup, bot, final state) of each game played
    play_out = targets.play_out

    def watched(kind: Any, setup: Any, bot: str) -> Any:
        played.append((setup, bot, play_out(kind, setup, bot)))
        return played[-1][2]

    monkeypatch.setattr(targets, "play_out", watched)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        challenge = services.todays("verdant")
    assert len(callbacks) == 1  # the target's task, sent once the day was opened
    challenge.refresh_from_db()
    kind = kinds.get("verdant")
    assert challenge.target_bot == ("strong" if "strong" in kind.bots else "greedy")
    # The game the task played is the day's, by that player (not played again here: a
    # strong game is seconds of CPU), and its score is what was stored.
    [(setup, bot, final)] = played
    assert (setup, bot) == (_setup(challenge), challenge.target_bot)
    assert challenge.target_score == kind.scores(final)[0]
    assert challenge.target_title == (kind.solo_title(final) or "")
    stored_at = challenge.target_at
    assert stored_at is not None

    assert targets.compute_target(challenge.pk) is False  # already there: nothing played
    assert len(played) == 1
    challenge.refresh_from_db()
    assert challenge.target_at == stored_at

    with django_capture_on_commit_callbacks(execute=True) as again:
        services.todays("verdant")
    assert again == []  # the day was open already: no second computation sent


def test_evergreens_target_is_set_by_its_strong_player(alice: Any, monkeypatch: Any) -> None:
    clock_at(monkeypatch)
    challenge = services.todays("evergreen")
    assert challenge.target_bot == "strong"
    assert targets.compute_target(challenge.pk) is True
    challenge.refresh_from_db()
    assert challenge.target_score is not None and challenge.target_score > 0
    assert challenge.target_title  # every Evergreen score has a solo title


def _setup(challenge: DailyChallenge) -> kinds.Setup:
    return kinds.Setup(1, challenge.seed, dict(challenge.options))


def test_a_start_racing_another_keeps_the_first_game_only(alice: Any, monkeypatch: Any) -> None:
    clock_at(monkeypatch)
    first, _ = services.start(alice, "verdant")
    # The second request read "no game yet" before the first one wrote its row.
    monkeypatch.setattr(services, "entry_of", lambda challenge, user: None)
    again, created = services.start(alice, "verdant")
    assert not created
    assert again.pk == first.pk and again.game_id == first.game_id
    assert Game.objects.filter(seats__user=alice).count() == 1  # its own game rolled back


def test_an_unfinished_game_stays_playable_after_its_day(alice: Any, monkeypatch: Any) -> None:
    clock = clock_at(monkeypatch)
    entry, _ = services.start(alice, "verdant")
    finish(entry.game, alice, stop_before_end=True)
    clock.advance(days=1)
    entry.game.refresh_from_db()
    assert entry.game.status == Game.Status.ACTIVE
    today, created = services.start(alice, "verdant")
    assert created and today.game_id != entry.game_id  # a new day, a new game
    finish(entry.game, alice)
    entry.game.refresh_from_db()
    assert entry.game.status == Game.Status.FINISHED


def test_the_board_ranks_games_finished_in_time_and_leaves_late_ones_off(
    alice: Any, bob: Any, carol: Any, monkeypatch: Any
) -> None:
    clock = clock_at(monkeypatch)
    entries = {user: services.start(user, "verdant")[0] for user in (alice, bob, carol)}
    finish(entries[alice].game, alice, bot="random")
    finish(entries[bob].game, bob, bot="greedy")
    clock.advance(days=1)
    finish(entries[carol].game, carol)  # after midnight: off the board
    found = board(entries[alice].challenge, alice)
    assert found.visible
    assert {row.name for row in found.rows} == {"Alice", "Bob"}
    scores = [row.score for row in found.rows]
    assert scores == sorted(scores, reverse=True)
    assert [row.place for row in found.rows] == [1, 2]
    assert found.playing == 1  # Carol's late game
    assert [row.mine for row in found.rows].count(True) == 1


def test_the_board_titles_come_from_each_games_solo_title_table(
    alice: Any, monkeypatch: Any
) -> None:
    clock_at(monkeypatch)
    for kind_name in KINDS:
        entry, _ = services.start(alice, kind_name)
        game = finish(entry.game, alice)
        kind = kinds.get(kind_name)
        raw = kind.solo_title(game.engine_state())
        (row,) = board(entry.challenge, alice).rows
        assert row.title == (kind.title_name(raw) if raw else "")
        assert row.score == kind.scores(game.engine_state())[0]


def test_the_beat_opens_every_kinds_day_and_computes_missing_targets(
    monkeypatch: Any, db: Any
) -> None:
    clock = clock_at(monkeypatch)
    yesterday = services.todays("verdant")  # its task was lost: no target stored
    clock.advance(days=1)
    assert tasks.open_today() == [yesterday.pk]
    yesterday.refresh_from_db()
    assert yesterday.target_score is not None
    opened = DailyChallenge.objects.filter(day=yesterday.day + timedelta(days=1))
    assert sorted(opened.values_list("kind", flat=True)) == KINDS
