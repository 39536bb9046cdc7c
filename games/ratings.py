"""Player ratings: OpenSkill (Weng-Lin, Plackett-Luce model) over finished rated games.

A game of 2 to 4 players is one free-for-all: each player is a team of one, ranked by
final score (an adjudicated game by the scores it was ended with); equal scores share a
place. Solo games and games with a computer seat are never rated (``create_game`` clears
``rated`` for them; a seat handed to the bot mid-game still counts for its player).

The arithmetic is pure (``places``, ``rate_table``: plain values in and out). The rest
writes through one path, ``rate_game``: it locks the players' ``Rating`` rows in user id
order (two games ending at once for the same player wait for each other, never
deadlock, never lose an update) and appends one ``RatingChange`` per player, unique per
game, so running it twice changes nothing. ``recompute`` rebuilds everything from the
game history in finish order through the same ``rate_table``, so it gives exactly what
the incremental path gives. The history chart is drawn by ``games.ratingchart``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from openskill.models import PlackettLuce

from . import kinds
from .models import RATING_MU, RATING_SIGMA, Game, Rating, RatingChange, Seat, shown_rating
from .ratingchart import RatingPoint, chart_svg

__all__ = [  # chart_svg and RatingPoint live in games.ratingchart, offered here too
    "NEW_PLAYER",
    "PROVISIONAL_GAMES",
    "LeaderRow",
    "RatingPoint",
    "Skill",
    "changes_of",
    "chart_svg",
    "history",
    "leaderboard",
    "leaderboard_size",
    "pending_games",
    "places",
    "player_name",
    "rank_of",
    "ranked",
    "rate_game",
    "rate_pending",
    "rate_table",
    "rateable_games",
    "rating_of",
    "recompute",
]

# Fewer rated games than this: the rating is still settling, shown with a "?".
PROVISIONAL_GAMES = 5


# --- The arithmetic (pure) ----------------------------------------------------------------


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def rating(self) -> int:
        return shown_rating(self.mu, self.sigma)


NEW_PLAYER = Skill(RATING_MU, RATING_SIGMA)


def places(scores: Sequence[int]) -> list[int]:
    """Each player's place, 1 = best; equal scores share the better place.

    >>> places([40, 52, 40, 31])
    [2, 1, 2, 4]
    """
    return [1 + sum(other > score for other in scores) for score in scores]


def rate_table(skills: Sequence[Skill], scores: Sequence[int]) -> list[Skill]:
    """The players' skills after one game where they scored ``scores`` (same order).

    Raises ``ValueError`` for fewer than two players or lengths that differ.
    """
    if len(skills) < 2 or len(skills) != len(scores):
        raise ValueError("a rated game has two or more players, each with a score")
    model = PlackettLuce()
    teams = [[model.create_rating([skill.mu, skill.sigma])] for skill in skills]
    rated = model.rate(teams, ranks=[float(place) for place in places(scores)])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


# --- Rating games ------------------------------------------------------------------------


def pending_games() -> QuerySet[Game]:
    """Finished rated games nobody's rating has taken in yet, oldest finish first."""
    return (
        rateable_games()
        .exclude(Exists(RatingChange.objects.filter(game=OuterRef("pk"))))
        .order_by("finished_at", "pk")
    )


def rateable_games() -> QuerySet[Game]:
    """Every game that counts for ratings (rated or not yet)."""
    return Game.objects.filter(status=Game.Status.FINISHED, rated=True, solo=False).exclude(
        Exists(Seat.objects.filter(game=OuterRef("pk"), user__isnull=True))
    )


def _table(game_id: int) -> list[tuple[int, int]] | None:
    """(user id, score) per seat in seat order, or None if the game does not count."""
    if not rateable_games().filter(pk=game_id).exists():
        return None
    table = list(
        Seat.objects.filter(game_id=game_id).order_by("position").values_list("user_id", "score")
    )
    return table if len(table) >= 2 else None


def rate_game(game_id: int) -> bool:
    """Take a finished rated game into its players' ratings, once.

    Earlier finished games of the same players still waiting (their task was lost) are
    taken in first, so ratings follow the order games finished, as ``recompute`` does.
    Returns True if this call rated ``game_id``; False if it does not count (not
    finished, not rated, solo, a computer seat, no such game) or was rated already.
    """
    table = _table(game_id)
    if table is None:
        return False
    finished_at = Game.objects.filter(pk=game_id).values_list("finished_at", flat=True).get()
    if finished_at is not None:
        for earlier_id in _earlier_unrated(game_id, finished_at, [u for u, _score in table]):
            _rate_one(earlier_id)
    return _rate_one(game_id)


def _earlier_unrated(game_id: int, finished_at: datetime, user_ids: list[int]) -> list[int]:
    """Rated games these players finished before this one that they were not rated for,
    oldest first. Read through their seats (indexed by user), not by scanning every game."""
    found = (
        Seat.objects.filter(
            user_id__in=user_ids, game__status=Game.Status.FINISHED, game__rated=True
        )
        .filter(
            Q(game__finished_at__lt=finished_at)
            | Q(game__finished_at=finished_at, game_id__lt=game_id)
        )
        .exclude(
            Exists(
                RatingChange.objects.filter(
                    game_id=OuterRef("game_id"), user_id=OuterRef("user_id")
                )
            )
        )
        .order_by("game__finished_at", "game_id")
        .values_list("game_id", flat=True)
    )
    return list(dict.fromkeys(found))


def _rate_one(game_id: int) -> bool:
    table = _table(game_id)
    if table is None:
        return False
    user_ids = sorted(user_id for user_id, _score in table)
    kind = Game.objects.filter(pk=game_id).values_list("kind", flat=True).get()
    # Committed at once (outside the transaction below when there is none around us), so
    # the rows exist for everyone to lock; a row another game creates meanwhile is kept.
    Rating.objects.bulk_create(
        [Rating(user_id=u, kind=kind) for u in user_ids], ignore_conflicts=True
    )
    with transaction.atomic():
        # Locked in user id order: two games with a common player wait for each other,
        # and the later one reads the rating the earlier one wrote.
        ratings = {
            rating.user_id: rating
            for rating in Rating.objects.select_for_update()
            .filter(user_id__in=user_ids, kind=kind)
            .order_by("user_id")
        }
        if RatingChange.objects.filter(game_id=game_id).exists():
            return False
        before = [Skill(ratings[u].mu, ratings[u].sigma) for u, _score in table]
        scores = [score for _user, score in table]
        after = rate_table(before, scores)
        changes = []
        for (user_id, _score), place, old, new in zip(
            table, places(scores), before, after, strict=True
        ):
            changes.append(_change(game_id, user_id, place, old, new))
            rating = ratings[user_id]
            rating.set_skill(new.mu, new.sigma)
            rating.games += 1
            rating.save(update_fields=["mu", "sigma", "rating", "games", "updated_at"])
        RatingChange.objects.bulk_create(changes)
    return True


def _change(game_id: int, user_id: int, place: int, old: Skill, new: Skill) -> RatingChange:
    return RatingChange(
        game_id=game_id,
        user_id=user_id,
        place=place,
        mu_before=old.mu,
        sigma_before=old.sigma,
        rating_before=old.rating,
        mu_after=new.mu,
        sigma_after=new.sigma,
        rating_after=new.rating,
    )


def rate_pending(limit: int = 500) -> int:
    """Safety net: rate the finished rated games whose task was lost, oldest first."""
    rated = 0
    for game_id in list(pending_games().values_list("pk", flat=True)[:limit]):
        rated += _rate_one(game_id)
    return rated


def recompute() -> tuple[int, int]:
    """Rebuild every rating from the game history, in the order games finished.

    One transaction; on PostgreSQL the rating table is locked meanwhile so a game rated
    at the same moment waits and is then found already counted. Returns (games, players).
    """
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(f"LOCK TABLE {Rating._meta.db_table} IN EXCLUSIVE MODE")
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        # Each game kind has its own ratings: keyed by (kind, user id).
        skills: dict[tuple[str, int], Skill] = {}
        counts: dict[tuple[str, int], int] = {}
        changes: list[RatingChange] = []
        tables: dict[int, list[tuple[int, int]]] = {}
        kind_of: dict[int, str] = {}
        for game_id, kind, user_id, score in (
            Seat.objects.filter(game__in=rateable_games())
            .order_by("game__finished_at", "game_id", "position")
            .values_list("game_id", "game__kind", "user_id", "score")
        ):
            tables.setdefault(game_id, []).append((user_id, score))
            kind_of[game_id] = kind
        games = 0
        for game_id, table in tables.items():  # dicts keep the finish order
            if len(table) < 2:
                continue
            games += 1
            kind = kind_of[game_id]
            before = [skills.get((kind, user_id), NEW_PLAYER) for user_id, _score in table]
            scores = [score for _user, score in table]
            after = rate_table(before, scores)
            for (user_id, _score), place, old, new in zip(
                table, places(scores), before, after, strict=True
            ):
                changes.append(_change(game_id, user_id, place, old, new))
                skills[kind, user_id] = new
                counts[kind, user_id] = counts.get((kind, user_id), 0) + 1
        Rating.objects.bulk_create(
            [
                Rating(
                    user_id=user_id,
                    kind=kind,
                    mu=skill.mu,
                    sigma=skill.sigma,
                    rating=skill.rating,
                    games=counts[kind, user_id],
                )
                for (kind, user_id), skill in skills.items()
            ],
            batch_size=1000,
        )
        RatingChange.objects.bulk_create(changes, batch_size=1000)
    return games, len(skills)


# --- Reading -------------------------------------------------------------------------------


@dataclass(frozen=True)
class LeaderRow:
    rank: int  # 1 = best; equal ratings share a rank
    user_id: int
    name: str
    rating: int
    mu: float
    sigma: float
    games: int
    updated: datetime

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def _kind(kind: str | None) -> str:
    """A game kind's name; ratings without one are the default game's (Evergreen)."""
    return kind or kinds.default_name()


def rating_of(user: Any, kind: str | None = None) -> Rating | None:
    """The user's rating in the game ``kind``, or None before their first rated game."""
    if not getattr(user, "pk", None):
        return None
    return Rating.objects.filter(user_id=user.pk, kind=_kind(kind), games__gt=0).first()


def ranked(user_ids: Iterable[int] | None = None, kind: str | None = None) -> QuerySet[Rating]:
    """The ratings a leaderboard of ``kind`` lists: players with a rated game of it and
    an active account."""
    found = Rating.objects.filter(kind=_kind(kind), games__gt=0, user__is_active=True)
    if user_ids is not None:
        found = found.filter(user_id__in=list(user_ids))
    return found


def rank_of(rating: Rating, user_ids: Iterable[int] | None = None) -> int:
    """The place of this rating on the leaderboard (of ``user_ids`` if given)."""
    return 1 + ranked(user_ids, rating.kind).filter(rating__gt=rating.rating).count()


def leaderboard(
    user_ids: Iterable[int] | None = None,
    limit: int = 100,
    offset: int = 0,
    kind: str | None = None,
) -> list[LeaderRow]:
    """The rated players of ``kind`` best first (only ``user_ids`` if given: a club's
    members)."""
    if user_ids is not None:
        user_ids = list(user_ids)
    found = (
        ranked(user_ids, kind)
        .select_related("user__player")
        .order_by("-rating", "-mu", "user_id")[offset : offset + limit]
    )
    rows: list[LeaderRow] = []
    for index, rating in enumerate(found):
        if rows and rows[-1].rating == rating.rating:
            rank = rows[-1].rank
        elif offset and not rows:
            rank = rank_of(rating, user_ids)
        else:
            rank = offset + index + 1
        rows.append(
            LeaderRow(
                rank=rank,
                user_id=rating.user_id,
                name=player_name(rating.user),
                rating=rating.rating,
                mu=rating.mu,
                sigma=rating.sigma,
                games=rating.games,
                updated=rating.updated_at,
            )
        )
    return rows


def leaderboard_size(user_ids: Iterable[int] | None = None, kind: str | None = None) -> int:
    return ranked(list(user_ids) if user_ids is not None else None, kind).count()


def player_name(user: Any) -> str:
    player = getattr(user, "player", None)
    return str(player.display_name if player is not None else user.get_username())


def changes_of(user: Any, kind: str | None = None) -> QuerySet[RatingChange]:
    """The user's rating changes in games of ``kind``, in the order the games finished."""
    return (
        RatingChange.objects.filter(user_id=user.pk, game__kind=_kind(kind))
        .select_related("game")
        .order_by("game__finished_at", "game_id")
    )


def history(user: Any, kind: str | None = None) -> list[RatingPoint]:
    """The user's rating in ``kind`` after each rated game, oldest first."""
    return [
        RatingPoint(
            change.game.finished_at or change.created_at, change.rating_after, change.game_id
        )
        for change in changes_of(user, kind)
    ]
