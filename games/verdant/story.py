"""Verdant's game log: the game in rounds, in the words of its recap (``GameKind.story``).

The sentences are ``recap.sentence`` of each move's facts, as in the replay and the mails;
the log groups them by round (the starting plants, then one turn of every player a round)
and adds the final scores. Start placements the viewer may not see yet
(``unrevealed_moves``: other seats' while the start phase lasts) are left out; the facts
never name a card still in a deck or a token still in the bag.

The log is told on from a bookmark (``story_on``, ``GameKind.story_on``): the platform
keeps the telling (``games.telling``), so after a move only that move is replayed and told
and only the chapter it closed is drawn. Before, every first look at a new version replayed
and told the whole game (a third of the poll's region after a move, four players half-way).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from django.utils.translation import gettext as _

from games.kinds import Chapter, StoryLine, StoryOn

from . import recap, rules

ICONS = {"start": "start", "wipe": "spare", "turn": "take"}

# A line of the open chapter, with whether it tells another seat's start placement: left
# out while the start phase lasts (``rules.record.unrevealed_moves``), told once it is over.
Told = tuple[StoryLine, bool]
# Where a telling stood (``StoryOn.bookmark``): the moves told, the state after them, the
# open chapter's title and its lines so far (plain picklable values).
Bookmark = tuple[int, rules.GameState, str, tuple[Told, ...]]


def _scores(state: rules.GameState) -> tuple[int, ...]:
    return tuple(rules.score_seat(state, k).total for k in range(len(state.seats)))


def _chapter_of(state: rules.GameState) -> int | None:
    """Which chapter a state is in: None for the starting plants, else its round."""
    return None if state.phase is rules.Phase.START else state.round


def _title(state: rules.GameState) -> str:
    if state.phase is rules.Phase.START:
        return _("Starting plants")
    return _("Round %(round)s") % {"round": state.round}


def _replayed(start: rules.GameState, moves: Sequence[rules.Move]) -> Iterator[rules.GameState]:
    """The state after each of ``moves`` played from ``start`` (a record's, already checked)."""
    state = start
    for move in moves:
        state = rules.apply_unchecked(state, move)
        yield state


def _first_told(start: rules.GameState, afters: Sequence[rules.GameState], newest: int) -> int:
    """How many of the moves after ``start`` close chapters older than the ``newest``
    final ones, so need not be told: every closed chapter ends at a move, and has its line."""
    closings, chapter = [], _chapter_of(start)
    for number, after in enumerate(afters, start=1):
        if after.is_over or _chapter_of(after) != chapter:
            closings.append(number)
        chapter = _chapter_of(after)
    left_out = len(closings) - newest
    return closings[left_out - 1] if left_out > 0 else 0


def story_on(
    record: rules.GameRecord,
    bookmark: Bookmark | None,
    state: rules.GameState,
    viewer: int | None,
    names: Sequence[str],
    newest: int | None = None,
) -> StoryOn:
    """The game log as ``viewer`` (None: a spectator) may read it, ``state`` being the
    game's snapshot, told on from ``bookmark`` (``record`` holding the moves since it; None:
    all of them, told from the first move): one chapter for the starting plants, then one
    per round. The chapters closed on the way are final (a closed chapter hides nothing:
    the start phase is over); the open one is told again from the bookmark's lines. Told
    from the first move with ``newest`` set, the chapters before the ``newest`` final ones
    are replayed, not told (``StoryOn.left_out`` counts them)."""
    if bookmark is not None and not record.moves:
        told, before, title, kept = bookmark
        return StoryOn((), _open_chapter(title, told, kept, before, state), bookmark)
    edition = rules.load_edition(record.edition)
    open_lines: tuple[Told, ...] = ()
    if bookmark is None:
        states = list(record.states(checked=False))
        told, before, title = 0, states[0], _title(states[0])
        afters: Sequence[rules.GameState] = states[1:]
    else:
        told, before, title, open_lines = bookmark
        afters = list(_replayed(before, record.moves))
    skip = _first_told(before, afters, newest) if bookmark is None and newest is not None else 0
    lines: list[Told] = list(open_lines)
    final: list[Chapter] = []
    left_out = 0
    for number, (move, after) in enumerate(zip(record.moves, afters, strict=True), start=told + 1):
        if number > skip:
            facts = rules.move_facts(before, move, after)
            line = StoryLine(
                ICONS.get(facts["type"], "take"), recap.sentence(edition, facts, names)
            )
            lines.append((line, isinstance(move, rules.Start) and move.seat != viewer))
        if after.is_over or _chapter_of(after) != _chapter_of(before):
            if number <= skip:
                left_out += 1
            else:
                final.append(_closed_chapter(title, number, lines, after, names))
            lines, title = [], _title(after)
        before = after
    last = told + len(record.moves)
    rest = _open_chapter(title, last, tuple(lines), before, state)
    return StoryOn(tuple(final), rest, (last, before, title, tuple(lines)), left_out)


def _closed_chapter(
    title: str, number: int, lines: Sequence[Told], after: rules.GameState, names: Sequence[str]
) -> Chapter:
    told = [line for line, _hidden in lines]
    if after.is_over:
        final = ", ".join(
            _("%(name)s %(points)s") % {"name": names[k], "points": points}
            for k, points in enumerate(_scores(after))
            if k < len(names)
        )
        told.append(StoryLine("end", _("Game over. Final scores: %(scores)s.") % {"scores": final}))
    return Chapter(
        title, number, tuple(told), _scores(after), _("the game") if after.is_over else ""
    )


def _open_chapter(
    title: str,
    number: int,
    lines: Sequence[Told],
    before: rules.GameState,
    state: rules.GameState,
) -> tuple[Chapter, ...]:
    """The chapter still open, as told to a viewer now (``state``: the game's snapshot):
    others' start placements left out while the start phase lasts, and no scores then (they
    would count placements still hidden)."""
    hiding = state.phase is rules.Phase.START
    shown = tuple(line for line, hidden in lines if not (hiding and hidden))
    if not shown:
        return ()
    scores = () if hiding and len(shown) < len(lines) else _scores(before)
    return (Chapter(title, number, shown, scores),)


def story(
    record: rules.GameRecord, state: rules.GameState, viewer: int | None, names: Sequence[str]
) -> list[Chapter]:
    """The game log as ``viewer`` (None: a spectator) may read it, ``state`` being the
    game's snapshot, told from the first move."""
    told = story_on(record, None, state, viewer, names)
    return [*told.final, *told.rest]
