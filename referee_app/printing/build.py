"""The one builder of a stored table's scoresheet data, for the window and the command line.

Both ``referee-app print scoresheet|round`` and the window's preview call
:func:`store_scoresheets`, so the same table prints the same sheet wherever it is printed:
signatures and their time, voided rulings and records, corrections, the record's
version and the audit chain's head. Nothing here imports reportlab or Qt.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .data import (
    SIGNER_BOXES,
    PairInfo,
    RecordStamp,
    ScoresheetData,
    Voiding,
    all_rulings,
    event_header,
    infraction_labels,
    local_text,
    local_time,
    offender_text,
    record_digest,
    split_case,
)


def chain_head(store: Any) -> tuple[int, str]:
    """(entry number, hash) of the last entry of the store's audit chain, read now."""
    from ..store import audit

    return store._read(audit.head)  # type: ignore[no-any-return]


def chain_entry_hash(store: Any, seq: int) -> str | None:
    """The hash of audit entry ``seq``, or None when the chain has no such entry."""
    from sqlalchemy import select

    from ..store.models import audit_log

    def run(conn: Any) -> str | None:
        row = conn.execute(select(audit_log.c.hash).where(audit_log.c.seq == seq)).first()
        return None if row is None else str(row.hash)

    return store._read(run)  # type: ignore[no-any-return]


def stored_pairs(store: Any, event_id: int, numbers: Mapping[str, Any]) -> dict[str, PairInfo]:
    """The pairs at a table by side, with their players (first player North or East) and unit."""
    known = {str(p["number"]): p for p in store.list_pairs(event_id)}
    out = {}
    for side, number in numbers.items():
        p = known.get(str(number))
        out[side] = PairInfo(str(number), list(p["players"]) if p else [], p["unit"] if p else None)
    return out


def chief_referee_name(log: list[dict[str, Any]]) -> str:
    """The name of whoever last acted as chief referee in these entries ("" if nobody)."""
    for e in reversed(log):
        try:
            info = json.loads(e["payload"]).get("info", {})
        except (TypeError, ValueError):
            continue
        if info.get("role") == "chief_referee":
            return str(e["user_name"])
    return ""


def store_scoresheets(
    store: Any, event_id: int | None, round_no: int, table_no: int | None = None, lang: str = "zh"
) -> tuple[Any, list[ScoresheetData]]:
    """(the event, the scoresheet data of every current table of a round, or of one table),
    tables in order; an empty list when nothing is recorded there."""
    ev = store.pick_event(event_id)
    rulebook = store.pinned_rulebook(ev.id)
    header = event_header(rulebook, ev.date, ev.name)
    labels = infraction_labels(rulebook)
    head = chain_head(store)
    event_log = store.log(ev.id)
    chief = chief_referee_name(event_log)
    records = sorted(
        (
            m
            for m in store.export(ev.id)
            if m["round"] == round_no and (table_no is None or m["table"] == table_no)
        ),
        key=lambda m: m["table"],
    )
    sheets = []
    for m in records:
        case, _meta = split_case(m["case"])  # the store keeps round/table/pairs in the case
        decision = m["decision"]
        if m.get("lang") != lang:  # judged again only for the wording; the same engine and rulebook
            from ..core import judge

            decision = judge(case, lang=lang, rulebook=rulebook)
        sheet = ScoresheetData(
            event=header,
            case=case,
            decision=decision,
            round=m["round"],
            table=m["table"],
            pairs=stored_pairs(store, ev.id, m.get("pairs") or {}),
            infraction_labels=labels,
            lang=lang,
            record=RecordStamp(ev.id, int(m["version"]), head[0], head[1]),
        )
        signatures = store.signatures_of(ev.id, m["round"], m["table"], m["version"])
        sheet.signatures = {SIGNER_BOXES[k]: png for k, png in signatures.items() if k in SIGNER_BOXES}
        signing = store.signing_of(m["match_id"])
        if signing is not None:
            sheet.signer_names["table_referee"] = signing["user"]
            sheet.signed_at = local_time(signing["at"])
        if chief:
            sheet.signer_names["chief_referee"] = chief
        table_log = [e for e in event_log if e["round_no"] == m["round"] and e["table_no"] == m["table"]]
        sheet.voidings = voidings(decision, labels, table_log, lang)
        sheets.append(sheet)
    return ev, sheets


def stored_digest(store: Any, event_id: int, round_no: int, table_no: int, version: int) -> str | None:
    """The digest a scoresheet of that version printed (see :func:`record_digest`), computed
    from the store as it is now; None when the store has no such version."""
    for h in store.history(event_id, round_no, table_no):
        if int(h["version"]) != version:
            continue
        raw = json.loads(h["case_json"])
        case, _meta = split_case(raw)
        numbers = _pair_numbers(store, h)
        pairs = stored_pairs(store, event_id, numbers)
        return record_digest(case, json.loads(h["decision_json"]), pairs, round_no, table_no)
    return None


def _pair_numbers(store: Any, match_row: Mapping[str, Any]) -> dict[str, str]:
    ids = {"NS": match_row["ns_pair_id"], "EW": match_row["ew_pair_id"]}
    numbers = {}
    for p in store.list_pairs(int(match_row["event_id"])):
        for side, pid in ids.items():
            if p.get("id") == pid:
                numbers[side] = str(p["number"])
    return numbers


def voidings(
    decision: Mapping[str, Any],
    labels: Mapping[str, tuple[str, str]],
    log: list[dict[str, Any]],
    lang: str,
) -> list[Voiding]:
    """Rulings voided in the case (e.g. by an upheld appeal), voided earlier versions and
    corrections of the record, each with its reason, who and when (local time)."""
    zh = lang == "zh"
    out = []
    for hand_no, r in all_rulings(decision):
        if not r.get("voided"):
            continue
        label = labels.get(r.get("kind", ""), (r.get("kind", ""), r.get("kind", "")))
        where = (
            (f"第{hand_no}副" if hand_no else "赛前")
            if zh
            else (f"hand {hand_no}" if hand_no else "before play")
        )
        out.append(
            Voiding(
                f"{where} {label[0] if zh else label[1]} {offender_text(r, lang)}",
                str(r.get("void_reason", "")),
            )
        )
    for e in log:
        info = json.loads(e["payload"]).get("info", {})
        when = local_text(e["at"])
        if e["action"] == "match.void":
            v = info.get("version")
            out.append(
                Voiding(
                    f"第{v}版记录" if zh else f"record version {v}",
                    str(info.get("reason", "")),
                    e["user_name"],
                    when,
                )
            )
        elif e["action"] == "match.correct":
            v = info.get("version")
            corr = info.get("correction") or {}
            signed = ("（已签字）" if zh else " (signed)") if corr.get("replaces_signed") else ""
            out.append(
                Voiding(
                    f"第{v - 1}版记录{signed}，更正为第{v}版"
                    if zh
                    else f"record version {v - 1}{signed}, corrected as version {v}",
                    str(corr.get("reason", "")),
                    e["user_name"],
                    when,
                )
            )
    return out
