"""One error hierarchy for the games' rules engines.

Every error carries a stable ``code`` (for programs, the API and translations), a
``message`` a player can read (in English) and ``params``: the values the message names
(spaces, cells, cards, Powers, items ...) as plain identifiers, so a web layer can say
the same thing in another language. Views map codes to HTTP statuses; nothing here knows HTTP.
"""

from __future__ import annotations

from collections.abc import Mapping


class RulesError(ValueError):
    """Base class of every error the engine raises on purpose."""

    default_code = "rules_error"

    def __init__(
        self, message: str, code: str | None = None, params: Mapping[str, object] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.params: dict[str, object] = dict(params or {})

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class IllegalMove(RulesError):
    """A well-formed move that the rules do not allow in this state."""

    default_code = "illegal_move"


class InvalidMove(RulesError):
    """A move that cannot even be read: wrong shape, unknown names, bad coordinates."""

    default_code = "invalid_move"


class InvalidEdition(RulesError):
    """An edition definition (or, in Evergreen, a planet text) that cannot be loaded."""

    default_code = "invalid_edition"


class InvalidState(RulesError):
    """Serialized state or a game record that cannot be read back."""

    default_code = "invalid_state"
