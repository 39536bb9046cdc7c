"""The interface through which the platform plays a game: ``GameKind``.

Written for both kinds of game the site hosts: simultaneous ones (Evergreen: everyone
picks or builds a hidden turn, then the round is revealed) and turn-by-turn ones
(Verdant, 1-5 players, after a simultaneous hidden start). A kind states who must act
(one seat or several), and whether the moves made so far wait to be revealed
(``needs_resolution``): the platform then closes the round in a Celery task.

States and moves are the kind's own values: the platform never looks inside them, it
only stores their JSON (``state_to_json``, ``move_to_json``) and passes them back. The
platform finds a kind through the registry, ``games.kinds``, which re-exports this class.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from .kindtypes import Analyst, Chapter, Refusal, Setup, StoryLine, StoryOn, Summary

if TYPE_CHECKING:
    from django.http import HttpRequest
    from django.urls import URLPattern
    from django_stubs_ext import StrPromise

    from .models import Game, Seat

State = Any  # a kind's immutable game state
Move = Any  # a kind's move value (hashable, with one canonical JSON form)


class GameKind(ABC):
    """One game as the platform sees it. Subclasses set the class attributes and
    implement the methods; presentation hooks have plain defaults."""

    name: str  # stored in Game.kind ("evergreen")
    title: str | StrPromise  # shown to players (lazy text, translated when shown)
    min_players: int = 1
    max_players: int = 5
    bots: ClassVar[Mapping[str, Any]] = {}  # computer player name -> label (lazy text)
    default_bot: str = ""
    # The templates of the game page's play region and of the replay (the platform's
    # pages include them); ``page_context`` and ``replay_context`` fill them.
    play_template: str = ""
    replay_template: str = ""
    view_schema: str = ""  # dotted path of a serializer documenting player_view (the API)
    head_template: str = ""  # once per page, before the game (shared drawings)
    foot_template: str = ""  # once per page, after the game (a legend)
    # The analysis of finished games and the hint (``Analyst``); None: the kind offers neither.
    analyst: Analyst | None = None
    # True when the game log (``story``) tells only what everyone may know, alike for every
    # seat and a spectator: the platform then tells it once for all viewers, as a
    # spectator's (``games.story``), not once for each seat after every move. A kind whose
    # log hides something for a while only says so of each state (``story_public_at``).
    public_story: bool = False
    # The home page's picture of the game (e.g. a finished demo game), after head_template.
    showcase_template: str = ""

    # --- Setting up ---------------------------------------------------------------------

    def check_setup(self, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options of a new game, normalised; raises ``Refusal`` for bad ones."""
        if not self.min_players <= players <= self.max_players:
            raise Refusal("bad_player_count", f"{self.title}: {players} players")
        return dict(options)

    def option_fields(self) -> dict[str, Any]:
        """The game's own options on the lobby's form: option name -> a new Django form
        field (its cleaned value goes to ``check_setup``). None by default."""
        return {}

    # Fields of the lobby's form that only this game uses, although the platform has
    # them (the first game's ``sun_start``, a column of Game from before the registry).
    form_fields: ClassVar[tuple[str, ...]] = ()

    def lobby_options(self, game: Game) -> list[str]:
        """The game's own options in words, for the lobby's list of open games."""
        return []

    @abstractmethod
    def new_game(self, setup: Setup) -> State:
        """The state before anyone has acted."""

    # --- States and moves as JSON -------------------------------------------------------

    @abstractmethod
    def state_to_json(self, state: State) -> dict[str, Any]: ...

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> State: ...

    @abstractmethod
    def move_from_json(self, data: Any, seat: int) -> Move:
        """The move ``seat`` sends as JSON (the seat always comes from who is asking);
        raises ``Refusal`` for a malformed one."""

    @abstractmethod
    def move_to_json(self, move: Move) -> dict[str, Any]: ...

    @abstractmethod
    def move_seat(self, move: Move) -> int: ...

    def move_kind(self, move: Move) -> str:
        """A short word stored with the move ("pick", "turn", "take")."""
        return str(self.move_to_json(move).get("type", "move"))[:8]

    # --- Playing ------------------------------------------------------------------------

    @abstractmethod
    def apply(self, state: State, move: Move) -> State:
        """The state after ``move``, checked; raises ``Refusal``. Steps that need no
        person (``advance``) and revealing a round (``resolve``) are separate."""

    def advance(self, state: State) -> State:
        """Every step that needs no person and reveals nothing (clean-up, automatic
        players of the game itself)."""
        return state

    def needs_resolution(self, state: State) -> bool:
        """Whether simultaneous hidden moves are all in and wait to be revealed."""
        return False

    def resolve(self, state: State) -> State:
        """Reveal and score what ``needs_resolution``; the next round begins."""
        return state

    @abstractmethod
    def awaiting(self, state: State) -> tuple[int, ...]:
        """The seats that must act now: one in a turn-by-turn game, several while moves
        are made simultaneously, none when the game waits for ``resolve`` or is over."""

    @abstractmethod
    def is_over(self, state: State) -> bool: ...

    @abstractmethod
    def scores(self, state: State) -> tuple[int, ...]:
        """Each seat's score now (the final scores once it is over)."""

    def ranking(self, state: State) -> tuple[int, ...]:
        """Seats best first (ties broken by the game's own rule); by score by default."""
        scores = self.scores(state)
        return tuple(sorted(range(len(scores)), key=lambda s: -scores[s]))

    def summary(self, state: State) -> Summary:
        return Summary("over" if self.is_over(state) else "play")

    def round_key(self, state: State) -> str:
        """Names the current round: a standing order is for one round."""
        summary = self.summary(state)
        return f"s{summary.season}r{summary.round}"

    def decision_key(self, state: State) -> str:
        """Names the current decision: seats still awaited under the same key were
        already told it is their move."""
        return self.round_key(state) + self.summary(state).phase

    # --- What a player may see and do ---------------------------------------------------

    @abstractmethod
    def player_view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The state as ``seat`` (None: a spectator) may see it: no secret of another."""

    def move_refusal(self, state: State, seat: int, move_type: str) -> Refusal | None:
        """Why ``seat`` may make no move of ``move_type`` now, whatever its content (None:
        it may). Asked by a page that has no move to send (``services.move_refusal``)."""
        return None

    def legal_targets(self, state: State, seat: int, question: Mapping[str, Any]) -> Any:
        """What ``seat`` may choose for the move in progress described by ``question``
        (the API's targets endpoint); raises ``Refusal``."""
        raise Refusal("no_targets", "This game has no targets to ask for.")

    def projection(self) -> dict[str, str]:
        """Keys of the snapshot the game lists read instead of the state: annotation name
        (prefixed ``p_<kind>_``) -> JSON path (``state__…``)."""
        return {}

    def awaiting_in(self, game: Game) -> tuple[int, ...]:
        """Who must move in a game being played, read from ``projection``'s keys; by
        default from the seats the clocks wait for (a person's seat waits from when it
        must act until it has)."""
        return tuple(s.position for s in game.seats_in_order() if s.awaiting_since is not None)

    def winner_in(self, game: Game) -> tuple[int | None, str | None]:
        """The winning seat of a finished game and its title, if any, from ``projection``."""
        return None, None

    def hidden_moves(self, state: State, moves: Sequence[Move], viewer: int | None) -> set[int]:
        """Indexes of ``moves`` that ``viewer`` may not see yet (unrevealed turns).
        ``moves`` may be only the game's latest moves (the end of its record, as
        ``services.unseen_changes_only`` reads them): whether a move is hidden is judged
        from ``state`` and the moves after it, never from earlier ones."""
        return set()

    def status_context(
        self, request: HttpRequest, game: Game, seat: Seat | None, params: Mapping[str, Any]
    ) -> dict[str, Any]:
        """What the status bar needs (by default the whole ``page_context``)."""
        return self.page_context(request, game, seat, params)

    def unseen_move_parts(self, context: Mapping[str, Any]) -> dict[str, str]:
        """Besides the status bar, what another seat's hidden move changes for the viewer:
        HTML drawn from ``context`` by the CSS selector it replaces (``views.quietpoll``)."""
        return {}

    def solo_title(self, state: State) -> str | None:
        """The title a finished one-player game earns from the game's solo title table, as
        the table names it (a stable key, stored by the daily challenge), or None."""
        return None

    def title_name(self, title: str) -> str:
        """A solo title (``solo_title``) in the active language."""
        return title

    # --- Computer players, time-outs and standing orders --------------------------------

    @abstractmethod
    def bot_move(self, bot: str, state: State, seat: int, seed: int) -> Move:
        """The move of the computer player ``bot`` for ``seat``."""

    def timeout_move(
        self, state: State, seat: int, policy: str, seed: int, order: Sequence[str] = ()
    ) -> Move:
        """The move made for a seat whose time ran out (policy "bot" or "minimal"; ``order``
        is the seat's standing order for this round)."""
        return self.bot_move(self.default_bot, state, seat, seed)

    def standing_move(self, state: State, seat: int, order: Sequence[str]) -> Move | None:
        """The move a seat's standing order makes now, or None."""
        return None

    def check_standing_order(self, state: State, seat: int, order: Sequence[str]) -> None:
        """Raises ``Refusal`` when ``order`` is not a standing order ``seat`` may give now."""
        raise Refusal("no_standing_orders", "This game has no standing orders.", conflict=True)

    # --- The record ---------------------------------------------------------------------

    @abstractmethod
    def record(self, names: Sequence[str], setup: Setup, moves: Sequence[Move]) -> Any:
        """The game record (its own value with ``to_json``, ``states()``, ``replay()``)."""

    def record_for_viewer(
        self, record: Any, state: State, viewer: int | None, *, finished: bool
    ) -> dict[str, Any]:
        return dict(record.to_json(state if finished else None))

    # --- Words and pictures (Django parts of the game's package) -------------------------

    def refusal(self, exc: Exception) -> Refusal:
        """The game's own error turned into a ``Refusal`` in the player's language."""
        if isinstance(exc, Refusal):
            return exc
        return Refusal(str(getattr(exc, "code", "illegal")), str(exc))

    def describe_move(self, move: Move, names: Sequence[str], state: State | None = None) -> str:
        """One line of words for a move (the replay, the recap)."""
        return str(self.move_to_json(move))

    def describe_record(self, record: Any, names: Sequence[str]) -> list[str]:
        """One line of words per move of ``record`` (the replay): by default
        ``describe_move`` of each; a kind whose moves need the states around them to be
        told (what a Verdant turn took from the market) words them all at once."""
        return [self.describe_move(move, names) for move in record.moves]

    def story(
        self, record: Any, state: State, viewer: int | None, names: Sequence[str]
    ) -> list[Chapter]:
        """The game log as ``viewer`` may read it now (``state``: the game's snapshot):
        rounds in order, never an unrevealed choice nor what is still in a deck or bag.
        By default one chapter of ``describe_record``'s lines, the hidden moves left out."""
        hidden = self.hidden_moves(state, record.moves, viewer)
        lines = self.describe_record(record, names)
        told = tuple(StoryLine("turn", text) for k, text in enumerate(lines) if k not in hidden)
        return [Chapter("", len(lines), told, self.scores(state))] if told else []

    def story_on(
        self,
        record: Any,
        bookmark: Any,
        state: State,
        viewer: int | None,
        names: Sequence[str],
        newest: int | None = None,
    ) -> StoryOn | None:
        """The log of ``story`` told on from ``bookmark`` (a ``StoryOn.bookmark`` this kind
        returned for the same viewer, names and language, at an earlier move of the same
        game; None: from the first move), ``record`` holding only the moves made since it:
        the platform keeps what it returns, so after a move only the new moves are told.
        ``final`` + ``rest`` must be what ``story`` tells of the whole record. Told from the
        first move with ``newest`` set, the kind may tell only the newest ``newest`` final
        chapters and count the older ones (``StoryOn.left_out``): the page shows only the
        newest rounds. None (the default): the kind tells its log whole every time."""
        return None

    def story_public_at(self, state: State) -> bool:
        """Whether the log of a game at ``state`` is alike for every seat and a spectator
        (the platform then tells it once for all, as a spectator's): ``public_story``,
        unless the kind's log hides something only for a while (Verdant's start
        placements, while the start phase lasts)."""
        return self.public_story

    def status_text(self, view: Mapping[str, Any] | None, names: Sequence[str], status: str) -> str:
        return status

    def page_words(self) -> dict[str, Any]:
        """What ``head_template`` and ``foot_template`` need on every page of the game
        (started or not, the replay too)."""
        return {}

    def showcase_context(self) -> dict[str, Any]:
        """What ``showcase_template`` needs on the home page."""
        return {}

    def page_context(
        self, request: HttpRequest, game: Game, seat: Seat | None, params: Mapping[str, Any]
    ) -> dict[str, Any]:
        """What ``play_template`` needs for ``seat`` (None: a spectator)."""
        return {}

    def replay_context(
        self, game: Game, record: Any, state: State, viewer: int | None
    ) -> dict[str, Any]:
        return {}

    def move_from_form(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The JSON move of the page's generic move form (``games:move``)."""
        return {key: value for key, value in data.items() if key not in ("csrfmiddlewaretoken",)}

    def store_projections(self, game: Game, old: Mapping[str, Any] | None, state: State) -> None:
        """Keep the game's own tables in step with a new snapshot (``game.state``; ``old``
        is the snapshot before, None at the start)."""
        return None

    # --- E-mails ------------------------------------------------------------------------
    # What a mail stores is plain JSON (``Notification.context``), written when it is
    # created; the words are added when it is rendered, in the recipient's language.

    def season_rows(self, state: State, season: int) -> list[dict[str, Any]]:
        """The "season scored" mail's rows: one dict per seat with at least ``seat``."""
        return []

    def final_context(self, state: State) -> dict[str, Any]:
        """What the "game over" mail stores: at least ``ranking`` (rows of ``seat`` and
        ``score``, best first)."""
        scores = self.scores(state)
        return {"ranking": [{"seat": i, "score": scores[i]} for i in self.ranking(state)]}

    def mail_words(
        self, context: Mapping[str, Any], names: Sequence[str], me: int
    ) -> dict[str, Any]:
        """The game's own words for a mail's stored ``context`` (season names, titles)."""
        return {}

    def recap(self, game: Game, seat: int, names: Sequence[str]) -> tuple[list[Any], str]:
        """What happened since ``seat`` last acted, as lines, and where the game stands."""
        return [], ""

    def admin_inlines(self) -> list[Any]:
        """Inlines of the game's own tables on a game's admin page."""
        return []

    def api_create_example(self) -> dict[str, Any] | None:
        """A request body of ``POST /api/games/`` creating this game, for the OpenAPI
        schema (``games.api.schema`` adds every kind's)."""
        return None

    def api_move_examples(self) -> dict[str, Any]:
        """Request bodies of ``POST /api/games/{id}/move/`` by name, one per sort of move
        (the JSON of ``move_from_json``), for the OpenAPI schema."""
        return {}

    def urls(self) -> list[URLPattern]:
        """The game's own pages and steps, under /games/ (names in the ``games`` namespace)."""
        return []

    def api_urls(self) -> list[URLPattern]:
        """The game's own API endpoints, under /api/ (names in the ``api`` namespace)."""
        return []
