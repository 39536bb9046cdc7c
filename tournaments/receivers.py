"""What events do when a game ends, a seat times out or a vacation starts or ends.

The games app sends its signals once the transaction has committed (inline when Celery
runs eagerly, i.e. possibly inside the transaction that ended the game). Receivers here
only enqueue a task once the current transaction commits, so the task reads committed
rows; each task is idempotent and ``events_safety_net`` redoes any that was lost.
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from games import handoff
from games.models import Game, Player
from games.signals import game_ended, seat_timed_out

from .models import Table


def _event_of(game_id: int) -> int | None:
    return Table.objects.filter(game_id=game_id).values_list("round__event_id", flat=True).first()


@receiver(game_ended, sender=Game, dispatch_uid="tournaments_game_ended")
def on_game_ended(sender: Any, game_id: int, status: str, **kwargs: Any) -> None:
    event_id = _event_of(game_id)
    if event_id is None:
        return
    from .tasks import advance_event

    handoff.send_after_commit(advance_event, event_id)


@receiver(seat_timed_out, sender=Game, dispatch_uid="tournaments_seat_timed_out")
def on_seat_timed_out(
    sender: Any, game_id: int, position: int, outcome: str, **kwargs: Any
) -> None:
    if _event_of(game_id) is None:
        return
    from .tasks import timeout_decision

    handoff.send_after_commit(timeout_decision, game_id, position, outcome)


@receiver(post_save, sender=Player, dispatch_uid="tournaments_vacation")
def on_vacation_change(
    sender: Any, instance: Player, created: bool, update_fields: Any = None, **kwargs: Any
) -> None:
    if created or not update_fields or "vacation_until" not in update_fields:
        return
    user_id = instance.user_id
    from .tasks import vacation_limits

    handoff.send_after_commit(vacation_limits, user_id)
