"""An SMTP server that keeps every mail it accepts, for the load runs and their tests.

``MailSink``: aiosmtpd in a thread of the caller on a free loopback port; it keeps the
Message-ID, recipients and subject of each mail, can be taken down and brought back on
the same port, and can stall its senders in the middle of a send.
"""

from __future__ import annotations

import asyncio
import contextlib
import email.parser
import email.policy
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tests.benchmarks.webstack import free_port

_HEADERS = email.parser.BytesHeaderParser(policy=email.policy.default)


@dataclass(frozen=True)
class Mail:
    message_id: str
    recipients: tuple[str, ...]
    subject: str


class MailSink:
    """An aiosmtpd server that keeps what it accepted; ``down()``/``up()`` on the same port,
    and ``stalling`` to hold senders in the middle of a send."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self._lock = threading.Lock()
        self.mails: list[Mail] = []
        self.controller: Any = None
        self.stalling = threading.Event()  # set: MAIL FROM gets no answer until cleared
        self.stalled = 0  # sessions that waited so

    async def handle_MAIL(
        self, server: Any, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        if self.stalling.is_set():  # a slow server: the sender waits in the middle of a send
            with self._lock:
                self.stalled += 1
            while self.stalling.is_set():
                await asyncio.sleep(0.02)
        envelope.mail_from = address
        envelope.mail_options.extend(options)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        # The headers alone: the sink runs in the load runner's process, whose CPU is the
        # clients' figure, and the parts of a multipart mail are not looked at.
        message = _HEADERS.parsebytes(envelope.content)
        with self._lock:
            self.mails.append(
                Mail(str(message["Message-ID"]), tuple(envelope.rcpt_tos), str(message["Subject"]))
            )
        return "250 OK"

    def up(self) -> None:
        from aiosmtpd.controller import Controller

        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def down(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    def reset(self) -> None:
        with self._lock:
            self.mails.clear()
            self.stalled = 0

    def received(self) -> list[Mail]:
        with self._lock:
            return list(self.mails)

    def message_id_counts(self) -> Counter[str]:
        return Counter(mail.message_id for mail in self.received())

    @contextlib.contextmanager
    def serving(self) -> Iterator[MailSink]:
        self.up()
        try:
            yield self
        finally:
            self.down()
