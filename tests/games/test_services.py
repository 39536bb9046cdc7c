"""games.services: every kind of write, each error path, idempotency and concurrency."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from games import kinds, services
from games.evergreen import rules
from games.evergreen.models import FertilityCard
from games.evergreen.rules.bots import RandomBot, make_bot
from games.models import Game, Move, Player, Seat
from tests.games.gamehelpers import make_user, play_until, user_at


def first_awaiting_user(game: Game) -> tuple[Any, int]:
    state = game.engine_state()
    seat = state.awaiting[0]
    return user_at(game, seat), seat


class TestCreatingAndJoining:
    def test_it_opens_a_game_and_starts_it_when_the_last_seat_is_taken(self, alice, bob):
        game = services.create_game(alice, players=2)
        assert game.status == Game.Status.OPEN and game.state is None
        services.join_game(game.pk, bob)
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE
        assert game.phase == "draft" and game.season == 1 and game.round == 1
        assert game.seed != 0 and game.started_at is not None
        assert [s.user for s in game.seats.order_by("position")] == [alice, bob]

    def test_a_game_filled_by_later_joins_is_dealt_from_the_seed_it_was_made_with(
        self, alice, bob, carol
    ):
        game = services.create_game(alice, players=3, seed=8)
        services.join_game(game.pk, bob)
        services.join_game(game.pk, carol)
        game.refresh_from_db()
        assert game.seed == 8
        kind = kinds.of(game)
        dealt = kind.advance(kind.new_game(kinds.Setup(3, 8, game.setup().options)))
        assert game.engine_state() == dealt

    def test_a_game_whose_start_is_refused_writes_nothing(self, alice, monkeypatch):
        def refuse(self: Any, setup: Any) -> Any:
            raise kinds.Refusal("bad_setup", "This table cannot be dealt.")

        monkeypatch.setattr(type(kinds.get("evergreen")), "new_game", refuse)
        with pytest.raises(services.ServiceError) as exc:
            services.create_game(alice, players=2, computer_seats=1)
        assert exc.value.code == "bad_setup"
        assert (Game.objects.count(), Seat.objects.count()) == (0, 0)

    def test_a_solo_game_starts_at_once(self, alice):
        game = services.create_game(alice, players=1)
        assert game.status == Game.Status.ACTIVE and game.solo
        assert game.engine_state().solo

    def test_computer_players_fill_seats_and_move_by_themselves(self, alice):
        game = services.create_game(alice, players=3, computer_seats=2, bot="random")
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE
        state = game.engine_state()
        assert state.awaiting == (0,)  # the bots picked before alice if they were first

    def test_a_strong_computer_seat_is_played_by_the_strong_player(self, alice):
        game = services.create_game(alice, players=2, computer_seats=1, bot="strong")
        game = play_until(game, lambda s: s.round >= 2, bot_seed=7)
        assert game.seats.get(position=1).bot == "strong"
        # Replay the game: every move of seat 1 is the one the strong level chooses.
        kind = kinds.of(game)
        state = kind.advance(kind.new_game(game.setup()))
        bot_moves = 0
        for row in game.moves.order_by("number"):
            move = kind.move_from_json(row.payload, row.seat)
            if row.seat == 1:
                seed = game.seed ^ ((row.number - 1) * 7919 + 1)
                assert move == make_bot("strong", seed).choose(state, 1)
                bot_moves += 1
            state = kind.advance(kind.apply(state, move))
            if kind.needs_resolution(state):
                state = kind.resolve(state)
        assert bot_moves >= 2  # a pick and a turn at least

    def test_a_computer_seat_left_unnamed_is_the_game_s_default_the_strong_player(self, alice):
        game = services.create_game(alice, players=2, computer_seats=1)
        assert game.seats.get(position=1).bot == "strong"
        assert kinds.of(game).default_bot == "strong"

    def test_it_refuses_bad_options(self, alice):
        for kwargs, code in [
            ({"players": 5}, "bad_player_count"),
            ({"players": 2, "computer_seats": 2}, "bad_computer_seats"),
            ({"players": 2, "sun_start": "X"}, "bad_sun"),
            ({"players": 2, "computer_seats": 1, "bot": "clever"}, "bad_bot"),
        ]:
            with pytest.raises(services.ServiceError) as exc:
                services.create_game(alice, **kwargs)
            assert exc.value.code == code
        assert Game.objects.count() == 0

    def test_it_refuses_a_second_seat_a_full_game_and_a_bad_invite(self, alice, bob, carol):
        game = services.create_game(alice, players=2)
        with pytest.raises(services.Conflict) as exc:
            services.join_game(game.pk, alice)
        assert exc.value.code == "already_joined"
        with pytest.raises(services.NotAPlayer) as exc2:
            services.join_game(game.pk, bob, invite_code="wrong")
        assert exc2.value.code == "bad_invite"
        services.join_game(game.pk, bob, invite_code=game.invite_code)
        with pytest.raises(services.Conflict) as exc3:
            services.join_game(game.pk, carol)
        assert exc3.value.code == "game_not_open"

    def test_it_aborts_a_game_once(self, two_player_game):
        services.abort_game(two_player_game.pk)
        two_player_game.refresh_from_db()
        assert two_player_game.status == Game.Status.ABORTED
        with pytest.raises(services.Conflict):
            services.abort_game(two_player_game.pk)


class TestMoves:
    def test_a_pick_is_validated_recorded_and_projected(self, two_player_game):
        game = two_player_game
        user, seat = first_awaiting_user(game)
        card = game.engine_state().pool[0]
        result = services.submit_move(game.pk, user, {"type": "pick", "card": card})
        game.refresh_from_db()
        assert result.move.number == 1 and result.move.seat == seat
        assert result.move.payload == {"type": "pick", "seat": seat, "card": card}
        assert game.version == result.move.result_version
        assert game.engine_state().seats[seat].card == card
        assert services.rebuild_state(game) == game.engine_state()

    def test_the_seat_comes_from_the_user_not_the_payload(self, two_player_game):
        game = two_player_game
        user, seat = first_awaiting_user(game)
        card = game.engine_state().pool[0]
        result = services.submit_move(
            game.pk, user, {"type": "pick", "seat": 1 - seat, "card": card}
        )
        assert result.move.seat == seat

    def test_an_illegal_move_is_refused_with_the_engine_code_and_changes_nothing(
        self, two_player_game
    ):
        game = two_player_game
        user, _ = first_awaiting_user(game)
        before = (game.version, game.state)
        with pytest.raises(services.ServiceError) as exc:
            services.submit_move(game.pk, user, {"type": "pick", "card": "wild/nothing"})
        assert exc.value.status == 400 and exc.value.code == "card_not_in_pool"
        assert "not in the drafting pool" in exc.value.message
        game.refresh_from_db()
        assert (game.version, game.state) == before and Move.objects.count() == 0

    def test_a_malformed_move_is_a_400(self, two_player_game):
        user, _ = first_awaiting_user(two_player_game)
        with pytest.raises(services.ServiceError) as exc:
            services.submit_move(two_player_game.pk, user, {"type": "castle"})
        assert exc.value.status == 400 and exc.value.code == "bad_move"

    def test_it_answers_409_when_it_is_not_your_move(self, two_player_game):
        game = two_player_game
        state = game.engine_state()
        waiting = user_at(game, 1 - state.awaiting[0])
        with pytest.raises(services.Conflict) as exc:
            services.submit_move(game.pk, waiting, {"type": "pick", "card": state.pool[0]})
        assert exc.value.status == 409 and exc.value.code == "not_your_turn"

    def test_it_answers_403_to_someone_without_a_seat(self, two_player_game, carol):
        with pytest.raises(services.NotAPlayer) as exc:
            services.submit_move(two_player_game.pk, carol, {"type": "pick", "card": "x"})
        assert exc.value.status == 403

    def test_it_refuses_a_stale_version(self, two_player_game):
        game = two_player_game
        user, _ = first_awaiting_user(game)
        card = game.engine_state().pool[0]
        with pytest.raises(services.Conflict) as exc:
            services.submit_move(
                game.pk, user, {"type": "pick", "card": card}, expected_version=game.version - 1
            )
        assert exc.value.code == "stale_version"
        services.submit_move(
            game.pk, user, {"type": "pick", "card": card}, expected_version=game.version
        )

    def test_the_same_idempotency_key_returns_the_first_result(self, two_player_game):
        game = two_player_game
        user, _ = first_awaiting_user(game)
        card = game.engine_state().pool[0]
        first = services.submit_move(
            game.pk, user, {"type": "pick", "card": card}, idempotency_key="k-1"
        )
        again = services.submit_move(
            game.pk, user, {"type": "pick", "card": card}, idempotency_key="k-1"
        )
        assert again.repeated and again.move.pk == first.move.pk
        assert Move.objects.filter(game=game).count() == 1

    def test_a_key_used_by_another_seat_is_refused(self, two_player_game):
        game = two_player_game
        user, seat = first_awaiting_user(game)
        services.submit_move(
            game.pk,
            user,
            {"type": "pick", "card": game.engine_state().pool[0]},
            idempotency_key="shared",
        )
        other = user_at(game, 1 - seat)
        with pytest.raises(services.Conflict) as exc:
            services.submit_move(
                game.pk, other, {"type": "pick", "card": "x"}, idempotency_key="shared"
            )
        assert exc.value.code == "idempotency_key_reused"

    def test_turns_stay_secret_until_the_round_is_revealed(self, two_player_game):
        game = play_until(two_player_game, lambda s: s.phase is rules.Phase.ACTION)
        state = game.engine_state()
        seat = state.awaiting[0]
        bot = RandomBot(3)
        services.submit_move(game.pk, user_at(game, seat), bot.choose(state, seat))
        game.refresh_from_db()
        stored = game.engine_state()
        assert stored.seats[seat].turn is not None  # kept server-side
        assert stored.seats[seat].board == state.seats[seat].board  # not yet revealed

    def test_a_whole_game_ends_finished_with_scores_and_a_consistent_projection(
        self, two_player_game
    ):
        game = play_until(two_player_game, lambda s: s.is_over, bot_seed=11, limit=200)
        game.refresh_from_db()
        state = game.engine_state()
        assert game.status == Game.Status.FINISHED and game.finished_at is not None
        assert [s.score for s in game.seats.order_by("position")] == [s.score for s in state.seats]
        assert services.rebuild_state(game) == state
        zone = [
            list(
                FertilityCard.objects.filter(game=game, biome=b)
                .order_by("order")
                .values_list("card", "face_up")
            )
            for b in rules.BIOMES
        ]
        assert zone == [[tuple(x) for x in stack] for stack in state.fertility_zone]
        assert Move.objects.filter(game=game).count() == game.moves.count()
        with pytest.raises(services.Conflict):
            services.submit_move(game.pk, user_at(game, 0), {"type": "pick", "card": "x"})


@pytest.mark.skipif(
    getattr(settings, "TEST_DATABASE_VENDOR", "") != "postgresql",
    reason="row locks need PostgreSQL",
)
@pytest.mark.django_db(transaction=True)
class TestConcurrency:
    def test_two_concurrent_submissions_exactly_one_wins(self):
        alice, bob = make_user("alice2"), make_user("bob2")
        game = services.create_game(alice, players=2)
        services.join_game(game.pk, bob)
        game.refresh_from_db()
        state = game.engine_state()
        user = user_at(game, state.awaiting[0])
        cards = state.pool[:2]
        barrier = threading.Barrier(2)
        outcomes: list[Any] = []

        def submit(card: str) -> None:
            barrier.wait()
            try:
                outcomes.append(
                    services.submit_move(
                        game.pk, user, {"type": "pick", "card": card}, expected_version=game.version
                    )
                )
            except services.ServiceError as exc:
                outcomes.append(exc)
            finally:
                connection.close()

        threads = [threading.Thread(target=submit, args=(card,)) for card in cards]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wins = [o for o in outcomes if isinstance(o, services.SubmitResult)]
        refusals = [o for o in outcomes if isinstance(o, services.ServiceError)]
        assert len(wins) == 1 and len(refusals) == 1
        assert refusals[0].status == 409 and refusals[0].code in ("stale_version", "not_your_turn")
        assert Move.objects.filter(game=game).count() == 1

    def test_the_same_key_sent_twice_at_once_records_one_move(self):
        alice, bob = make_user("alice3"), make_user("bob3")
        game = services.create_game(alice, players=2)
        services.join_game(game.pk, bob)
        game.refresh_from_db()
        state = game.engine_state()
        user = user_at(game, state.awaiting[0])
        barrier = threading.Barrier(2)
        outcomes: list[Any] = []

        def submit() -> None:
            barrier.wait()
            try:
                outcomes.append(
                    services.submit_move(
                        game.pk,
                        user,
                        {"type": "pick", "card": state.pool[0]},
                        idempotency_key="same",
                    )
                )
            finally:
                connection.close()

        threads = [threading.Thread(target=submit) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(outcomes) == 2
        assert outcomes[0].move.pk == outcomes[1].move.pk
        assert Move.objects.filter(game=game).count() == 1


def test_a_key_reused_for_a_different_move_is_refused(two_player_game):
    game = two_player_game
    user, _ = first_awaiting_user(game)
    pool = game.engine_state().pool
    services.submit_move(game.pk, user, {"type": "pick", "card": pool[0]}, idempotency_key="once")
    with pytest.raises(services.Conflict) as exc:
        services.submit_move(
            game.pk, user, {"type": "pick", "card": pool[1]}, idempotency_key="once"
        )
    assert exc.value.code == "idempotency_key_reused"


def test_a_key_reused_for_a_move_that_is_legal_now_is_refused_and_changes_nothing(
    two_player_game,
):
    """The key is looked up only after a refusal; a legal move with a used key meets the
    key's unique constraint instead, and is refused the same way."""
    game = two_player_game
    user, seat = first_awaiting_user(game)
    services.submit_move(
        game.pk, user, {"type": "pick", "card": game.engine_state().pool[0]}, idempotency_key="k"
    )
    game.refresh_from_db()
    other = user_at(game, 1 - seat)
    legal = game.engine_state().pool[0]
    version, moves = game.version, Move.objects.filter(game=game).count()
    with pytest.raises(services.Conflict) as exc:
        services.submit_move(game.pk, other, {"type": "pick", "card": legal}, idempotency_key="k")
    assert exc.value.code == "idempotency_key_reused"
    game.refresh_from_db()
    assert (game.version, Move.objects.filter(game=game).count()) == (version, moves)
    # The same pick with a fresh key is played.
    services.submit_move(game.pk, other, {"type": "pick", "card": legal}, idempotency_key="k2")
    assert Move.objects.filter(game=game).count() == moves + 1


def test_a_fresh_key_costs_no_lookup(two_player_game):
    from django.test.utils import CaptureQueriesContext

    game = two_player_game
    # Coalesced mails read the player's last move: every-move mail reads none.
    Player.objects.update(email_mode=Player.EmailMode.EVERY_MOVE)
    user, _ = first_awaiting_user(game)
    card = game.engine_state().pool[0]
    with CaptureQueriesContext(connection) as ctx:
        services.submit_move(game.pk, user, {"type": "pick", "card": card}, idempotency_key="new")
    selects = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith("SELECT")]
    assert not any("games_move" in sql for sql in selects), selects


class TestWhyNoMove:
    """``services.move_refusal``: what a page asks when it has no move to send."""

    def test_in_the_draft_no_turn_can_be_played_yet(self, two_player_game, alice):
        refusal = services.move_refusal(two_player_game.pk, alice, "turn")
        assert isinstance(refusal, services.Conflict) and refusal.code == "wrong_phase"

    def test_after_a_turn_the_next_one_waits_for_the_round(self, two_player_game):
        game = play_until(two_player_game, lambda s: s.phase is rules.Phase.ACTION)
        user, position = first_awaiting_user(game)
        assert services.move_refusal(game.pk, user, "turn") is None
        services.submit_move(game.pk, user, rules.Turn(position, "D"))
        refusal = services.move_refusal(game.pk, user, "turn")
        assert refusal is not None and refusal.code == "turn_already_submitted"

    def test_someone_without_a_seat_is_told_so(self, two_player_game, carol):
        with pytest.raises(services.NotAPlayer):
            services.move_refusal(two_player_game.pk, carol, "turn")
