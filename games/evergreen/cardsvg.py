"""Biome cards drawn as cards (SVG, on the server, like the planets of ``svg``).

A card is the biome's colour and pattern, its suit's name on a band at the top, the
Power's picture in a round window, the Power's name below it, and in the top corner the
card's icon: one or two Fertility leaves, the cracked sun of Aridity, or nothing. Every
name is in the reader's language. The picture itself is decorative (``aria-hidden``):
beside it a visually hidden sentence says the same ("Snow card, Power Plant Sprout, 1
Fertility icon"), so a screen reader speaks the card once.

The pieces' pictures and the biomes' patterns come from the page's shared drawings
(``templates/games/evergreen/_board_defs.html``, Evergreen's ``head_template``), the
biomes' colours from ``board.css``; only the Bud, which is no piece, is drawn here.
A page shows a handful of cards, each drawn once per language and kept.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from .pagewords import words

if TYPE_CHECKING:
    from .cards import CardInfo

WIDTH, HEIGHT = 72, 100  # SVG units: a card's proportions (63 by 88 mm)
NAME_ROOM = 62  # the width a name may take inside the card's margins
SUIT_SIZE = 10.5  # font sizes, in SVG units
POWER_SIZE = 8.5
GLYPH = 0.56  # an average glyph's width, in font sizes (generous: Cyrillic is wide)
POWER_LINE = 12  # characters on one line of a Power's name before it takes two

# The Bud (no piece of the planets): a stem, two leaves and a closed pink bud.
_BUD = (
    '<g transform="translate(36 50)">'
    '<path d="M0 14V-2" stroke="#1d3b12" stroke-width="2.2" stroke-linecap="round"/>'
    '<path d="M0 8c-6 0-9-3-9-7 5 0 9 2 9 7zM0 6c0-5 4-8 9-8 0 5-3 8-9 8z" '
    'fill="#8fd16b" stroke="#1d3b12" stroke-width="1.2"/>'
    '<path d="M0-16c5 3 6 9 0 14-6-5-5-11 0-14z" fill="#e9719f" stroke="#7a1f4d" '
    'stroke-width="1.3"/></g>'
)
# The corner icons: a Fertility leaf (drawn once or twice), the cracked sun of Aridity.
_LEAF = (
    '<g transform="translate({x} 11)"><circle r="6.2" fill="#fff" stroke="#1f4d12" '
    'stroke-width="1"/><path d="M-3 3c0-4 2-6 6-6 0 4-2 6-6 6zM-3 3l3-3" fill="#3f9a3a" '
    'stroke="#12310f" stroke-width=".8"/></g>'
)
_ARIDITY = (
    '<g transform="translate(61 11)"><circle r="6.2" fill="#fff4d6" stroke="#8a5a00" '
    'stroke-width="1"/><circle r="2.6" fill="#e0a200"/><path d="M0-5v1.4M0 5v-1.4M-5 0h1.4'
    'M5 0h-1.4M-3.5-3.5l1 1M3.5 3.5l-1-1M-3.5 3.5l1-1M3.5-3.5l-1 1" stroke="#8a5a00" '
    'stroke-width=".9"/></g>'
)


def _corner(icon: str) -> str:
    if icon == "F1":
        return _LEAF.format(x=61)
    if icon == "F2":
        return _LEAF.format(x=47) + _LEAF.format(x=61)
    if icon == "A":
        return _ARIDITY
    return ""


def _fitted(text: str, x: float, y: float, size: float, room: float, css: str) -> str:
    """A centred line of text, squeezed to ``room`` when it would be wider (a long name
    in German or Russian), never wider than the card."""
    squeeze = ""
    if len(text) * size * GLYPH > room:
        squeeze = f' textLength="{room}" lengthAdjust="spacingAndGlyphs"'
    return (
        f'<text class="{css}" x="{x}" y="{y}" font-size="{size}" text-anchor="middle"'
        f"{squeeze}>{escape(text)}</text>"
    )


def _lines(name: str) -> list[str]:
    """A Power's name on one line, or on two split at the space nearest the middle."""
    if len(name) <= POWER_LINE or " " not in name:
        return [name]
    spaces = [k for k, char in enumerate(name) if char == " "]
    cut = min(spaces, key=lambda k: abs(k - len(name) / 2))
    return [name[:cut], name[cut + 1 :]]


def _power_picture(power: str) -> str:
    if power == "bud":
        return _BUD
    return f'<use href="#piece-{escape(power)}" x="18" y="30" width="36" height="36"/>'


def _draw(suit: str, power: str, icon: str, suit_name: str, power_name: str) -> str:
    s = escape(suit)
    out = [
        f'<svg class="card-svg" viewBox="0 0 {WIDTH} {HEIGHT}" aria-hidden="true" '
        'focusable="false">',
        f'<rect class="biome-{s}" x="1" y="1" width="70" height="98" rx="7"/>',
        f'<rect x="1" y="1" width="70" height="98" rx="7" fill="url(#pat-{s})"/>',
        '<rect class="card-edge" x="1" y="1" width="70" height="98" rx="7"/>',
        '<rect class="card-band" x="5" y="19" width="62" height="15" rx="3"/>',
        _fitted(suit_name, 36, 30, SUIT_SIZE, NAME_ROOM - 2, "card-suit-name"),
        '<circle class="card-window" cx="36" cy="50" r="16"/>',
        _power_picture(power),
        _corner(icon),
    ]
    lines = _lines(power_name)
    top = 78 if len(lines) == 2 else 83
    out.append(
        f'<rect class="card-band" x="5" y="{top - 9}" width="62" '
        f'height="{11 * len(lines) + 3}" rx="3"/>'
    )
    out.extend(
        _fitted(line, 36, top + 11 * k, POWER_SIZE, NAME_ROOM - 2, "card-power-name")
        for k, line in enumerate(lines)
    )
    out.append("</svg>")
    return "".join(out)


@cache
def _drawn(language: str | None, card: CardInfo) -> SafeString:
    w = words()
    picture = _draw(card.suit, card.power, card.icon, w.biomes[card.suit], w.powers[card.power])
    return mark_safe(  # every text in it is escaped
        f'<span class="card-drawn suit-{escape(card.suit)}" '
        f'title="{escape(w.power_help[card.power])}">{picture}'
        f'<span class="visually-hidden">{escape(w.card_label(card))}</span></span>'
    )


@cache
def _thumb(language: str | None, card: CardInfo) -> SafeString:
    w = words()
    picture = _draw(card.suit, card.power, card.icon, w.biomes[card.suit], w.powers[card.power])
    return mark_safe(  # every text in it is escaped
        f'<span class="card-thumb suit-{escape(card.suit)}" aria-hidden="true">{picture}</span>'
    )


def card_thumbnail(card: CardInfo) -> SafeString:
    """The card drawn small beside a sentence that names it (the game log): decorative,
    the sentence says it in words."""
    return _thumb(get_language(), card)


def card_picture(card: CardInfo) -> SafeString:
    """The card drawn as a card, with its name in words for screen readers."""
    return _drawn(get_language(), card)


@receiver(setting_changed)
def _forget(*, setting: str, **kwargs: object) -> None:
    if setting in ("LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS"):
        _drawn.cache_clear()
        _thumb.cache_clear()
