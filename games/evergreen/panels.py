"""The parts of Evergreen's play region that are drawn once and kept (``games.fragments``),
all asked for in one round trip to the cache: the planets as revealed, the panels drawn
from the viewer's view alone (Power tracks, Fertility Zone, scores) and the pool when it
carries no form. The legend, the same on every page, is drawn once per process and
language.

What each is kept for, and why that is enough (every key names the language and, for
the pool, the game, its moves and snapshot, ``fragments.play_state``, and the players'
names; the planets and panels are kept for every game alike under a digest of exactly
what they are drawn from, ``fragments.shared_key``, with a hole for each seat's name that
each page fills, ``with_names``: a new game's empty planets, Power tracks and scores are
drawn once for all new tables, not once per table):

* a revealed planet, large when it is in focus, medium in the row beside it: the same for
  every viewer (``fragments.EVERYONE``), as it is drawn from its seat, its revealed board
  and the Sun alone (``planet_facts``), and kept under those rather than the moves: a
  move that leaves it as it was finds it drawn. The viewer's own planet with the turn
  they build or submitted (a secret) is never kept;
* each panel: for every viewer alike (``fragments.EVERYONE``), kept under a digest of
  exactly what it is drawn from (``panel_facts``; the Power tracks: the focused seat's
  positions and card; the Fertility Zone: its stacks; the scores: each seat's public
  line, with holes where each page marks its viewer's row, ``svg.mark_viewer``), so a
  move that leaves a panel's facts as they were finds it drawn (a pick leaves the
  Fertility Zone, a turn not revealed the Power tracks), and a viewer only ever finds a
  panel drawn from the very facts its own view holds;
* the pool: for every viewer and game alike when it holds no form, under a digest of the
  public pool, deck and discard it is drawn from (``pool_facts``: a turn finds it drawn);
  with the standing order's form, for every viewer alike too, under the moves and the
  order as stored (it changes without a move; the order is in the key, so only a viewer
  holding that very order finds it); with the pick's forms,
  for the viewer's seat and the game's version (in the forms). Both forms are drawn with
  holes where each page puts its own CSRF token and key (``with_form``): neither is ever
  kept.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from games import drawings, fragments

from . import presenters, rules, svg

if TYPE_CHECKING:
    from games.models import Game

# The panels kept together, by the name the play template shows them under.
PANELS = ("powers", "fertility", "scores")


def legend_html() -> SafeString:
    """The legend at the foot of the page (``_legend.html``), drawn once per process and
    language (``games.drawings.alike``): nothing in it depends on the game or the viewer."""
    return drawings.alike("games/evergreen/_legend.html", presenters.legend)


@dataclass(frozen=True)
class Drawn:
    """The kept parts of one page: ``main`` is None when the planet in focus is the
    viewer's own with their turn (the template draws it), ``pool`` when the pool holds the
    standing order's form (the template draws it); a pool with the pick's forms has holes
    for ``with_form``."""

    main: SafeString | None
    others: list[dict[str, Any]]  # seat, name, html: the row beside the planet in focus
    panels: dict[str, SafeString]
    pool: SafeString | None


# Where a part kept for every game (``fragments.shared_key``) has seat k's name: plain
# words that nothing drawn (card names, numbers, translations) contains, escaped alike.
def name_hole(k: int) -> str:
    return f"evergreen-seat-{k}-name-hole"


_NAME_HOLE = re.compile(r"evergreen-seat-(\d+)-name-hole")


def holes(count: int) -> list[str]:
    """The names a shared part is drawn with: a hole for each of ``count`` seats."""
    return [name_hole(k) for k in range(count)]


def with_holes(drawn: str) -> tuple[str, ...]:
    """A part drawn with ``holes`` as it is kept: its text and, at every odd place, the
    seat whose name goes there (``with_names`` joins them without searching again)."""
    return tuple(_NAME_HOLE.split(drawn))


def with_names(kept: Sequence[str], names: Sequence[str]) -> SafeString:
    """A part kept with holes (``with_holes``) with this page's ``names``, escaped as the
    templates and ``svg`` escape them."""
    pieces = list(kept)
    for k in range(1, len(pieces), 2):
        pieces[k] = escape(names[int(pieces[k])])
    return mark_safe("".join(pieces))  # drawn there, the names escaped here


def _planet_html(planet: presenters.Planet, size: str) -> str:
    return render_to_string(
        "games/evergreen/_board.html", {"planet": planet, "size": size, "interactive": False}
    )


def revealed_planet(
    edition: rules.Edition, view: dict[str, Any], names: list[str], k: int
) -> presenters.Planet:
    """Seat ``k``'s planet as every viewer sees it: its board as revealed."""
    board = presenters.board_from_view(edition, view["seats"][k]["board"])
    return presenters.planet(edition, board, view["sun"], view["next_sun"], seat=k, name=names[k])


def planet_facts(edition: rules.Edition, view: dict[str, Any], k: int) -> tuple[Any, ...]:
    """All that seat ``k``'s revealed planet is drawn from (``revealed_planet``) but its
    seat (in the part's name) and the name (a hole)."""
    return (edition.name, view["seats"][k]["board"], view["sun"], view["next_sun"])


def _powers(edition: rules.Edition, view: dict[str, Any], names: list[str], focus: int) -> str:
    return render_to_string(
        "games/evergreen/_powers.html",
        {
            "tracks": presenters.power_tracks(edition, view["seats"][focus]),
            "tracks_name": names[focus],
        },
    )


def _fertility(edition: rules.Edition, view: dict[str, Any]) -> str:
    return render_to_string(
        "games/evergreen/_fertility.html",
        {"fertility": presenters.fertility_zone(edition, view)},
    )


def _scores(edition: rules.Edition, view: dict[str, Any], names: list[str]) -> str:
    """For every viewer alike: the viewer's row is marked by ``svg.mark_viewer``."""
    scores = presenters.scores(edition, view, names, viewer_holes=True)
    return render_to_string("games/evergreen/_scores.html", {"scores": scores})


# What the scores panel reads of each seat's view (``presenters.scores``).
_SCORE_FACTS = ("seat", "score", "setup_points", "seasons", "fertility", "card", "submitted")


def panel_facts(view: dict[str, Any], focus: int) -> dict[str, tuple[Any, ...]]:
    """All that each panel's drawing reads of the view (``presenters``), by panel: the
    names are holes in it, and so are the viewer's marks in the scores (every seat and
    spectator at a table finds one score table drawn); the language is in its key."""
    seat = view["seats"][focus]
    scores = [tuple(s[k] for k in _SCORE_FACTS) for s in view["seats"]]
    return {
        "powers": (focus, seat["card"], seat["powers"]),
        "fertility": (view["fertility"], view["fertility_zone"]),
        "scores": (view["phase"], view["season"], view["first_player"], scores),
    }


def revealed_part(
    edition: rules.Edition, view: dict[str, Any], k: int, size: str
) -> fragments.Part:
    """Seat ``k``'s revealed planet at ``size``, kept under what it is drawn from (not the
    moves: a move that leaves the planet as it was, a pick or a turn not revealed yet,
    finds it drawn; nor the game: an empty planet is the same at every new table), the
    seat's name a hole."""
    named = holes(len(view["seats"]))
    return fragments.Part(
        f"planet-{k}-{size}",
        fragments.EVERYONE,
        lambda: with_holes(_planet_html(revealed_planet(edition, view, named, k), size)),
        made_from=fragments.digest(*planet_facts(edition, view, k)),
        shared=True,
    )


def panel_parts(
    edition: rules.Edition, view: dict[str, Any], focus: int
) -> dict[str, fragments.Part]:
    """The panels, each drawn with the names as holes and kept for every game under a
    digest of all its drawing reads (``panel_facts``): the same facts give the same panel,
    whoever's view and whichever game they come from."""
    named = holes(len(view["seats"]))
    makers = {
        "powers": lambda: _powers(edition, view, named, focus),
        "fertility": lambda: _fertility(edition, view),
        "scores": lambda: _scores(edition, view, named),
    }
    facts = panel_facts(view, focus)
    return {
        name: fragments.Part(
            f"panel-{name}",
            fragments.EVERYONE,
            lambda make=makers[name]: with_holes(make()),  # type: ignore[misc]
            made_from=fragments.digest(edition.name, facts[name]),
            shared=True,
        )
        for name in PANELS
    }


def scores_panel(
    game: Game, edition: rules.Edition, view: dict[str, Any], names: list[str]
) -> SafeString:
    """The score table alone (the quiet poll's, ``quietpage``), kept and found as
    ``drawn`` keeps it, with this page's names and viewer's marks."""
    part = panel_parts(edition, view, focus=0)["scores"]  # the focus is the Power tracks'
    (found,) = fragments.kept_together(game, names, [part])
    return svg.mark_viewer(with_names(found, names), view["viewer"], len(view["seats"]))


def pool_facts(view: dict[str, Any]) -> tuple[Any, ...]:
    """All that the pool without a form reads of the view (``_pool.html``,
    ``pool_context``): no game, no name, no link in it."""
    return (
        view["pool"],
        view["token_card"],
        view["deck_count"],
        len(view["discard"]),
        view["ai_cards"],
        view["phase"],
    )


def still_pool_part(edition: rules.Edition, view: dict[str, Any]) -> fragments.Part:
    """The pool without a form, kept for every game alike under a digest of all it is
    drawn from (``pool_facts``): a move that leaves the pool as it was (a turn, the
    Action phase) finds it drawn, and so does another table with the same pool."""
    return fragments.Part(
        "pool",
        fragments.EVERYONE,
        lambda: _pool(edition, view),
        made_from=fragments.digest(edition.name, pool_facts(view)),
        shared=True,
    )


def pool_context(edition: rules.Edition, view: dict[str, Any]) -> dict[str, Any]:
    """What ``_pool.html`` shows of the view (the form's parts come from the page)."""
    return {
        "pool": presenters.pool(edition, view),
        "ai_cards": presenters.cards(edition, view["ai_cards"]),
    }


def _pool(edition: rules.Edition, view: dict[str, Any], **form: Any) -> str:
    """``_pool.html`` without a form, or with the parts of one in ``form`` (the pick's:
    ``can_pick``, ``game``, ``version``, the holes; the standing order's: ``ranking``,
    ``game``, the token's hole)."""
    context = {"view": view, "can_pick": False, "ranking": None, **pool_context(edition, view)}
    return render_to_string("games/evergreen/_pool.html", {**context, **form})


# Where a kept pool with a form has each page's CSRF token and key (``with_form``): plain
# words that nothing else in a pool (card names, counts, numbers) can contain.
TOKEN_HOLE = "pool-form-csrf-token-here"
KEY_HOLE = "pool-form-key-here"


def _pick_pool(game: Game, edition: rules.Edition, view: dict[str, Any]) -> str:
    form = {"game": game, "version": game.version, "key": KEY_HOLE, "csrf_token": TOKEN_HOLE}
    return _pool(edition, view, can_pick=True, **form)


def _ranking_pool(
    game: Game, edition: rules.Edition, view: dict[str, Any], stored: Sequence[str]
) -> str:
    ranking = presenters.ranking(edition, view, stored)
    return _pool(edition, view, ranking=ranking, game=game, csrf_token=TOKEN_HOLE)


def with_form(pool: str, token: str, key: str) -> SafeString:
    """A kept pool with the pick's or the standing order's form, carrying this page's CSRF
    token and key (both letters and digits: nothing to escape)."""
    return mark_safe(pool.replace(TOKEN_HOLE, token).replace(KEY_HOLE, key))  # drawn there


def drawn(
    game: Game,
    edition: rules.Edition,
    view: dict[str, Any],
    names: list[str],
    *,
    viewer: int | None,
    focus: int,
    mine: presenters.Planet | None,
    pool: str | None,
    stored: Sequence[str] = (),
) -> Drawn:
    """The parts of the page of ``game`` for seat ``viewer`` (None: a spectator), from the
    cache when they were drawn already. ``mine``: the viewer's planet with their turn (drawn
    here, never kept); ``pool``: "still" (it holds no form), "pick" (the pick's forms, with
    ``TOKEN_HOLE`` and ``KEY_HOLE`` for ``with_form`` to fill), "rank" (the standing
    order's form for the viewer's ``stored`` order, with ``TOKEN_HOLE``) or None (the
    template draws it)."""
    at = fragments.play_state(game)

    def part(name: str, eyes: int | str | None, make: Callable[[], Any]) -> fragments.Part:
        return fragments.Part(name, eyes, make, made_from=at)

    def revealed(k: int, size: str) -> fragments.Part:
        return revealed_part(edition, view, k, size)

    own = mine is not None  # the viewer's planet is drawn with their turn
    parts = panel_parts(edition, view, focus)
    if not (own and focus == viewer):
        parts["main"] = revealed(focus, "large")
    # A pool is drawn from the public pool and, with the standing order's form, the order
    # stored (in its key): alike for every viewer with the same facts, kept once for all.
    if pool == "still":
        parts["pool"] = still_pool_part(edition, view)
    elif pool == "pick":  # the forms hold the version: kept for it, not the moves
        parts["pool"] = fragments.Part("pool-pick", viewer, lambda: _pick_pool(game, edition, view))
    elif pool == "rank":  # the order is stored without a move: kept for it too
        parts["pool"] = fragments.Part(
            "pool-rank",
            fragments.EVERYONE,
            lambda: _ranking_pool(game, edition, view, stored),
            made_from=fragments.digest(at, list(stored)),
        )
    row = [k for k in range(len(view["seats"])) if k != focus]
    for k in row:
        if not (own and k == viewer):
            parts[f"planet-{k}"] = revealed(k, "medium")
    found = dict(
        zip(parts, fragments.kept_together(game, names, list(parts.values())), strict=True)
    )
    others = []
    for k in row:
        if own and k == viewer:
            assert mine is not None
            html = _planet_html(mine, "medium")
        else:
            html = with_names(found[f"planet-{k}"], names)
        others.append({"seat": k, "name": names[k], "html": mark_safe(html)})  # drawn there
    main, kept_pool = found.get("main"), found.get("pool")
    return Drawn(
        main=with_names(main, names) if main is not None else None,  # else the template's
        others=others,
        panels={
            "powers": with_names(found["powers"], names),
            "fertility": with_names(found["fertility"], names),
            "scores": svg.mark_viewer(
                with_names(found["scores"], names), viewer, len(view["seats"])
            ),
        },
        pool=mark_safe(kept_pool) if kept_pool is not None else None,
    )
