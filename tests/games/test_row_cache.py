"""A game's row and its seats' rows kept in the cache (``games.rowcache``): a reader gets
them from the cache while none of them changed, and after every kind of write there is
(a move, a hint, a standing order, a vacation, a deadline passing, a chat line, a
rematch, an abort, a plain ``update()``) exactly what the database holds, field by field,
though the rows kept before the write are still in the cache. With the cache unreachable
during the write (a cache that drops every write; a real Redis paused), the rows kept
before it are never served after it either."""

from __future__ import annotations

import os
import pickle
import signal
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import connection, transaction
from django.http import Http404
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import access, rowcache, services, timeouts, usercache
from games.analysis.hints import record_hint
from games.evergreen.rules.bots import RandomBot
from games.models import Game, Player, Seat
from games.rematches import services as rematches
from tests.benchmarks.webstack import RedisServer
from tests.games.gamehelpers import marks_gone, play_until, submit, user_at

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("kept_users", "kept_rows"),
]


@pytest.fixture
def timed_game(alice: Any, bob: Any) -> Game:
    """alice and bob, a day per move, in the first Draft."""
    game = services.create_game(alice, players=2, days_per_move=1)
    services.join_game(game.pk, bob)
    return Game.objects.get(pk=game.pk)


def row(instance: Any) -> dict[str, Any]:
    """Every column of a model instance, by name."""
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def from_the_database(pk: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    seats = Seat.objects.filter(game_id=pk).order_by("position")
    return row(Game.objects.get(pk=pk)), [row(seat) for seat in seats]


def as_a_page_reads(pk: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    game, _seat = access.game_for_viewer(pk, AnonymousUser())
    return row(game), [row(seat) for seat in game.seats_in_order()]


def as_the_api_reads(pk: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    game, seats, _seat = access.game_and_seats_for_viewer(pk, AnonymousUser())
    return row(game), [row(seat) for seat in seats]


def queries_of(read: Callable[[], Any]) -> int:
    with CaptureQueriesContext(connection) as captured:
        read()
    return len(captured)


def assert_reads_what_the_database_holds_after(pk: int, write: Callable[[], Any]) -> None:
    """The rows kept before ``write`` stay in the cache; both readers then give every
    field of the game and of each seat as the database has it."""
    as_a_page_reads(pk)
    before, kept_before = from_the_database(pk), rowcache.current_key(pk)
    assert kept_before is not None and cache.get(kept_before) is not None, "rows kept"
    write()
    assert cache.get(kept_before) is not None, "the old rows are still there to be served"
    now = from_the_database(pk)
    assert now != before, "the write changed a row"
    assert as_a_page_reads(pk) == now
    assert as_the_api_reads(pk) == now


class TestRowsKept:
    def test_a_second_read_asks_the_database_only_which_rows_are_current(
        self, action_game: Game
    ) -> None:
        marks_gone()  # the fixtures' saves of alice and bob: their rows may be kept again
        as_a_page_reads(action_game.pk)
        assert queries_of(lambda: as_a_page_reads(action_game.pk)) == 1
        assert queries_of(lambda: as_the_api_reads(action_game.pk)) == 1
        assert as_a_page_reads(action_game.pk) == from_the_database(action_game.pk)

    def test_the_seated_users_are_kept_under_their_rows_versions_without_the_password_hash(
        self, action_game: Game
    ) -> None:
        as_a_page_reads(action_game.pk)
        current = rowcache._current(action_game.pk)
        assert current is not None
        users = [cache.get(key) for key in current.users.values()]
        assert [user.player.display_name for user in users] == ["Alice", "Bob"]
        assert all("password" in user.get_deferred_fields() for user in users)
        hashes = (
            get_user_model().objects.filter(pk__in=current.users).values_list("password", flat=True)
        )
        assert all(h.encode() not in pickle.dumps(users) for h in hashes)

    def test_a_page_read_from_kept_rows_looks_up_no_user(
        self, action_game: Game, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        as_a_page_reads(action_game.pk)

        def no_lookup(ids: Any) -> dict[int, Any]:
            raise AssertionError(f"users {list(ids)} looked up")

        monkeypatch.setattr(usercache, "users", no_lookup)
        game, _seat = access.game_for_viewer(action_game.pk, AnonymousUser())
        assert [seat.name for seat in game.seats_in_order()] == ["Alice", "Bob"]

    def test_the_viewers_own_seat_holds_the_user_the_request_loaded(
        self, action_game: Game
    ) -> None:
        alice = user_at(action_game, 0)
        as_a_page_reads(action_game.pk)
        _page_game, seat = access.game_for_viewer(action_game.pk, alice)
        _game, seats, api_seat = access.game_and_seats_for_viewer(action_game.pk, alice)
        assert seat is not None and seat.user is alice
        assert api_seat is not None and api_seat.user is alice and seats[0] is api_seat

    def test_a_player_renamed_is_named_anew_by_a_save_as_by_an_update(
        self, action_game: Game
    ) -> None:
        as_a_page_reads(action_game.pk)
        bob = user_at(action_game, 1)
        bob.player.display_name = "Roberto"
        bob.player.save()
        game, _seat = access.game_for_viewer(action_game.pk, AnonymousUser())
        assert [seat.name for seat in game.seats_in_order()] == ["Alice", "Roberto"]
        # An update() sends no signal: the rows' versions tell all the same.
        Player.objects.filter(user=user_at(action_game, 0)).update(display_name="Alicia")
        get_user_model().objects.filter(pk=bob.pk).update(email="rob@example.org")
        game, _seat = access.game_for_viewer(action_game.pk, AnonymousUser())
        assert [seat.name for seat in game.seats_in_order()] == ["Alicia", "Roberto"]
        assert game.seats_in_order()[1].user.email == "rob@example.org"

    def test_no_such_game_is_a_404_as_before(self, action_game: Game) -> None:
        with pytest.raises(Http404):
            access.game_for_viewer(action_game.pk + 1000, AnonymousUser())
        with pytest.raises(Http404):
            access.game_and_seats_for_viewer(action_game.pk + 1000, AnonymousUser())

    def test_inside_a_transaction_nothing_is_kept_nor_found(self, action_game: Game) -> None:
        with transaction.atomic():
            Seat.objects.filter(game=action_game, position=0).update(score=7)
            assert as_a_page_reads(action_game.pk) == from_the_database(action_game.pk)
            uncommitted = rowcache.current_key(action_game.pk)
            assert uncommitted is not None and cache.get(uncommitted) is None
        assert as_a_page_reads(action_game.pk)[1][0]["score"] == 7

    def test_the_seats_come_with_the_game_read_and_point_back_to_it(
        self, action_game: Game, django_assert_num_queries: Any
    ) -> None:
        as_a_page_reads(action_game.pk)
        game, _seat = access.game_for_viewer(action_game.pk, AnonymousUser())
        with django_assert_num_queries(0):
            seats = game.seats_in_order()
            assert game.ordered_seats() is seats
            assert [s.position for s in seats] == [0, 1]
            assert all(s.game is game for s in seats) and seats[1].name == "Bob"

    def test_a_game_read_then_refreshed_reads_its_seats_anew(self, action_game: Game) -> None:
        game, _seat = access.game_for_viewer(action_game.pk, AnonymousUser())
        Seat.objects.filter(game=action_game, position=1).update(score=9)
        assert game.seats_in_order()[1].score != 9  # as the game was read
        game.refresh_from_db()
        assert game.seats_in_order()[1].score == 9


class TestEveryWriteIsSeenByTheNextRead:
    """The scenario corpus: each write, with the rows kept just before it."""

    def test_moves_through_a_round_and_its_closing(self, two_player_game: Game) -> None:
        def a_move() -> None:
            game = Game.objects.get(pk=two_player_game.pk)
            state = game.engine_state()
            seat = state.awaiting[0]
            submit(game.pk, user_at(game, seat), RandomBot(0).choose(state, seat))

        for _ in range(6):
            assert_reads_what_the_database_holds_after(two_player_game.pk, a_move)

    def test_a_hint_taken(self, action_game: Game) -> None:
        assert_reads_what_the_database_holds_after(
            action_game.pk, lambda: record_hint(action_game, 0)
        )

    def test_a_standing_order(self, two_player_game: Game) -> None:
        state = two_player_game.engine_state()
        waiting = 1 - state.awaiting[0]
        assert_reads_what_the_database_holds_after(
            two_player_game.pk,
            lambda: services.set_standing_order(
                two_player_game.pk, user_at(two_player_game, waiting), list(state.pool)
            ),
        )

    def test_a_vacation_begun_and_ended(self, timed_game: Game) -> None:
        player = user_at(timed_game, timed_game.engine_state().awaiting[0])
        assert_reads_what_the_database_holds_after(
            timed_game.pk, lambda: services.start_vacation(player, 3)
        )
        assert_reads_what_the_database_holds_after(
            timed_game.pk, lambda: services.end_vacation(player)
        )

    def test_a_deadline_passing(self, timed_game: Game) -> None:
        late = timezone.now() + timedelta(days=2)
        assert_reads_what_the_database_holds_after(timed_game.pk, lambda: timeouts.sweep(now=late))

    def test_a_chat_line(self, action_game: Game) -> None:
        from conversations.services import post_to_game

        alice = user_at(action_game, 0)
        assert_reads_what_the_database_holds_after(
            action_game.pk, lambda: post_to_game(alice, action_game, "Good luck!")
        )

    def test_an_abort(self, action_game: Game) -> None:
        assert_reads_what_the_database_holds_after(
            action_game.pk, lambda: services.abort_game(action_game.pk)
        )

    def test_a_rematch_offered_and_accepted(self, two_player_game: Game) -> None:
        game = play_until(two_player_game, lambda state: state.is_over, limit=2000)
        alice, bob = user_at(game, 0), user_at(game, 1)

        def accept(user: Any) -> Callable[[], Any]:
            def accepted() -> None:
                with transaction.atomic():
                    rematches.accept(game.pk, user)

            return accepted

        assert_reads_what_the_database_holds_after(game.pk, accept(alice))
        assert_reads_what_the_database_holds_after(game.pk, accept(bob))

    def test_any_update_of_a_game_or_a_seat_outside_the_services(self, action_game: Game) -> None:
        pk = action_game.pk
        assert_reads_what_the_database_holds_after(
            pk, lambda: Game.objects.filter(pk=pk).update(rated=True)
        )
        assert_reads_what_the_database_holds_after(
            pk, lambda: Seat.objects.filter(game_id=pk, position=1).update(timeouts_in_row=2)
        )

    def test_a_seat_given_to_a_computer_player(self, action_game: Game) -> None:
        assert_reads_what_the_database_holds_after(
            action_game.pk, lambda: services.hand_seat_to_bot(action_game.pk, 1)
        )


@pytest.fixture
def unreachable_while(monkeypatch: pytest.MonkeyPatch) -> Callable[[Callable[[], Any]], None]:
    """Run a write while the cache drops every write and answers every read with
    nothing (``evergreen.tolerant_cache`` with Redis unreachable), then give it back
    with all it held before, as Redis after a network fault."""

    def run(write: Callable[[], Any]) -> None:
        with monkeypatch.context() as down:
            down.setattr(cache, "get", lambda *a, **k: None)
            down.setattr(cache, "get_many", lambda *a, **k: {})
            for name in ("set", "set_many", "add", "delete", "delete_many", "touch"):
                down.setattr(cache, name, lambda *a, **k: None)
            write()

    return run


@pytest.fixture
def on_redis(redis_server: RedisServer, settings: Any) -> Iterator[RedisServer]:
    """The cache on a real Redis, through the site's tolerant client."""
    settings.CACHES = {
        "default": {
            "BACKEND": "evergreen.tolerant_cache.TolerantRedisCache",
            "LOCATION": redis_server.url(4),
        }
    }
    cache.clear()
    yield redis_server
    cache.clear()


def paused(server: RedisServer, write: Callable[[], Any]) -> Callable[[], None]:
    """``write`` while Redis answers nothing (stopped, not killed: it keeps what it held,
    as after a network fault), then Redis again."""

    def run() -> None:
        pid = server.child.pid  # type: ignore[union-attr]
        os.kill(pid, signal.SIGSTOP)
        try:
            write()
        finally:
            os.kill(pid, signal.SIGCONT)

    return run


class TestACacheUnreachableDuringAWrite:
    def test_with_redis_paused_during_a_hint_its_old_rows_are_never_served_after(
        self, action_game: Game, on_redis: RedisServer
    ) -> None:
        assert_reads_what_the_database_holds_after(
            action_game.pk, paused(on_redis, lambda: record_hint(action_game, 1))
        )

    def test_the_rows_kept_before_are_never_served_after(
        self, action_game: Game, unreachable_while: Callable[[Callable[[], Any]], None]
    ) -> None:
        pk = action_game.pk
        assert_reads_what_the_database_holds_after(
            pk, lambda: unreachable_while(lambda: record_hint(action_game, 1))
        )
        assert_reads_what_the_database_holds_after(
            pk,
            lambda: unreachable_while(
                lambda: Game.objects.filter(pk=pk).update(timeout_policy="minimal")
            ),
        )

    def test_reads_while_it_is_unreachable_come_from_the_database(
        self, action_game: Game, unreachable_while: Callable[[Callable[[], Any]], None]
    ) -> None:
        pk = action_game.pk
        found: list[Any] = []
        unreachable_while(lambda: found.append(as_a_page_reads(pk)))
        assert found == [from_the_database(pk)]


def test_what_a_read_keeps_is_under_the_key_the_next_lookup_asks_for(
    action_game: Game,
) -> None:
    as_a_page_reads(action_game.pk)
    kept = cache.get(str(rowcache.current_key(action_game.pk)))
    assert isinstance(kept, Game) and kept.pk == action_game.pk


def test_rows_kept_by_another_server_with_the_same_transaction_ids_are_never_found(
    action_game: Game,
) -> None:
    # A database restored into another server counts transaction ids of its own: the
    # same ids may name other rows there. What another server kept under these very ids
    # (here: the rows with a score no game has) is not what this server's reader finds.
    pk = action_game.pk
    with connection.cursor() as cursor:  # the rows' versions, as a lookup asks for them
        cursor.execute(rowcache._current_rows_sql(connection.vendor), [pk])
        _this_server, game_version, seat_versions = cursor.fetchone()
    forged = Game.objects.prefetch_related("seats").get(pk=pk)
    forged.version = 10_000
    cache.set(rowcache.rows_key(pk, "another server", game_version, seat_versions), forged)

    game, _seat = access.game_for_viewer(pk, AnonymousUser())

    assert game.version == action_game.version != 10_000
