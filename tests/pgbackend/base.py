"""Django's PostgreSQL backend for the test suite, with a faster way to empty the tables.

After each transactional test (``transactional_db``, the live server) Django empties
every table with one ``TRUNCATE``: on PostgreSQL that makes a new file for each of some
fifty tables and their indexes, 2-3 s per test on a busy machine. ``DELETE`` of the few
rows a test wrote takes about a tenth of that and leaves the same thing: every table
empty, sequences as they were (Django's flush keeps them too unless asked to reset them,
and then this backend does exactly what Django does). The foreign keys Django makes are
deferrable, so deleting in any order inside one transaction is valid.

A documented extension point: a backend subclassing the built-in one (``ENGINE`` in
``evergreen/settings_test.py``); everything else is Django's own.
"""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base


class DatabaseOperations(base.DatabaseOperations):
    def sql_flush(
        self, style: Any, tables: Any, *, reset_sequences: bool = False, allow_cascade: bool = False
    ) -> list[str]:
        if reset_sequences or allow_cascade or not tables:
            return list(
                super().sql_flush(
                    style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
                )
            )
        return ["SET CONSTRAINTS ALL DEFERRED"] + [
            f"{style.SQL_KEYWORD('DELETE')} {style.SQL_KEYWORD('FROM')} "
            f"{style.SQL_FIELD(self.quote_name(table))}"
            for table in tables
        ]


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
