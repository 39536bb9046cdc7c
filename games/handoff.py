"""Handing work to a Celery worker once the transaction that asks for it has committed, and,
in a web request, once the response has gone to the client.

A task's message costs the web process about half a millisecond of CPU (Celery builds it,
kombu publishes it to Redis: ``tests/benchmarks/turncost.py``), a sixth of a turn's
submission. The player waiting for the turn's answer needs none of it: the task reads
only committed rows, and runs in another process anyway. So a request's messages are sent
when Django's ``request_finished`` signal fires, which a WSGI server (gunicorn's sync and
threaded workers, Django's own) sends from the response's ``close()``, once it has
written the whole response; Django's test client closes the response before handing it
back, so tests see the task sent when the request returns, as before.

A request is the time ``HandOffMiddleware`` spends in the view (and in the middleware
after it): a message asked for then waits for ``request_finished``. One asked for later,
once the view has returned, goes at once: a harness that never closes its responses
(schemathesis' WSGI calls, say) leaves no thread believing it still answers a request.
What such a request left waiting goes before anything else the thread hands off, or when
its next request starts.

Nothing is lost that was not lost before: a process that dies between its commit and its
publish loses the message whether the response went first or not, and every task has its
safety net on the beat (``close_pending_rounds``, ``deliver_due``, ``rate_pending_games``,
``events_safety_net``, …). Outside a request (a worker, a command, the shell) the message
is sent at the commit, as before. Requests are kept apart by thread (``threading.local``):
a WSGI server answers each in one thread, and Django under ASGI runs the synchronous
middleware, the view and the response's ``close()`` in one thread too.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from django.core.signals import request_finished
from django.db import transaction
from django.dispatch import receiver
from django.http import HttpRequest
from django.http.response import HttpResponseBase

logger = logging.getLogger(__name__)

_request = threading.local()


def send_after_commit(task: Any, *args: Any) -> None:
    """``task.delay(*args)`` once the current transaction commits (never if it rolls back),
    and in a request once the response has been sent. A broker that refuses the message is
    logged (the task's safety net does the work later); the caller's write stands."""

    def send() -> None:
        task.delay(*args)

    def committed() -> None:
        after_response(send)

    # Named after the task: a callback that raises is logged by its __qualname__.
    send.__qualname__ = committed.__qualname__ = f"sending {getattr(task, 'name', task)}"
    transaction.on_commit(committed, robust=True)


def after_response(callback: Callable[[], None]) -> None:
    """Run ``callback`` once this thread's request has sent its response, or now when the
    thread is not answering a request."""
    if getattr(_request, "answering", False):
        _request.waiting.append(callback)
    else:
        _run([*_take(), callback])


class HandOffMiddleware:
    """Marks the thread as answering a request while the view (and the middleware after
    this one) runs: what it hands off then waits for the response to be sent."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        _run(_take())  # left by a request whose response was never closed: never dropped
        _request.waiting, _request.answering = [], True
        try:
            return self.get_response(request)
        finally:
            _request.answering = False


@receiver(request_finished, dispatch_uid="games_handoff_run")
def _response_sent(**kwargs: Any) -> None:
    _run(_take())


def _take() -> list[Callable[[], None]]:
    waiting: list[Callable[[], None]] = getattr(_request, "waiting", None) or []
    _request.waiting = []
    return waiting


def _run(callbacks: list[Callable[[], None]]) -> None:
    for callback in callbacks:  # each on its own: one refused message stops no other
        try:
            callback()
        except Exception:
            logger.exception("Could not hand %s to the workers", callback.__qualname__)
