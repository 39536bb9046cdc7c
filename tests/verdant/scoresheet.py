"""A finished Verdant home as the edition's score contract reads it, and its score sheet
(used by the scoring and the command-line tests)."""

from __future__ import annotations

# A finished home: rooms where row + column is even, plants elsewhere.
CARDS = {
    "0,0": "R100", "0,1": "P100", "0,2": "R200", "0,3": "P200", "0,4": "R300",
    "1,0": "P300", "1,1": "R400", "1,2": "P400", "1,3": "R500", "1,4": "P500",
    "2,0": "R101", "2,1": "P101", "2,2": "R201", "2,3": "P201", "2,4": "R301",
}  # fmt: skip
DOCUMENT = {
    "home": CARDS,
    "verdancy": {"0,3": 2, "2,1": 1, "2,3": 2},
    "completed": ["0,1", "1,2"],
    "pots": ["concrete", "wood"],
    "items": {"0,0": "terrarium_table", "1,1": "cat", "2,2": "armchair"},
    "green_thumbs": 5,
    "goals": [],
    "variant": "standard",
}
SHEET = {
    "plants": 8,  # Aloe Vera 4 + Golden Pothos 4
    "incomplete": 2,  # (2 + 1 + 2) // 2
    "pots": 5,  # concrete 3 + wood 2
    "rooms": 8,  # 1 a matching plant, 2 in the two rooms with an item of their colour
    "items": 6,  # three kinds
    "collector": 3,
    "decorator": 3,
    "goals": 0,
    "total": 35,
}
