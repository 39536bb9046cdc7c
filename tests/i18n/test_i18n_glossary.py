"""docs/glossary.md and the catalogs say the same thing.

The glossary has two tables: the game's words, taken from the rulebooks (checked against
them too), and the words of clubs, leagues and tournaments (after the heading
``TOURNAMENT_HEADING``), which the rulebooks do not have."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]
COLUMNS = ("en", "de", "fr", "ru")
RULEBOOKS = Path("/work/shared/rules")


TOURNAMENT_HEADING = "## Clubs, leagues and tournaments"
VERDANT_HEADING = "## Verdant"


def glossary(part: str = "all") -> list[dict[str, str]]:
    """The rows of the glossary's tables: ``part`` "rulebook" (Evergreen's),
    "tournaments", "verdant" or "all"."""
    rows = []
    section = "rulebook"
    for line in (ROOT / "docs" / "glossary.md").read_text().splitlines():
        if line.startswith("## "):
            heading = line.strip()
            section = {TOURNAMENT_HEADING: "tournaments", VERDANT_HEADING: "verdant"}.get(
                heading, "rulebook"
            )
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0].startswith("English (") or set(cells[0]) == {"-"}:
            continue
        if part in ("all", section):
            rows.append(dict(zip(COLUMNS, cells, strict=True)))
    return rows


def test_the_glossary_has_the_game_s_vocabulary():
    terms = {row["en"] for row in glossary("rulebook")}
    for needed in (
        "Snow", "Swamp", "Rock", "Flowers", "Wheat", "Grassland", "Wild", "Sprout",
        "Small Tree", "Big Tree", "Bush", "Lake", "Fertility", "Aridity", "Plant Sprout",
        "Small Tree Growth", "Big Tree Growth", "Plant Bush", "Place Lake", "Bud", "Spring",
        "Summer", "Autumn", "Winter", "Broccoli", "Legendary Sequoia", "Light", "Forest",
        "Crevice", "First Player token",
    ):  # fmt: skip
        assert needed in terms


def test_the_glossary_has_verdants_vocabulary():
    terms = {row["en"] for row in glossary("verdant")}
    for needed in (
        "Market", "Fertilizer", "Hand Trowel", "Watering Can", "concrete pot", "Succulent",
        "direct light", "Cat", "Storage:", "Family",
    ):  # fmt: skip
        assert needed in terms


def test_the_glossary_has_the_tournament_vocabulary():
    terms = {row["en"] for row in glossary("tournaments")}
    for needed in (
        "Club", "Organizer", "Member", "Event", "Swiss", "Round robin", "League", "Division",
        "Knockout cup", "Round (of an event)", "Table", "Bye", "Standings", "Tie-breaks",
        "Opponents' points", "Head-to-head", "Promoted (promotion)", "Relegated (relegation)",
        "Withdraw", "Register", "Adjudicate", "Timeout policy", "Rating", "Leaderboard",
    ):  # fmt: skip
        assert needed in terms
    assert not terms & {row["en"] for row in glossary("rulebook")}


@pytest.mark.parametrize("language", ("de", "fr", "ru"))
def test_the_catalog_uses_the_glossary_s_word_for_every_term_it_shows_alone(language):
    po = polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))
    # An entry with a context is another sense of its words (an event's "draft" status
    # is not the game's Draft).
    by_msgid = {e.msgid.lower(): e.msgstr for e in po if not e.msgid_plural and not e.msgctxt}
    checked, wrong = 0, []
    for row in glossary():
        msgstr = by_msgid.get(row["en"].lower())
        if msgstr is None:
            continue
        checked += 1
        if msgstr.lower() != row[language].lower():
            wrong.append((row["en"], msgstr, row[language]))
    assert checked >= 40
    assert not wrong


@pytest.mark.skipif(not RULEBOOKS.exists(), reason="the rulebooks are not on this machine")
@pytest.mark.parametrize("language", ("de", "fr", "ru"))
def test_the_glossary_s_words_come_from_the_rulebook(language):
    text = (RULEBOOKS / f"evergreen-rulebook-{language}.txt").read_text().lower()
    text = re.sub(r"pfl anz", "pflanz", text)  # the German text's split ligature
    text = text.replace("\u0451", "\u0435")  # the Russian yo read as ye
    missing = []
    for row in glossary("rulebook"):
        word = row[language].lower().replace("\u0451", "\u0435")
        # Each word of the term (stems: the rulebooks decline them) is in the rulebook.
        for part in re.findall(r"[^\W\d_]{3,}", word):
            if part[: max(3, min(5, len(part) - 2))] not in text:
                missing.append((row["en"], row[language]))
                break
    assert not missing
