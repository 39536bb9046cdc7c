"""Nim, the toy third game: two players take 1 to 3 stones in turn from one pile; whoever
takes the last stone wins. It exists to prove that a game is a package added to the
platform and nothing more: it is registered in the test settings only (``GAME_KINDS``)
and played through the platform's services, pages and API (tests/games/test_toy_game.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from django.template import engines
from django.utils.translation import gettext_lazy

from games.kinds import GameKind, Refusal, Setup, Summary

STONES = 10


@dataclass(frozen=True)
class Take:
    seat: int
    count: int


@dataclass(frozen=True)
class Pile:
    stones: int
    to_move: int = 0
    winner: int | None = None


@dataclass(frozen=True)
class NimRecord:
    players: tuple[str, ...]
    seed: int
    stones: int
    moves: tuple[Take, ...]

    def start(self) -> Pile:
        return Pile(self.stones)

    def states(self) -> Iterator[Pile]:
        state = self.start()
        yield state
        for move in self.moves:
            state = NIM.apply(state, move)
            yield state

    def replay(self) -> Pile:
        *_, final = self.states()
        return final

    def to_json(self, final: Pile | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": "nim-record",
            "players": list(self.players),
            "seed": self.seed,
            "options": {"stones": self.stones},
            "moves": [NIM.move_to_json(m) for m in self.moves],
        }
        if final is not None and final.winner is not None:
            data["result"] = {"winner": final.winner}
        return data


PLAY = engines["django"].from_string(
    """{% load i18n %}<section class="panel nim">
  <p class="nim-pile">Stones left: {{ view.stones }}</p>
  {% if view.winner is not None %}<p class="nim-winner">Winner: seat {{ view.winner }}</p>{% endif %}
  {% if can_take %}
  <form method="post" action="{% url 'games:move' game.pk %}">{% csrf_token %}
    <input type="hidden" name="version" value="{{ version }}">
    <input type="hidden" name="key" value="{{ key }}">
    {% for n in counts %}<button type="submit" name="count" value="{{ n }}">Take {{ n }}</button>{% endfor %}
  </form>
  {% endif %}
</section>"""
)
REPLAY = engines["django"].from_string('<p class="nim-pile">Stones left: {{ view.stones }}</p>')


class Nim(GameKind):
    name = "nim"
    title = "Nim"
    min_players = 2
    max_players = 2
    # The site's own words for its computer players (the lobby lists them by game).
    bots: ClassVar[dict[str, Any]] = {
        "greedy": gettext_lazy("Greedy"),
        "random": gettext_lazy("Random"),
    }
    default_bot = "greedy"
    play_template = PLAY  # type: ignore[assignment]  (a Template: {% include %} renders it)
    replay_template = REPLAY  # type: ignore[assignment]

    def check_setup(self, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        if players != 2:
            raise Refusal("bad_player_count", "Nim is played by 2 players.")
        stones = options.get("stones", STONES)
        if not isinstance(stones, int) or not 1 <= stones <= 50:
            raise Refusal("bad_stones", "A pile has 1 to 50 stones.")
        return {"stones": stones}

    def new_game(self, setup: Setup) -> Pile:
        return Pile(int(setup.options.get("stones", STONES)))

    def state_to_json(self, state: Pile) -> dict[str, Any]:
        return {"stones": state.stones, "to_move": state.to_move, "winner": state.winner}

    def state_from_json(self, data: Mapping[str, Any]) -> Pile:
        return Pile(data["stones"], data["to_move"], data["winner"])

    def move_from_json(self, data: Any, seat: int) -> Take:
        if isinstance(data, Take):
            return Take(seat, data.count)
        if not isinstance(data, dict) or data.get("type") != "take":
            raise Refusal("bad_move", 'A move is {"type": "take", "count": 1 to 3}.')
        count = data.get("count")
        if isinstance(count, str) and count.isdigit():
            count = int(count)
        if not isinstance(count, int) or isinstance(count, bool):
            raise Refusal("bad_count", "Take a whole number of stones.")
        return Take(seat, count)

    def move_to_json(self, move: Take) -> dict[str, Any]:
        return {"type": "take", "count": move.count}

    def move_seat(self, move: Take) -> int:
        return move.seat

    def apply(self, state: Pile, move: Take) -> Pile:
        if state.winner is not None:
            raise Refusal("game_over", "The game is over.", conflict=True)
        if move.seat != state.to_move:
            raise Refusal("not_your_turn", "It is not your turn.", conflict=True)
        if not 1 <= move.count <= min(3, state.stones):
            raise Refusal("bad_count", "Take 1 to 3 stones, at most what is left.")
        stones = state.stones - move.count
        return replace(
            state,
            stones=stones,
            to_move=1 - state.to_move,
            winner=move.seat if stones == 0 else None,
        )

    def awaiting(self, state: Pile) -> tuple[int, ...]:
        return () if state.winner is not None else (state.to_move,)

    def is_over(self, state: Pile) -> bool:
        return state.winner is not None

    def scores(self, state: Pile) -> tuple[int, ...]:
        return tuple(int(seat == state.winner) for seat in range(2))

    def summary(self, state: Pile) -> Summary:
        return Summary("over" if state.winner is not None else "play", 0, 0)

    def round_key(self, state: Pile) -> str:
        return f"stones{state.stones}"

    def player_view(self, state: Pile, seat: int | None) -> dict[str, Any]:
        return {**self.state_to_json(state), "viewer": seat}

    def bot_move(self, bot: str, state: Pile, seat: int, seed: int) -> Take:
        # Leave a multiple of 4 when it can: the winning strategy.
        return Take(seat, state.stones % 4 or 1)

    def record(self, names: Sequence[str], setup: Setup, moves: Sequence[Take]) -> NimRecord:
        stones = int(setup.options.get("stones", STONES))
        return NimRecord(tuple(names), setup.seed, stones, tuple(moves))

    def describe_move(self, move: Take, names: Sequence[str], state: Any = None) -> str:
        return f"{names[move.seat]} took {move.count}."

    def status_text(self, view: Mapping[str, Any] | None, names: Sequence[str], status: str) -> str:
        if view is None:
            return "Waiting for players" if status == "open" else status
        if view["winner"] is not None:
            return f"{names[view['winner']]} took the last stone and won."
        return f"{names[view['to_move']]} to take stones."

    def page_context(
        self, request: Any, game: Any, seat: Any, params: Mapping[str, Any]
    ) -> dict[str, Any]:
        state = game.engine_state()
        view = self.player_view(state, seat.position if seat else None)
        mine = seat is not None and seat.position in self.awaiting(state) and game.is_playable
        return {
            "view": view,
            "status": self.status_text(view, params["names"], params["status_key"]),
            "my_move": mine,
            "can_take": mine,
            "counts": range(1, min(3, state.stones) + 1),
        }

    def replay_context(self, game: Any, record: Any, state: Pile, viewer: int | None) -> dict:
        return {"view": self.player_view(state, viewer)}

    def move_from_form(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return {"type": "take", "count": data.get("count", "")}


NIM = Nim()
