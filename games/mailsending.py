"""Sending the notifications' mails over one SMTP connection per worker thread, kept from
one mail to the next.

Django's ``EmailMessage.send()`` opens a connection to the SMTP server for each mail
(connect, EHLO, STARTTLS where the settings ask for it, and QUIT after it), which was a
tenth of the worker's time per mail on loopback, and more with TLS. Here each thread of
the worker keeps its connection (``threading.local``: Celery's thread pool, or one per
process), asks the server ``NOOP`` before each mail and opens a new one when the kept one
no longer answers (a server restarted, or one that closed an idle connection): a mail is
never given to a connection that may already have lost it, so nothing is sent twice.

Only Django's own SMTP backend is kept, and only while the settings that make it stay the
same (the tests change them); any other backend sends as ``send()`` does. A connection
sends at most ``MAILS_PER_CONNECTION`` mails, as servers that limit a session's mails ask.
"""

from __future__ import annotations

import contextlib
import smtplib
import threading
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.core.mail.backends.smtp import EmailBackend as SmtpBackend

MAILS_PER_CONNECTION = 100

_kept = threading.local()


def send(message: EmailMessage) -> None:
    """Send ``message``; raise what the backend raised (the caller records it and retries)."""
    backend = _backend()
    if backend is None:
        message.send()
        return
    message.connection = backend
    try:
        message.send()
    except Exception:
        forget()
        raise
    _kept.sent += 1
    if _kept.sent >= MAILS_PER_CONNECTION:
        forget()


def forget() -> None:
    """Close this thread's kept connection, if any (QUIT, or just the socket)."""
    backend = getattr(_kept, "backend", None)
    _kept.backend = None
    if backend is not None:
        with contextlib.suppress(smtplib.SMTPException, OSError):  # QUIT where it still can
            backend.close()


def _settings() -> tuple[Any, ...]:
    return (
        settings.EMAIL_BACKEND,
        settings.EMAIL_HOST,
        settings.EMAIL_PORT,
        settings.EMAIL_HOST_USER,
        settings.EMAIL_HOST_PASSWORD,
        settings.EMAIL_USE_TLS,
        settings.EMAIL_USE_SSL,
        getattr(settings, "EMAIL_TIMEOUT", None),
    )


def _backend() -> SmtpBackend | None:
    """This thread's SMTP connection, open and answering; None for any other backend."""
    backend = getattr(_kept, "backend", None)
    if backend is not None and (_kept.settings != _settings() or not _answers(backend)):
        forget()
        backend = None
    if backend is None:
        new = get_connection()
        if not isinstance(new, SmtpBackend):
            return None
        new.open()
        _kept.backend, _kept.settings, _kept.sent = new, _settings(), 0
        backend = new
    return backend


def _answers(backend: SmtpBackend) -> bool:
    if backend.connection is None:
        return False
    try:
        return backend.connection.noop()[0] == 250
    except (smtplib.SMTPException, OSError):
        return False
