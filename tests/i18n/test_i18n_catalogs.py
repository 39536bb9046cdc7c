"""The de/fr/ru catalogs: complete, nothing fuzzy, in step with the sources, well-formed.

``test_every_marked_string_is_in_the_catalogs`` runs ``makemessages`` on a copy of the
project: a string marked anywhere (a new template, a new app) that the catalogs lack
fails here with its text, so adding it is mechanical:
``manage.py makemessages -l de -l fr -l ru --ignore .venv`` then translate.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from tests.i18n.i18nhelpers import leftovers

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("de", "fr", "ru")
PLURAL_FORMS = {"de": 2, "fr": 2, "ru": 4}
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\{ *\w+ *\}\}")
MAKEMESSAGES = [
    "makemessages", "-l", "de", "--ignore", ".venv", "--ignore", "tests/*",
    "--ignore", "games/evergreen/rules/*", "--no-obsolete",
]  # fmt: skip


# Sources that are also the right word in the language (each checked by hand).
SHARED = {
    "de": {"Bonsai", "Lobby", "Status", "Winter", "solo", "Computer (%(bot)s)", "Club", "Clubs", "Name"},
    "fr": {
        "Action", "Actions", "Baobab", "Biomes", "Bonsai", "Invitation", "Pages", "Points",
        "Scores", "Total", "biome", "notification", "notifications", "phase", "score", "solo",
        "version", "Club", "Clubs", "club", "clubs", "Description", "description", "Divisions",
        "division", "divisions", "Division %(number)s", "Place", "place", "points", "Tables",
        "table", "tables", "Table %(number)s",
    },
    "ru": set(),
}  # fmt: skip
# Verdant's: the game's name stays as printed; "Standard", "Elite!", "Pots" are the words.
SHARED["de"] |= {"Verdant", "Standard", "Elite!"}
SHARED["fr"] |= {"Verdant", "Standard", "Pots"}
SHARED["fr"] |= {"E-mail", "Europe"}
SHARED["ru"] |= {"Verdant"}
# Conversations' (the chat of a game, a club's discussion).
SHARED["de"] |= {"Chat"}
SHARED["fr"] |= {"Conversations", "Discussion", "message", "messages"}
FORMATS = {
    "%(biome)s (%(power)s)",
    "%(biome)s · %(power)s",
    "%(name)s %(points)s",
    "%(where)s: %(what)s",
    "%(game)s: %(names)s",
}


def catalog(language: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))


@pytest.mark.parametrize("language", LANGUAGES)
class TestCatalog:
    def test_every_entry_is_translated_and_none_is_fuzzy(self, language):
        po = catalog(language)
        untranslated = [e.msgid for e in po.untranslated_entries()]
        fuzzy = [e.msgid for e in po.fuzzy_entries()]
        assert not untranslated, f"untranslated in {language}: {untranslated}"
        assert not fuzzy, f"fuzzy in {language}: {fuzzy}"
        assert not po.metadata_is_fuzzy
        assert not po.obsolete_entries()
        assert len(po) > 600

    def test_the_header_names_the_language_and_its_plural_forms(self, language):
        po = catalog(language)
        assert po.metadata["Language"] == language
        assert f"nplurals={PLURAL_FORMS[language]};" in po.metadata["Plural-Forms"]
        for entry in po:
            if entry.msgid_plural:
                forms = entry.msgstr_plural
                assert sorted(forms) == list(range(PLURAL_FORMS[language])), entry.msgid
                assert all(forms.values()), entry.msgid

    def test_every_translation_keeps_the_placeholders_of_its_source(self, language):
        wrong = []
        for entry in catalog(language):
            sources = [entry.msgid, entry.msgid_plural] if entry.msgid_plural else [entry.msgid]
            wanted = {p for s in sources for p in PLACEHOLDER.findall(s)}
            translations = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
            for text in translations:
                # A plural form may leave out the number ("one card"), never add a name.
                found = set(PLACEHOLDER.findall(text))
                if found - wanted or (not entry.msgid_plural and found != wanted):
                    wrong.append((entry.msgid, text))
        assert not wrong

    def test_a_translation_equal_to_its_english_source_is_a_word_both_languages_share(
        self, language
    ):
        same = {
            e.msgid
            for e in catalog(language)
            if not e.msgid_plural and e.msgstr == e.msgid and re.search(r"[a-z]{3}", e.msgid)
        }
        assert same <= SHARED[language] | FORMATS, same - SHARED[language] - FORMATS


def test_msgfmt_accepts_the_catalogs():
    if shutil.which("msgfmt") is None:
        pytest.fail("GNU gettext's msgfmt is missing: run scripts/ensure-gettext")
    for language in LANGUAGES:
        po = ROOT / "locale" / language / "LC_MESSAGES" / "django.po"
        result = subprocess.run(
            ["msgfmt", "--check", "--output-file=/dev/null", str(po)],
            capture_output=True,
            text=True,
        )
        assert result.returncode == 0, result.stderr


def test_every_marked_string_is_in_the_catalogs(tmp_path):
    """``makemessages`` on a copy of the sources finds no string the catalogs lack."""
    copy = tmp_path / "project"
    ignore = shutil.ignore_patterns(".venv", ".git", "__pycache__", "*.mo", "node_modules")
    shutil.copytree(ROOT, copy, ignore=ignore, symlinks=True)
    shutil.rmtree(copy / "locale" / "de")
    result = subprocess.run(
        [sys.executable, "manage.py", *MAKEMESSAGES],
        cwd=copy,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    extracted = polib.pofile(str(copy / "locale" / "de" / "LC_MESSAGES" / "django.po"))
    for language in LANGUAGES:
        ours = {(e.msgctxt, e.msgid) for e in catalog(language)}
        missing = [e.msgid for e in extracted if (e.msgctxt, e.msgid) not in ours]
        unused = sorted(ours - {(e.msgctxt, e.msgid) for e in extracted})
        assert not missing, f"marked but not in the {language} catalog: {missing}"
        assert not unused, f"in the {language} catalog but no longer in the sources: {unused}"


def test_the_leftover_check_finds_english_and_spares_names():
    english = "Your move in Evergreen game #3, Alice: plant a Sprout."
    assert leftovers(english, "Du bist am Zug, Alice: plant a Sprout.", "de") == [
        "'plant' in …'Du bist am Zug, Alice: plant a Sprout.'…",
        "'Sprout' in …'Du bist am Zug, Alice: plant a Sprout.'…",
    ]
    assert leftovers(english, "Du bist am Zug in Evergreen, Alice.", "de") == []


def test_the_leftover_check_takes_an_english_weekday_for_a_date_not_for_prose():
    english = "Due Mon 14:30 UTC. Save my ranking"
    assert leftovers(english, "Échéance lun. 14:30 UTC. Enregistrer mon classement", "fr") == []
    assert leftovers(english, "Échéance lun. 14:30 UTC. Save mon classement", "fr") == [
        "'Save' in …'Échéance lun. 14:30 UTC. Save mon classement'…"
    ]
