"""What ``games.fragments.stamped`` keeps: found again, in one round trip, until the stamp
is replaced; never what was made under a stamp replaced since."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache

from games import fragments


class Maker:
    """A ``make`` that counts its calls and answers what it is told to."""

    def __init__(self, value: Any) -> None:
        self.value, self.calls = value, 0

    def __call__(self) -> Any:
        self.calls += 1
        return self.value


def test_what_is_kept_is_found_again_until_the_stamp_is_replaced(
    kept_parts, db, django_capture_on_commit_callbacks
):
    make = Maker("first")
    assert fragments.stamped("test-thing:1", make) == "first"
    assert fragments.stamped("test-thing:1", make) == "first"
    assert make.calls == 1
    with django_capture_on_commit_callbacks(execute=True):
        fragments.restamp_on_commit("test-thing:1")
    make.value = "second"
    assert fragments.stamped("test-thing:1", make) == "second"
    assert make.calls == 2


def test_what_was_made_under_a_replaced_stamp_is_made_again(
    kept_parts, db, django_capture_on_commit_callbacks
):
    # A view that read the rows before a write committed keeps what it made with the
    # stamp it read: once the write replaced the stamp, nobody takes it.
    stale = Maker("stale")
    fragments.stamped("test-thing:2", Maker("warm"))
    stamp = cache.get("stamp:test-thing:2")
    with django_capture_on_commit_callbacks(execute=True):
        fragments.restamp_on_commit("test-thing:2")
    cache.set("stamped:test-thing:2", (stamp, stale()), 60)
    assert fragments.stamped("test-thing:2", Maker("fresh")) == "fresh"


def test_nothing_is_kept_when_parts_are_not_kept(db, settings):
    settings.GAME_FRAGMENT_CACHE_SECONDS = 0
    make = Maker("made")
    fragments.stamped("test-thing:3", make)
    fragments.stamped("test-thing:3", make)
    assert make.calls == 2
