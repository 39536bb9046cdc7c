"""What the API's endpoints read from a request, and how its schema describes them:
the body, the query parameters, the idempotency key and the expected version, refused
with a stable code when malformed; the pagination of game lists; the error responses."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers as drf_serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request

from games import services
from games.services import ServiceError

from . import serializers as s

MAX_IDEMPOTENCY_KEY = services.MAX_IDEMPOTENCY_KEY


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    descriptions = {
        400: "Malformed request or illegal move: the engine's code and message.",
        401: "No credentials, or a bad token.",
        403: "You are not a player of this game.",
        404: "There is no such game.",
        409: "Not now: not your turn, a stale version, the game is not being played.",
        429: "Too many requests: moves faster than the site allows (code rate_limited) or "
        "too many log-in attempts (throttled, locked_out); wait the time given and try again.",
    }
    return {
        code: OpenApiResponse(s.ErrorSerializer, description=descriptions[code]) for code in codes
    }


IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="Any unique string up to 80 characters. Sending the same key again returns "
    "the first result (with the header `Idempotent-Replayed: true`) and plays nothing twice.",
)
IF_MATCH = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description='The game `version` this move was chosen against (as `12` or `"12"`): '
    "refused with 409 `stale_version` if the game has moved on since.",
)
REPLAYED = OpenApiParameter(
    "Idempotent-Replayed",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    response=[200],
    description="`true` when the key had been used already: `move` is the move first recorded "
    "with it (nothing was played again) and the game is shown as it is now.",
)
SINCE = OpenApiParameter(
    "since",
    OpenApiTypes.INT,
    OpenApiParameter.QUERY,
    description="The `version` you last saw. While the game is still at it, the answer is "
    "204 with no body, at a fraction of the cost: poll with it. The version moves with "
    "every move, a revealed round, the start and the end of the game; not with a seat's "
    "hints or a player's vacation.",
)
GAME_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The game.")


MAX_OFFSET = 1_000_000_000


class GamePagination(LimitOffsetPagination):
    """Limit and offset as documented: a value that is not a whole number in range is
    refused (DRF would quietly use the default instead)."""

    default_limit = 50
    max_limit = 100

    def get_limit(self, request: Request) -> int:
        return self._number(request, "limit", 1, self.max_limit, self.default_limit)

    def get_offset(self, request: Request) -> int:
        return self._number(request, "offset", 0, MAX_OFFSET, 0)

    @staticmethod
    def _number(request: Request, name: str, low: int, high: int, default: int) -> int:
        found = _whole_number(request, name, low, high)
        return default if found is None else found


def _whole_number(request: Request, name: str, low: int, high: int) -> int | None:
    """The query parameter ``name`` as a whole number from ``low`` to ``high``, None when
    it is not given; anything else is refused with the code ``bad_<name>``."""
    raw = _query(request, name)
    if raw is None:
        return None
    # Length first: int() refuses 4,301 digits with a ValueError, and the database a
    # number past its bigint. ASCII digits only: "²" is a digit too.
    if not (
        raw.isascii() and raw.isdigit() and len(raw) <= len(str(high)) and low <= int(raw) <= high
    ):
        raise ServiceError(
            _("%(name)s must be a whole number from %(low)d to %(high)s.")
            % {"name": name, "low": low, "high": high},
            "bad_" + name,
        )
    return int(raw)


def _yes_or_no(request: Request, name: str) -> bool | None:
    """The query parameter ``name`` as a boolean (``true`` or ``false``, as OpenAPI writes
    them in a query; ``1`` and ``0`` too), None when it is not given; anything else is
    refused with the code ``bad_<name>``."""
    raw = _query(request, name)
    if raw is None:
        return None
    if raw not in ("true", "false", "1", "0"):
        raise ServiceError(_("%(name)s must be true or false.") % {"name": name}, "bad_" + name)
    return raw in ("true", "1")


MAX_VERSION = 10**18 - 1  # a bigint's worth of digits, as the page poll accepts


def _since(request: Request) -> int | None:
    """The version the client last saw (``?since=``), if it says."""
    return _whole_number(request, "since", 0, MAX_VERSION)


def _query(request: Request, name: str) -> str | None:
    """The query parameter ``name`` given at most once (else refused), or None."""
    values = request.query_params.getlist(name)
    if len(values) > 1:
        raise ServiceError(
            _("The parameter “%(name)s” may be given only once.") % {"name": name}, "bad_query"
        )
    return values[0] if values else None


def _valid(serializer_class: type[drf_serializers.Serializer[Any]], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _body(request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise ServiceError(_("The request body must be a JSON object."), "bad_request")
    return dict(request.data)


def _idempotency_key(request: Request) -> str | None:
    key = request.headers.get("Idempotency-Key", "").strip()
    if len(key) > MAX_IDEMPOTENCY_KEY:
        raise ServiceError(
            _("An Idempotency-Key has at most %(n)d characters.") % {"n": MAX_IDEMPOTENCY_KEY},
            "bad_idempotency_key",
        )
    return key or None


def _expected_version(request: Request, body: dict[str, Any]) -> int | None:
    header = request.headers.get("If-Match", "").strip()
    if header and header != "*":  # "*": any version will do
        raw: Any = header.removeprefix("W/").strip('"')
        if not (raw.isascii() and raw.isdigit() and len(raw) <= 18):  # "²" is a digit too
            raise ServiceError(
                _("If-Match must be the game version, a whole number."), "bad_version"
            )
        version = int(raw)
        if "version" in body and body["version"] != version:
            raise ServiceError(_("If-Match and the body's version disagree."), "bad_version")
        return version
    raw = body.get("version")
    if raw is None:
        return None
    if not isinstance(raw, int) or isinstance(raw, bool) or not 0 <= raw < 2**63:
        raise ServiceError(_("The version must be a whole number."), "bad_version")
    return raw
