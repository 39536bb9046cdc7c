"""The services' refusals: a stable code, a readable message, an HTTP-like status."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..kinds import Refusal


class ServiceError(Exception):
    """A refused write: a stable ``code``, a readable ``message``, an HTTP-like ``status``."""

    status = 400

    def __init__(self, message: str, code: str, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        if status is not None:
            self.status = status

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class NotAPlayer(ServiceError):
    status = 403


class Conflict(ServiceError):
    status = 409


def not_a_player() -> NotAPlayer:
    """The refusal of someone without a seat in the game (the pages, the API, here)."""
    return NotAPlayer(_("You are not a player of this game."), "not_a_player")


def refused(exc: Refusal) -> ServiceError:
    """A game's refusal as the service's error (409 when it means "not now")."""
    return (Conflict if exc.conflict else ServiceError)(exc.message, exc.code)
