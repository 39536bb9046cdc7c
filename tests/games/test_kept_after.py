"""What a request keeps for the requests after it (``games.keptafter``) is written once
its response has gone, in one write per timeout: the viewer's answer never waits for it,
the request itself finds what it kept, the next request finds it in the cache, and outside
a request it is written at once."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from games import fragments, nearcache
from games.models import Game
from tests.games.cachecalls import answered, counted, response_sent
from tests.games.gamehelpers import client_for, submit

pytestmark = pytest.mark.usefixtures("kept_parts")


@pytest.fixture
def writes(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The keys of every write to the shared cache, one list per write, in order."""
    return counted(monkeypatch, "set", "set_many")


def test_what_a_request_keeps_is_written_once_its_response_has_gone_in_one_write(writes):
    def view() -> None:
        fragments.keep("part-a", "drawn a")
        nearcache.keep_many({"chapter-1": ("told", "drawn 1")}, fragments.seconds())
        fragments.keep("part-b", "drawn b")

    answered(view)
    assert writes == []
    assert cache.get_many(["part-a", "part-b", "chapter-1"]) == {}

    response_sent()

    assert [sorted(keys) for keys in writes] == [["chapter-1", "part-a", "part-b"]]
    assert cache.get_many(["part-a", "part-b", "chapter-1"]) == {
        "part-a": "drawn a",
        "part-b": "drawn b",
        "chapter-1": ("told", "drawn 1"),
    }


def test_the_request_finds_what_it_kept_before_it_is_written():
    found: dict[str, object] = {}

    def view() -> None:
        fragments.keep("part-a", "drawn a")
        nearcache.keep("rows", {"game": 1}, fragments.seconds())
        nearcache.forget_all()  # as a process that filled its memory meanwhile
        found.update(fragments.all_found(["part-a", "part-b"]))
        found.update(nearcache.find_many(["rows"]))
        found["first"] = fragments.first_found(["part-b", "part-a"])

    answered(view)
    response_sent()

    assert found == {"part-a": "drawn a", "rows": {"game": 1}, "first": ("part-a", "drawn a")}


def test_a_key_kept_twice_in_one_request_keeps_the_later_value(writes):
    def view() -> None:
        fragments.keep("head", "told to move 3")
        fragments.keep("head", "told to move 4")

    answered(view)
    response_sent()

    assert writes == [["head"]]
    assert cache.get("head") == "told to move 4"


def test_outside_a_request_what_is_kept_is_written_at_once(writes):
    fragments.keep("part-a", "drawn a")

    assert writes == [["part-a"]]
    assert cache.get("part-a") == "drawn a"


# What a page keeps for the pages after it: the rows, its parts, the log's telling and moves.
DRAWN_OR_READ = ("game-rows:", "game-part:", "shared-part:", "game-told-", "game-moves:")


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("kept_users", "kept_rows")
def test_a_page_drawn_after_a_move_keeps_all_it_drew_in_one_write_per_timeout(
    two_player_game: Game, alice, bob, carol, writes
):
    game, viewer = two_player_game, client_for(carol)
    viewer.get(reverse("games:detail", args=[game.pk]))
    state = game.engine_state()
    submit(game.pk, (alice, bob)[state.to_pick], {"type": "pick", "card": state.pool[0]})
    writes.clear()

    response = viewer.get(reverse("games:detail", args=[game.pk]))

    assert response.status_code == 200
    kept = [keys for keys in writes if any(key.startswith(DRAWN_OR_READ) for key in keys)]
    assert len(kept) == 2, kept  # the rows' timeout and the parts'
    assert any(key.startswith("game-rows:") for key in kept[0] + kept[1])
    assert any(key.startswith("game-part:") for key in kept[0] + kept[1])
    assert all(key.startswith(DRAWN_OR_READ) for key in kept[0] + kept[1])
    writes.clear()
    again = viewer.get(reverse("games:detail", args=[game.pk]))
    assert again.content.count(b'class="pool-card') == response.content.count(b'class="pool-card')
    assert not [keys for keys in writes if any(key.startswith(DRAWN_OR_READ) for key in keys)]


def test_a_value_is_written_as_it_was_when_kept_whatever_the_request_changes_after():
    found: dict[str, object] = {}

    def view() -> None:
        rows = {"game": 1, "seats": ["ann", "bob"]}
        nearcache.keep("rows", rows, fragments.seconds())
        part = ["drawn for everyone"]
        fragments.keep("part", part)
        # The request goes on with what it kept, and notes something for its own viewer.
        rows["viewer"] = "ann"
        rows["seats"].append("ann's hand")  # type: ignore[attr-defined]
        part.append("ann's secret")
        found.update(nearcache.find_many(["rows"]))

    answered(view)
    response_sent()
    nearcache.forget_all()  # another process

    kept = {"game": 1, "seats": ["ann", "bob"]}
    assert found == {"rows": kept}  # in this process too: as kept
    assert nearcache.find_many(["rows"]) == {"rows": kept}
    assert cache.get("part") == ["drawn for everyone"]
