"""The named users every test directory shares (loaded by the root ``conftest.py``).

``alice`` (creates games, organizes clubs), ``bob`` (her opponent), ``carol`` (another
player, an outsider to alice's games), ``staff`` (a staff member) and ``superuser``
(``root``, staff with every permission). Each is made on first use in a test, with a
``Player`` profile; every password is ``tests.games.gamehelpers.PASSWORD``.
"""

from __future__ import annotations

from typing import Any

import pytest


def _user(name: str, *, staff: bool = False) -> Any:
    # Imported here: this plugin loads before Django is set up.
    from tests.games.gamehelpers import make_user

    return make_user(name, staff=staff)


@pytest.fixture
def alice(db: Any) -> Any:
    return _user("alice")


@pytest.fixture
def bob(db: Any) -> Any:
    return _user("bob")


@pytest.fixture
def carol(db: Any) -> Any:
    return _user("carol")


@pytest.fixture
def staff(db: Any) -> Any:
    return _user("staff", staff=True)


@pytest.fixture
def superuser(db: Any) -> Any:
    user = _user("root", staff=True)
    user.is_superuser = True
    user.save(update_fields=["is_superuser"])
    return user
