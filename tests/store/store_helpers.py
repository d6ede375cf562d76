"""Helpers of the store tests, importable by test modules and by worker processes."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

PAIRS_CSV = (
    "number,player1,player2,unit\n"
    "1,张三,李四,东城队\n"
    "2,王五,赵六,西城队\n"
    "3,钱七,孙八,\n"
    "4,周九,吴十,南城队\n"
    "5,郑一,冯二,\n"
    "6,陈三,褚四,\n"
    "7,卫五,蒋六,\n"
    "8,沈七,韩八,\n"
)


def cli(db: str | None, *args: str, lang: str = "en", stdin: str | None = None) -> tuple[int, str, str]:
    """Run ``referee-app [--db DB] --lang LANG ARGS…`` in this process; (exit, stdout, stderr)."""
    import sys

    from referee_app.cli import main

    out, err = io.StringIO(), io.StringIO()
    argv = (["--db", db] if db else []) + ["--lang", lang, *args]
    old_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main(argv)
            except SystemExit as exc:  # argparse
                rc = int(exc.code or 0)
    finally:
        sys.stdin = old_stdin
    return rc, out.getvalue(), err.getvalue()


def make_case(
    round_: int = 1,
    table: int = 1,
    ns: str = "1",
    ew: str = "2",
    *,
    defender_points: int = 60,
    exposed: int = 1,
    override: dict[str, Any] | None = None,
) -> dict[str, Any]:
    inf: dict[str, Any] = {"kind": "exposed_card", "seat": "N", "cards": exposed, "trick": 7}
    if override is not None:
        inf["override"] = override
    return {
        "event": "bhg-2011",
        "round": round_,
        "table": table,
        "pairs": {"NS": ns, "EW": ew},
        "first_dealer": "E",
        "hands": [
            {
                "defender_points": defender_points,
                "bottom": {"points": 20, "captured": True, "shape": "pair"},
                "infractions": [inf],
            },
            {"defender_points": 40, "infractions": []},
        ],
        "finished": "time",
    }


def write_json(path: Path, obj: Any) -> str:
    path.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    return str(path)


def count_entries(db: str) -> int:
    from referee_app.store.service import Store

    with Store.open(db) as s:
        return len(s.log())


def sql(db: str, statement: str, **params: Any) -> list[Any]:
    """Run SQL directly on the database, outside the store (for tampering tests)."""
    import sqlalchemy as sa

    url = db if "://" in db else f"sqlite:///{db}"
    eng = sa.create_engine(url)
    try:
        with eng.begin() as conn:
            res = conn.execute(sa.text(statement), params)
            return list(res) if res.returns_rows else []
    finally:
        eng.dispose()


def drop_guards(db: str, *tables: str) -> None:
    """What a tamperer must do first: drop the append-only triggers of ``tables``."""
    for t in tables:
        if "://" in db:
            sql(db, f"DROP TRIGGER {t}_no_change ON {t}")
        else:
            sql(db, f"DROP TRIGGER {t}_no_update")
            sql(db, f"DROP TRIGGER {t}_no_delete")


def refused(db: str, statement: str, **params: Any) -> str:
    """Run SQL that the database must refuse; returns the error text."""
    import sqlalchemy as sa

    try:
        sql(db, statement, **params)
    except sa.exc.DBAPIError as err:
        return str(err.orig)
    raise AssertionError(f"the database accepted: {statement}")


def cli_within(seconds: float, db: str | None, *args: str, lang: str = "en") -> tuple[int, str, str]:
    """:func:`cli` in a thread, failed if it has not ended after ``seconds``: a read that waits
    on a pipe, reads a device for ever or a connection that never answers fails the test
    instead of hanging it (the thread is left behind, a daemon)."""
    import threading

    done: list[tuple[int, str, str]] = []
    worker = threading.Thread(target=lambda: done.append(cli(db, *args, lang=lang)), daemon=True)
    worker.start()
    worker.join(seconds)
    assert done, f"referee-app {' '.join(args)} still running after {seconds} s"
    return done[0]
