"""``evergreen-rules demo``: one game between bots, printed for people (seasons, the final
table, the winner or the solo title)."""

from __future__ import annotations

from typing import TextIO

from .edition import load_edition
from .engine import apply, new_game
from .planet import next_sun
from .selfplay import make_bots
from .state import GameState


def season_sun(start: str, season: int) -> str:
    """The Sun's position during ``season`` (1-based) when the game started at ``start``."""
    sun = start
    for _ in range(season - 1):
        sun = next_sun(sun)
    return sun


def demo(players: int, seed: int, bot: str, out: TextIO) -> None:
    """Play one game between bots and print it for people: seasons, final table, title."""
    ed = load_edition()
    bots = make_bots(bot, players, seed)
    names = [f"Bot {k + 1}" for k in range(players)]
    width = max(len(n) for n in names)
    state = new_game(players, seed)
    kind = (
        f"A solo game against the A.I. drafter, a {bot} bot playing"
        if players == 1
        else f"{players} players, {bot} bots"
    )
    print("Evergreen: a bot-vs-bot game on the command line (the web site comes later).", file=out)
    print(f"{kind}, seed {seed}, edition {ed.name}.", file=out)
    for k, name in enumerate(names):
        print(f"  {name.ljust(width)}  setup points {state.seats[k].setup_points}", file=out)
    start_sun, season = state.sun, state.season
    while not state.is_over:
        seat = state.awaiting[0]
        state = apply(state, bots[seat].choose(state, seat))
        if state.season != season or state.is_over:
            _print_season(state, season, season_sun(start_sun, season), names, width, out)
            season = state.season
    outcome = state.outcome
    assert outcome is not None
    print("\nFinal scores", file=out)
    for place, index in enumerate(outcome.ranking, start=1):
        s = state.seats[index]
        seasons = sum(x.total for x in s.seasons)
        print(
            f"  {place}. {names[index].ljust(width)}  {s.score:3d}   (setup {s.setup_points}"
            f" + seasons {seasons} + fertility {s.fertility})",
            file=out,
        )
    if outcome.title is not None:
        print(f"Solo title: {outcome.title}", file=out)
    else:
        print(f"Winner: {names[outcome.winner]}", file=out)


def _print_season(
    state: GameState, season: int, sun: str, names: list[str], width: int, out: TextIO
) -> None:
    print(f"\nSeason {season} (Sun {sun})", file=out)
    for index, name in enumerate(names):
        seat = state.seats[index]
        s = seat.seasons[season - 1]
        print(
            f"  {name.ljust(width)}  light {s.light:2d}  forest {s.forest:2d}  bud {s.bud:2d}"
            f"  = {s.total:2d}   score {seat.score - seat.fertility:3d}",
            file=out,
        )
