"""Verdant's game log: the game in rounds, in the words of its recap (``GameKind.story``).

The sentences are ``recap.sentence`` of each move's facts, as in the replay and the mails;
the log groups them by round (the starting plants, then one turn of every player a round)
and adds the final scores. Start placements the viewer may not see yet
(``unrevealed_moves``) are left out; the facts never name a card still in a deck or a
token still in the bag.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from games.kinds import Chapter, StoryLine

from . import recap, rules
from .rules.record import unrevealed_moves

ICONS = {"start": "start", "wipe": "spare", "turn": "take"}


def _scores(state: rules.GameState) -> tuple[int, ...]:
    return tuple(rules.score_seat(state, k).total for k in range(len(state.seats)))


def _title(state: rules.GameState) -> str:
    if state.phase is rules.Phase.START:
        return _("Starting plants")
    return _("Round %(round)s") % {"round": state.round}


def story(
    record: rules.GameRecord, state: rules.GameState, viewer: int | None, names: Sequence[str]
) -> list[Chapter]:
    """The game log as ``viewer`` (None: a spectator) may read it, ``state`` being the
    game's snapshot: one chapter for the starting plants, then one per round."""
    edition = rules.load_edition(record.edition)
    hidden = unrevealed_moves(record, state, viewer)
    chapters: list[Chapter] = []
    lines: list[StoryLine] = []
    states = record.states(checked=False)
    before = next(states)
    title = _title(before)
    for number, (move, after) in enumerate(zip(record.moves, states, strict=True), start=1):
        if number - 1 not in hidden:
            facts = rules.move_facts(before, move, after)
            lines.append(
                StoryLine(ICONS.get(facts["type"], "take"), recap.sentence(edition, facts, names))
            )
        if after.is_over or _title(after) != title:
            if after.is_over:
                final = ", ".join(
                    _("%(name)s %(points)s") % {"name": names[k], "points": points}
                    for k, points in enumerate(_scores(after))
                    if k < len(names)
                )
                lines.append(
                    StoryLine("end", _("Game over. Final scores: %(scores)s.") % {"scores": final})
                )
            if lines:
                chapters.append(
                    Chapter(
                        title,
                        number,
                        tuple(lines),
                        _scores(after),
                        _("the game") if after.is_over else "",
                    )
                )
            lines, title = [], _title(after)
        before = after
    if lines:
        # Scores would count start placements still hidden: none until they are revealed.
        scores = () if hidden else _scores(before)
        chapters.append(Chapter(title, len(record.moves), tuple(lines), scores))
    return chapters
