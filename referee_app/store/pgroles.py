"""PostgreSQL logins for a hall: the owner, who creates and upgrades the schema, and station
logins that may only read and append.

Why: with one login for everything, any station could ``ALTER TABLE … DISABLE TRIGGER`` (a
table's owner may) and then update or delete the record in place. A station login here is
not the tables' owner, has SELECT and INSERT on them and the sequences their ids come from,
and nothing else (no UPDATE, DELETE, TRUNCATE, TRIGGER, REFERENCES, no CREATE in the
schema, no membership in the owner's role) — except UPDATE on the empty ``writer_lock``
table, which is what taking the writers' lock needs (``audit.lock_for_write``): a login
without it (any other login of the server) cannot take that lock and stall the writers.
The append-only triggers then hold against every station; only the owner can lift them,
and the signatures and anchors catch what the owner could still do.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from sqlalchemy import Connection, Engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from .audit import PG_WRITER_LOCK_TABLE
from .errors import DatabaseError, InputError

_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


def check_login_name(name: str) -> str:
    if not _NAME.match(name):
        raise InputError(
            f"--station-login: {name[:70]!r} is not a plain PostgreSQL role name "
            "(lower-case letters, digits and _, at most 63, not starting with a digit)",
            code="db.login_name",
            field="station_login",
            got=name[:70],
        )
    return name


def _q(conn: Connection, ident: str) -> str:
    return str(conn.execute(text("SELECT quote_ident(:i)"), {"i": ident}).scalar_one())


def setup_station_login(
    conn: Connection, login: str, password: str | None, say: Callable[[str], None]
) -> list[str]:
    """Create or update the station login ``login`` on the store's schema, connected as the
    tables' owner. Returns the statements run (the password shown as ***)."""
    check_login_name(login)
    me = str(conn.execute(text("SELECT current_user")).scalar_one())
    schema = str(conn.execute(text("SELECT current_schema()")).scalar_one())
    owners = {
        str(r[0])
        for r in conn.execute(
            text("SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = :s"), {"s": schema}
        )
    }
    if not owners:
        raise InputError(
            f"schema {schema}: no referee-app tables here (create an event first, as the owner)",
            code="db.no_tables",
            schema=schema,
        )
    if owners != {me}:
        raise InputError(
            f"schema {schema}: the tables are owned by {', '.join(sorted(owners))}, not by {me}; "
            "connect with the owner's login (--owner-url)",
            code="db.not_owner",
            schema=schema,
            owners=sorted(owners),
            me=me,
        )
    if login == me:
        raise InputError(
            f"--station-login {login}: that is the owner's own login",
            code="db.login_is_owner",
            field="station_login",
            login=login,
        )
    exists = conn.execute(text("SELECT 1 FROM pg_roles WHERE rolname = :n"), {"n": login}).first()
    role, sch = _q(conn, login), _q(conn, schema)
    done: list[str] = []

    def run(sql: str, shown: str | None = None, **params: str) -> None:
        conn.execute(text(sql), params)
        done.append(shown or sql)
        say(shown or sql)

    # SUPERUSER, REPLICATION and BYPASSRLS are off by default and only a superuser may
    # name them; a login that has one is refused below rather than silently kept
    limits = "LOGIN NOCREATEDB NOCREATEROLE NOINHERIT"
    verb = "ALTER" if exists else "CREATE"
    if password is not None:
        # a role's password cannot be a bind parameter; quote_literal makes it a literal
        lit = str(conn.execute(text("SELECT quote_literal(:p)"), {"p": password}).scalar_one())
        run(f"{verb} ROLE {role} {limits} PASSWORD {lit}", f"{verb} ROLE {role} {limits} PASSWORD ***")
    else:
        run(f"{verb} ROLE {role} {limits}")
    powers = conn.execute(
        text("SELECT rolsuper, rolreplication, rolbypassrls FROM pg_roles WHERE rolname = :n"), {"n": login}
    ).one()
    if any(powers):
        raise InputError(
            f"--station-login {login}: this login is a superuser, or may replicate or bypass row "
            "security; a station login must not (ask the server's administrator to remove that)",
            code="db.login_too_strong",
            field="station_login",
            login=login,
        )
    # a member of the owner's role would have the owner's rights
    member = conn.execute(
        text(
            "SELECT 1 FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.roleid "
            "JOIN pg_roles u ON u.oid = m.member WHERE r.rolname = :o AND u.rolname = :n"
        ),
        {"o": me, "n": login},
    ).first()
    if member:
        run(f"REVOKE {_q(conn, me)} FROM {role}")
    run(f"REVOKE ALL ON ALL TABLES IN SCHEMA {sch} FROM {role}")
    run(f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA {sch} FROM {role}")
    run(f"REVOKE CREATE ON SCHEMA {sch} FROM {role}")
    run(f"GRANT USAGE ON SCHEMA {sch} TO {role}")
    run(f"GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA {sch} TO {role}")
    # the schema version is the owner's to change (migrations)
    run(f"REVOKE INSERT ON {sch}.store_meta FROM {role}")
    run(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {sch} TO {role}")
    # the writers' lock (LOCK TABLE … IN EXCLUSIVE MODE needs UPDATE; the table has no rows
    # and a trigger keeps it so)
    if conn.execute(text("SELECT to_regclass(:t)"), {"t": f"{sch}.{PG_WRITER_LOCK_TABLE}"}).scalar():
        lock_table = f"{sch}.{PG_WRITER_LOCK_TABLE}"
        run(f"REVOKE INSERT ON {lock_table} FROM {role}")
        run(f"GRANT UPDATE ON {lock_table} TO {role}")
    # tables a later upgrade adds (created by this owner) get the same rights
    run(
        f"ALTER DEFAULT PRIVILEGES FOR ROLE {_q(conn, me)} IN SCHEMA {sch} "
        f"GRANT SELECT, INSERT ON TABLES TO {role}"
    )
    run(
        f"ALTER DEFAULT PRIVILEGES FOR ROLE {_q(conn, me)} IN SCHEMA {sch} "
        f"GRANT USAGE, SELECT ON SEQUENCES TO {role}"
    )
    return done


def setup_on(engine: Engine, login: str, password: str | None, say: Callable[[str], None]) -> list[str]:
    """``setup_station_login`` in one transaction of ``engine``; a refusal by the server is
    one line, and nothing is changed."""
    from .db import database_error, explain_error

    try:
        with engine.begin() as conn:
            return setup_station_login(conn, login, password, say)
    except DBAPIError as err:
        coded = database_error(err, engine.url)
        raise DatabaseError(
            explain_error(err, engine.url) + " (nothing was changed)", code=coded.code, **coded.values
        ) from None


def station_url(owner_url: str, login: str, password: str | None) -> str:
    """The owner's URL with the station's login instead (same host, database, options)."""
    u = make_url(owner_url).set(username=login, password=password)
    return u.render_as_string(hide_password=False)
