"""The parts of Verdant's play region drawn once and kept (``games.fragments``), all asked
for in one round trip to the cache: the market, each home and the score table; and the
legend, the same on every page, drawn once per process and language.

Each part is kept for every viewer and every game alike (``fragments.EVERYONE``,
``Part.shared``) under a digest of exactly what it is drawn from of the viewer's view
(``market_facts``, ``home_facts``, ``scores_facts``) and the language, as Evergreen's
panels are:

* a move leaves most of them as they were: a turn changes its own home, the market and
  the scores, and every other home is found drawn; so do the other viewers of a table
  after the first, and every page drawn afresh;
* a viewer only ever finds a part drawn from the very facts its own view holds: a seat's
  start placement, hidden from the others while the start phase lasts, is in the facts of
  the views that show it, so a view without it never finds a home drawn with it;
* the viewer's own home with the cells the turn builder offers (links that carry the
  turn being built) is never kept: it is drawn anew for every page.

A Verdant page drew all of this on every request: the market's template 0.9 ms, the
four homes' 0.8, the scores' 0.27 and the legend's 0.19 of a player's page of 5.8 ms
rendered afresh (CPU, one process, 2026-11-29).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from games import drawings, fragments

from . import drawing, rules, words

if TYPE_CHECKING:
    from games.models import Game


def legend_html() -> SafeString:
    """The legend at the foot of the page (``_legend.html``), drawn once per process and
    language (``games.drawings.alike``): nothing in it depends on the game or the viewer."""
    return drawings.alike(
        "games/verdant/_legend.html", lambda: {"verdant_types": list(words.TYPES.items())}
    )


def market_facts(view: Mapping[str, Any]) -> tuple[Any, ...]:
    """All that the market (``_market.html``) reads of the view: no viewer, no name."""
    counts = (view["plant_deck_count"], view["room_deck_count"], view["bag_count"])
    return (view["market"], counts, view["pot_supply"], view["goals"])


def home_facts(
    view: Mapping[str, Any], names: Sequence[str], seat: Mapping[str, Any]
) -> tuple[Any, ...]:
    """All that a seat's home (``_home.html``) is drawn from but whose turn it is (a hole,
    ``TO_PLAY_HOLE``: a turn passed on leaves the home as it was): the seat as the view
    holds it (whatever of it the view shows, and nothing it hides), its name, and whether
    it is the viewer's."""
    n = seat["seat"]
    return (seat, names[n], n == view.get("viewer"))


# Where a kept home shows whether it is its seat's turn (``with_turn``): markup, which no
# escaped text (a name) can hold, so the one place it is found is the heading's.
TO_PLAY_HOLE = "<!--to-play-->"


def with_turn(drawn: str, view: Mapping[str, Any], n: int) -> SafeString:
    """A home drawn with ``TO_PLAY_HOLE``, its heading marked when it is seat ``n``'s turn."""
    mark = " ▶" if n == view.get("to_play") else ""
    return mark_safe(drawn.replace(TO_PLAY_HOLE, mark, 1))  # drawn by _home.html


def ranking(view: Mapping[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """The score table's rows: by the outcome's ranking once the game is over, else in
    seat order."""
    outcome = view.get("outcome")
    order = outcome["ranking"] if outcome else [s["seat"] for s in view["seats"]]
    rows = []
    for n in order:
        score = view["seats"][n]["score"]
        rows.append({"name": names[n], "seat": n, "score": score, "total": score["total"]})
    return rows


def scores_facts(view: Mapping[str, Any], names: Sequence[str]) -> tuple[Any, ...]:
    """All that the score table (``_scores.html``) is drawn from: its rows."""
    return tuple((row["name"], row["score"]) for row in ranking(view, names))


def home(
    ed: rules.Edition,
    view: Mapping[str, Any],
    names: Sequence[str],
    seat: Mapping[str, Any],
    offered: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    """What ``_home.html`` shows of a seat's home (``offered``: the builder's answers with a
    cell, drawn as links to choose them), whose turn it is left a hole (``with_turn``)."""
    n = seat["seat"]
    start = seat["start"]
    return {
        "seat": n,
        "name": names[n],
        "is_viewer": n == view.get("viewer"),
        "to_play_mark": mark_safe(TO_PLAY_HOLE),
        "thumbs": seat["thumbs"],
        "storage": drawing.token(ed, seat["storage"]),
        "turns": seat["turns"],
        "score": seat["score"],
        "start": {
            **start,
            "plant_card": drawing.card(ed, start["plant"]),
            "room_card": drawing.card(ed, start["room"]),
        },
        "grid": drawing.home(ed, seat["home"], offered),
    }


def _market_html(ed: rules.Edition, view: Mapping[str, Any]) -> str:
    pot_supply = [
        {"name": words.pot(kind), "count": count} for kind, count in view["pot_supply"].items()
    ]
    context = {
        "market": drawing.market(ed, view),
        "view": view,
        "pot_supply": pot_supply,
        "goals": view["goals"],
    }
    return render_to_string("games/verdant/_market.html", context)


def _home_html(h: Mapping[str, Any]) -> str:
    return render_to_string("games/verdant/_home.html", {"h": h})


def _home_drawn(
    ed: rules.Edition,
    view: Mapping[str, Any],
    names: Sequence[str],
    seat: Mapping[str, Any],
    offered: Sequence[dict[str, Any]] = (),
) -> str:
    """A seat's home drawn, whose turn it is left a hole (``with_turn`` fills it)."""
    return _home_html(home(ed, view, names, seat, offered))


def _scores_html(view: Mapping[str, Any], names: Sequence[str]) -> str:
    return render_to_string("games/verdant/_scores.html", {"ranking": ranking(view, names)})


def _shared(name: str, made_from: tuple[Any, ...], make: Callable[[], str]) -> fragments.Part:
    return fragments.Part(
        name, fragments.EVERYONE, make, made_from=fragments.digest(*made_from), shared=True
    )


def board_parts(
    ed: rules.Edition,
    view: Mapping[str, Any],
    names: Sequence[str],
    offered: Mapping[int, Sequence[dict[str, Any]]],
) -> tuple[dict[str, fragments.Part], list[dict[str, Any]]]:
    """The parts of ``view``'s board, by name (``market``, ``scores``, ``home-<seat>``), and
    its homes in seat order: each one kept as its part, but the viewer's with cells offered
    (``offered``: the builder's answers, by seat), drawn now (``drawn``); ``drawn`` below
    gives each its ``html``."""
    parts = {
        "market": _shared(
            "verdant-market", (ed.name, market_facts(view)), lambda: _market_html(ed, view)
        ),
        "scores": _shared(
            "verdant-scores",
            (ed.name, scores_facts(view, names)),
            lambda: _scores_html(view, names),
        ),
    }
    homes: list[dict[str, Any]] = []
    for seat in view["seats"]:
        n = seat["seat"]
        cells = [o for o in offered.get(n, ()) if o.get("cell") is not None]
        if cells:  # links that carry the turn being built: never kept
            homes.append({"seat": n, "drawn": _home_drawn(ed, view, names, seat, cells)})
            continue
        homes.append({"seat": n})
        parts[f"home-{n}"] = _shared(
            "verdant-home",
            (ed.name, home_facts(view, names, seat)),
            functools.partial(_home_drawn, ed, view, names, seat),
        )
    return parts, homes


def drawn(
    game: Game,
    ed: rules.Edition,
    view: Mapping[str, Any],
    names: Sequence[str],
    offered: Mapping[int, Sequence[dict[str, Any]]],
) -> dict[str, Any]:
    """The market, the homes and the score table of ``view`` (``board_parts``), from the
    cache when they were drawn already, in one round trip: ``market_html``,
    ``scores_html`` and ``homes``, each with its ``html``."""
    parts, homes = board_parts(ed, view, names, offered)
    kept = fragments.kept_together(game, names, list(parts.values()))
    found = dict(zip(parts, kept, strict=True))
    for h in homes:
        n = h["seat"]
        h["html"] = with_turn(h.pop("drawn", None) or found[f"home-{n}"], view, n)
    return {
        "market_html": mark_safe(found["market"]),  # drawn by _market.html
        "scores_html": mark_safe(found["scores"]),  # drawn by _scores.html
        "homes": homes,
    }
