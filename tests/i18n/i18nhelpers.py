"""Finding English left in a translated page or mail.

A page is rendered twice from the same data: in English and in another language. Every
word a person can read (text, and the ``title``, ``aria-label``, ``alt``, ``placeholder``
attributes) of the translated rendering that also occurs in the English rendering is a
leftover, unless it is a name (of a player, the site) or a word both languages share
(``ALLOWED``). A string nobody marked for translation, or marked but not translated,
shows up this way wherever it is; new pages only need adding to the lists of pages.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

WORD = re.compile(r"[^\W\d_]{2,}")
URL = re.compile(r"https?://\S+|(?<!\S)/[\w./?=&%-]+")  # links and paths shown as text
WEEKDAYS = {"mon", "tue", "wed", "thu", "fri", "sat", "sun"}
READABLE_ATTRIBUTES = ("title", "aria-label", "alt", "placeholder")
SKIPPED_ELEMENTS = ("script", "style", "code", "pre")

# fmt: off
# Not English: names, the brand, units and standards that stay as they are.
NAMES = {
    "alice", "bob", "carol", "dora", "staff", "evergreen", "verdant", "example", "org", "api",
    "rest",
    "json", "ical", "utc", "django", "id",
    # the toy game the test settings register (tests/toygame/nim.py): a game's name
    "nim",
    # the players of the home page's demo game (games/evergreen/showcase.py)
    "mira", "tomas",
    # the Action letters and the Sun's compass letters, the same in every edition
    "a", "b", "c", "d", "n", "e", "s", "w",
    # alt texts of the admin's yes/no and search icons: Django's own, untranslated
    "true", "false", "search",
    # django-axes (login throttling): its app's name in the admin's sidebar
    "axes",
    # the rating system and the standings export's file format
    "openskill", "csv",
}
# Words that are the same in English and the language (each checked by hand).
ALLOWED: dict[str, set[str]] = {
    "de": {
        "in", "so", "was", "per", "name", "start", "status", "position", "phase", "version",
        "edition", "filter", "link", "browser", "navigation", "header", "token", "tokens",
        "auth", "november", "planet", "lobby", "solo", "winter", "see", "biome", "bonsai",
        "baobab", "bots", "mail", "mails", "email", "club", "clubs", "an", "minus", "links",
        "computer", "export", "standard", "chat", "analyse", "text",
    },
    "fr": {
        "on", "site", "sites", "page", "position", "phase", "version", "application", "total",
        "administration", "navigation", "documentation", "invitation", "secret", "final",
        "minutes", "place", "places", "face", "zone", "club", "clubs", "code", "solo", "action",
        "actions", "table", "tables", "division", "divisions", "description", "message",
        "possible", "public", "export", "date",
        "biome", "biomes", "fertile", "point", "points", "score", "scores", "bonsai", "baobab",
        "bots", "mail", "mails", "standard", "messages", "discussion", "conversations",
        "analyse", "analyses",
    },
    "ru": set(),
}
# fmt: on


class _Readable(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0
        self.skipped_tags: list[str] = []
        self.option_value: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # An element in a language of its own (the language switcher's "Deutsch") is
        # meant to be read in that language; one marked translate="no" holds names (the
        # cities of the time-zone list).
        marked = any(
            name == "lang" or (name, value) == ("translate", "no") for name, value in attrs
        )
        if tag in SKIPPED_ELEMENTS or (marked and tag != "html"):
            self.skipping += 1
            self.skipped_tags.append(tag)
            return
        if tag == "option":
            self.option_value = dict(attrs).get("value")
        for name, value in attrs:
            if name in READABLE_ATTRIBUTES and value:
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag == "option":
            self.option_value = None
        if self.skipped_tags and self.skipped_tags[-1] == tag:
            self.skipped_tags.pop()
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        # A choice shown as its own identifier (a time zone such as "Europe/Berlin").
        if self.option_value is not None and data.strip() == self.option_value:
            return
        if not self.skipping:
            self.parts.append(data)


def readable(html: str) -> str:
    """The text a person reads on a page: its text and readable attributes."""
    parser = _Readable()
    parser.feed(html)
    return " ".join(parser.parts)


def words(text: str) -> list[str]:
    return WORD.findall(text)


def leftovers(
    english: str, translated: str, language: str, names: set[str] = frozenset()
) -> list[str]:
    """Words of ``translated`` that are words of ``english`` and neither names nor shared.

    Both are readable text (``readable`` for HTML). Returns them with some context."""
    english, translated = URL.sub(" ", english), URL.sub(" ", translated)  # links are not prose
    # Dates are Django's, formatted in the active language; the English page's weekday
    # (a deadline "Mon 14:30 UTC") is not prose, and "mon" is French for "my".
    known = {w.lower() for w in words(english)} - WEEKDAYS
    allowed = NAMES | ALLOWED.get(language, set()) | {n.lower() for n in names}
    found = []
    for match in WORD.finditer(translated):
        word = match.group(0).lower()
        if word in known and word not in allowed:
            start = max(0, match.start() - 40)
            found.append(f"{match.group(0)!r} in …{translated[start : match.end() + 40]!r}…")
    return found
