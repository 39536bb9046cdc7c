"""The worker's CPU for one "your move" mail: claimed, read, rendered with its recap, sent.

``python -m tests.benchmarks.mailcost [--mails N] [--profile]``: bench_web's long game of two
people (``BENCH_DATABASE_URL``, dropped and made again; played into its third season, so
the recap has a season to tell), the production settings (DEBUG off) with the mails kept
in memory (``locmem``: no SMTP). The awaited player's "your move" mail is delivered again
and again (``games.delivery.deliver``, made pending and due again between two, untimed);
it prints the CPU time (``time.process_time``) per mail, the first one apart (templates
and catalogs loaded), and ``--profile`` adds cProfile's top functions (``SORT``,
cumulative by default; ``PROFILE_OUT=file`` keeps the whole profile).
"""

from __future__ import annotations

import argparse
import cProfile
import time

from tests.benchmarks.oneprocess import bench_process, show_profile


def your_move_mail(game_id: int) -> int:
    """The awaited player's "your move" mail about ``game_id``, recorded anew (every move)."""
    from games import notifications
    from games.models import Game, Notification, Player

    game = Game.objects.get(pk=game_id)
    state = game.engine_state()
    seat = game.seats.select_related("user__player").get(position=state.awaiting[0])
    Player.objects.update(email_mode=Player.EmailMode.EVERY_MOVE)
    seat.user.player.refresh_from_db()
    Notification.objects.filter(game=game).delete()
    note = notifications.your_move(game, seat, state)
    assert note is not None
    return note.pk


def deliver_again(note_id: int) -> None:
    from django.core import mail
    from django.utils import timezone

    from games.models import Notification

    Notification.objects.filter(pk=note_id).update(
        status=Notification.Status.PENDING, send_after=timezone.now()
    )
    mail.outbox = []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=200)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    locmem = "django.core.mail.backends.locmem.EmailBackend"
    with bench_process("mailcost", broker="memory://", EMAIL_BACKEND=locmem):
        from tests.benchmarks import bench_web

        data = bench_web.prepare_games(0)
        from games import delivery

        note_id = your_move_mail(data["page_game"])

        def deliver() -> float:
            deliver_again(note_id)
            start = time.process_time()
            outcome = delivery.deliver(note_id)
            spent = time.process_time() - start
            assert outcome == "sent", outcome
            return spent

        first = deliver() * 1000
        mean = sum(deliver() for _ in range(args.mails)) * 1000 / args.mails
        print("worker CPU per 'your move' mail, in one process (ms):")
        print(f"  {'the first (templates, catalogs loaded)':44} {first:7.2f}")
        print(f"  {f'the next ones (mean of {args.mails})':44} {mean:7.2f}")
        if args.profile:
            profiler = cProfile.Profile(time.process_time)
            for _ in range(50):
                deliver_again(note_id)
                profiler.runcall(delivery.deliver, note_id)
            show_profile(profiler)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
