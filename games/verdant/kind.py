"""Verdant as a game kind of the platform (``games.kinds.GameKind``).

Verdant is turn by turn after a simultaneous start: every seat chooses, hidden, on which
side of its starting room its starting plant goes (``awaiting`` lists them all); once all
are in, one seat plays at a time for 13 turns each. Nothing waits to be revealed by the
platform (the engine reveals the start placements with the last one), so
``needs_resolution`` keeps its default. Everything here translates between the platform's
interface and the pure engine in ``rules``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.kinds import Chapter, GameKind, Refusal, Setup, StoryOn, Summary

from . import recap, refusals, rules
from .rules.bots import BOTS
from .rules.record import unrevealed_moves
from .rules.state import VARIANTS

if TYPE_CHECKING:
    from django.http import HttpRequest
    from django.urls import URLPattern

    from games.models import Game, Seat

# Refusals that mean "not now" rather than "never": answered 409.
CONFLICT_CODES = frozenset({"not_your_turn", "wrong_phase", "start_already_chosen", "game_over"})


def refused(exc: rules.RulesError) -> Refusal:
    return Refusal(exc.code, refusals.message(exc), conflict=exc.code in CONFLICT_CODES)


class Verdant(GameKind):
    name = "verdant"
    title = gettext_lazy("Verdant")
    min_players = 1
    max_players = 5
    bots: ClassVar[Mapping[str, Any]] = {
        "random": gettext_lazy("Random"),
        "greedy": gettext_lazy("Greedy"),
        "strong": gettext_lazy("Strong"),
    }
    default_bot = "greedy"
    play_template = "games/verdant/_play.html"
    replay_template = "games/verdant/_replay.html"
    head_template = "games/verdant/_defs.html"
    foot_template = "games/verdant/_foot.html"
    view_schema = "games.verdant.api_schema.VerdantViewSerializer"

    def option_fields(self) -> dict[str, Any]:
        from django import forms

        return {
            "variant": forms.ChoiceField(
                label=gettext_lazy("Verdant: variant"),
                choices=[
                    ("standard", gettext_lazy("Standard")),
                    ("family", gettext_lazy("Family (no green thumbs, simpler scoring)")),
                ],
                initial="standard",
                required=False,
            ),
            "goals": forms.BooleanField(
                label=gettext_lazy("Verdant: goal cards (advanced set-up)"), required=False
            ),
        }

    def api_create_example(self) -> dict[str, Any] | None:
        from .api_schema import CREATE_EXAMPLE

        return CREATE_EXAMPLE

    def api_move_examples(self) -> dict[str, Any]:
        from .api_schema import MOVE_EXAMPLES

        return MOVE_EXAMPLES

    def lobby_options(self, game: Game) -> list[str]:
        variant = self.option_fields()["variant"]
        words = [str(dict(variant.choices).get(game.options.get("variant"), _("Standard")))]
        if game.options.get("goals"):
            words.append(_("Goal cards"))
        return words

    def check_setup(self, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        if not self.min_players <= players <= self.max_players:
            raise Refusal("bad_player_count", _("Verdant is played by 1 to 5 players."))
        variant = options.get("variant") or "standard"
        if variant not in VARIANTS:
            raise Refusal("bad_variant", _("The variant is standard or family."))
        goals = options.get("goals", False)
        if not isinstance(goals, bool):
            raise Refusal("bad_goals", _("Goal cards are on or off."))
        return {"variant": variant, "goals": goals, "edition": rules.DEFAULT_EDITION}

    def new_game(self, setup: Setup) -> rules.GameState:
        options = setup.options
        try:
            return rules.new_game(
                setup.players,
                setup.seed,
                edition=options.get("edition") or rules.DEFAULT_EDITION,
                variant=options.get("variant") or "standard",
                goals=bool(options.get("goals", False)),
            )
        except rules.RulesError as exc:
            raise refused(exc) from exc

    # --- JSON ---------------------------------------------------------------------------

    def state_to_json(self, state: rules.GameState) -> dict[str, Any]:
        return rules.state_to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> rules.GameState:
        return rules.state_from_json(dict(data))

    def move_from_json(self, data: Any, seat: int) -> rules.Move:
        if isinstance(data, (rules.Start, rules.Wipe, rules.Turn)):
            return (
                data
                if data.seat == seat
                else rules.move_from_json({**data.to_json(), "seat": seat})
            )
        try:
            return rules.move_from_json({**data, "seat": seat} if isinstance(data, dict) else data)
        except rules.RulesError as exc:
            raise refused(exc) from exc

    def move_to_json(self, move: rules.Move) -> dict[str, Any]:
        return move.to_json()

    def move_seat(self, move: rules.Move) -> int:
        return move.seat

    def move_kind(self, move: rules.Move) -> str:
        return str(move.to_json()["type"])

    # --- Playing --------------------------------------------------------------------------

    def apply(self, state: rules.GameState, move: rules.Move) -> rules.GameState:
        try:
            return rules.apply(state, move)
        except rules.RulesError as exc:
            raise refused(exc) from exc

    def awaiting(self, state: rules.GameState) -> tuple[int, ...]:
        return state.awaiting

    def is_over(self, state: rules.GameState) -> bool:
        return state.is_over

    def solo_title(self, state: rules.GameState) -> str | None:
        return state.outcome.title if state.outcome is not None else None

    def title_name(self, title: str) -> str:
        from .words import title as title_words

        return title_words(title)

    def scores(self, state: rules.GameState) -> tuple[int, ...]:
        if state.outcome is not None:
            return state.outcome.scores
        return tuple(rules.score_seat(state, k).total for k in range(len(state.seats)))

    def ranking(self, state: rules.GameState) -> tuple[int, ...]:
        if state.outcome is not None:
            return state.outcome.ranking
        return super().ranking(state)

    def summary(self, state: rules.GameState) -> Summary:
        ed = rules.load_edition(state.edition)
        return Summary(state.phase.value, 0, min(state.round, ed.turns_per_player))

    def round_key(self, state: rules.GameState) -> str:
        # Every turn is a decision of its own: a reminder or "your move" is for one turn.
        return f"t{state.turn}"

    def player_view(self, state: rules.GameState, seat: int | None) -> dict[str, Any]:
        return rules.player_view(state, seat)

    def legal_targets(self, state: rules.GameState, seat: int, question: Mapping[str, Any]) -> Any:
        from .targets import answer

        return answer(state, seat, question)

    def hidden_moves(
        self, state: rules.GameState, moves: Sequence[rules.Move], viewer: int | None
    ) -> set[int]:
        return unrevealed_moves(rules.GameRecord((), 0, moves=tuple(moves)), state, viewer)

    def unseen_move_parts(self, context: Mapping[str, Any]) -> dict[str, str]:
        # Each home tells whether its seat has chosen its start placement (as _play.html).
        homes = "".join(h["html"] for h in context["homes"])
        return {"#play .verdant-homes": f'<div class="verdant-homes">\n  {homes}\n</div>'}

    # --- Computer players and time-outs -------------------------------------------------

    def bot_move(self, bot: str, state: rules.GameState, seat: int, seed: int) -> rules.Move:
        return rules.make_bot(bot if bot in BOTS else self.default_bot, seed=seed).choose(
            state, seat
        )

    def timeout_move(
        self,
        state: rules.GameState,
        seat: int,
        policy: str,
        seed: int,
        order: Sequence[str] = (),
    ) -> rules.Move:
        if policy == "bot":
            return self.bot_move("greedy", state, seat, seed)
        from .targets import smallest_move

        return smallest_move(state, seat) or self.bot_move("random", state, seat, seed)

    # --- The record -------------------------------------------------------------------------

    def record(
        self, names: Sequence[str], setup: Setup, moves: Sequence[rules.Move]
    ) -> rules.GameRecord:
        options = setup.options
        return rules.GameRecord(
            tuple(names),
            setup.seed,
            options.get("edition") or rules.DEFAULT_EDITION,
            options.get("variant") or "standard",
            bool(options.get("goals", False)),
            tuple(moves),
        )

    def record_for_viewer(
        self,
        record: rules.GameRecord,
        state: rules.GameState,
        viewer: int | None,
        *,
        finished: bool,
    ) -> dict[str, Any]:
        """Whole once the game is over; while it runs without the seed (with the moves it
        gives away both decks and the bag) and without others' unrevealed start placements."""
        data = record.to_json(state if finished else None)
        if finished:
            return data
        del data["seed"]
        hidden = unrevealed_moves(record, state, viewer)
        data["moves"] = [m for k, m in enumerate(data["moves"]) if k not in hidden]
        data["in_progress"] = True
        return data

    # --- Words and pictures -----------------------------------------------------------------

    def refusal(self, exc: Exception) -> Refusal:
        if isinstance(exc, rules.RulesError):
            return refused(exc)
        return super().refusal(exc)

    def describe_move(
        self, move: rules.Move, names: Sequence[str], state: rules.GameState | None = None
    ) -> str:
        # A move alone does not say what it took: ``describe_record`` words whole records.
        name = names[move.seat] if 0 <= move.seat < len(names) else "?"
        if isinstance(move, rules.Start):
            return _("%(name)s chose where their starting plant grows.") % {"name": name}
        if isinstance(move, rules.Wipe):
            return _("%(name)s cleared market tokens.") % {"name": name}
        return _("%(name)s played a turn.") % {"name": name}

    def describe_record(self, record: rules.GameRecord, names: Sequence[str]) -> list[str]:
        return recap.lines(record, names)

    def story(
        self,
        record: rules.GameRecord,
        state: rules.GameState,
        viewer: int | None,
        names: Sequence[str],
    ) -> list[Chapter]:
        from .story import story

        return story(record, state, viewer, names)

    def story_on(
        self,
        record: rules.GameRecord,
        bookmark: Any,
        state: rules.GameState,
        viewer: int | None,
        names: Sequence[str],
        newest: int | None = None,
    ) -> StoryOn | None:
        from .story import story_on

        try:
            return story_on(record, bookmark, state, viewer, names, newest)
        except rules.RulesError:
            # A snapshot its moves do not lead to (a position set by hand): the platform,
            # given None, tells the log whole with ``story``.
            return None

    def story_public_at(self, state: rules.GameState) -> bool:
        # The log hides only other seats' start placements, and only while the start phase
        # lasts: from then on every seat and a spectator are told the same log (a test
        # holds that after every move of whole games), so it is told once for all.
        return state.phase is not rules.Phase.START

    def status_text(self, view: Mapping[str, Any] | None, names: Sequence[str], status: str) -> str:
        from .page import status_text

        return status_text(view, names, status)

    def page_words(self) -> dict[str, Any]:
        from .parts import legend_html

        return {"verdant_legend_html": legend_html()}

    def page_context(
        self, request: HttpRequest, game: Game, seat: Seat | None, params: Mapping[str, Any]
    ) -> dict[str, Any]:
        from .page import page_context

        return page_context(request, game, seat, params)

    def replay_context(
        self, game: Game, record: rules.GameRecord, state: rules.GameState, viewer: int | None
    ) -> dict[str, Any]:
        from .page import replay_context

        return replay_context(game, state, viewer)

    def move_from_form(self, data: Mapping[str, Any]) -> dict[str, Any]:
        from .turnform import move_from_form

        return move_from_form(data)

    # --- Mails (the platform's recap hooks) -----------------------------------------------

    def recap(self, game: Game, seat: int, names: Sequence[str]) -> tuple[list[Any], str]:
        record = game.record()
        return (
            [{"text": line, "details": []} for line in recap.since_last_move(record, seat, names)],
            recap.standing(game.engine_state(), seat, names),
        )

    def mail_words(
        self, context: Mapping[str, Any], names: Sequence[str], me: int
    ) -> dict[str, Any]:
        from .words import title

        return {"title": title(context["title"])} if context.get("title") else {}

    # --- Lists (the platform's projection hooks) ----------------------------------------------

    def projection(self) -> dict[str, str]:
        return {
            "p_verdant_winner": "state__outcome__winner",
            "p_verdant_title": "state__outcome__title",
        }

    def winner_in(self, game: Game) -> tuple[int | None, str | None]:
        winner = getattr(game, "p_verdant_winner", None)
        title = getattr(game, "p_verdant_title", None)
        winner = None if winner in (None, "null") else int(winner)
        return winner, None if title in (None, "null") else str(title)

    def urls(self) -> list[URLPattern]:
        from .urls import urlpatterns

        return list(urlpatterns)

    def api_urls(self) -> list[URLPattern]:
        from .urls import api_urlpatterns

        return list(api_urlpatterns)
