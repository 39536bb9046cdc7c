"""The worker's CPU for one "your move" mail: claimed, read, rendered with its recap, sent.

``python -m tests.benchmarks.mailcost [--mails N] [--profile]``: bench_web's long game of two
people (``BENCH_DATABASE_URL``, dropped and made again; played into its third season, so
the recap has a season to tell), the production settings (DEBUG off) with the mails kept
in memory (``locmem``: no SMTP). The awaited player's "your move" mail is delivered again
and again (``games.delivery.deliver``, made pending and due again between two, untimed);
it prints the CPU time (``time.process_time``) per mail, the first one apart (templates
and catalogs loaded), and ``--profile`` adds cProfile's top functions (``SORT``,
cumulative by default; ``PROFILE_OUT=file`` keeps the whole profile).

Then the same mail through a real Celery worker (two threads, as the load runs start it)
on the private Redis, sent over SMTP to a local sink (``mailsink``): the worker process's
CPU time per mail (from /proc), one task at a time, each sent once the last one arrived.
What it adds to the mail itself is the task's way there and back (the broker, the
worker's bookkeeping and log, its database and SMTP connections).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import tempfile
import time
from pathlib import Path

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


def through_a_worker(note_id: int, mails: int, broker: str) -> float:
    """The worker process's CPU ms per mail, ``mails`` of them sent one after the other."""
    from games.models import Notification
    from games.tasks import deliver_notification
    from tests.benchmarks.mailsink import MailSink
    from tests.benchmarks.webstack import celery_worker, wait_until

    def one(sink: MailSink) -> None:
        arrived = len(sink.received())
        deliver_again(note_id)
        deliver_notification.delay(note_id)
        wait_until(lambda: len(sink.received()) > arrived, "the mail at the sink", timeout=30)
        sent = Notification.Status.SENT
        wait_until(lambda: Notification.objects.get(pk=note_id).status == sent, "sent", 30)

    log = Path(tempfile.mkdtemp(prefix="evergreen-mailcost-")) / "worker.log"
    with MailSink().serving() as sink:
        env = dict(os.environ, CELERY_BROKER_URL=broker, EMAIL_PORT=str(sink.port))
        env.update(EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend")
        env.update(EMAIL_HOST="127.0.0.1")
        worker = celery_worker(env, log, concurrency=2)
        try:
            for _ in range(3):  # warm: both threads' templates, catalogs, connections
                one(sink)
            start = worker.cpu_seconds()
            for _ in range(mails):
                one(sink)
            return (worker.cpu_seconds() - start) * 1000 / mails
        finally:
            worker.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mails", type=int, default=200)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    locmem = "django.core.mail.backends.locmem.EmailBackend"
    with bench_process("mailcost", EMAIL_BACKEND=locmem) as redis:
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
        worker = through_a_worker(note_id, args.mails, redis.url())
        print(f"  {'through a Celery worker, over SMTP':44} {worker:7.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
