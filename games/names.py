"""Display names: one spelling, nothing hidden, no look-alike of another player's name.

* ``normalise``: Unicode NFKC (full-width letters, ligatures and odd spaces become their
  plain forms), runs of spaces made one, ends trimmed.
* ``refusal``: why a normalised name cannot be used, or None: an invisible or
  text-direction character (Unicode format characters such as the zero-width space and
  the right-to-left override, control characters, unassigned code points), or letters of
  several alphabets that look alike (a Cyrillic o among Latin letters).
* ``skeleton``: the key two names share when they look the same: case folded, every
  letter that looks like a Latin one (Unicode's confusables, via confusable_homoglyphs)
  written as that letter. ``Player.name_key`` holds it, unique.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import lru_cache

from confusable_homoglyphs import confusables
from django.utils.translation import gettext as _

# Not letters, marks, numbers, punctuation, symbols or a plain space: control, format
# (zero-width, bidi controls), surrogate, private use, unassigned; line/paragraph breaks.
HIDDEN_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
MAX_LENGTH = 40


def normalise(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).split())


def refusal(name: str) -> str | None:
    """Why this (normalised) name cannot be a display name; None when it can."""
    if not name:
        return _("Choose a name other players will see.")
    if any(unicodedata.category(ch) in HIDDEN_CATEGORIES or ch in "\t\n\r" for ch in name):
        return _("A name cannot contain invisible or text-direction characters.")
    if confusables.is_dangerous(name):
        return _("This name mixes alphabets whose letters look alike; write it in one.")
    return None


@lru_cache(maxsize=4096)
def _latin(ch: str) -> str:
    if ch.isascii():
        return ch
    found = confusables.is_confusable(ch, greedy=True, preferred_aliases=[])
    for homoglyph in found[0]["homoglyphs"] if found else []:
        if homoglyph["c"].isascii():
            return str(homoglyph["c"])
    return ch


def unique_refusal(name: str, taken: Callable[[str], bool]) -> str | None:
    """``refusal``, or that another player's name looks the same (``taken(key)``: whether
    another player's name has that look-alike key)."""
    problem = refusal(name)
    if problem is None and taken(skeleton(name)):
        problem = _("Another player has this name, or one that looks the same.")
    return problem


def free_name(wanted: str, taken: Callable[[str], bool]) -> str:
    """A name for a new player: ``wanted`` (normalised, safe), else with a number after it
    (``taken(key)``: whether a player's name has that look-alike key)."""
    base = normalise(wanted)[: MAX_LENGTH - 4]
    if refusal(base) is not None:
        base = "player"
    name, number = base, 1
    while taken(skeleton(name)):
        number += 1
        name = f"{base} {number}"
    return name


def skeleton(name: str) -> str:
    folded = normalise(name).casefold()
    return "".join(_latin(ch) for ch in folded).casefold()
