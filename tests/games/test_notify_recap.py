"""games.evergreen.recap: what a returning player reads about a game, and what it must never tell."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games import services
from games.evergreen import recap, rules
from games.evergreen.rules.bots import RandomBot
from games.evergreen.rules.record import GameRecord
from games.models import Game
from tests.games.gamehelpers import play_until

NAMES = ["Alice", "Bob", "Carol", "Dan"]


def simulate(
    players: int,
    seed: int,
    until: Callable[[rules.GameState, list[rules.Move]], bool],
    bot_seed: int = 0,
) -> tuple[rules.GameState, list[rules.Move], rules.GameState]:
    """Play random moves the way the services do (a round is revealed before the next move)."""
    start = rules.new_game(players, seed)
    state, moves = start, []
    bot = RandomBot(bot_seed)
    while not until(state, moves):
        if rules.round_complete(state):
            state = rules.advance(state)
            continue
        if state.is_over:
            break
        seat = state.awaiting[0]
        move = bot.choose(state, seat)
        moves.append(move)
        state = rules.advance(rules.apply(state, move, advance_state=False), close_round=False)
    return start, moves, state


def last_move_of(moves: list[rules.Move], seat: int) -> int:
    return max(n for n, m in enumerate(moves, start=1) if m.seat == seat)


def every_event(steps: list[recap.Step], viewer: int, monkeypatch: Any) -> list[recap.Event]:
    monkeypatch.setattr(recap, "MAX_EVENTS", 10**6)
    return recap.recap(steps, viewer, 0).events


def text_of(summary: recap.Recap, names: list[str]) -> str:
    return (
        "\n".join(
            "\n".join([line["text"], *line["details"]]) for line in recap.lines(summary, names)
        )
        + "\n"
        + recap.standing(summary, names)
    )


class TestReplaying:
    def test_the_steps_end_where_the_record_ends(self):
        start, moves, _ = simulate(2, 11, lambda s, m: len(m) >= 30)
        steps = recap.steps(start, moves)
        record = GameRecord(("a", "b"), 11, moves=tuple(moves))
        assert rules.state_to_json(steps[-1].state) == rules.state_to_json(record.replay())

    def test_a_round_not_closed_yet_is_not_revealed(self):
        start, moves, _state = simulate(2, 11, lambda s, m: rules.round_complete(s) and len(m) > 4)
        open_steps = recap.steps(start, moves, closed=False)
        assert rules.round_complete(open_steps[-1].state)
        closed_steps = recap.steps(start, moves, closed=True)
        assert closed_steps[-1].move is None and not rules.round_complete(closed_steps[-1].state)
        viewer = moves[-1].seat
        kinds_open = [e.kind for e in recap.recap(open_steps, viewer, len(moves)).events]
        kinds_closed = [e.kind for e in recap.recap(closed_steps, viewer, len(moves)).events]
        assert kinds_open == []
        assert kinds_closed[0] == "revealed"


class TestWhatTheRecapTells:
    def test_it_tells_the_picks_the_leftover_and_the_reveal_since_the_last_own_move(self):
        # Two rounds on: seat 0 last moved in the first round.
        start, moves, state = simulate(2, 5, lambda s, m: s.round == 3 and s.phase.value == "draft")
        steps = recap.steps(start, moves)
        first_round_moves = list(moves[:4])
        last = max(n for n, m in enumerate(first_round_moves, start=1) if m.seat == 0)
        summary = recap.recap(steps, 0, last)
        events = summary.events
        picks = [e for e in events if e.kind == "pick"]
        later_picks = [m for m in moves[last:] if isinstance(m, rules.Pick)]
        assert [(e.seat, e.card) for e in picks] == [(m.seat, m.card) for m in later_picks]
        assert [e.kind for e in events].count("revealed") == 2
        assert any(e.kind == "leftover" for e in events)
        assert [e.round for e in events if e.kind == "new_round"] == [2, 3]
        new_round = next(e for e in events if e.kind == "new_round" and e.round == 3)
        assert set(new_round.cards) == set(state.pool)
        text = text_of(summary, NAMES[:2])
        for move in later_picks:
            name = "Bob" if move.seat == 1 else None
            card = recap.card_name(rules.load_edition(), move.card)
            assert card in text
            if name:
                assert f"{name} took {card}." in text
        assert "Now: Spring, round 3, Draft." in text

    def test_leftover_cards_go_where_the_rules_send_them(self, monkeypatch):
        edition = rules.load_edition()
        seen = {"fertility": 0, "aridity_flip": 0, "discard": 0}
        for seed in (1, 2, 3):
            start, moves, _ = simulate(3, seed, lambda s, m: s.is_over, bot_seed=seed)
            steps = recap.steps(start, moves)
            for event in every_event(steps, 0, monkeypatch):
                if event.kind != "leftover":
                    continue
                card = edition.cards[event.card]
                if card.fertility:
                    assert event.where == "zone" and event.flipped is None
                    seen["fertility"] += 1
                elif card.aridity:
                    assert event.where == "zone"
                    if event.flipped:
                        assert edition.cards[event.flipped].suit == card.suit
                        seen["aridity_flip"] += 1
                else:
                    assert event.where == "discard"
                    seen["discard"] += 1
        assert all(seen.values()), seen

    def test_an_aridity_flip_reads_as_a_sentence(self):
        edition = rules.load_edition()
        event = recap.Event("leftover", card="snow/bush", where="zone", flipped="snow/big")
        (text,) = recap.describe(event, NAMES, 0, edition)
        assert text == (
            "Nobody took Snow · Plant Bush: its Aridity turned Snow · Big Tree Growth face down "
            "in the Snow Fertility Zone."
        )

    def test_season_scores_are_told_with_their_breakdown(self):
        start, moves, state = simulate(2, 8, lambda s, m: s.season == 2)
        steps = recap.steps(start, moves)
        viewer = 0
        summary = recap.recap(steps, viewer, last_move_of(moves, viewer))
        (season,) = [e for e in summary.events if e.kind == "season"]
        assert season.season == 1
        for i, (light, forest, bud, total) in enumerate(season.rows):
            scored = state.seats[i].seasons[0]
            assert (light, forest, bud) == (scored.light, scored.forest, scored.bud)
            assert total == state.seats[i].score
        text = text_of(summary, NAMES[:2])
        assert "Spring scored:" in text
        s0 = state.seats[0].seasons[0]
        assert f"Alice: Light {s0.light}, Forest {s0.forest}, Bud {s0.bud}" in text

    def test_the_end_of_the_game_is_told_with_the_final_scores(self):
        start, moves, state = simulate(2, 9, lambda s, m: s.is_over)
        steps = recap.steps(start, moves)
        summary = recap.recap(steps, 1, last_move_of(moves, 1))
        over = [e for e in summary.events if e.kind == "game_over"]
        assert over and over[0].points == tuple(s.score for s in state.seats)
        assert "The game is over." in recap.standing(summary, NAMES[:2])

    def test_a_long_absence_keeps_the_most_recent_events(self, monkeypatch):
        monkeypatch.setattr(recap, "MAX_EVENTS", 5)
        start, moves, _ = simulate(2, 5, lambda s, m: len(m) >= 24)
        summary = recap.recap(recap.steps(start, moves), 0, 0)
        assert len(summary.events) == 5 and summary.omitted > 0
        first = recap.lines(summary, NAMES[:2])[0]["text"]
        assert first == f"({summary.omitted} earlier events left out.)"

    def test_the_solo_drafter_s_picks_are_told(self):
        start, moves, _ = simulate(1, 4, lambda s, m: s.round == 2 and s.phase.value == "action")
        steps = recap.steps(start, moves)
        summary = recap.recap(steps, 0, 0)
        assert any(e.kind == "ai_pick" for e in summary.events)
        assert "The A.I. drafter took" in text_of(summary, NAMES[:1])


class TestSecrets:
    def test_another_seat_s_unrevealed_turn_changes_nothing_in_the_recap(self):
        # Seat 0 has planned; seat 1's turn is in but not revealed: whatever it is,
        # seat 0 reads the same recap.
        start, moves, state = simulate(2, 21, lambda s, m: s.phase.value == "action")
        seat_0_turn = RandomBot(3).choose(state, 0)
        state_0 = rules.apply(state, seat_0_turn, advance_state=False)
        minimal = rules.Turn(1, "D")
        other = next(
            t
            for t in (RandomBot(k).choose(state_0, 1) for k in range(50))
            if t.to_json() != minimal.to_json()
        )
        texts = []
        for turn in (minimal, other):
            all_moves = [*moves, seat_0_turn, turn]
            steps = recap.steps(start, all_moves, closed=False)
            summary = recap.recap(steps, 0, len(moves) + 1)
            assert [(e.kind, e.seat) for e in summary.events] == [("turn", 1)]
            texts.append(text_of(summary, NAMES[:2]))
        assert texts[0] == texts[1]
        assert "Bob planned their turn." in texts[0]

    def test_it_never_names_a_card_still_in_the_deck(self, monkeypatch):
        monkeypatch.setattr(recap, "MAX_EVENTS", 10**6)
        edition = rules.load_edition()
        start, moves, state = simulate(2, 13, lambda s, m: s.season == 2 and s.round == 2)
        summary = recap.recap(recap.steps(start, moves), 0, 0)
        text = text_of(summary, NAMES[:2])
        assert state.deck
        for card in state.deck:
            assert recap.card_name(edition, card) not in text
        for card in state.pool:  # the pool on the table is public
            assert recap.card_name(edition, card) in text


@pytest.fixture
def played_game(alice: Any, bob: Any) -> Game:
    game = services.create_game(alice, players=2)
    services.join_game(game.pk, bob)
    return play_until(game, lambda s: s.round == 2 and s.phase.value == "action")


class TestFromTheDatabase:
    def test_for_seat_replays_the_move_rows_since_the_seat_s_last_move(self, played_game):
        game = Game.objects.get(pk=played_game.pk)
        for seat in game.seats.all():
            summary = recap.for_seat(game, seat.position)
            record = game.record()
            expected = recap.recap(
                recap.steps(record.start(), record.moves), seat.position, seat.last_acted_move
            )
            assert summary.events == expected.events
            assert summary.now == expected.now
            assert seat.last_acted_move > 0

    def test_the_recap_ends_at_the_game_s_snapshot(self, played_game):
        game = Game.objects.get(pk=played_game.pk)
        summary = recap.for_seat(game, 0, last_acted=0)
        assert summary.now["round"] == game.round and summary.now["phase"] == game.phase
