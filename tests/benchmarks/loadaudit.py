"""What a load or fault run must leave behind, checked from the database and the SMTP sink.

Needs Django set up (the caller's settings: the load runner's or the test suite's) on the
database the site used. Each check returns a list of problems (empty: it holds).

* **Replay.** A game's Move rows, replayed from its seed, give exactly its stored state.
* **Moves.** The idempotency keys the clients got a 2xx answer for are exactly the keys
  of the Move rows made by people, once each: nothing lost, nothing doubled.
* **Closings.** Every complete round was closed exactly once. A closing is the only
  write that bumps a game's version without a person's move (each move and each closing
  is one transaction and one version; joins and the start are the first ``players - 1``
  versions of an all-human game), so closings = version - (players - 1) - versions of
  people's moves. The rounds that had to be closed come from replaying the moves with
  the engine: one closing each time a move completes a round.
* **Mails.** No notification is left pending or sending; the SMTP server received the
  Message-ID of every notification marked sent exactly once, of no other one never.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q
from django.utils import timezone

from games import kinds, notifications, services
from games.enginekit.errors import RulesError
from games.models import Game, Move, Notification

UNSENT = (Notification.Status.PENDING, Notification.Status.SENDING)


@dataclass
class GameAudit:
    game_id: int
    moves_by_people: int = 0
    closings: int = 0
    rounds_to_close: int = 0
    finished: bool = False
    replay: list[str] = field(default_factory=list)  # the stored state is not the replay
    moves: list[str] = field(default_factory=list)  # accepted moves lost or doubled
    closing: list[str] = field(default_factory=list)  # a round not closed, or twice


def rounds_to_close(game: Game) -> tuple[int, Any]:
    """How many closings the game's moves call for, and the state they lead to, replaying
    them as the site plays them (through the game's kind): each move, then every step
    that needs nobody short of a reveal; a move that leaves the game needing one (an
    Evergreen round complete) calls for one closing (reveal and go on). A Verdant game
    never does: its closings are 0."""
    kind = kinds.of(game)
    state = kind.advance(kind.new_game(game.setup()))
    closings = 0
    for move in game.record().moves:
        state = kind.advance(kind.apply(state, move))
        if kind.needs_resolution(state):
            closings += 1
            state = kind.resolve(state)
    return closings, state


def audit_game(game: Game, accepted_keys: Iterable[str] | None = None) -> GameAudit:
    """Replay, moves and closings of one all-human game (see the module's docstring)."""
    audit = GameAudit(game.pk, finished=game.status == Game.Status.FINISHED)
    if game.state is None:
        return audit
    stored = game.state
    kind = kinds.of(game)
    try:
        rebuilt = kind.state_to_json(services.rebuild_state(game))
    except (RulesError, services.ServiceError) as exc:
        audit.replay.append(f"game {game.pk}: its moves do not replay ({exc.code}: {exc})")
        rebuilt = None
    if rebuilt is not None and rebuilt != stored:
        audit.replay.append(f"game {game.pk}: its moves replay to another state than stored")
    if game.needs_closing:
        audit.closing.append(f"game {game.pk}: a complete round was never closed")
    people = Move.objects.filter(game=game, user__isnull=False)
    keys = Counter(people.values_list("idempotency_key", flat=True))
    audit.moves_by_people = sum(keys.values())
    if accepted_keys is not None:
        accepted = Counter(accepted_keys)
        if accepted != keys:
            lost = sorted(set(accepted) - set(keys))
            unknown = sorted(set(keys) - set(accepted))
            doubled = sorted(k for k, n in keys.items() if n > 1)
            audit.moves.append(
                f"game {game.pk}: {sum(accepted.values())} moves accepted, "
                f"{audit.moves_by_people} stored (lost {lost[:3]}, not accepted {unknown[:3]}, "
                f"stored twice {doubled[:3]})"
            )
    versions = people.values("result_version").distinct().count()
    start = game.players - 1  # create, the joins but the last, the start
    first = people.order_by("number").values_list("result_version", flat=True).first()
    if first is not None and first != start + 1:
        audit.closing.append(
            f"game {game.pk}: its first move made version {first}, not {start + 1}"
        )
    audit.closings = game.version - start - versions
    if rebuilt is None:
        return audit  # no count of the rounds to close without a replay
    expected, final = rounds_to_close(game)
    audit.rounds_to_close = expected
    if kind.state_to_json(final) != stored:
        audit.replay.append(f"game {game.pk}: the engine's replay differs from the stored state")
    if audit.closings != expected:
        audit.closing.append(
            f"game {game.pk}: {audit.closings} closings recorded for {expected} complete rounds"
        )
    return audit


@dataclass
class MailAudit:
    sent: int = 0
    skipped: int = 0
    received: int = 0
    retried: int = 0  # sent after at least one failed attempt
    problems: list[str] = field(default_factory=list)


def audit_mails(game_ids: Iterable[int], received: Counter[str]) -> MailAudit:
    """Every notification of these games settled, each one sent arrived exactly once."""
    notes = list(
        Notification.objects.filter(game_id__in=list(game_ids)).select_related("game", "user")
    )
    audit = MailAudit(received=sum(received.values()))
    expected: dict[str, Notification] = {}
    for note in notes:
        mid = notifications.message_id(note)
        if note.status in UNSENT:
            audit.problems.append(f"mail {note.key} is still {note.status}")
        elif note.status == Notification.Status.SENT:
            audit.sent += 1
            audit.retried += note.attempts > 1
            expected[mid] = note
            if received[mid] != 1:
                audit.problems.append(f"mail {note.key} was received {received[mid]} times")
        else:
            audit.skipped += 1
            if received[mid]:
                audit.problems.append(f"mail {note.key} is {note.status} but was received")
    strangers = set(received) - {notifications.message_id(n) for n in notes}
    if strangers:
        audit.problems.append(f"{len(strangers)} mails received that no notification sent")
    return audit


def unsettled(game_ids: list[int]) -> str | None:
    """What the worker still has to do for these games (None: nothing)."""
    open_rounds = Game.objects.filter(pk__in=game_ids, needs_closing=True).count()
    counts = Notification.objects.filter(game_id__in=game_ids).aggregate(
        due=Count("pk", filter=Q(status__in=UNSENT, send_after__lte=timezone.now())),
        later=Count("pk", filter=Q(status__in=UNSENT)),
    )
    if open_rounds or counts["later"]:
        return (
            f"{open_rounds} rounds to close, {counts['due']} mails due, "
            f"{counts['later'] - counts['due']} waiting for a retry"
        )
    return None


def settle(game_ids: list[int], timeout: float) -> str | None:
    """Wait until the worker closed every round and sent (or skipped) every mail of these
    games; None when it did, else what was left after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        left = unsettled(game_ids)
        if left is None or time.monotonic() > deadline:
            return left
        time.sleep(0.2)


@dataclass
class Check:
    name: str
    ok: bool
    detail: str


@dataclass
class RunAudit:
    checks: list[Check]
    finished: int
    closings: int
    mails_sent: int
    mails_skipped: int

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)


def audit_run(
    game_ids: list[int],
    accepted_keys: dict[int, list[str]],
    received: Counter[str],
    left: str | None,
    *,
    errors: list[str],
    requests: int,
    picks: int,
    turns: int,
) -> RunAudit:
    """Every check of a load run, from the games played, the idempotency keys of the moves
    the clients had accepted, the Message-IDs the SMTP sink received, what ``settle`` left
    undone and the clients' errors (5xx, network errors, replays that were not)."""
    audits = [
        audit_game(game, accepted_keys.get(game.pk, []))
        for game in Game.objects.filter(pk__in=game_ids).order_by("pk")
    ]
    stored = sum(a.moves_by_people for a in audits)
    closings = sum(a.closings for a in audits)
    to_close = sum(a.rounds_to_close for a in audits)
    mails = audit_mails(game_ids, received)
    replay = [p for a in audits for p in a.replay]
    lost = [p for a in audits for p in a.moves]
    accepted = sum(len(keys) for keys in accepted_keys.values())
    closing = [p for a in audits for p in a.closing]
    checks = [
        Check(
            "the worker settled in time",
            left is None,
            "every round closed, every mail sent or skipped" if left is None else left,
        ),
        Check(
            "every game replays from its Move rows to its stored state",
            not replay,
            f"{len(audits)} games" if not replay else "; ".join(replay[:3]),
        ),
        Check(
            "accepted moves (2xx, each key once) = Move rows by people",
            not lost and accepted == stored,
            f"{accepted} = {stored}, same idempotency keys" if not lost else "; ".join(lost[:3]),
        ),
        Check(
            "every complete round closed exactly once",
            not closing and closings == to_close,
            f"{closings} closings for {to_close} complete rounds"
            if not closing
            else "; ".join(closing[:3]),
        ),
        Check(
            "every mail sent arrived exactly once",
            not mails.problems,
            f"{mails.sent} sent, {mails.received} received, {mails.skipped} skipped"
            if not mails.problems
            else "; ".join(mails.problems[:3]),
        ),
        Check(
            "no 5xx, no network error, every repeat a replay",
            not errors,
            f"{requests} requests" if not errors else "; ".join(errors[:3]),
        ),
        Check(
            "moves were made",
            accepted > 0 and turns > 0 and picks > 0,
            f"{picks} picks, {turns} turns",
        ),
    ]
    return RunAudit(checks, sum(a.finished for a in audits), closings, mails.sent, mails.skipped)
