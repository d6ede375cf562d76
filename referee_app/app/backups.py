"""The automatic copy at each round's end (issue 24 item 9; docs/backup.md): when the chief
referee records a round's end, the whole store is backed up (``Store.backup``, verified) into
the data folder's ``backups/``, the last :data:`ROUND_COPIES_KEPT` of each event kept.

A copy on the same computer is no anchor kept outside (the disk can fail, the file can be
replaced with the store): it is logged as ``store.round_copy``, and the hall still reminds
the chief referee to keep an anchor or a backup elsewhere."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..store.errors import StoreError

#: Round-end copies kept per store and event (the oldest removed first).
ROUND_COPIES_KEPT = 30


def round_copies_folder() -> Path:
    from ..locations import user_data_dir

    return user_data_dir() / "backups"


def _stem(where: str) -> str:
    """A file-name stem for the store: its file's name, or its database's."""
    name = where.rsplit("/", 1)[-1].split("?", 1)[0]
    name = name.rsplit(".", 1)[0] if "." in name else name
    return re.sub(r"[^\w.-]+", "_", name)[:60] or "store"


def copy_at_round_end(store: Any, actor: Any, event_id: int, round_no: int) -> Any:
    """Back the store up into the data folder at round ``round_no``'s end; returns what
    ``Store.backup`` returns. Raises the store's error (``BackupError``, ``RoleError``…)
    when it cannot: the caller says so, the round's end stays recorded."""
    folder = round_copies_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass  # the backup names the folder that cannot be written
    prefix = f"{_stem(store.where)}-event{event_id}-"
    out = folder / f"{prefix}round{round_no}-{time.strftime('%Y%m%d-%H%M%S')}.db"
    done = store.backup(str(out), actor=actor, event_id=event_id, force=True, round_no=round_no)
    copies = sorted(folder.glob(f"{prefix}round*.db"), key=lambda p: p.stat().st_mtime)
    for old in copies[:-ROUND_COPIES_KEPT]:
        try:
            old.unlink()
        except OSError:
            pass
    return done


@dataclass(frozen=True)
class RoundEnded:
    """The round's end as recorded (本轮结束, a desk record) and the copy kept with it: the
    copy's result (``Store.backup``'s) or the error that kept it from being made."""

    record: dict[str, Any]
    copy: Any = None
    copy_error: StoreError | None = None


def record_round_end(
    store: Any, actor: Any, event_id: int, round_no: int, at: str | None = None
) -> RoundEnded:
    """Record round ``round_no``'s end, then keep a verified copy of the store (the chief
    referee's act, the window's and ``referee-app round end`` alike). A copy that cannot be
    made leaves the end recorded and says why."""
    record = store.add_desk_record(event_id, "round_end", round_no, {}, actor=actor, at=at)
    try:
        done = copy_at_round_end(store, actor, event_id, round_no)
    except StoreError as err:
        return RoundEnded(record, None, err)
    return RoundEnded(record, done)
