"""The engine's refusals reach a person in their language: pages, API, every code.

The engine keeps English messages and stable codes; ``games.evergreen.refusals`` turns a code and
its params into a sentence of the active language.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from games.evergreen import refusals, rules
from games.evergreen.rules.planet import CREVICE
from games.models import Game
from tests.games.gamehelpers import api_client_for, client_for, play_until, turn_text, user_at
from tests.i18n.i18nworld import LANGUAGES, speak, two_player_game

ENGINE = Path(__file__).resolve().parents[2] / "games" / "evergreen" / "rules"
ERRORS = {"IllegalMove", "InvalidMove", "RulesError"}  # what a move can be refused with
SAMPLE = {
    "row": 3, "col": 4, "lake_row": 3, "lake_col": 5, "seat": 7, "card": "snow/sprout",
    "piece": "bush", "held": "small", "suit": "snow", "biome": "rock", "power": "lake",
    "card_power": "bud", "action": "B", "effect": "plant", "level": 2, "count": 3,
    "left": 1, "asked": 2, "move": "pick",
}  # fmt: skip


def engine_codes() -> dict[str, list[str]]:
    """Every code the engine raises a move refusal with, and where."""
    found: dict[str, list[str]] = {}
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ERRORS
            ):
                assert len(node.args) >= 2, f"{path.name}:{node.lineno} raises without a code"
                code = node.args[1]
                assert isinstance(code, ast.Constant), f"{path.name}:{node.lineno}"
                found.setdefault(code.value, []).append(f"{path.name}:{node.lineno}")
    return found


def crevice() -> tuple[int, int]:
    planet = rules.load_edition(rules.DEFAULT_EDITION).planet
    return next(
        (r, c)
        for r in range(planet.rows)
        for c in range(planet.cols)
        if planet.on_grid((r, c)) and planet.chars[planet.index((r, c))] == CREVICE
    )


class TestEveryCode:
    def test_every_code_the_engine_raises_has_sentences(self):
        codes = engine_codes()
        assert len(codes) >= 30
        missing = {code: where for code, where in codes.items() if code not in refusals.REFUSALS}
        assert not missing

    def test_every_sentence_is_translated_and_fills_its_placeholders(self):
        for code, sentences in refusals.REFUSALS.items():
            for needs, _text in sentences:
                params = {k: SAMPLE[k] for k in needs if k in SAMPLE}
                if "pick" in needs:
                    params["move"] = "pick"
                english = translation.override("en")
                with english:
                    source = refusals.sentence(code, params)
                assert "%(" not in source, (code, source)
                for language in LANGUAGES:
                    with translation.override(language):
                        said = refusals.sentence(code, params)
                    assert said != source, (language, code, source)
                    assert "%(" not in said, (language, code, said)

    def test_the_english_sentence_is_the_engine_s_own_message_where_the_params_allow(self):
        state = rules.new_game(2, 7)
        r, c = crevice()
        with pytest.raises(rules.RulesError) as refused:
            rules.apply(state, rules.Pick(0, "nothing/here"))
        with translation.override("en"):
            assert refusals.message(refused.value) == refused.value.message
        planet_error = rules.IllegalMove("x", "crevice", {"row": r, "col": c})
        with translation.override("en"):
            assert refusals.message(planet_error) == (
                f"The space at row {r}, column {c} is a crevice: nothing can ever be placed there."
            )

    def test_an_unknown_code_keeps_its_message(self):
        error = rules.IllegalMove("Ein Satz der Weboberfläche.", "web_only_code")
        assert refusals.message(error) == "Ein Satz der Weboberfläche."


@pytest.mark.django_db
class TestAGermanPlayer:
    @pytest.fixture
    def action_game(self, alice, bob) -> Game:
        game = two_player_game(alice, bob)
        play_until(game, lambda s: s.phase is rules.Phase.ACTION)
        speak(alice, "de")
        return Game.objects.get(pk=game.pk)

    def test_a_refused_step_on_the_page_is_in_german(self, action_game, alice):
        r, c = crevice()
        response = client_for(alice).post(
            reverse("games:turn", args=[action_game.pk]),
            {"steps": turn_text("D", "none"), "step": f"{r},{c}"},
        )
        page = response.content.decode()
        assert response.status_code == 400
        assert 'data-code="crevice"' in page
        assert f"Reihe {r}, Spalte {c} ist ein Riss: Dort kann nie etwas stehen." in page
        assert "nothing can ever be placed" not in page

    def test_a_refused_turn_through_the_api_has_an_english_code_and_a_german_message(
        self, action_game, alice
    ):
        r, c = crevice()
        response = api_client_for(alice).post(
            reverse("api:turn", args=[action_game.pk]),
            {"action": "D", "effects": [{"plant": [r, c]}], "power": None},
            format="json",
            HTTP_ACCEPT_LANGUAGE="en",
        )
        assert response.status_code == 400
        assert response.json() == {
            "code": "crevice",
            "message": f"Reihe {r}, Spalte {c} ist ein Riss: Dort kann nie etwas stehen.",
        }
        assert response["Content-Language"] == "de"

    def test_an_english_player_reads_the_engine_s_message(self, action_game, bob):
        speak(bob, "en")
        r, c = crevice()
        response = api_client_for(bob).post(
            reverse("api:turn", args=[action_game.pk]),
            {"action": "D", "effects": [{"plant": [r, c]}], "power": None},
            format="json",
            HTTP_ACCEPT_LANGUAGE="de",
        )
        assert response.json()["message"] == (
            f"The space at row {r}, column {c} is a crevice: nothing can ever be placed there."
        )

    def test_a_pick_out_of_turn_is_refused_in_russian(self, alice, bob):
        game = two_player_game(alice, bob)
        state = game.engine_state()
        waiting = user_at(game, 1 - state.to_pick)
        speak(waiting, "ru")
        response = client_for(waiting).post(
            reverse("games:pick", args=[game.pk]),
            {"card": state.pool[0], "version": game.version},
        )
        page = response.content.decode()
        assert 'data-code="not_your_turn"' in page
        assert "Сейчас не ваша очередь брать карту: дождитесь игроков перед вами." in page
