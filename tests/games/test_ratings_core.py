"""Ratings: the OpenSkill arithmetic, and games rated once each as they finish.

Games are played to the end through ``games.services`` by bots (see
``ratinghelpers``); the rating task runs from the ``game_ended`` receiver.
"""

from __future__ import annotations

from io import StringIO
from itertools import combinations
from typing import Any

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from evergreen.celery import app as celery_app
from games import ratings, services, tasks
from games.models import Game, Rating, RatingChange, Seat, shown_rating
from games.ratings import NEW_PLAYER, Skill, places, rate_table
from games.signals import game_ended
from tests.games.gamehelpers import committed, make_user, play_until
from tests.games.ratinghelpers import (  # noqa: F401 - fixtures
    finish,
    finished_game,
    fixed_seeds,
    scores_by_user,
    start_game,
    unrated_on_finish,
)


class TestTheArithmetic:
    def test_equal_scores_share_the_better_place(self) -> None:
        assert places([40, 52, 40, 31]) == [2, 1, 2, 4]
        assert places([30, 30]) == [1, 1]
        assert places([10, 20, 30]) == [3, 2, 1]

    def test_the_winner_goes_up_and_the_loser_down(self) -> None:
        loser, winner = rate_table([NEW_PLAYER, NEW_PLAYER], [35, 48])
        assert winner.mu > NEW_PLAYER.mu > loser.mu
        assert winner.rating > loser.rating
        assert winner.sigma < NEW_PLAYER.sigma and loser.sigma < NEW_PLAYER.sigma

    def test_equal_players_who_tie_keep_their_skill_and_grow_surer(self) -> None:
        first, second = rate_table([NEW_PLAYER, NEW_PLAYER], [40, 40])
        assert first == second
        assert first.mu == pytest.approx(NEW_PLAYER.mu)
        assert first.sigma < NEW_PLAYER.sigma
        assert first.rating > NEW_PLAYER.rating  # surer, so the cautious estimate rises

    def test_four_players_move_in_the_order_of_their_places(self) -> None:
        after = rate_table([NEW_PLAYER] * 4, [31, 52, 40, 44])
        by_place = [after[i] for i in (1, 3, 2, 0)]
        mus = [skill.mu for skill in by_place]
        assert mus == sorted(mus, reverse=True) and len(set(mus)) == 4
        assert mus[0] > NEW_PLAYER.mu > mus[-1]

    def test_a_tie_in_a_three_player_game_gives_the_tied_players_the_same_change(self) -> None:
        after = rate_table([NEW_PLAYER] * 3, [40, 50, 40])
        assert after[0] == after[2]
        assert after[1].mu > after[0].mu

    def test_an_upset_moves_ratings_more_than_the_expected_result(self) -> None:
        strong, weak = Skill(32.0, 3.0), Skill(20.0, 3.0)
        expected = rate_table([strong, weak], [50, 40])
        upset = rate_table([strong, weak], [40, 50])
        assert upset[1].mu - weak.mu > expected[0].mu - strong.mu > 0

    def test_the_shown_rating_is_the_ordinal_on_an_elo_like_scale(self) -> None:
        assert NEW_PLAYER.rating == 1000
        assert shown_rating(30.0, 2.0) == 1000 + 40 * 24
        assert Rating._meta.get_field("rating").help_text  # says how it is made

    def test_a_game_needs_two_players_with_a_score_each(self) -> None:
        with pytest.raises(ValueError):
            rate_table([NEW_PLAYER], [40])
        with pytest.raises(ValueError):
            rate_table([NEW_PLAYER, NEW_PLAYER], [40])


def changes(game: Game) -> dict[int, RatingChange]:
    return {change.user_id: change for change in RatingChange.objects.filter(game=game)}


def skills() -> dict[int, tuple[float, float, int, int]]:
    return {
        r.user_id: (r.mu, r.sigma, r.rating, r.games) for r in Rating.objects.filter(games__gt=0)
    }


def assert_ordered_by_place(game: Game) -> None:
    """Between players who started equal, a better place never moves less."""
    found = changes(game)
    scores = scores_by_user(game)
    assert set(found) == set(scores)
    for a, b in combinations(found.values(), 2):
        assert a.place == 1 + sum(s > scores[a.user_id] for s in scores.values())
        moved_a, moved_b = a.mu_after - a.mu_before, b.mu_after - b.mu_before
        if a.place < b.place:
            assert moved_a > moved_b
        elif a.place == b.place:
            assert moved_a == pytest.approx(moved_b)


@pytest.mark.django_db
@pytest.mark.usefixtures("fixed_seeds")
class TestRatingFinishedGames:
    def test_game_ended_receivers_read_the_finished_game_and_its_final_scores(
        self, alice: Any, bob: Any
    ) -> None:
        seen: list[tuple[int, list[int]]] = []

        def look(sender: Any, game_id: int, status: str, **kwargs: Any) -> None:
            game = Game.objects.get(pk=game_id)
            seen.append((game.status, [seat.score for seat in game.seats.order_by("position")]))

        game_ended.connect(look, dispatch_uid="test_ratings_look")
        try:
            game = finished_game([alice, bob])
        finally:
            game_ended.disconnect(dispatch_uid="test_ratings_look")
        final = [seat.score for seat in game.engine_state().seats]
        assert seen == [(Game.Status.FINISHED, final)]

    def test_a_finished_two_player_game_moves_the_winner_up_and_the_loser_down(
        self, alice: Any, bob: Any
    ) -> None:
        game = finished_game([alice, bob])
        found = changes(game)
        scores = scores_by_user(game)
        assert scores[alice.pk] != scores[bob.pk]  # this seed has a winner
        winner, loser = sorted(found.values(), key=lambda c: -scores[c.user_id])
        assert (winner.place, loser.place) == (1, 2)
        assert winner.mu_after > winner.mu_before == NEW_PLAYER.mu
        assert loser.mu_after < loser.mu_before
        assert winner.rating_before == loser.rating_before == 1000
        assert winner.rating_after > loser.rating_after
        for change in found.values():
            rating = Rating.objects.get(user_id=change.user_id)
            assert (rating.mu, rating.sigma, rating.games) == (
                change.mu_after,
                change.sigma_after,
                1,
            )
            assert rating.rating == change.rating_after == shown_rating(rating.mu, rating.sigma)
        assert ratings.rating_of(alice) == Rating.objects.get(user=alice)

    def test_three_and_four_player_games_order_the_changes_by_place(self) -> None:
        three = [make_user(name) for name in ("ann", "ben", "cat")]
        four = [make_user(name) for name in ("dan", "eve", "fay", "gus")]
        for users in (three, four):
            game = finished_game(users)
            assert len(changes(game)) == len(users)
            assert_ordered_by_place(game)

    def test_a_later_game_starts_from_the_rating_the_earlier_one_left(
        self, alice: Any, bob: Any, carol: Any
    ) -> None:
        first = finished_game([alice, bob])
        second = finished_game([carol, alice], bot_seed=1)
        before = changes(second)[alice.pk]
        after_first = changes(first)[alice.pk]
        assert (before.mu_before, before.sigma_before) == (
            after_first.mu_after,
            after_first.sigma_after,
        )
        assert Rating.objects.get(user=alice).games == 2
        history = ratings.history(alice)
        assert [p.game_id for p in history] == [first.pk, second.pk]
        assert [p.rating for p in history] == [after_first.rating_after, before.rating_after]

    def test_an_adjudicated_game_is_rated_on_the_scores_it_was_ended_with(
        self, alice: Any, bob: Any, carol: Any
    ) -> None:
        game = start_game([alice, bob, carol])
        play_until(game, lambda state: state.season == 2)
        with committed():  # the rating task runs once the game's end is committed
            services.adjudicate_game(game.pk)
        game.refresh_from_db()
        state = game.engine_state()
        assert not state.is_over and game.status == Game.Status.FINISHED
        scores = scores_by_user(game)
        assert sorted(scores.values()) == sorted(seat.score for seat in state.seats)
        assert len(changes(game)) == 3
        assert_ordered_by_place(game)

    def test_players_with_equal_scores_share_a_place_and_the_same_change(
        self, alice: Any, bob: Any
    ) -> None:
        game = start_game([alice, bob])
        play_until(game, lambda state: state.round > 1 and len({s.score for s in state.seats}) == 1)
        with committed():
            services.adjudicate_game(game.pk)
        found = changes(game)
        assert {c.place for c in found.values()} == {1}
        assert found[alice.pk].mu_after == pytest.approx(found[bob.pk].mu_after)
        assert found[alice.pk].mu_after == pytest.approx(NEW_PLAYER.mu)

    def test_a_seat_handed_to_the_bot_still_counts_for_its_player(
        self, alice: Any, bob: Any
    ) -> None:
        game = start_game([alice, bob])
        # What timeouts.time_out does after repeated timeouts: the bot plays the seat on.
        Seat.objects.filter(game=game, user=bob).update(bot="greedy", handed_to_bot=True)
        finish(game)
        assert set(changes(game)) == {alice.pk, bob.pk}


@pytest.mark.django_db
@pytest.mark.usefixtures("fixed_seeds")
class TestOnlyRatedGamesCount:
    def test_an_unrated_game_changes_no_rating(self, alice: Any, bob: Any) -> None:
        game = finished_game([alice, bob], rated=False)
        assert ratings.rate_game(game.pk) is False
        assert not Rating.objects.exists() and not RatingChange.objects.exists()
        assert ratings.rating_of(alice) is None

    def test_solo_and_computer_games_are_never_rated(self, alice: Any) -> None:
        solo = services.create_game(alice, players=1, rated=True)
        bots = services.create_game(alice, players=3, computer_seats=2, rated=True)
        for game in (solo, bots):
            finish(game)
            assert not game.rated
            # Even if someone set the flag by hand, a computer seat or a solo game is refused.
            Game.objects.filter(pk=game.pk).update(rated=True)
            assert ratings.rate_game(game.pk) is False
        assert not RatingChange.objects.exists()
        assert not ratings.pending_games().exists()

    def test_an_aborted_or_unfinished_rated_game_is_not_rated(
        self, alice: Any, bob: Any, carol: Any
    ) -> None:
        aborted = start_game([alice, bob])
        services.abort_game(aborted.pk)
        playing = start_game([alice, carol])
        for game in (aborted, playing):
            assert ratings.rate_game(game.pk) is False
        assert ratings.rate_game(987654) is False
        assert not RatingChange.objects.exists()


@pytest.mark.django_db
@pytest.mark.usefixtures("fixed_seeds")
class TestOnceOnly:
    def test_rating_a_game_again_changes_nothing(self, alice: Any, bob: Any) -> None:
        game = finished_game([alice, bob])
        stored = skills()
        assert ratings.rate_game(game.pk) is False
        assert tasks.rate_game.apply(args=[game.pk]).get() is False
        tasks.rate_game.apply(args=[game.pk])
        services.announce_end(game)  # the signal sent again: its receiver runs again
        assert skills() == stored
        assert RatingChange.objects.filter(game=game).count() == 2

    @pytest.mark.usefixtures("unrated_on_finish")
    def test_the_task_run_twice_rates_once(self, alice: Any, bob: Any) -> None:
        game = finished_game([alice, bob])
        assert not RatingChange.objects.exists()
        assert [tasks.rate_game.apply(args=[game.pk]).get() for _ in range(2)] == [True, False]
        assert RatingChange.objects.filter(game=game).count() == 2
        assert Rating.objects.get(user=alice).games == 1

    @pytest.mark.usefixtures("unrated_on_finish")
    def test_the_safety_net_rates_lost_games_oldest_first(
        self, alice: Any, bob: Any, carol: Any
    ) -> None:
        first = finished_game([alice, bob])
        second = finished_game([alice, carol], bot_seed=2)
        assert list(ratings.pending_games()) == [first, second]
        assert tasks.rate_pending_games.apply().get() == 2
        assert tasks.rate_pending_games.apply().get() == 0
        assert changes(second)[alice.pk].mu_before == changes(first)[alice.pk].mu_after

    @pytest.mark.usefixtures("unrated_on_finish")
    def test_a_game_rated_late_is_taken_in_after_the_earlier_lost_one(
        self, alice: Any, bob: Any, carol: Any
    ) -> None:
        first = finished_game([alice, bob])
        second = finished_game([carol, alice], bot_seed=3)
        assert ratings.rate_game(second.pk) is True
        assert changes(second)[alice.pk].mu_before == changes(first)[alice.pk].mu_after
        assert ratings.rate_game(first.pk) is False

    def test_the_safety_net_is_in_the_beat_schedule(self) -> None:
        entries = [e["task"] for e in settings.CELERY_BEAT_SCHEDULE.values()]
        assert "games.tasks.rate_pending_games" in entries
        assert "games.tasks.rate_pending_games" in celery_app.tasks
        assert "games.tasks.rate_game" in celery_app.tasks


@pytest.mark.django_db
@pytest.mark.usefixtures("fixed_seeds")
class TestRecompute:
    @pytest.mark.slow  # rates many whole games twice
    def test_recomputing_gives_exactly_what_the_games_gave_one_by_one(self) -> None:
        players = [make_user(name) for name in ("hal", "ida", "jon", "kim", "lea")]
        hal, ida, jon, kim, lea = players
        tables = [
            [hal, ida],
            [jon, kim, lea],
            [ida, jon, hal, kim],
            [lea, hal],
            [kim, ida, lea],
        ]
        for seed, table in enumerate(tables):
            finished_game(table, bot_seed=seed)
        finished_game([hal, jon], rated=False)
        incremental = skills()
        history = list(
            RatingChange.objects.order_by("game_id", "user_id").values_list(
                "game_id",
                "user_id",
                "place",
                "mu_before",
                "mu_after",
                "sigma_after",
                "rating_after",
            )
        )
        assert len(history) == sum(len(t) for t in tables)
        assert sorted(games for *_rest, games in incremental.values()) == [2, 3, 3, 3, 3]

        call_command("recompute_ratings", stdout=StringIO())
        assert skills() == incremental
        assert (
            list(
                RatingChange.objects.order_by("game_id", "user_id").values_list(
                    "game_id",
                    "user_id",
                    "place",
                    "mu_before",
                    "mu_after",
                    "sigma_after",
                    "rating_after",
                )
            )
            == history
        )
        call_command("recompute_ratings", "--check", stdout=StringIO())

    def test_check_reports_ratings_that_differ_from_the_history(self, alice: Any, bob: Any) -> None:
        finished_game([alice, bob])
        Rating.objects.filter(user=alice).update(mu=40.0)
        with pytest.raises(CommandError, match="1 ratings differ"):
            call_command("recompute_ratings", "--check", stdout=StringIO())
        assert Rating.objects.get(user=alice).mu == 40.0  # --check changed nothing
        call_command("recompute_ratings", stdout=StringIO())
        assert Rating.objects.get(user=alice).mu != 40.0
        call_command("recompute_ratings", "--check", stdout=StringIO())

    def test_recomputing_forgets_games_that_no_longer_count(self, alice: Any, bob: Any) -> None:
        game = finished_game([alice, bob])
        Game.objects.filter(pk=game.pk).update(rated=False)  # e.g. an organizer's correction
        out = StringIO()
        call_command("recompute_ratings", stdout=out)
        assert "Rated 0 games" in out.getvalue()
        assert not Rating.objects.exists() and not RatingChange.objects.exists()
