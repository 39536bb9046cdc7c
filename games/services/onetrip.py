"""A write's round trips: the rows it locks read in one, the rows it writes sent in one
statement, instead of one query each compiled by the ORM.

Every write starts by locking the game's row and then its seats' (``read_locked``): on
PostgreSQL both ``SELECT ... FOR UPDATE`` go in one round trip (two statements, run in
order: the game's row is locked first, as in every write) and their rows become model
instances with ``Model.from_db`` after each field's ``from_db_value``: 0.3 ms of CPU where
the ORM's locked ``get`` and ``Prefetch`` took 1.4 ms. Two statements in one ``execute``
need psycopg's client-side binding: the site binds parameters on the server (for prepared
statements, ``evergreen.settings.POSTGRESQL_OPTIONS``), so this read takes a cursor of
Django's client-side kind of its own (``_statements_cursor``). Elsewhere (SQLite) two
``raw`` queries. The seats are not the game's prefetched ``game.seats.all()``: the caller
hands them on.

A move ends with three writes or more: its Move rows, the seats it changed, the game row.
Made by the ORM one after another (``bulk_create``, ``update``, ``save``) they were about
1.3 ms of CPU and three round trips of the 7-8 ms of CPU of a turn submitted through the
API (``tests/benchmarks/turncost.py``): compiling each query weighed more than running it.
Here they are written out as SQL once and sent together, on PostgreSQL as one statement
whose updates are data-modifying ``WITH`` queries around the insert (all of them run, to
completion, on the same snapshot, and fail or succeed together); elsewhere (SQLite, the
embedded default) one after another in the same transaction.

Values reach the database as the ORM would send them (each field's ``pre_save``, which
sets ``auto_now`` fields on the object, then ``get_db_prep_save``). Unlike ``save()``, no
signal is sent: the caller does what a receiver would (``pollcache.publish``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Field, Model


def read_locked(
    parent: type[Model], pk: Any, child: type[Model], fk: str, order: str
) -> tuple[Any, list[Any]]:
    """The row ``pk`` of ``parent`` (raises its ``DoesNotExist``), then the rows of ``child``
    whose ``fk`` is it, ordered by ``order``: both locked for this transaction."""
    parents, children, both = _locked_reads(parent, child, fk, order, connection.vendor)
    if connection.vendor != "postgresql":
        found = list(parent._default_manager.raw(f"SELECT * {parents}", [pk]))
        if not found:
            raise _missing(parent, pk)
        return found[0], list(child._default_manager.raw(f"SELECT * {children}", [pk]))
    parent_fields, child_fields = parent._meta.concrete_fields, child._meta.concrete_fields
    with _statements_cursor() as cursor:
        cursor.execute(both, [pk, pk])
        row = cursor.fetchone()
        cursor.nextset()
        rows = cursor.fetchall()
    if row is None:
        raise _missing(parent, pk)
    return _made(parent, parent_fields, row), [_made(child, child_fields, r) for r in rows]


@cache
def _locked_reads(
    parent: type[Model], child: type[Model], fk: str, order: str, vendor: str
) -> tuple[str, str, str]:
    """``read_locked``'s two statements after their ``SELECT *``, and both with their
    columns named, in one (written once per process and database vendor: quoting each
    name through the connection was a tenth of a turn's CPU)."""
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    parent_key, child_key = _column(parent._meta.pk), _column(_field(child, fk))
    ordering = _column(_field(child, order))
    parents = f"FROM {_table(parent)} WHERE {parent_key} = %s{lock}"
    children = f"FROM {_table(child)} WHERE {child_key} = %s ORDER BY {ordering}{lock}"
    parent_columns = _columns(parent._meta.concrete_fields)
    child_columns = _columns(child._meta.concrete_fields)
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


def _made(model: type[Model], fields: Sequence[Field[Any, Any]], row: Sequence[Any]) -> Any:
    """The instance of ``model`` a row of ``fields`` makes, as a queryset makes it."""
    names, converters = _loading(model, tuple(fields), connection.vendor)
    values = []
    for converts, value in zip(converters, row, strict=True):
        for convert in converts:
            value = convert(value, None, connection)
        values.append(value)
    return model.from_db(connection.alias, names, values)


@cache
def _loading(
    model: type[Model], fields: tuple[Field[Any, Any], ...], vendor: str
) -> tuple[list[str], list[list[Callable[..., Any]]]]:
    """The attribute names of ``fields`` and each one's converters from the database
    (once per process and vendor)."""
    return [f.attname for f in fields], [f.get_db_converters(connection) for f in fields]


class OneTrip:
    """Updates and an insert gathered, then sent by ``run``."""

    def __init__(self) -> None:
        self.updates: list[tuple[str, list[Any]]] = []
        self.inserted: list[Model] = []

    def update(self, model: type[Model], pks: Sequence[Any], values: dict[str, Any]) -> None:
        """``UPDATE model SET values WHERE pk IN pks`` (``values`` by field name)."""
        fields = [_field(model, name) for name in values]
        params = [
            field.get_db_prep_save(value, connection)
            for field, value in zip(fields, values.values(), strict=True)
        ]
        sql = _update_sql(model, tuple(values), len(pks), connection.vendor)
        self.updates.append((sql, [*params, *pks]))

    def update_object(self, obj: Model, names: Iterable[str]) -> None:
        """What ``obj.save(update_fields=names)`` would write (``auto_now`` fields set)."""
        fields = [_field(type(obj), name) for name in names]
        values = {field.name: field.pre_save(obj, False) for field in fields}
        self.update(type(obj), [obj.pk], values)

    def insert(self, objects: Sequence[Model]) -> None:
        """New rows of one model, as ``bulk_create`` makes them: each gets its id."""
        if self.inserted and objects and type(objects[0]) is not type(self.inserted[0]):
            raise ValueError("one model's rows per trip")
        self.inserted.extend(objects)

    def run(self) -> None:
        """Send everything gathered, and give the inserted rows their ids."""
        statements = list(self.updates)
        insert = self._insert() if self.inserted else None
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                last = insert or statements.pop()
                parts = [f"w{i} AS ({sql})" for i, (sql, _params) in enumerate(statements)]
                head = f"WITH {', '.join(parts)} " if parts else ""
                params = [p for _sql, ps in statements for p in ps]
                cursor.execute(head + last[0], [*params, *last[1]])
            else:
                for sql, params in [*statements, *([insert] if insert else [])]:
                    cursor.execute(sql, params)
            if insert is not None:
                for obj, (pk,) in zip(self.inserted, cursor.fetchall(), strict=True):
                    obj.pk = pk
        self.updates, self.inserted = [], []

    def _insert(self) -> tuple[str, list[Any]]:
        model = type(self.inserted[0])
        fields = [f for f in model._meta.concrete_fields if not f.primary_key]
        rows, params = [], []
        for obj in self.inserted:
            rows.append("(" + ", ".join(["%s"] * len(fields)) + ")")
            params += [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
        columns, pk, table = _columns(fields), _column(model._meta.pk), _table(model)
        # PostgreSQL gives the ids in the rows' order (as ``bulk_create`` relies on).
        sql = f"INSERT INTO {table} ({columns}) VALUES {', '.join(rows)} RETURNING {pk}"
        return sql, params


@cache
def _update_sql(model: type[Model], names: tuple[str, ...], rows: int, vendor: str) -> str:
    """``UPDATE`` of the fields ``names`` in ``rows`` rows picked by their keys (written once
    per process and vendor)."""
    sets = ", ".join(f"{_column(_field(model, name))} = %s" for name in names)
    pk, where = _column(model._meta.pk), ", ".join(["%s"] * rows)
    return f"UPDATE {_table(model)} SET {sets} WHERE {pk} IN ({where})"


def _field(model: type[Model], name: str) -> Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, Field), name  # a column of the model's own table
    return field


def _column(field: Field[Any, Any] | None) -> str:
    assert field is not None and field.column
    return _quoted(field.column, connection.vendor)


def _columns(fields: Iterable[Field[Any, Any]]) -> str:
    vendor = connection.vendor
    return ", ".join(_quoted(field.column, vendor) for field in fields)


def _table(model: type[Model]) -> str:
    return _quoted(model._meta.db_table, connection.vendor)


@cache
def _quoted(name: str, vendor: str) -> str:
    """A table's or column's name as the vendor's SQL quotes it (once per process: each
    lookup of ``connection`` goes through Django's per-thread connection handler)."""
    return str(connection.ops.quote_name(name))
