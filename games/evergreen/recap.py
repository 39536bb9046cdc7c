"""What happened in a game since a seat last acted: the recap of "your move" mails and digests.

A player returning after days should know where the game stands without opening it:
who took which card, where the leftover cards went (Fertility Zone, an Aridity flip,
the discard), which rounds were revealed and what they scored, the season scores.

How it is built: the Move rows are replayed the way the services play them — a move,
then everything that needs no player short of revealing a round; the reveal (and what
follows it: season scoring, the next pool) is a step of its own, taken only if the
game's snapshot has taken it too (closing can lag behind the last move). Every state
is turned into ``player_view(state, seat)`` and the recap describes the differences
between consecutive views. Since only what that seat's view shows can be described,
the recap cannot give away the deck order or another seat's unrevealed turn: a turn
submitted by someone else is "X planned their turn", nothing more.

``steps`` and ``events`` are pure (engine states in, values out); ``for_seat`` reads
the database; ``lines`` turns events into sentences in the active language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.evergreen import rules
from games.evergreen.rules.edition import Edition
from games.evergreen.rules.view import player_view

from .presenters import BIOME_NAMES, POWER_NAMES, season_name

if TYPE_CHECKING:
    from games.models import Game

MAX_EVENTS = 40  # a recap longer than this keeps its most recent events


@dataclass(frozen=True)
class Step:
    """The state after Move ``number`` (``move`` set), or after the reveal that followed it."""

    number: int
    move: rules.Move | None  # None: a round was revealed (closing)
    state: rules.GameState


@dataclass(frozen=True)
class Event:
    """One thing that happened, as plain values (sentences come from ``lines``).

    ``kind`` is one of ``pick`` (``seat`` took ``card``), ``ai_pick`` (the A.I. drafter
    took ``card``), ``turn`` (``seat`` submitted a turn; nothing of it is shown),
    ``leftover`` (``card`` went ``where``: ``zone`` or ``discard``; ``flipped``: the
    card an Aridity card turned face down), ``revealed`` (round ``round`` of ``season``
    revealed; ``points``: Bud points per seat that round), ``season`` (``season``
    scored; ``rows``: light, forest, bud, total score per seat), ``game_over``
    (``points``: final scores; ``ranking``), ``new_round`` (``season``/``round``
    begins; ``cards``: the pool).
    """

    kind: str
    seat: int | None = None
    card: str | None = None
    where: str | None = None
    flipped: str | None = None
    season: int = 0
    round: int = 0
    points: tuple[int, ...] = ()
    rows: tuple[tuple[int, int, int, int], ...] = ()
    ranking: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()


@dataclass(frozen=True)
class Recap:
    viewer: int
    events: list[Event]
    omitted: int  # older events left out (``MAX_EVENTS``)
    now: dict[str, Any] = field(default_factory=dict)  # the viewer's view of the game now


# --- Replaying -----------------------------------------------------------------------------------


def steps(
    start: rules.GameState,
    moves: Sequence[rules.Move],
    *,
    closed: bool = True,
    first: int = 0,
) -> list[Step]:
    """Every state the game went through, as the services produce them.

    ``closed``: whether a round complete after the last move has been revealed already
    (the game's snapshot says so); if not, the recap stops short of the reveal.
    ``first``: the number of the move ``start`` is the state after (0: the setup), when
    ``moves`` are the ones after it (the game log resumes from a kept state).
    """
    result = [Step(first, None, start)]
    state = start
    for number, move in enumerate(moves, start=first + 1):
        if rules.round_complete(state):
            state = rules.advance(state)
            result.append(Step(number - 1, None, state))
        state = rules.advance(rules.apply(state, move, advance_state=False), close_round=False)
        result.append(Step(number, move, state))
    if closed and rules.round_complete(state):
        state = rules.advance(state)
        result.append(Step(first + len(moves), None, state))
    return result


def since(all_steps: Sequence[Step], last_acted: int) -> list[Step]:
    """The steps from the state right after move ``last_acted`` (its base first)."""
    base = 0
    for index, step in enumerate(all_steps):
        if step.number == last_acted and (step.move is not None or last_acted == 0):
            base = index
            break
    return list(all_steps[base:])


# --- Describing ----------------------------------------------------------------------------------


def _season_row(view: Mapping[str, Any], seat: int, season: int) -> dict[str, int]:
    for entry in view["seats"][seat]["seasons"]:
        if entry["season"] == season:
            return entry  # type: ignore[no-any-return]
    return {"light": 0, "forest": 0, "bud": 0}


def _zone_cards(view: Mapping[str, Any]) -> dict[str, tuple[str, bool]]:
    """Card -> (biome, face up) for the Fertility Zone of a view."""
    return {
        entry["card"]: (biome, entry["face_up"])
        for biome, stack in view["fertility_zone"].items()
        for entry in stack
    }


def events(
    before: Mapping[str, Any],
    move: rules.Move | None,
    after: Mapping[str, Any],
    edition: Edition,
) -> list[Event]:
    """What happened between two views of the same seat, ``move`` having been made
    (``None``: the round was revealed). Only view contents are read, plus the move
    itself for a pick (public) or the seat of a turn."""
    found: list[Event] = []
    if isinstance(move, rules.Pick):
        found.append(Event("pick", seat=move.seat, card=move.card))
    elif isinstance(move, rules.Turn):
        found.append(Event("turn", seat=move.seat))

    if move is None and before["phase"] == "action":
        season, rnd = before["season"], before["round"]
        buds = tuple(
            _season_row(after, i, season)["bud"] - _season_row(before, i, season)["bud"]
            for i in range(len(after["seats"]))
        )
        found.append(Event("revealed", season=season, round=rnd, points=buds))
        if after["season"] > season or after["phase"] == "over":
            rows = []
            for i, seat in enumerate(after["seats"]):
                row = _season_row(after, i, season)
                rows.append((row["light"], row["forest"], row["bud"], seat["score"]))
            found.append(Event("season", season=season, rows=tuple(rows)))
        if after["phase"] == "over" and after.get("outcome"):
            outcome = after["outcome"]
            found.append(
                Event(
                    "game_over",
                    points=tuple(outcome["scores"]),
                    ranking=tuple(outcome["ranking"]),
                )
            )

    same_season = after["season"] == before["season"]
    old_ai = list(before["ai_cards"]) if same_season else []
    new_ai = tuple(after["ai_cards"])[len(old_ai) :]
    if move is None and after["phase"] == "draft" and before["phase"] != "draft":
        # A new round: its pool as it was dealt (the A.I. drafter may have picked already).
        found.append(
            Event(
                "new_round",
                season=after["season"],
                round=after["round"],
                cards=(*new_ai, *after["pool"]),
            )
        )
    found.extend(Event("ai_pick", card=c) for c in new_ai)
    if move is not None and before["phase"] == "draft" and after["phase"] != "draft":
        # The Draft ended with this pick: where the cards nobody took went.
        picked = {move.card} if isinstance(move, rules.Pick) else set()
        old_zone, new_zone = _zone_cards(before), _zone_cards(after)
        for card in before["pool"]:
            if card in picked or card in new_ai:
                continue
            if card in new_zone and card not in old_zone:
                flipped = None
                if edition.cards[card].aridity:
                    biome = new_zone[card][0]
                    flipped = next(
                        (
                            c
                            for c, (b, up) in new_zone.items()
                            if b == biome and not up and c in old_zone and old_zone[c][1]
                        ),
                        None,
                    )
                found.append(Event("leftover", card=card, where="zone", flipped=flipped))
            else:
                found.append(Event("leftover", card=card, where="discard"))
    return found


def recap(all_steps: Sequence[Step], viewer: int, last_acted: int) -> Recap:
    """The events ``viewer`` has not seen: everything after their move ``last_acted``."""
    chosen = since(all_steps, last_acted)
    edition = rules.load_edition(chosen[0].state.edition)
    views = [player_view(step.state, viewer) for step in chosen]
    found: list[Event] = []
    for previous, step, view in zip(views, chosen[1:], views[1:], strict=False):
        found.extend(events(previous, step.move, view, edition))
    omitted = max(0, len(found) - MAX_EVENTS)
    return Recap(viewer, found[omitted:], omitted, views[-1])


def for_seat(game: Game, position: int, last_acted: int | None = None) -> Recap:
    """The recap for seat ``position`` of ``game`` since its last own move (or ``last_acted``)."""
    record = game.record()
    snapshot = game.engine_state()
    all_steps = steps(record.start(), record.moves, closed=not rules.round_complete(snapshot))
    if last_acted is None:
        seat = next((s for s in game.ordered_seats() if s.position == position), None)
        if seat is None:
            raise ValueError(f"no seat {position}")
        last_acted = seat.last_acted_move
    return recap(all_steps, position, last_acted)


# --- Sentences -----------------------------------------------------------------------------------


def card_name(edition: Edition, card: str) -> str:
    info = edition.cards.get(card)
    if info is None:
        return card
    return _card_name(get_language(), edition, card)


@cache
def _card_name(language: str | None, edition: Edition, card: str) -> str:
    """``card_name`` in ``language``, made once per process (as ``cardsvg`` draws a card):
    a log told from its first round names fifty cards, each three translations (1.2 of the
    37 ms of a player's first look at a table played on 50 moves)."""
    info = edition.cards[card]
    # "Grassland · Plant Bush": the card as text, in the log and in mails alike.
    return _("%(biome)s · %(power)s") % {
        "biome": BIOME_NAMES[info.suit],
        "power": POWER_NAMES[info.power],
    }


@receiver(setting_changed)
def _forget_names(*, setting: str, **kwargs: object) -> None:
    if setting in ("LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS"):
        _card_name.cache_clear()


def _names_points(names: Sequence[str], points: Sequence[int]) -> str:
    return ", ".join(
        _("%(name)s %(points)s") % {"name": names[i], "points": p} for i, p in enumerate(points)
    )


def describe(event: Event, names: Sequence[str], viewer: int, edition: Edition) -> list[str]:
    """One event in sentences (the first the headline, any others details)."""
    card = card_name(edition, event.card) if event.card else ""
    name = names[event.seat] if event.seat is not None and event.seat < len(names) else ""
    if event.kind == "pick":
        if event.seat == viewer:
            return [_("%(card)s was taken for you.") % {"card": card}]
        return [_("%(name)s took %(card)s.") % {"name": name, "card": card}]
    if event.kind == "ai_pick":
        return [_("The A.I. drafter took %(card)s.") % {"card": card}]
    if event.kind == "turn":
        if event.seat == viewer:
            return [_("A turn was played for you.")]
        return [_("%(name)s planned their turn.") % {"name": name}]
    if event.kind == "leftover":
        assert event.card is not None
        biome = BIOME_NAMES[edition.cards[event.card].suit] if event.card in edition.cards else ""
        if event.where == "discard":
            return [_("Nobody took %(card)s: it was discarded.") % {"card": card}]
        if edition.cards[event.card].aridity:
            if event.flipped:
                return [
                    _(
                        "Nobody took %(card)s: its Aridity turned %(flipped)s face down in "
                        "the %(biome)s Fertility Zone."
                    )
                    % {"card": card, "flipped": card_name(edition, event.flipped), "biome": biome}
                ]
            return [
                _(
                    "Nobody took %(card)s: it joined the %(biome)s Fertility Zone "
                    "(no Fertility card to turn face down)."
                )
                % {"card": card, "biome": biome}
            ]
        return [
            _("Nobody took %(card)s: it went to the %(biome)s Fertility Zone.")
            % {"card": card, "biome": biome}
        ]
    if event.kind == "revealed":
        return [
            _("Round %(round)s of %(season)s revealed. Bud points: %(points)s.")
            % {
                "round": event.round,
                "season": season_name(event.season),
                "points": _names_points(names, event.points),
            }
        ]
    if event.kind == "season":
        head = _("%(season)s scored:") % {"season": season_name(event.season)}
        details = [
            _("%(name)s: Light %(light)s, Forest %(forest)s, Bud %(bud)s — %(score)s points in all")
            % {"name": names[i], "light": light, "forest": forest, "bud": bud, "score": total}
            for i, (light, forest, bud, total) in enumerate(event.rows)
        ]
        return [head, *details]
    if event.kind == "game_over":
        ranking = event.ranking or tuple(range(len(event.points)))
        return [
            _("Game over. Final scores: %(scores)s.")
            % {
                "scores": ", ".join(
                    _("%(name)s %(points)s") % {"name": names[i], "points": event.points[i]}
                    for i in ranking
                )
            }
        ]
    if event.kind == "new_round":
        return [
            _("Round %(round)s of %(season)s began with the pool: %(cards)s.")
            % {
                "round": event.round,
                "season": season_name(event.season),
                "cards": ", ".join(card_name(edition, c) for c in event.cards),
            }
        ]
    return []


def lines(recap_: Recap, names: Sequence[str]) -> list[dict[str, Any]]:
    """The recap as sentences: ``[{"text": …, "details": […]}]``, oldest first."""
    edition = rules.load_edition(recap_.now["edition"]) if recap_.now else None
    result: list[dict[str, Any]] = []
    if recap_.omitted:
        result.append(
            {
                "text": _("(%(count)s earlier events left out.)") % {"count": recap_.omitted},
                "details": [],
            }
        )
    for event in recap_.events:
        assert edition is not None
        text = describe(event, names, recap_.viewer, edition)
        if text:
            result.append({"text": text[0], "details": text[1:]})
    return result


def standing(recap_: Recap, names: Sequence[str]) -> str:
    """Where the game stands now, in one sentence."""
    view = recap_.now
    scores = _names_points(names, [s["score"] for s in view["seats"]])
    if view["phase"] == "over":
        return _("The game is over. Scores: %(scores)s.") % {"scores": scores}
    where = (
        _("%(season)s, round %(round)s, Draft")
        if view["phase"] == "draft"
        else _("%(season)s, round %(round)s, turns being planned")
    ) % {"season": season_name(view["season"]), "round": view["round"]}
    return _("Now: %(where)s. Scores: %(scores)s.") % {"where": where, "scores": scores}
