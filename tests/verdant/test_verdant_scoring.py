"""Scoring (ruling 10), the goal cards (ruling 13), the family score (12), the score contract."""

from __future__ import annotations

from dataclasses import fields

import pytest

from games.verdant.rules import load_edition, score_home
from games.verdant.rules.contract import ContractError, score_document
from games.verdant.rules.home import SIZE, Home, index
from games.verdant.rules.scoring import SCORE_FIELDS, Score
from tests.verdant.scoresheet import CARDS, DOCUMENT, SHEET

ED = load_edition()


def document(**changes):
    return {**DOCUMENT, **changes}


def home(cells, completed=(), verdancy=None, items=None):
    cards = [None] * SIZE
    for (r, c), card in cells.items():
        cards[index((r, c))] = card
    done = [False] * SIZE
    for p in completed:
        done[index(p)] = True
    verd = [0] * SIZE
    for p, v in (verdancy or {}).items():
        verd[index(p)] = v
    placed = [None] * SIZE
    for p, item in (items or {}).items():
        placed[index(p)] = item
    pots = ["terracotta" if d else None for d in done]
    return Home(tuple(cards), tuple(verd), tuple(done), tuple(pots), tuple(placed))


def test_the_score_sheet_of_a_finished_home():
    assert score_document(DOCUMENT).to_json() == SHEET


def test_a_room_scores_one_per_adjacent_plant_of_its_type_completed_or_not():
    sheet = score_home(home({(0, 0): "R100", (0, 1): "P100", (1, 0): "P101"}, [(0, 1)]), ED)
    assert sheet.rooms == 2


def test_a_room_with_an_item_of_its_own_colour_scores_two_per_plant():
    cells = {(0, 0): "R100", (0, 1): "P100", (1, 0): "P101"}
    assert score_home(home(cells, items={(0, 0): "tortoise"}), ED).rooms == 4
    assert score_home(home(cells, items={(0, 0): "cat"}), ED).rooms == 2


@pytest.mark.parametrize(("kinds", "points"), list(enumerate([0, 1, 3, 6, 9, 12, 16, 20, 25])))
def test_unique_furniture_and_pets_score_by_the_table(kinds, points):
    rooms = [f"R{t}0{n}" for t in range(1, 6) for n in range(2)][:8]
    spots = [(0, 0), (0, 2), (0, 4), (1, 1), (1, 3), (2, 0), (2, 2), (2, 4)]
    kinds_list = list(ED.items)[:kinds]
    cells = dict(zip(spots, rooms, strict=True))
    items = dict(zip(spots, kinds_list, strict=False))
    assert score_home(home(cells, items=items), ED).items == points


def test_duplicate_items_do_not_score_again():
    cells = {(0, 0): "R100", (0, 2): "R101", (0, 1): "P100"}
    assert score_home(home(cells, items={(0, 0): "cat", (0, 2): "cat"}), ED).items == 1


def test_incomplete_verdancy_is_summed_halved_and_rounded_down():
    cells = {(0, 0): "R100", (0, 1): "P109", (1, 0): "P209"}
    assert score_home(home(cells, verdancy={(0, 1): 3, (1, 0): 4}), ED).incomplete == 3


def test_collector_and_decorator_need_every_type_completed_or_not():
    sheet = score_document(document(completed=[], pots=[], verdancy={}))
    assert sheet.collector == 3 and sheet.decorator == 3
    one_short = {**CARDS, "1,4": "P109"}  # a second succulent instead of the unusual plant
    sheet = score_document(document(home=one_short))
    assert sheet.collector == 0 and sheet.decorator == 3


def test_the_family_score_gives_five_a_completed_plant_and_nothing_for_pots():
    sheet = score_document(document(variant="family", verdancy={}))
    assert (sheet.plants, sheet.incomplete, sheet.pots) == (10, 0, 0)
    assert sheet.rooms == SHEET["rooms"] and sheet.items == SHEET["items"]


GOALS = {
    "GP1": 0,
    "GP2": 0,
    "GP3": 0,
    "GP4": 0,
    "GI1": 2,  # the cat
    "GI2": 4,  # the terrarium table and the armchair
    "GI3": 4,  # both match their room
    "GI4": 2,  # 5 green thumbs
    "GR1": 6,  # rows 0 and 2 have three room types, row 1 two
    "GR2": 0,
    "GR3": 8,  # four corner rooms
}


@pytest.mark.parametrize(("goal", "points"), GOALS.items())
def test_each_goal_card_on_the_finished_home(goal, points):
    assert score_document(document(goals=[goal])).goals == points


def test_goal_cards_for_completed_plants():
    cells = {
        (0, 0): "R100", (0, 1): "P100", (1, 0): "P101", (0, 2): "R101", (0, 3): "P102",
        (1, 2): "P103", (2, 0): "R102", (2, 1): "P106", (1, 4): "P200", (2, 3): "P201",
        (2, 2): "R103", (1, 1): "R104", (1, 3): "R105",
    }  # fmt: skip
    plants = [p for p, c in cells.items() if c[0] == "P"]
    done = home(cells, completed=plants)
    assert score_home(done, ED, goals=["GP1"]).goals == 4  # succulents and flowering
    assert score_home(done, ED, goals=["GP2"]).goals == 5  # five succulents
    assert score_home(done, ED, goals=["GP3"]).goals == 2  # Christmas Cactus needs 5
    assert score_home(done, ED, goals=["GP4"]).goals == 6
    assert score_home(home(cells, completed=plants[1:]), ED, goals=["GP4"]).goals == 0


def test_suites_count_diagonal_pairs_of_rooms_of_one_type():
    cells = {(0, 0): "R100", (1, 1): "R101", (2, 0): "R102", (0, 1): "P100", (1, 0): "P101"}
    assert score_home(home(cells), ED, goals=["GR2"]).goals == 4


def test_well_lit_counts_light_matches_in_pairs():
    # Paddle Plant likes every light: four room edges touch it.
    cells = {(0, 1): "R100", (1, 0): "R101", (1, 2): "R102", (2, 1): "R103", (1, 1): "P108"}
    assert score_home(home(cells), ED, goals=["GR4"]).goals == 2


# --- refusals of the contract ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"home": {k: v for k, v in CARDS.items() if k != "2,4"}}, "fill all 15"),
        ({"home": {**CARDS, "0,1": "R109"}}, "side by side"),
        ({"home": {**CARDS, "0,1": "P999"}}, "unknown card"),
        ({"home": {**CARDS, "0,1": "P200"}}, "twice"),
        ({"home": {**CARDS, "3,0": "P999"}}, "outside"),
        ({"home": {**CARDS, "a,b": "P999"}}, "row,column"),
        ({"pots": ["golden"]}, "unknown pot"),
        ({"pots": ["wood", "wood", "wood"]}, "3 pots for 2"),
        ({"items": {"0,0": "unicorn"}}, "unknown furniture"),
        ({"items": {"0,1": "cat"}}, "rooms only"),
        ({"goals": ["GX9"]}, "unknown goal"),
        ({"goals": ["GP1", "GP1"]}, "twice"),
        ({"verdancy": {"0,3": 3}}, "completed"),
        ({"verdancy": {"0,1": 1}}, "completed"),
        ({"verdancy": {"0,0": 1}}, "no plant"),
        ({"verdancy": {"0,3": -1}}, "non-negative"),
        ({"green_thumbs": "many"}, "non-negative"),
        ({"variant": "expert"}, "variant"),
        ({"colour": "green"}, "unknown field"),
        ({"variant": "family"}, "family variant has no verdancy"),
    ],
)
def test_the_contract_refuses_a_home_it_cannot_score(changes, words):
    with pytest.raises(ContractError) as caught:
        score_document(document(**changes))
    assert words in str(caught.value)


def test_the_contract_refuses_what_is_not_an_object():
    for data in ([], "home", None, {"home": []}):
        with pytest.raises(ContractError):
            score_document(data)


def test_a_score_sheets_total_and_json_count_every_field_of_the_sheet():
    assert [f.name for f in fields(Score)] == list(SCORE_FIELDS)
    sheet = Score(*(2**k for k in range(len(SCORE_FIELDS))))
    assert sheet.total == 2 ** len(SCORE_FIELDS) - 1
    assert sheet.to_json() == {
        **{name: 2**k for k, name in enumerate(SCORE_FIELDS)},
        "total": sheet.total,
    }
