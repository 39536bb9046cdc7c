"""Editions: the components of a game as JSON files in its engine's ``editions/`` folder.

Each engine reads its own files into its own ``Edition`` (``from_dict``) and keeps them
on its own ``Shelf``; finding, reading and checking the files is written here once.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from types import TracebackType
from typing import Any, Generic, Protocol, TypeVar

from .errors import InvalidEdition


class Named(Protocol):
    @property
    def name(self) -> str: ...


E = TypeVar("E", bound=Named)


class Shelf(Generic[E]):
    """The editions shipped in an engine's ``editions/`` folder, each read once.

    ``names()`` lists them; ``load(name)`` reads one with ``from_dict`` (the engine's
    ``Edition.from_dict``), ``default`` when no name is given.
    """

    def __init__(self, package: str, from_dict: Callable[[Any], E], default: str) -> None:
        self.package = package
        self.from_dict = from_dict
        self.default = default
        self._loaded: dict[str, E] = {}

    def names(self) -> list[str]:
        folder = resources.files(self.package).joinpath("editions")
        return sorted(
            p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json")
        )

    def load(self, name: str | None = None) -> E:
        """The edition ``name`` (default: the default edition).

        Raises ``InvalidEdition``: ``unknown_edition`` when there is no such file, and
        when the file is malformed or names itself otherwise.
        """
        name = self.default if name is None else name
        if name not in self._loaded:
            self._loaded[name] = self._read(name)
        return self._loaded[name]

    def _read(self, name: str) -> E:
        if name not in self.names():
            raise InvalidEdition(f"Unknown edition {name!r}.", "unknown_edition")
        folder = resources.files(self.package).joinpath("editions")
        edition = self.from_dict(json.loads(folder.joinpath(f"{name}.json").read_text("utf-8")))
        if edition.name != name:
            raise InvalidEdition(f"Edition file {name}.json names itself {edition.name!r}.")
        return edition


class EditionFields:
    """``with EditionFields():`` around reading an edition's fields: a missing or
    mistyped field (``KeyError``, ``TypeError``, ``ValueError``) becomes
    ``InvalidEdition``; an ``InvalidEdition`` raised inside passes as it is."""

    def __enter__(self) -> None:
        return None

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if isinstance(exc, (KeyError, TypeError, ValueError)) and not isinstance(
            exc, InvalidEdition
        ):
            raise InvalidEdition(
                f"The edition definition is incomplete or malformed: {exc}"
            ) from exc
