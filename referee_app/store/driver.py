"""Fixed SQL run through the driver's own connection, for the save a referee waits on.

Saving a ruling runs the same dozen statements every time. Through SQLAlchemy each one costs
its execution context, result set-up and events (most of a save's Python time); here they run
on the DBAPI connection under the SQLAlchemy ``Connection`` that holds the transaction, so
the transaction, its writers' lock and its commit stay the store's. On PostgreSQL the
statements of a batch go out in psycopg's pipeline mode: the server gets them all and
answers once, instead of one round trip each.

SQL is written with ``%(name)s`` placeholders (psycopg's); SQLite gets ``:name``. A driver
error is raised as SQLAlchemy's (``IntegrityError`` for a constraint), like any other
statement of the store, so the callers' handling does not change.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")
_SQLITE_TEXT: dict[str, str] = {}


def sqlite_text(text: str) -> str:
    """``text`` with SQLite's ``:name`` placeholders for psycopg's ``%(name)s``."""
    found = _SQLITE_TEXT.get(text)
    if found is None:
        found = _SQLITE_TEXT[text] = _PLACEHOLDER.sub(r":\1", text)
    return found


class Driver:
    """The driver connection of ``conn`` (inside its transaction)."""

    def __init__(self, conn: Connection) -> None:
        self.postgresql = conn.dialect.name == "postgresql"
        self.raw: Any = conn.connection.driver_connection
        self._error: type[Exception] = conn.dialect.loaded_dbapi.Error

    def sql(self, text: str) -> str:
        return text if self.postgresql else sqlite_text(text)

    @contextmanager
    def _errors(self, statement: str, params: Any) -> Iterator[None]:
        try:
            yield
        except self._error as err:
            raise DBAPIError.instance(statement, params, err, self._error) from err

    def query(self, batch: Sequence[tuple[str, Mapping[str, Any]]]) -> list[list[tuple[Any, ...]]]:
        """Run the queries of ``batch`` in order; the rows of each. On PostgreSQL all are
        sent before the first answer is read (one round trip)."""
        cursors = []
        with self._errors(batch[0][0] if batch else "", None):
            if self.postgresql:
                with self.raw.pipeline():
                    for sql, params in batch:
                        cur = self.raw.cursor()
                        cur.execute(sql, params)
                        cursors.append(cur)
                # read after the pipeline's end: its one Sync brought every result (a
                # fetch inside it would wait for a Flush first, one more round trip)
                # (a statement without rows, e.g. LOCK TABLE, reads as none)
                out = [cur.fetchall() if cur.description is not None else [] for cur in cursors]
            else:
                out = []
                cur = self.raw.cursor()
                try:
                    for sql, params in batch:
                        cur.execute(self.sql(sql), params)
                        out.append(cur.fetchall())
                finally:
                    cur.close()
        for cur in cursors:
            cur.close()
        return out

    def write(
        self, statements: Sequence[tuple[str, Sequence[Mapping[str, Any]]]], *, commit: bool = False
    ) -> None:
        """Run each statement once per parameter set, in order, reading nothing back. On
        PostgreSQL in one pipeline: errors (a constraint) are raised at its end.

        ``commit`` (PostgreSQL): COMMIT at the end of the same pipeline, when nothing is left
        to do in the transaction (the SQLAlchemy commit that follows finds it done). On
        SQLite the store commits, after its check of the WAL (``Store._write_sqlite``)."""
        if not statements:
            return
        with self._errors(statements[0][0], None):
            cur = self.raw.cursor()
            try:
                if self.postgresql:
                    with self.raw.pipeline():
                        for sql, rows in statements:
                            cur.executemany(sql, rows)
                        if commit:
                            cur.execute("COMMIT")
                else:
                    for sql, rows in statements:
                        if len(rows) == 1:
                            cur.execute(self.sql(sql), rows[0])
                        else:
                            cur.executemany(self.sql(sql), rows)
            finally:
                cur.close()
