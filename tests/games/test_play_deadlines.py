"""Deadlines, vacations, computer take-overs and standing orders on the game page."""

from __future__ import annotations

import zoneinfo
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import services
from games.evergreen import rules
from games.models import Game, Move, Player, Seat
from tests.games.gamehelpers import client_for, play_until, user_at

HTMX = {"HTTP_HX_REQUEST": "true"}
EXPLANATION = "When your pick comes, the first of these still in the pool is taken for you at once."


def page(user: Any, game: Game) -> str:
    response = client_for(user).get(reverse("games:detail", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def started(creator: Any, *others: Any, **options: Any) -> Game:
    game = services.create_game(creator, players=1 + len(others), **options)
    for user in others:
        services.join_game(game.pk, user)
    game.refresh_from_db()
    return game


def rank(user: Any, game: Game, ranks: dict[str, Any], **extra: Any) -> Any:
    data = {f"rank_{card}": str(n) for card, n in ranks.items()}
    return client_for(user).post(reverse("games:ranking", args=[game.pk]), data, **extra)


def picker_and_waiting(game: Game) -> tuple[Any, Any]:
    """The user whose pick it is and the other one (2-player game in its Draft)."""
    state = game.engine_state()
    return user_at(game, state.to_pick), user_at(game, 1 - state.to_pick)


def seat_of(game: Game, user: Any) -> Seat:
    return Seat.objects.get(game=game, user=user)


@pytest.fixture
def timed_game(alice: Any, bob: Any) -> Game:
    return started(alice, bob, days_per_move=1)


class TestDeadlines:
    def test_my_deadline_is_shown_counting_down(self, timed_game):
        me, _other = picker_and_waiting(timed_game)
        html = page(me, timed_game)
        assert "Your move:" in html
        assert "due in" in html
        assert "23\xa0hours" in html  # timeuntil keeps number and unit together
        deadline = seat_of(timed_game, me).deadline
        iso = timezone.localtime(deadline).isoformat(timespec="minutes")
        assert f'<time datetime="{iso}">' in html
        assert f'data-countdown="{iso}"' in html

    def test_an_opponents_deadline_is_shown_with_their_name(self, timed_game):
        me, other = picker_and_waiting(timed_game)
        html = page(other, timed_game)
        assert f"{seat_of(timed_game, me).name}\u2019s move:" in html
        assert "Your move:" not in html

    def test_every_seat_that_must_act_has_its_deadline(self, timed_game, alice):
        game = play_until(timed_game, lambda s: s.phase is rules.Phase.ACTION)
        html = page(alice, game)
        assert "Your move:" in html
        assert "Bob\u2019s move:" in html
        assert html.count("<time datetime=") == 2

    def test_the_deadline_is_in_my_time_zone(self, timed_game):
        me, _other = picker_and_waiting(timed_game)
        Player.objects.filter(user=me).update(time_zone="Asia/Tokyo")
        deadline = seat_of(timed_game, me).deadline
        local = deadline.astimezone(zoneinfo.ZoneInfo("Asia/Tokyo"))
        html = page(me, timed_game)
        assert f'<time datetime="{local.isoformat(timespec="minutes")}">' in html
        assert local.isoformat(timespec="minutes").endswith("+09:00")
        assert local.strftime("%H:%M") in html

    def test_an_overdue_move_says_so(self, timed_game):
        me, _other = picker_and_waiting(timed_game)
        Seat.objects.filter(game=timed_game, user=me).update(
            deadline=timezone.now() - timedelta(minutes=5)
        )
        html = page(me, timed_game)
        assert "overdue: the move will be made for them shortly" in html
        assert "due in" not in html

    def test_the_time_control_is_shown(self, timed_game, alice):
        html = page(alice, timed_game)
        assert "Time control:" in html
        assert "1 day per move" in html
        assert "A computer player moves for them" in html
        assert "time bank" not in html

    def test_hours_per_move_and_my_time_bank_are_shown(self, alice, bob):
        game = started(alice, bob, hours_per_move=6, time_bank_hours=24, timeout_policy="minimal")
        html = page(alice, game)
        assert "6 hours per move" in html
        assert "your time bank: 1\xa0day left" in html
        assert "The smallest legal move is made for them" in html

    def test_a_game_without_time_control_shows_no_deadline(self, two_player_game, alice, bob):
        for user in (alice, bob, None):
            html = page(user, two_player_game)
            assert "Your move:" not in html
            assert "<time datetime=" not in html
            assert "Time control:" not in html
            assert 'class="clocks"' not in html

    def test_the_page_costs_no_more_queries_with_clocks(self, timed_game, alice, bob):
        Player.objects.filter(user=bob).update(vacation_until=timezone.now() + timedelta(days=2))
        client = client_for(alice)
        url = reverse("games:detail", args=[timed_game.pk])
        client.get(url)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        assert len(captured) <= 8


class TestSeatNotes:
    def test_a_player_on_vacation_is_shown_as_such(self, timed_game, alice, bob):
        until = timezone.now() + timedelta(days=5)
        Player.objects.filter(user=bob).update(vacation_until=until)
        html = page(alice, timed_game)
        assert "on vacation until" in html
        assert timezone.localtime(until).strftime("%H:%M") in html

    def test_a_vacation_that_is_over_is_not_shown(self, timed_game, alice, bob):
        Player.objects.filter(user=bob).update(vacation_until=timezone.now() - timedelta(hours=1))
        assert "on vacation until" not in page(alice, timed_game)

    def test_a_vacation_shows_in_a_game_without_time_control_too(self, two_player_game, bob):
        Player.objects.filter(user=bob).update(vacation_until=timezone.now() + timedelta(days=1))
        assert "on vacation until" in page(None, two_player_game)

    def test_a_seat_handed_to_the_computer_is_labelled(self, timed_game, alice, bob):
        Seat.objects.filter(game=timed_game, user=bob).update(
            handed_to_bot=True, bot="greedy", deadline=None
        )
        html = page(alice, timed_game)
        assert "computer player (took over)" in html
        assert "Bob" in html


class TestRankingForm:
    def test_it_is_offered_while_waiting_for_another_players_pick(self, two_player_game):
        picker, waiting = picker_and_waiting(two_player_game)
        html = page(waiting, two_player_game)
        assert 'id="ranking"' in html
        assert EXPLANATION in html
        for card in two_player_game.engine_state().pool:
            assert f'name="rank_{card}"' in html
        assert 'id="ranking"' not in page(picker, two_player_game)

    def test_it_is_not_offered_to_a_spectator(self, two_player_game, carol):
        assert 'id="ranking"' not in page(carol, two_player_game)
        assert 'id="ranking"' not in page(None, two_player_game)

    def test_it_is_not_offered_once_i_have_picked(self, alice, bob, carol):
        game = started(alice, bob, carol)
        state = game.engine_state()
        first = user_at(game, state.to_pick)
        services.submit_move(game.pk, first, {"type": "pick", "card": state.pool[0]})
        game.refresh_from_db()
        assert game.engine_state().phase is rules.Phase.DRAFT
        assert 'id="ranking"' not in page(first, game)
        after = game.engine_state()
        last = next(p for p in range(3) if after.seats[p].card is None and p != after.to_pick)
        assert 'id="ranking"' in page(user_at(game, last), game)
        assert 'id="ranking"' not in page(user_at(game, after.to_pick), game)

    def test_it_is_not_offered_outside_the_draft(self, two_player_game, alice, bob):
        game = play_until(two_player_game, lambda s: s.phase is rules.Phase.ACTION)
        assert 'id="ranking"' not in page(alice, game)
        assert 'id="ranking"' not in page(bob, game)


class TestRanking:
    def test_posting_a_ranking_stores_and_shows_it(self, two_player_game):
        game = two_player_game
        _picker, waiting = picker_and_waiting(game)
        pool = game.engine_state().pool
        response = rank(waiting, game, {pool[2]: 1, pool[0]: 2, pool[1]: ""})
        assert response.status_code == 303
        assert response["Location"] == reverse("games:detail", args=[game.pk])
        seat = seat_of(game, waiting)
        assert seat.standing_order == [pool[2], pool[0]]
        assert seat.standing_order_round == services.round_key(game, game.engine_state())
        html = page(waiting, game)
        assert "Your ranking:" in html
        mine = html[html.index('class="ranking-mine"') :]
        edition = rules.load_edition(game.edition)
        labels = [_label(edition, c) for c in (pool[2], pool[0])]
        assert mine.index(labels[0]) < mine.index(labels[1])
        assert '<option value="1" selected>' in html
        assert '<option value="2" selected>' in html

    def test_with_htmx_the_region_comes_back_with_the_ranking(self, two_player_game):
        game = two_player_game
        _picker, waiting = picker_and_waiting(game)
        pool = game.engine_state().pool
        response = rank(waiting, game, {pool[1]: 1}, **HTMX)
        html = response.content.decode()
        assert response.status_code == 200
        assert html.lstrip().startswith('<div id="play"')
        assert "Your ranking:" in html

    def test_the_ranked_card_is_picked_as_soon_as_my_pick_comes(self, two_player_game):
        game = two_player_game
        picker, waiting = picker_and_waiting(game)
        pool = game.engine_state().pool
        assert rank(waiting, game, {pool[1]: 1, pool[2]: 2}).status_code == 303
        services.submit_move(game.pk, picker, {"type": "pick", "card": pool[1]})
        game.refresh_from_db()
        state = game.engine_state()
        position = seat_of(game, waiting).position
        assert state.seats[position].card == pool[2]
        automatic = Move.objects.filter(game=game, seat=position, kind="pick").get()
        assert automatic.payload["card"] == pool[2]
        html = page(waiting, game)
        assert 'id="ranking"' not in html
        assert "Your turn" in html

    def test_a_ranking_can_be_cleared(self, two_player_game):
        game = two_player_game
        _picker, waiting = picker_and_waiting(game)
        pool = game.engine_state().pool
        rank(waiting, game, {pool[0]: 1})
        response = client_for(waiting).post(
            reverse("games:ranking", args=[game.pk]), {f"rank_{pool[0]}": "1", "clear": "1"}
        )
        assert response.status_code == 303
        assert seat_of(game, waiting).standing_order == []
        assert "Your ranking:" not in page(waiting, game)

    def test_it_refuses_a_card_not_in_the_pool_and_stores_nothing(self, two_player_game):
        game = two_player_game
        _picker, waiting = picker_and_waiting(game)
        pool = game.engine_state().pool
        response = rank(waiting, game, {pool[0]: 1, "snow/forged": 2})
        html = response.content.decode()
        assert response.status_code == 400
        assert 'data-code="card_not_in_pool"' in html
        assert "is not in the drafting pool" in html
        seat = seat_of(game, waiting)
        assert seat.standing_order == []
        assert seat.standing_order_round == ""

    def test_it_refuses_two_cards_with_the_same_rank(self, two_player_game):
        game = two_player_game
        _picker, waiting = picker_and_waiting(game)
        pool = game.engine_state().pool
        response = rank(waiting, game, {pool[0]: 1, pool[1]: 1})
        assert response.status_code == 400
        assert "Give each card a different rank." in response.content.decode()
        assert seat_of(game, waiting).standing_order == []

    def test_it_refuses_a_rank_that_is_not_a_number(self, two_player_game):
        game = two_player_game
        _picker, waiting = picker_and_waiting(game)
        response = rank(waiting, game, {game.engine_state().pool[0]: "first"})
        assert response.status_code == 400
        assert 'data-code="bad_rank"' in response.content.decode()

    def test_it_refuses_a_ranking_outside_the_draft_with_409(self, two_player_game, alice):
        game = play_until(two_player_game, lambda s: s.phase is rules.Phase.ACTION)
        card = next(iter(rules.load_edition(game.edition).cards))
        response = rank(alice, game, {card: 1})
        assert response.status_code == 409
        assert 'data-code="not_drafting"' in response.content.decode()

    def test_it_refuses_a_spectator_with_403(self, two_player_game, carol):
        card = two_player_game.engine_state().pool[0]
        assert rank(carol, two_player_game, {card: 1}).status_code == 403

    def test_it_sends_an_anonymous_visitor_to_sign_in(self, two_player_game):
        card = two_player_game.engine_state().pool[0]
        assert rank(None, two_player_game, {card: 1}).status_code == 302

    def test_it_accepts_only_post(self, two_player_game, alice):
        url = reverse("games:ranking", args=[two_player_game.pk])
        assert client_for(alice).get(url).status_code == 405

    def test_another_seats_ranking_never_appears_on_my_page(self, alice, bob, carol, staff):
        game = started(alice, bob, carol)
        state = game.engine_state()
        waiting = [user_at(game, p) for p in range(3) if p != state.to_pick]
        ranker, other = waiting
        pool = state.pool
        assert rank(ranker, game, {pool[2]: 1, pool[1]: 2}).status_code == 303
        for viewer in (other, user_at(game, state.to_pick), staff, None):
            html = page(viewer, game)
            assert "Your ranking:" not in html
            assert '<option value="1" selected>' not in html
            assert '<option value="2" selected>' not in html
        assert "Your ranking:" in page(ranker, game)


def _label(edition: Any, card: str) -> str:
    from games.evergreen import presenters

    return presenters.card_info(edition, card).label
