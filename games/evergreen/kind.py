"""Evergreen as a game kind of the platform (``games.kinds.GameKind``).

Evergreen is simultaneous: in the Draft one seat picks at a time, in the Action phase
every seat builds a hidden turn and the round is revealed when all are in
(``needs_resolution``; the platform then closes it in a Celery task). Everything here
translates between the platform's interface and the pure engine in ``rules``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.kinds import Chapter, GameKind, Refusal, Setup, StoryOn, Summary

from . import orders, rules
from .analysis import EvergreenAnalyst
from .refusals import refused
from .rules.bots import BOTS, make_bot
from .rules.record import GameRecord

if TYPE_CHECKING:
    from django.http import HttpRequest
    from django.urls import URLPattern

    from games.models import Game, Seat


class Evergreen(GameKind):
    name = "evergreen"
    title = "Evergreen"  # a name, the same in every language
    min_players = 1  # solo against the A.I. drafter
    max_players = 4
    bots: ClassVar[Mapping[str, Any]] = {
        "easy": gettext_lazy("Easy"),
        "medium": gettext_lazy("Medium"),
        "hard": gettext_lazy("Hard"),
        "strong": gettext_lazy("Strong"),
        "greedy": gettext_lazy("Greedy"),
        "random": gettext_lazy("Random"),
    }
    # Time-outs and hand-overs: a seat someone leaves is played as well as the site can.
    default_bot = "strong"
    play_template = "games/evergreen/_play.html"
    replay_template = "games/evergreen/_replay.html"
    view_schema = "games.evergreen.api_serializers.PlayerViewSerializer"
    head_template = "games/evergreen/_board_defs.html"
    foot_template = "games/evergreen/_foot.html"
    analyst = EvergreenAnalyst()
    # Picks are public, and a turn is told only once its round is revealed ("X planned
    # their turn" before): every seat's log is the spectator's (tests/games/test_story_public.py).
    public_story = True
    showcase_template = "games/evergreen/_showcase.html"
    form_fields = ("sun_start",)

    def api_create_example(self) -> dict[str, Any] | None:
        return {"game": "evergreen", "players": 2, "computer_seats": 1, "bot": "strong",
                "sun_start": "E"}  # fmt: skip

    def api_move_examples(self) -> dict[str, Any]:
        # The record's own examples (docs/game-record.md); the seat is the caller's.
        return {
            "pick": {"type": "pick", "card": "snow/sprout"},
            "turn": {
                "type": "turn",
                "action": "C",
                "effects": [{"plant": [5, 3]}, {"grow": [4, 4]}],
                "power": {"power": "sprout", "timing": "before", "targets": [[4, 4]]},
            },
        }

    def lobby_options(self, game: Game) -> list[str]:
        from games.forms import SUN_CHOICES

        sun = dict(SUN_CHOICES).get(game.sun_start, game.sun_start)
        return [f"{_('Sun start')}: {sun}"]

    def check_setup(self, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        if not self.min_players <= players <= self.max_players:
            raise Refusal("bad_player_count", _("A game has 1 to 4 players."))
        sun = options.get("sun_start", "N")
        if sun not in rules.SUNS:
            raise Refusal("bad_sun", _("The Sun starts at N, E, S or W."))
        return {"sun_start": sun, "edition": options.get("edition") or rules.DEFAULT_EDITION}

    def new_game(self, setup: Setup) -> rules.GameState:
        options = setup.options
        try:
            return rules.new_game(
                setup.players,
                setup.seed,
                edition=options.get("edition") or rules.DEFAULT_EDITION,
                sun=options.get("sun_start", "N"),
            )
        except rules.RulesError as exc:
            raise refused(exc) from exc

    # --- JSON -------------------------------------------------------------------------

    def state_to_json(self, state: rules.GameState) -> dict[str, Any]:
        return rules.state_to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> rules.GameState:
        return rules.state_from_json(cast(dict[str, Any], data))  # read, never changed

    def move_from_json(self, data: Any, seat: int) -> rules.Move:
        if isinstance(data, rules.Pick):
            return data if data.seat == seat else rules.Pick(seat, data.card)
        if isinstance(data, rules.Turn):
            if data.seat == seat:
                return data
            return rules.Turn(seat, data.action, data.effects, data.power)
        try:
            # A dict gets its seat; anything else is refused as malformed.
            return rules.move_from_json({**data, "seat": seat} if isinstance(data, dict) else data)
        except rules.RulesError as exc:
            raise refused(exc) from exc

    def move_to_json(self, move: rules.Move) -> dict[str, Any]:
        return move.to_json()

    def move_seat(self, move: rules.Move) -> int:
        return move.seat

    def move_kind(self, move: rules.Move) -> str:
        return "pick" if isinstance(move, rules.Pick) else "turn"

    # --- Playing ------------------------------------------------------------------------

    def apply(self, state: rules.GameState, move: rules.Move) -> rules.GameState:
        try:
            return rules.apply(state, move, advance_state=False)
        except rules.RulesError as exc:
            raise refused(exc) from exc

    def advance(self, state: rules.GameState) -> rules.GameState:
        return rules.advance(state, close_round=False)

    def needs_resolution(self, state: rules.GameState) -> bool:
        return rules.round_complete(state)

    def resolve(self, state: rules.GameState) -> rules.GameState:
        return rules.advance(state)  # reveal, score, the next round's pool

    def awaiting(self, state: rules.GameState) -> tuple[int, ...]:
        return state.awaiting

    def is_over(self, state: rules.GameState) -> bool:
        return state.is_over

    def scores(self, state: rules.GameState) -> tuple[int, ...]:
        return tuple(seat.score for seat in state.seats)

    def solo_title(self, state: rules.GameState) -> str | None:
        return state.outcome.title if state.outcome is not None else None

    def title_name(self, title: str) -> str:
        from .words import solo_title

        return solo_title(title)

    def ranking(self, state: rules.GameState) -> tuple[int, ...]:
        if state.outcome is not None:
            return state.outcome.ranking
        return super().ranking(state)

    def summary(self, state: rules.GameState) -> Summary:
        return Summary(state.phase.value, state.season, state.round)

    def player_view(self, state: rules.GameState, seat: int | None) -> dict[str, Any]:
        from .rules.view import player_view

        return player_view(state, seat)

    def move_refusal(self, state: rules.GameState, seat: int, move_type: str) -> Refusal | None:
        from .rules.engine import check_turn_allowed

        if move_type != "turn":
            return None
        try:
            check_turn_allowed(state, seat)
        except rules.RulesError as exc:
            return refused(exc)
        return None

    def legal_targets(self, state: rules.GameState, seat: int, question: Mapping[str, Any]) -> Any:
        """``question``: ``effect``, and optionally ``partial`` (the turn so far, a
        ``rules.Turn``) and ``lake`` (a space), as the API's targets endpoint asks."""
        from .rules.targets import legal_targets

        try:
            spaces = legal_targets(
                state,
                seat,
                question["effect"],
                partial=question.get("partial"),
                lake=question.get("lake"),
            )
        except rules.RulesError as exc:
            raise refused(exc) from exc
        return [list(space) for space in spaces]

    def projection(self) -> dict[str, str]:
        from . import lobby

        return lobby.projection()

    def awaiting_in(self, game: Game) -> tuple[int, ...]:
        from . import lobby

        return lobby.awaiting_in(game)

    def winner_in(self, game: Game) -> tuple[int | None, str | None]:
        from . import lobby

        return lobby.winner_in(game)

    def hidden_moves(
        self, state: rules.GameState, moves: Sequence[rules.Move], viewer: int | None
    ) -> set[int]:
        from .records import unrevealed_moves

        return unrevealed_moves(GameRecord((), 0, moves=tuple(moves)), state, viewer)

    def status_context(
        self, request: HttpRequest, game: Game, seat: Seat | None, params: Mapping[str, Any]
    ) -> dict[str, Any]:
        from .quietpage import status_context

        return status_context(game, seat, params)

    def unseen_move_parts(self, context: Mapping[str, Any]) -> dict[str, str]:
        # The score table marks each seat whose turn is in (✓).
        return {"#play .panel.scores": context["panels"]["scores"]}

    # --- Computer players, time-outs, standing orders ---------------------------------

    def bot_move(self, bot: str, state: rules.GameState, seat: int, seed: int) -> rules.Move:
        return make_bot(bot if bot in BOTS else self.default_bot, seed=seed).choose(state, seat)

    def timeout_move(
        self,
        state: rules.GameState,
        seat: int,
        policy: str,
        seed: int,
        order: Sequence[str] = (),
    ) -> rules.Move:
        return orders.timeout_move(state, seat, policy, seed, order, self.default_bot)

    def standing_move(
        self, state: rules.GameState, seat: int, order: Sequence[str]
    ) -> rules.Move | None:
        return orders.standing_move(state, seat, order)

    def check_standing_order(self, state: rules.GameState, seat: int, order: Sequence[str]) -> None:
        orders.check_standing_order(state, seat, order)

    # --- The record -----------------------------------------------------------------------

    def record(self, names: Sequence[str], setup: Setup, moves: Sequence[rules.Move]) -> GameRecord:
        options = setup.options
        return GameRecord(
            tuple(names),
            setup.seed,
            options.get("edition") or rules.DEFAULT_EDITION,
            options.get("sun_start", "N"),
            tuple(moves),
        )

    def record_for_viewer(
        self, record: GameRecord, state: rules.GameState, viewer: int | None, *, finished: bool
    ) -> dict[str, Any]:
        from .records import record_for_viewer

        return record_for_viewer(record, state, viewer, finished=finished)

    # --- Words and pictures -----------------------------------------------------------------

    def refusal(self, exc: Exception) -> Refusal:
        if isinstance(exc, rules.RulesError):
            return refused(exc)
        return super().refusal(exc)

    def describe_move(
        self, move: rules.Move, names: Sequence[str], state: rules.GameState | None = None
    ) -> str:
        from .records import describe_move

        edition = rules.load_edition(state.edition if state else rules.DEFAULT_EDITION)
        return describe_move(edition, move, names)

    def describe_record(self, record: GameRecord, names: Sequence[str]) -> list[str]:
        from .story import replay_lines

        return replay_lines(record, names)

    def story(
        self, record: GameRecord, state: rules.GameState, viewer: int | None, names: Sequence[str]
    ) -> list[Chapter]:
        told = self.story_on(record, None, state, viewer, names)
        return [] if told is None else [*told.final, *told.rest]

    def story_on(
        self,
        record: GameRecord,
        bookmark: Any,
        state: Any,
        viewer: int | None,
        names: Any,
        newest: int | None = None,
    ) -> StoryOn | None:
        from .story import story_on

        try:
            return story_on(record, bookmark, state, viewer, names, newest)
        except rules.RulesError:
            # A snapshot its moves do not lead to (a position set by hand, as tests and
            # repairs do): the page goes without a log rather than failing (``story``
            # tells none; the platform, given None, tells it whole with ``story``).
            return None

    def status_text(self, view: Mapping[str, Any] | None, names: Sequence[str], status: str) -> str:
        from .status import status_text

        return status_text(view, names, status)

    def page_words(self) -> dict[str, Any]:
        from .panels import legend_html

        return {"legend_html": legend_html()}

    def showcase_context(self) -> dict[str, Any]:
        from .showcase import showcase_context

        return showcase_context()

    def page_context(
        self, request: HttpRequest, game: Game, seat: Seat | None, params: Mapping[str, Any]
    ) -> dict[str, Any]:
        from .page import page_context

        return page_context(request, game, seat, params)

    def replay_context(
        self, game: Game, record: GameRecord, state: rules.GameState, viewer: int | None
    ) -> dict[str, Any]:
        from .page import replay_context

        return replay_context(record, state, viewer)

    def move_from_form(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return {"type": "pick", "card": data.get("card", "")}

    def store_projections(
        self, game: Game, old: Mapping[str, Any] | None, state: rules.GameState
    ) -> None:
        from .models import sync_fertility_zone

        assert game.state is not None  # the snapshot of ``state``, just stored
        if old is None or old.get("fertility_zone") != game.state["fertility_zone"]:
            sync_fertility_zone(game, state)

    def season_rows(self, state: rules.GameState, season: int) -> list[dict[str, Any]]:
        from .mailwords import season_rows

        return season_rows(state, season)

    def final_context(self, state: rules.GameState) -> dict[str, Any]:
        from .mailwords import final_context

        return final_context(state)

    def mail_words(
        self, context: Mapping[str, Any], names: Sequence[str], me: int
    ) -> dict[str, Any]:
        from .mailwords import mail_words

        return mail_words(context, names, me)

    def recap(self, game: Game, seat: int, names: Sequence[str]) -> tuple[list[Any], str]:
        from . import recap

        try:
            summary = recap.for_seat(game, seat)
        except rules.RulesError as exc:
            raise refused(exc) from exc
        return recap.lines(summary, names), recap.standing(summary, names)

    def admin_inlines(self) -> list[Any]:
        from .admin import FertilityCardInline

        return [FertilityCardInline]

    def urls(self) -> list[URLPattern]:
        from .urls import urlpatterns

        return list(urlpatterns)

    def api_urls(self) -> list[URLPattern]:
        from .urls import api_urlpatterns

        return list(api_urlpatterns)
