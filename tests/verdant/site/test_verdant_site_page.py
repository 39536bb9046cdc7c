"""The Verdant game page with the Django test client: the start placement, a whole turn
built choice by choice without JavaScript, the replay and the record."""

from __future__ import annotations

import re
from html import unescape

from django.utils import translation

from games.models import Game
from games.verdant import drawing, rules
from tests.verdant.site.verdant_site_helpers import client_for, play_moves, user_at


def choices(html: str) -> list[str]:
    return [unescape(v) for v in re.findall(r'name="turn" value="([^"]*)"', html)]


def post_move(client, game, **fields):
    game.refresh_from_db()
    return client.post(
        f"/games/{game.pk}/move/", {"version": game.version, "key": f"k{game.version}", **fields}
    )


class TestTheStart:
    def test_a_player_chooses_a_side_and_the_other_does_not_see_it(self, verdant_game, alice, bob):
        page = client_for(alice).get(f"/games/{verdant_game.pk}/")
        assert page.status_code == 200
        assert 'name="side" value="left"' in page.content.decode()
        answer = post_move(client_for(alice), verdant_game, type="start", side="left")
        assert answer.status_code == 303
        verdant_game.refresh_from_db()
        assert verdant_game.engine_state().seats[0].start_side == "left"
        seen_by_bob = client_for(bob).get(f"/games/{verdant_game.pk}/").content.decode()
        assert "left" not in re.sub(r'name="side" value="left"|to the left', "", seen_by_bob)

    def test_a_bad_side_is_refused_with_its_code(self, verdant_game, alice):
        answer = post_move(client_for(alice), verdant_game, type="start", side="north")
        assert answer.status_code == 400
        assert 'data-code="bad_side"' in answer.content.decode()


class TestATurn:
    def test_a_whole_turn_built_one_choice_at_a_time(self, verdant_game):
        game = play_moves(verdant_game, lambda s: s.phase is rules.Phase.PLAY)
        state = game.engine_state()
        me = state.to_play
        client = client_for(user_at(game, me))
        page = client.get(f"/games/{game.pk}/").content.decode()
        picks = choices(page)
        legal = rules.legal_selections(state, me, rules.load_edition())
        assert {p for p in picks if not p.endswith("-b")} == {
            f"{s.take}-{s.column}-{s.token}" for s in legal
        }
        turn = picks[0]
        for _ in range(10):
            page = client.get(f"/games/{game.pk}/", {"turn": turn}).content.decode()
            offered = choices(page)
            if not offered:
                break
            turn = offered[-1]  # leave items unused, spend no green thumbs
        assert "End my turn" in page and "after this turn" in page
        answer = post_move(client, game, type="turn", turn=turn, store="")
        assert answer.status_code == 303
        game.refresh_from_db()
        assert game.engine_state().turn == 1

    def test_cells_offered_are_exactly_the_legal_ones(self, verdant_game):
        game = play_moves(verdant_game, lambda s: s.phase is rules.Phase.PLAY)
        state = game.engine_state()
        me = state.to_play
        pick = rules.legal_selections(state, me, rules.load_edition())[0]
        page = client_for(user_at(game, me)).get(
            f"/games/{game.pk}/", {"turn": f"{pick.take}-{pick.column}-{pick.token}"}
        )
        cells = {
            tuple(int(x) for x in c.split("/")[1].split("_"))
            for c in choices(page.content.decode())
        }
        assert cells == set(rules.legal_cells(state, me, pick.take, rules.load_edition()))

    def test_each_cell_offered_carries_the_score_the_turn_would_give_there(self, verdant_game):
        game = play_moves(verdant_game, lambda s: s.phase is rules.Phase.PLAY and s.turn >= 4)
        state = game.engine_state()
        me = state.to_play
        pick = rules.legal_selections(state, me, rules.load_edition())[0]
        page = client_for(user_at(game, me)).get(
            f"/games/{game.pk}/", {"turn": f"{pick.take}-{pick.column}-{pick.token}"}
        )
        html = page.content.decode()
        offered = re.findall(r'name="turn" value="([^"]*)" data-preview="(\d+)"', html)
        assert offered and len(offered) == len(choices(html))
        for value, preview in offered:
            cell = tuple(int(x) for x in unescape(value).split("/")[1].split("_"))
            turn = rules.Turn(me, pick.take, pick.column, pick.token, cell)
            assert int(preview) == rules.score_seat(rules.apply(state, turn), me).total
        # Where the page writes the score of the ticked cell, in the player's words.
        assert 'data-words="after this turn: {n}"' in html

    def test_a_waiting_player_sees_no_builder(self, verdant_game):
        game = play_moves(verdant_game, lambda s: s.phase is rules.Phase.PLAY)
        waiting = 1 - game.engine_state().to_play
        page = client_for(user_at(game, waiting)).get(f"/games/{game.pk}/").content.decode()
        assert "turn-builder" not in page and "verdant-grid" in page


class TestAfterTheGame:
    def test_the_replay_words_every_move_and_the_record_downloads(self, verdant_game, alice):
        game = play_moves(verdant_game, seed=4)
        assert game.status == Game.Status.FINISHED
        client = client_for(alice)
        page = client.get(f"/games/{game.pk}/replay/", {"move": 5}).content.decode()
        assert " took " in page and "Move 5 of" in page
        record = client.get(f"/games/{game.pk}/record.json").json()
        assert record["format"] == "verdant-record" and "result" in record
        assert rules.GameRecord.from_json(record).replay().outcome.scores == tuple(
            record["result"]["scores"]
        )

    def test_a_spectator_sees_the_finished_game(self, verdant_game, carol):
        game = play_moves(verdant_game, seed=5)
        page = client_for(carol).get(f"/games/{game.pk}/").content.decode()
        assert "The game is over" in page


class TestTheTrowel:
    def test_the_hand_trowel_reaches_up_to_three_plants(self):
        from games.verdant.builder import question

        # A solo game played until a hand trowel is on offer with two plants at home.
        state = rules.new_game(1, 3)
        state = rules.apply(state, rules.Start(0, "top"))
        bot = rules.make_bot("random", 5)
        ed = rules.load_edition()
        for _ in range(12):
            trowels = [
                s
                for s in rules.legal_selections(state, 0, ed)
                if state.market_tokens[s.token] == "trowel"
            ]
            plants = [c for c in state.seats[0].home.cards if c and c.startswith("P")]
            if trowels and len(plants) >= 2 and trowels[0].take == "room":
                break
            state = rules.apply(state, bot.choose(state, 0))
        else:
            raise AssertionError("seed 3 offers a hand trowel with two plants at home")
        pick = trowels[0]
        first = question(state, 0, f"{pick.take}-{pick.column}-{pick.token}")
        at = first.options[0]["value"]
        item = question(state, 0, at)
        assert item.stage == "item" and item.item == "trowel"
        use = next(o for o in item.options if o["cell"] is not None)
        more = question(state, 0, use["value"])
        assert more.prompt.startswith("Another plant")
        second = next(o for o in more.options if o["cell"] is not None)
        assert "+" in second["value"].rsplit("/", 1)[-1]
        after = question(state, 0, second["value"])
        assert after.error is None and after.preview >= more.preview


class TestTheCardsDrawn:
    """Each card's face is drawn once per process for the same facts and language
    (``drawing.card_svg``); the page places it in its cell."""

    def test_a_card_is_drawn_once_for_the_same_facts_and_anew_when_it_grows(self, monkeypatch):
        drawn = []
        draw = drawing.render_to_string
        monkeypatch.setattr(
            drawing, "render_to_string", lambda *args: drawn.append(args[1]["c"]) or draw(*args)
        )
        ed = rules.load_edition()
        plant = next(iter(ed.plants))
        # A verdancy no game reaches: facts no earlier test drew in this process.
        first = drawing.card_svg(ed, plant, verdancy=97)
        assert drawing.card_svg(ed, plant, verdancy=97) == first
        assert len(drawn) == 1 and ">97/" in first
        assert ">98/" in drawing.card_svg(ed, plant, verdancy=98) and len(drawn) == 2
        potted = drawing.card_svg(ed, plant, verdancy=97, completed=True, pot="ceramic")
        assert "✔" in potted and len(drawn) == 3

    def test_a_card_is_drawn_in_the_readers_language(self):
        ed = rules.load_edition()
        room = next(iter(ed.rooms))
        with translation.override("en"):
            english = drawing.card_svg(ed, room)
        with translation.override("de"):
            german = drawing.card_svg(ed, room)
        assert english != german
        assert drawing.card(ed, room)["type_name"] in english

    def test_the_page_places_each_card_of_a_home_in_its_cell(self, verdant_game, alice):
        game = play_moves(verdant_game, lambda s: s.turn >= 6)
        html = client_for(alice).get(f"/games/{game.pk}/").content.decode()
        placed = re.findall(
            r'<g class="vcard vcard-(?:plant|room)" transform="translate\((\d+),(\d+)\)">', html
        )
        assert len(placed) >= 6  # two starting cards and a card a turn in each home
        assert all(int(x) % drawing.CELL == 0 and int(y) % drawing.CELL == 0 for x, y in placed)
        assert "translate(,)" not in html  # the market's cards are not placed in a grid
