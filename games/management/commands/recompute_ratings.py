"""Rebuild every player's rating from the game history, in the order games finished.

Use it after changing how ratings are computed, after correcting or deleting games, or
to check the stored ratings (``--check`` changes nothing and fails if they differ).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games import ratings
from games.models import Rating


class _Rollback(Exception):
    pass


class Command(BaseCommand):
    help = "Rebuild every rating from the finished rated games, in the order they finished."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--check",
            action="store_true",
            help="Change nothing; fail if the stored ratings differ from a rebuild.",
        )

    def handle(self, *args: Any, check: bool = False, **options: Any) -> None:
        if not check:
            games, players = ratings.recompute()
            self.stdout.write(f"Rated {games} games: {players} players have a rating.")
            return
        stored = _snapshot()
        try:
            with transaction.atomic():
                ratings.recompute()
                rebuilt = _snapshot()
                raise _Rollback
        except _Rollback:
            pass
        differing = sorted(
            {
                user_id
                for user_id, kind in stored.keys() | rebuilt.keys()
                if stored.get((user_id, kind)) != rebuilt.get((user_id, kind))
            }
        )
        if differing:
            raise CommandError(
                f"{len(differing)} ratings differ from a rebuild (user ids {differing[:20]}); "
                "run recompute_ratings without --check to rebuild them."
            )
        self.stdout.write(f"All {len(stored)} ratings match a rebuild.")


def _snapshot() -> dict[tuple[int, str], tuple[float, float, int, int]]:
    return {
        (user_id, kind): (mu, sigma, rating, games)
        for user_id, kind, mu, sigma, rating, games in Rating.objects.filter(
            games__gt=0
        ).values_list("user_id", "kind", "mu", "sigma", "rating", "games")
    }
