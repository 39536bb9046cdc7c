"""A write's round trips: the rows it writes sent in one statement, instead of one query
each compiled by the ORM. (The rows it locks first are read in one too:
``games.rowsread.read_together``, with ``lock``: 0.3 ms of CPU where the ORM's locked
``get`` and ``Prefetch`` took 1.4 ms.)

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

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Model

from ..rowsread import model_field, quoted_column, quoted_columns, quoted_table


class OneTrip:
    """Updates and an insert gathered, then sent by ``run``."""

    def __init__(self) -> None:
        self.updates: list[tuple[str, list[Any]]] = []
        self.inserted: list[Model] = []

    def update(self, model: type[Model], pks: Sequence[Any], values: dict[str, Any]) -> None:
        """``UPDATE model SET values WHERE pk IN pks`` (``values`` by field name)."""
        fields = [model_field(model, name) for name in values]
        params = [
            field.get_db_prep_save(value, connection)
            for field, value in zip(fields, values.values(), strict=True)
        ]
        sql = _update_sql(model, tuple(values), len(pks), connection.vendor)
        self.updates.append((sql, [*params, *pks]))

    def update_object(self, obj: Model, names: Iterable[str]) -> None:
        """What ``obj.save(update_fields=names)`` would write (``auto_now`` fields set)."""
        fields = [model_field(type(obj), name) for name in names]
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
        columns, pk, table = (
            quoted_columns(fields),
            quoted_column(model._meta.pk),
            quoted_table(model),
        )
        # PostgreSQL gives the ids in the rows' order (as ``bulk_create`` relies on).
        sql = f"INSERT INTO {table} ({columns}) VALUES {', '.join(rows)} RETURNING {pk}"
        return sql, params


@cache
def _update_sql(model: type[Model], names: tuple[str, ...], rows: int, vendor: str) -> str:
    """``UPDATE`` of the fields ``names`` in ``rows`` rows picked by their keys (written once
    per process and vendor)."""
    sets = ", ".join(f"{quoted_column(model_field(model, name))} = %s" for name in names)
    pk, where = quoted_column(model._meta.pk), ", ".join(["%s"] * rows)
    return f"UPDATE {quoted_table(model)} SET {sets} WHERE {pk} IN ({where})"
