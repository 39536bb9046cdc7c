"""A row with the rows that point to it (a game with its seats) read in one round trip and
made into model instances as a queryset makes them, without the ORM compiling a query.

Two statements in one ``execute``: the parent's row, then its children's in order (on
PostgreSQL; elsewhere, SQLite the embedded default, two ``raw`` queries). Their rows become
instances with ``Model.from_db`` after each field's ``from_db_value``, as a queryset's
rows do. Read so, a game with its seats costs 0.3-0.4 ms of CPU where the ORM's ``get``
with a ``Prefetch`` of the seats cost 1.4-1.6 ms (2026-11-29, bench_web's game in its
third season): compiling the two queries and the prefetch's work weighed more than the
rows themselves. Used by every write (``games.services.writes``: the rows locked) and
by the page's read of a game whose rows changed (``games.rowcache``: each row with its
``xmin``), and of its players' users with their Player rows (``read_with_related``: 0.3
ms where the ORM's ``select_related`` with ``defer`` and two annotations cost 1.2-1.7).

Two statements in one ``execute`` need psycopg's client-side binding: the site binds
parameters on the server (for prepared statements, ``evergreen.settings.POSTGRESQL_OPTIONS``),
so these reads take a cursor of Django's client-side kind of their own
(``_statements_cursor``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Field, Model


def read_together(
    parent: type[Model],
    pk: Any,
    child: type[Model],
    fk: str,
    order: str,
    *,
    lock: bool = False,
    versions: bool = False,
) -> tuple[Any, list[Any]]:
    """The row ``pk`` of ``parent`` (raises its ``DoesNotExist``), then the rows of ``child``
    whose ``fk`` is it, ordered by ``order``. ``lock``: both locked for this transaction
    (the parent's first). ``versions`` (PostgreSQL only): each instance's ``row_version``
    is its row's ``xmin``, as text (``games.rowcache``)."""
    if versions and connection.vendor != "postgresql":
        raise ValueError("row versions are PostgreSQL's")
    lock = lock and connection.features.has_select_for_update
    parents, children, both = _reads(parent, child, fk, order, lock, versions, connection.vendor)
    if connection.vendor != "postgresql":
        found = list(parent._default_manager.raw(f"SELECT * {parents}", [pk]))
        if not found:
            raise _missing(parent, pk)
        return found[0], list(child._default_manager.raw(f"SELECT * {children}", [pk]))
    with _statements_cursor() as cursor:
        cursor.execute(both, [pk, pk])
        row = cursor.fetchone()
        cursor.nextset()
        rows = cursor.fetchall()
    if row is None:
        raise _missing(parent, pk)
    return _made(parent, row, versions), [_made(child, r, versions) for r in rows]


def read_with_related(
    model: type[Model],
    pks: Sequence[Any],
    related: type[Model],
    fk: str,
    *,
    leave_out: tuple[str, ...] = (),
) -> tuple[list[Any], list[Any]]:
    """The rows of ``model`` whose primary key is one of ``pks``, without the fields named
    in ``leave_out`` (deferred, as ``defer`` leaves them), then the rows of ``related``
    whose ``fk`` is one of them: each with its ``row_version`` (PostgreSQL only), in one
    round trip. In no particular order."""
    if connection.vendor != "postgresql":
        raise ValueError("row versions are PostgreSQL's")
    both = _related_reads(model, related, fk, leave_out)
    keys = list(pks)
    with _statements_cursor() as cursor:
        cursor.execute(both, [keys, keys])
        rows = cursor.fetchall()
        cursor.nextset()
        related_rows = cursor.fetchall()
    made = [_made(model, row, True, leave_out) for row in rows]
    return made, [_made(related, row, True) for row in related_rows]


@cache
def _related_reads(
    model: type[Model], related: type[Model], fk: str, leave_out: tuple[str, ...]
) -> str:
    """``read_with_related``'s two statements (written once per process)."""
    fields = _fields(model, leave_out)
    key, related_key = quoted_column(model._meta.pk), quoted_column(model_field(related, fk))
    columns = quoted_columns(fields) + ", xmin::text"
    related_columns = quoted_columns(related._meta.concrete_fields) + ", xmin::text"
    return (
        f"SELECT {columns} FROM {quoted_table(model)} WHERE {key} = ANY(%s); "
        f"SELECT {related_columns} FROM {quoted_table(related)} WHERE {related_key} = ANY(%s)"
    )


def _fields(model: type[Model], leave_out: tuple[str, ...]) -> list[Field[Any, Any]]:
    return [f for f in model._meta.concrete_fields if f.name not in leave_out]


@cache
def _reads(
    parent: type[Model],
    child: type[Model],
    fk: str,
    order: str,
    lock: bool,
    versions: bool,
    vendor: str,
) -> tuple[str, str, str]:
    """``read_together``'s two statements after their ``SELECT *``, and both with their
    columns named, in one (written once per process and database vendor: quoting each
    name through the connection was a tenth of a turn's CPU)."""
    locked = " FOR UPDATE" if lock else ""
    parent_key, child_key = quoted_column(parent._meta.pk), quoted_column(model_field(child, fk))
    ordering = quoted_column(model_field(child, order))
    parents = f"FROM {quoted_table(parent)} WHERE {parent_key} = %s{locked}"
    children = f"FROM {quoted_table(child)} WHERE {child_key} = %s ORDER BY {ordering}{locked}"
    version = ", xmin::text" if versions else ""
    parent_columns = quoted_columns(parent._meta.concrete_fields) + version
    child_columns = quoted_columns(child._meta.concrete_fields) + version
    both = f"SELECT {parent_columns} {parents}; SELECT {child_columns} {children}"
    return parents, children, both


def _statements_cursor() -> Any:
    """A cursor of the connection that takes several statements in one ``execute``: psycopg
    binding the parameters into the SQL on the client (the cursor Django's PostgreSQL
    backend makes without ``server_side_binding``), whatever the connection's own cursors
    do; wrapped as ``connection.cursor()`` wraps them (queries logged when they are)."""
    from django.db.backends.postgresql import base

    connection.ensure_connection()
    client_side_cursor: Any = base.Cursor  # psycopg's ClientCursor, with Django's callproc
    client_side = client_side_cursor(connection.connection)
    if connection.queries_logged:
        return connection.make_debug_cursor(client_side)
    return connection.make_cursor(client_side)


def _missing(model: type[Model], pk: Any) -> Exception:
    """What ``get`` raises for a row that is not there (its model's ``DoesNotExist``)."""
    missing: type[Exception] = model.DoesNotExist  # type: ignore[attr-defined]
    return missing(f"No {model._meta.model_name} {pk}.")


def _made(
    model: type[Model], row: Sequence[Any], versions: bool, leave_out: tuple[str, ...] = ()
) -> Any:
    """The instance of ``model`` a row of its concrete fields but ``leave_out`` (then its
    ``xmin`` when ``versions``) makes, as a queryset makes it."""
    names, converters = _loading(model, connection.vendor, leave_out)
    values = []
    for converts, value in zip(converters, row, strict=not versions):
        for convert in converts:
            value = convert(value, None, connection)
        values.append(value)
    made: Any = model.from_db(connection.alias, names, values)
    if versions:
        made.row_version = row[-1]
    return made


@cache
def _loading(
    model: type[Model], vendor: str, leave_out: tuple[str, ...]
) -> tuple[list[str], list[list[Callable[..., Any]]]]:
    """The attribute names of the model's concrete fields but ``leave_out`` and each one's
    converters from the database (once per process and vendor)."""
    fields = _fields(model, leave_out)
    return [f.attname for f in fields], [f.get_db_converters(connection) for f in fields]


def model_field(model: type[Model], name: str) -> Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, Field), name  # a column of the model's own table
    return field


def quoted_column(field: Field[Any, Any] | None) -> str:
    assert field is not None and field.column
    return _quoted(field.column, connection.vendor)


def quoted_columns(fields: Sequence[Field[Any, Any]]) -> str:
    vendor = connection.vendor
    return ", ".join(_quoted(field.column, vendor) for field in fields)


def quoted_table(model: type[Model]) -> str:
    return _quoted(model._meta.db_table, connection.vendor)


@cache
def _quoted(name: str, vendor: str) -> str:
    """A table's or column's name as the vendor's SQL quotes it (once per process: each
    lookup of ``connection`` goes through Django's per-thread connection handler)."""
    return str(connection.ops.quote_name(name))
