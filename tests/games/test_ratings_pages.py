"""The leaderboard page and a player's rating page, for visitors and logged-in players."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from games import ratings
from games.models import Rating, RatingChange
from games.views import ratings as rating_views
from tests.games.gamehelpers import client_for, make_user
from tests.games.ratinghelpers import adjudicated_game, fixed_seeds  # noqa: F401 - fixture

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fixed_seeds")]


@pytest.fixture
def rated(alice: Any, bob: Any, carol: Any) -> list[Any]:
    """Two rated games: alice and bob, then carol, alice and bob."""
    adjudicated_game([alice, bob])
    adjudicated_game([carol, alice, bob], rounds=3)
    return [alice, bob, carol]


def table_rows(html: str) -> list[str]:
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r"<tr.*?</tr>", body, re.S)


class TestTheLeaderboard:
    def test_a_visitor_sees_every_rated_player_best_first(self, rated: list[Any]) -> None:
        response = client_for(None).get(reverse("games:ratings"))
        assert response.status_code == 200
        html = response.content.decode()
        rows = table_rows(html)
        board = ratings.leaderboard()
        assert len(rows) == len(board) == 3
        for row, expected in zip(rows, board, strict=True):
            assert f">{expected.name}</a>" in row
            assert reverse("games:rating_player", args=[expected.user_id]) in row
            assert f">{expected.rating}" in row
        assert [r.rating for r in board] == sorted((r.rating for r in board), reverse=True)
        assert "Your rating" not in html
        assert f'href="{reverse("games:ratings")}"' in html  # the link in the site's navigation
        assert "provisional" in html  # everyone here has fewer than five rated games

    def test_a_rated_player_sees_their_rating_and_rank_and_their_row_marked(
        self, rated: list[Any]
    ) -> None:
        alice = rated[0]
        html = client_for(alice).get(reverse("games:ratings")).content.decode()
        mine = Rating.objects.get(user=alice)
        assert f"Your rating: {mine.rating} (rank {ratings.rank_of(mine)})" in html
        marked = [row for row in table_rows(html) if 'aria-current="true"' in row]
        assert len(marked) == 1 and ">Alice</a>" in marked[0]

    def test_a_player_without_a_rating_is_told_how_to_get_one(self, rated: list[Any]) -> None:
        html = client_for(make_user("dave")).get(reverse("games:ratings")).content.decode()
        assert "You have no rating yet" in html
        assert not any('aria-current="true"' in row for row in table_rows(html))

    def test_a_closed_account_leaves_the_leaderboard(self, rated: list[Any]) -> None:
        bob = rated[1]
        bob.is_active = False
        bob.save(update_fields=["is_active"])
        html = client_for(None).get(reverse("games:ratings")).content.decode()
        assert len(table_rows(html)) == 2 and ">Bob</a>" not in html
        assert [row.rank for row in ratings.leaderboard()] == [1, 2]
        assert (
            client_for(None).get(reverse("games:rating_player", args=[bob.pk])).status_code == 404
        )

    def test_with_no_rated_game_yet_it_says_so(self, alice: Any) -> None:
        html = client_for(alice).get(reverse("games:ratings")).content.decode()
        assert "Nobody has a rating yet" in html
        assert "<table" not in html

    def test_it_is_paginated_and_ranks_go_on_across_pages(
        self, rated: list[Any], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(rating_views, "PER_PAGE", 2)
        board = ratings.leaderboard()
        second = client_for(None).get(reverse("games:ratings"), {"page": 2}).content.decode()
        rows = table_rows(second)
        assert len(rows) == 1 and f">{board[2].name}</a>" in rows[0]
        assert f'<td data-label="Rank">{board[2].rank}</td>' in rows[0]
        assert "Page 2 of 2" in second
        bad = client_for(None).get(reverse("games:ratings"), {"page": "x"})
        assert bad.status_code == 200 and "Page 1 of 2" in bad.content.decode()


class TestTheLeaderboardFunctions:
    def test_a_clubs_leaderboard_ranks_its_members_among_themselves(self, rated: list[Any]) -> None:
        everyone = ratings.leaderboard()
        members = [everyone[1].user_id, everyone[2].user_id]
        club = ratings.leaderboard(user_ids=iter(members))
        assert [(row.rank, row.user_id) for row in club] == [(1, members[0]), (2, members[1])]
        last = Rating.objects.get(user_id=members[1])
        assert ratings.rank_of(last, members) == 2 and ratings.rank_of(last) == 3
        assert ratings.leaderboard_size(members) == 2 and ratings.leaderboard(user_ids=[]) == []

    def test_equal_ratings_share_a_rank_even_across_pages(self, rated: list[Any]) -> None:
        top = ratings.leaderboard()[0]
        other = next(user.pk for user in rated if user.pk != top.user_id)
        Rating.objects.filter(user_id=other).update(rating=top.rating, mu=0.0)
        Rating.objects.exclude(user_id__in=[top.user_id, other]).update(rating=top.rating - 5)
        board = ratings.leaderboard()
        assert [row.rank for row in board] == [1, 1, 3]
        assert [row.rank for row in ratings.leaderboard(limit=1, offset=1)] == [1]
        assert [row.rank for row in ratings.leaderboard(limit=2, offset=1)] == [1, 3]


class TestAPlayersRatingPage:
    def test_it_shows_the_rating_the_chart_and_each_rated_game(self, rated: list[Any]) -> None:
        alice = rated[0]
        response = client_for(None).get(reverse("games:rating_player", args=[alice.pk]))
        assert response.status_code == 200
        html = response.content.decode()
        rating = Rating.objects.get(user=alice)
        assert "Rating of Alice" in html and str(rating.rating) in html
        assert '<svg xmlns="http://www.w3.org/2000/svg" class="rating-chart" role="img"' in html
        assert "<title id=" in html and "over 2 rated games" in html
        rows = table_rows(html)
        changes = list(RatingChange.objects.filter(user=alice).order_by("-game__finished_at"))
        assert len(rows) == 2
        for row, change in zip(rows, changes, strict=True):
            assert change.game.get_absolute_url() in row
            assert f"{change.rating_before} → {change.rating_after}" in row
            sign = "+" if change.delta > 0 else ""
            assert f"{sign}{change.delta}</td>" in row
            assert f"{change.place} of {change.game.players}" in row

    def test_a_player_without_rated_games_has_a_page_that_says_so(self, alice: Any) -> None:
        carol = make_user("carol")
        html = client_for(alice).get(reverse("games:rating_player", args=[carol.pk])).content
        assert b"Carol has no rated games yet." in html
        own = client_for(alice).get(reverse("games:rating_player", args=[alice.pk])).content
        assert b"You have no rating yet" in own

    def test_an_unknown_player_is_not_found(self, alice: Any) -> None:
        assert (
            client_for(alice).get(reverse("games:rating_player", args=[987654])).status_code == 404
        )
        assert client_for(None).get("/ratings/abc/").status_code == 404
        assert client_for(None).get(f"/ratings/{10**30}/").status_code == 404
