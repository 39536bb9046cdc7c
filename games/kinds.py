"""The registry of game kinds: the one module through which the platform plays a game.

The platform (``games.services``, ``games.deadlines``, the notifications, pages, API,
ratings, lobby, admin and ``tournaments``) stores games, seats, moves and clocks; what a
game *is* comes from its kind, a ``GameKind`` (``games.kindinterface``) named by
``Game.kind``. Adding a game adds a package with a ``GameKind`` and one line in
``settings.GAME_KINDS``; the platform does not change.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.module_loading import import_string

# The interface and the values it passes, re-exported: the one module the platform reads.
from .kindinterface import GameKind, Move, State
from .kindtypes import Analyst, Chapter, Refusal, Setup, StoryLine, StoryOn, Summary

if TYPE_CHECKING:
    from .models import Game

__all__ = [
    "Analyst",
    "Chapter",
    "GameKind",
    "Move",
    "Refusal",
    "Setup",
    "State",
    "StoryLine",
    "StoryOn",
    "Summary",
]


@cache
def _registry() -> dict[str, GameKind]:
    kinds: dict[str, GameKind] = {}
    for path in settings.GAME_KINDS:
        kind = import_string(path)()
        kinds[kind.name] = kind
    return kinds


@receiver(setting_changed)
def _forget_registry(*, setting: str, **kwargs: object) -> None:
    if setting == "GAME_KINDS":
        _registry.cache_clear()


def kinds() -> dict[str, GameKind]:
    """Every registered kind by name (``settings.GAME_KINDS``, the first is the default)."""
    return _registry()


def get(name: str) -> GameKind:
    """The kind called ``name``; raises ``LookupError`` for an unknown one."""
    try:
        return _registry()[name]
    except KeyError:
        raise LookupError(f"No game kind {name!r} (settings.GAME_KINDS).") from None


def bot_choices() -> list[tuple[str, Any]]:
    """Every kind's computer players as (name, label), each name once (``Seat.bot``)."""
    choices: dict[str, Any] = {}
    for kind in _registry().values():
        for name, label in kind.bots.items():
            choices.setdefault(name, label)
    return list(choices.items())


def bot_label(name: str) -> Any:
    """The label of the computer player ``name`` (``name`` when no kind has it), as
    ``Seat.get_bot_display`` says it but without Django's hashable copy of every choice."""
    return dict(bot_choices()).get(name, name)


def default_name() -> str:
    return next(iter(_registry()))


def of(game: Game) -> GameKind:
    return get(game.kind)
