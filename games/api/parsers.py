"""DRF's JSON parser, refusing a document nested too deep as malformed (400), not a 500.

Python's JSON decoder raises ``RecursionError`` (not ``ValueError``) past about a
thousand levels of nesting, which DRF's parser lets through as a server error.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_("The JSON document is nested too deeply.")) from None
