"""Parts of the game page kept in the cache for one version of a game (the game log, the
score chart, the opponents' planets), so the page after a move is worked out once per
version, seat and language rather than on every view.

A part is stored under the game, its version (bumped by every change: a move, a reveal,
a join), whose eyes it was made for (a seat, or ``"all"`` for what every viewer sees
alike: never a seat's secret), the active language and the players' names. Nothing needs
deleting after a move: the next version's keys are new, the old ones expire.
``settings.GAME_FRAGMENT_CACHE_SECONDS`` is how long (0: nothing is kept).

A part made from the moves and the state snapshot alone (the log, a revealed planet) is
kept under ``play_state(game)`` instead of the version: the changes that bump the version
without a move or a reveal (a join, a deadline, a rematch offer, a player on vacation)
leave it where it is.

A part drawn from a few facts that many games share (an empty planet, the Power tracks
of a new seat) is kept for every game alike (``Part.shared``, ``shared_key``): under a
digest of all it is drawn from, with no game and no names in it (the caller leaves holes
for them and fills them on every page).

What changes without the version (the hints a game's players took, a player's mute, block
and mail choices) is kept with a stamp of its own (``stamped``), which the write that
changes it replaces once committed (``restamp_on_commit``); a write that knows the value
without reading it (a new user has chosen nothing) keeps it so (``known_on_commit``).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import translation

from . import keptafter, nearcache

if TYPE_CHECKING:
    from .models import Game

T = TypeVar("T")
EVERYONE = "all"


# Where ``play_state`` notes what it worked out on the game's instance (an attribute of
# our own), with the snapshot it read: a page asks twice, and ``games.rowcache`` keeps the
# note with the rows, so a page drawn from kept rows never works it out.
_PLAY_STATE = "evergreen_play_state"


def play_state(game: Game) -> str:
    """What the game's moves and snapshot are, in a few characters: the number of moves
    (Move rows are only ever added) and a digest of the state snapshot."""
    noted = getattr(game, _PLAY_STATE, None)
    read = (game.state, game.moves_count, game.invite_code)
    # The very snapshot object noted (a new state is a new object; none is changed in place)
    if noted is not None and noted[0] is read[0] and noted[1:3] == read[1:]:
        return str(noted[3])
    state = json.dumps(game.state, sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(f"{game.invite_code}\x1f{state}".encode()).hexdigest()[:24]
    found = f"m{game.moves_count}-{digest}"
    setattr(game, _PLAY_STATE, (*read, found))
    return found


def digest(*made_from: object) -> str:
    """What a part was made from, in a few characters, for ``made_from``: the ``repr`` of
    plain values (dicts, lists, strings, numbers) says all there is in them."""
    return "d" + hashlib.sha256(repr(made_from).encode()).hexdigest()[:24]


def key(
    game: Game,
    part: str,
    eyes: int | str | None,
    names: Sequence[str],
    made_from: str | None = None,
) -> str:
    """The cache key of ``part`` of ``game`` at its version (or at ``made_from``: see
    ``play_state``), made for ``eyes`` (a seat's position, None for a spectator,
    ``EVERYONE`` for what is the same for all)."""
    whose = "spectator" if eyes is None else str(eyes)
    # The game's invitation code with the names: a game made again under an old number
    # (a database emptied and filled again) is another game, whatever its version.
    named = hashlib.sha256("\x1f".join([game.invite_code, *names]).encode()).hexdigest()[:16]
    language = translation.get_language() or ""
    at = game.version if made_from is None else made_from
    return f"game-part:{game.pk}:{at}:{part}:{whose}:{language}:{named}"


def kept(
    game: Game,
    part: str,
    eyes: int | str | None,
    names: Sequence[str],
    make: Callable[[], T],
    *,
    made_from: str | None = None,
) -> T:
    """``part`` as ``make()`` makes it, from the cache when this version's (or this
    ``made_from``'s) is there."""
    if not seconds():
        return make()
    where = key(game, part, eyes, names, made_from)
    found: T | None = nearcache.find(where)
    if found is not None:
        return found
    made = make()
    nearcache.keep(where, made, seconds())
    return made


def shared_key(part: str, eyes: int | str | None, made_from: str) -> str:
    """The cache key of ``part`` drawn from ``made_from`` alone (a ``digest`` of all it is
    drawn from: nothing of one game, its players' names included, is in it), for every
    game alike: a planet as revealed, a panel of a brand-new game looks the same at every
    table."""
    whose = "spectator" if eyes is None else str(eyes)
    language = translation.get_language() or ""
    return f"shared-part:{made_from}:{part}:{whose}:{language}"


@dataclass(frozen=True)
class Part:
    """A part of a page asked for with others (``kept_together``): what ``kept`` takes;
    ``shared``: kept for every game alike (``shared_key``), under ``made_from``, which then
    names all it is drawn from but the game."""

    name: str
    eyes: int | str | None
    make: Callable[[], Any]
    made_from: str | None = None
    shared: bool = False

    def key(self, game: Game, names: Sequence[str]) -> str:
        if self.shared:
            assert self.made_from is not None, "a shared part is kept under what it is made from"
            return shared_key(self.name, self.eyes, self.made_from)
        return key(game, self.name, self.eyes, names, self.made_from)


def kept_together(game: Game, names: Sequence[str], parts: Sequence[Part]) -> list[Any]:
    """Each of ``parts`` as ``kept`` would find or make it, in order, with one round trip
    to the cache for all of them (and one more to keep those that had to be made)."""
    if not seconds():
        return [part.make() for part in parts]
    keys = [part.key(game, names) for part in parts]
    found = nearcache.find_many(keys)
    made: dict[str, Any] = {}
    values = []
    for where, part in zip(keys, parts, strict=True):
        value = found.get(where)
        if value is None:
            value = made[where] = part.make()
        values.append(value)
    if made:
        nearcache.keep_many(made, seconds())
    return values


def seconds() -> int:
    """How long a part is kept (``GAME_FRAGMENT_CACHE_SECONDS``; 0: nothing is kept)."""
    return int(getattr(settings, "GAME_FRAGMENT_CACHE_SECONDS", 0))


def keeping() -> bool:
    """Whether parts are kept at all (``GAME_FRAGMENT_CACHE_SECONDS`` not 0)."""
    return seconds() > 0


# How many of the best keys ``first_found`` asks for in its first round trip.
FIRST_ASKED = 2


def first_found(keys: Sequence[str]) -> tuple[str, object] | None:
    """The first of ``keys`` (best first) that the cache holds, with its value, for parts
    that are kept under what they were made from rather than the version (a content
    digest), so nothing stale can be found under a key. Every value a round trip finds is
    unpickled, and a big part is big to unpickle: the best ``FIRST_ASKED`` are asked for
    first (the one sought is usually among them), the others in a second round trip."""
    if not seconds() or not keys:
        return None
    for asked in (keys[:FIRST_ASKED], keys[FIRST_ASKED:]):
        found = keptafter.found(asked) if asked else {}
        for where in asked:
            if where in found:
                return where, found[where]
    return None


def all_found(keys: Sequence[str]) -> dict[str, object]:
    """Those of ``keys`` the cache holds (or this request kept: ``games.keptafter``), with
    their values (one round trip)."""
    return keptafter.found(keys) if seconds() and keys else {}


def keep(where: str, value: object) -> None:
    """Keep ``value`` under ``where`` (a key that names what it was made from), once the
    response has gone (``games.keptafter``)."""
    if seconds():
        keptafter.keep(where, value, seconds())


def _stamp_key(name: str) -> str:
    return f"stamp:{name}"


def _kept_key(name: str) -> str:
    """Where what ``stamped`` made is kept, with the stamp it was made under."""
    return f"stamped:{name}"


def _stamp(name: str) -> str | None:
    """A new stamp for ``name``, found missing: ours, or the one another request added
    since (the one to share); None while the cache is away."""
    where, new = _stamp_key(name), uuid.uuid4().hex
    if cache.add(where, new, seconds()):
        return new
    found: str | None = cache.get(where)
    return found


@dataclass(frozen=True)
class ReadAhead:
    """Stamped entries read before anyone asked for them (``read_ahead_keys``), in the
    round trip of the request's user (``games.usercache.read_with_user``), noted on the
    user (``note_read_ahead``). Taken by ``stamped`` only while this process restamped
    nothing since (``_restamps``): a request that changed one of them reads it again."""

    names: frozenset[str]
    found: dict[str, Any]
    restamps: int


# Restamps this process made: a ReadAhead read before one of them is not taken after it.
_restamps = 0


def read_ahead_keys(names: Iterable[str]) -> list[str]:
    """The keys ``stamped`` reads for each of ``names`` (its stamp, what was kept)."""
    return [key for name in names for key in (_stamp_key(name), _kept_key(name))]


def note_read_ahead(owner: Any, names: Iterable[str], found: Mapping[str, Any]) -> None:
    """Note on ``owner`` (a request's user) what the cache answered for ``names``'s keys
    (``read_ahead_keys``; a key it did not answer is not there)."""
    keys = read_ahead_keys(names)
    owner.evergreen_read_ahead = ReadAhead(
        frozenset(names), {key: found[key] for key in keys if key in found}, _restamps
    )


def stamped(name: str, make: Callable[[], T], *, owner: Any = None) -> T:
    """``make()``, kept under ``name`` (which says whose it is: a game's, a user's) with the
    stamp it was made under: found again until ``restamp_on_commit(name)``. The stamp and
    what was kept are read in one round trip, or none when they were read ahead with
    ``owner`` (``note_read_ahead``); what was kept under another stamp is made again."""
    if not keeping():
        return make()
    where = _kept_key(name)
    ahead = getattr(owner, "evergreen_read_ahead", None)
    if isinstance(ahead, ReadAhead) and name in ahead.names and ahead.restamps == _restamps:
        found = ahead.found
    else:
        found = cache.get_many([_stamp_key(name), where])
    stamp: str | None = found.get(_stamp_key(name))
    if stamp is None:
        stamp = _stamp(name)
        if stamp is None:
            return make()
    else:
        kept = found.get(where)
        if isinstance(kept, tuple) and len(kept) == 2 and kept[0] == stamp:
            return kept[1]  # type: ignore[no-any-return]
    made = make()
    cache.set(where, (stamp, made), seconds())
    return made


def known_on_commit(name: str, value: object) -> None:
    """``value`` kept as what ``stamped(name, ...)`` makes, once the transaction commits,
    by a write that knows it without reading (a user just made has chosen nothing): under
    a stamp of its own, and only where there is none yet, so a ``restamp_on_commit``
    racing it, or a value kept before, is never overtaken."""

    def keep_known() -> None:
        new = uuid.uuid4().hex
        if keeping() and cache.add(_stamp_key(name), new, seconds()):
            cache.set(_kept_key(name), (new, value), seconds())

    transaction.on_commit(keep_known, robust=True)


def restamp_on_commit(name: str) -> None:
    """A new stamp for ``name`` once the transaction commits (at once outside one). A view
    that read the rows before the commit may still keep what it made, but with the old
    stamp, which no lookup takes again."""

    def restamp() -> None:
        global _restamps
        _restamps += 1  # before the new stamp: nothing read ahead of it is taken after
        if keeping():
            cache.set(_stamp_key(name), uuid.uuid4().hex, seconds())

    transaction.on_commit(restamp, robust=True)
