"""The one builder of a stored table's scoresheet data, for the window and the command line.

Both ``referee-app print scoresheet|round`` and the window's preview call
:func:`store_scoresheets`, so the same table prints the same sheet wherever it is printed:
signatures and their time, voided rulings and records, corrections, the record's
version and the audit chain's head. Nothing here imports reportlab or Qt.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

from .data import (
    SIGNER_BOXES,
    AppealFormData,
    EventHeader,
    PairInfo,
    PaperStamp,
    RecordStamp,
    ScoresheetData,
    Voiding,
    all_rulings,
    appeal_digest,
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

    return store._read(audit.head)


def chain_entry_hash(store: Any, seq: int) -> str | None:
    """The hash of audit entry ``seq``, or None when the chain has no such entry."""
    from sqlalchemy import select

    from ..store.models import audit_log

    def run(conn: Any) -> str | None:
        row = conn.execute(select(audit_log.c.hash).where(audit_log.c.seq == seq)).first()
        return None if row is None else str(row.hash)

    return store._read(run)


def stored_pairs(
    store: Any, event_id: int, numbers: Mapping[str, Any], known: Mapping[str, Any] | None = None
) -> dict[str, PairInfo]:
    """The pairs at a table by side, with their players (first player North or East) and unit.
    ``known``: the event's pairs by number, read once for a whole round."""
    if known is None:
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


def stored_header(store: Any, ev: Any, rulebook: Any) -> EventHeader:
    """A stored event's form header: its name and date, and its organiser and venue as
    recorded (``event details``; blank to be filled in by hand when not recorded)."""
    details = store.event_details(ev.id)
    return event_header(rulebook, ev.date, ev.name, details["organiser"], venue=details["venue"])


def stored_chief_referee(store: Any, event_id: int, log: list[dict[str, Any]] | None = None) -> str:
    """The chief referee's name for the forms: as recorded in the event's details, else
    whoever last acted as chief referee (known only once PINs are set), else ""."""
    named = store.event_details(event_id)["chief_referee"]
    return named or chief_referee_name(store.log(event_id) if log is None else log)


def store_scoresheets(
    store: Any, event_id: int | None, round_no: int, table_no: int | None = None, lang: str = "zh"
) -> tuple[Any, list[ScoresheetData]]:
    """(the event, the scoresheet data of every current table of a round, or of one table),
    tables in order; an empty list when nothing is recorded there."""
    ev = store.pick_event(event_id)
    rulebook = store.pinned_rulebook(ev.id)
    header = stored_header(store, ev, rulebook)
    labels = infraction_labels(rulebook)
    head = chain_head(store)
    event_log = store.log(ev.id)
    chief = stored_chief_referee(store, ev.id, event_log)
    identity = event_identities(store, ev.id, event_log)[0]
    known = {str(p["number"]): p for p in store.list_pairs(ev.id)}
    started, ended = store.play_times(ev.id, round_no)
    records = sorted(
        (
            m
            for m in store.export(ev.id)
            if m["round"] == round_no and (table_no is None or m["table"] == table_no)
        ),
        key=lambda m: m["table"],
    )
    from ..core.engine import is_language_free, word

    sheets = []
    for m in records:
        case, _meta = split_case(m["case"])  # the store keeps round/table/pairs in the case
        decision = m["decision"]
        if is_language_free(decision):
            decision = word(decision, lang, rulebook)  # worded, not judged again
        elif m.get("lang") != lang:  # stored with words in another language: judged again
            from ..core.engine import judge

            decision = judge(case, lang=lang, rulebook=rulebook)
        sheet = ScoresheetData(
            event=header,
            case=case,
            decision=decision,
            round=m["round"],
            table=m["table"],
            pairs=stored_pairs(store, ev.id, m.get("pairs") or {}, known),
            infraction_labels=labels,
            lang=lang,
            record=RecordStamp(ev.id, int(m["version"]), head[0], head[1], identity=identity),
            stored_decision=m["decision"],
            play_started=local_time(started),
            play_ended=local_time(ended.get(int(m["table"]))),
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


def blank_table_sheets(
    store: Any,
    event_id: int | None,
    round_no: int,
    tables: list[tuple[int, str, str]],
    hands: int,
    lang: str = "zh",
) -> tuple[Any, list[ScoresheetData]]:
    """Blank scoresheets (记分表, to record the hands by hand) for tables of a round as
    seated by its pairing (``tables``: table, NS pair, EW pair), before any result: the
    header, the pairs and their players, the rulebook's starting levels, ``hands`` rows."""
    ev = store.pick_event(event_id)
    rulebook = store.pinned_rulebook(ev.id)
    header = stored_header(store, ev, rulebook)
    labels = infraction_labels(rulebook)
    known = {str(p["number"]): p for p in store.list_pairs(ev.id)}
    chief = stored_chief_referee(store, ev.id)
    started, _ended = store.play_times(ev.id, round_no)
    out = []
    for table_no, ns, ew in tables:
        sheet = ScoresheetData(
            event=header,
            case={"event": rulebook.id},
            decision={"hands": [], "result": None},
            round=round_no,
            table=int(table_no),
            pairs=stored_pairs(store, ev.id, {"NS": ns, "EW": ew}, known),
            infraction_labels=labels,
            lang=lang,
            blank_hands=hands,
            play_started=local_time(started),
        )
        if chief:
            sheet.signer_names["chief_referee"] = chief
        out.append(sheet)
    return ev, out


def event_identities(store: Any, event_id: int, log: list[dict[str, Any]] | None = None) -> list[str]:
    """The stable identities of a stored event (64 hex digits each), the one its paper names
    first: its certificate's SHA-256 fingerprint once it has an event key, and always the
    hash of its creation entry in the audit chain. Neither is its local number, which every
    store starts at 1: paper from another event (another store) names another identity, so
    a checker tells "not this event" from "altered" (a sheet printed before the key keeps
    the creation entry's)."""
    out: list[str] = []
    key = store.event_key(event_id)
    if key is not None:
        out.append(str(key["sha256"]).replace(":", "").lower())
    entries = store.log(event_id) if log is None else log
    created = next((e for e in entries if e["action"] == "event.create"), None)
    if created is not None:
        out.append(str(created["hash"]).lower())
    return out


def paper_stamp(
    store: Any,
    event_id: int,
    kind: str,
    digest_of: Any,
    round_no: int,
    table: int | None = None,
    version: int | None = None,
    number: int | None = None,
) -> PaperStamp:
    """The QR stamp of a form of ``kind`` (:data:`~.data.PAPER_KINDS`) printed now from the
    store: the event's stable identity (as the scoresheet names it), the audit chain's head,
    and ``digest_of(identity)``'s digest of what the form prints."""
    identity = event_identities(store, event_id)[0]
    seq, head = chain_head(store)
    digest = digest_of(identity)
    return PaperStamp(kind, event_id, identity, seq, head, digest, round_no, table, version, number)


def stored_digest(
    store: Any, event_id: int, round_no: int, table_no: int, version: int, identity: str | None = None
) -> str | None:
    """The digest a scoresheet of that version printed (see :func:`record_digest`), computed
    from the store as it is now, naming the event by ``identity`` as the sheet did (None: a
    sheet printed before paper named its event); None when the store has no such version."""
    for h in store.history(event_id, round_no, table_no):
        if int(h["version"]) != version:
            continue
        raw = json.loads(h["case_json"])
        case, _meta = split_case(raw)
        numbers = _pair_numbers(store, h)
        pairs = stored_pairs(store, event_id, numbers)
        return record_digest(case, json.loads(h["decision_json"]), pairs, round_no, table_no, identity)
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


_DECISIONS = {
    "upheld": ("申诉成立", "upheld"),
    "modified": ("部分成立，改判", "modified"),
    "rejected": ("驳回，维持原判", "rejected"),
    "withdrawn": ("申诉撤回", "withdrawn"),
}


def stored_ruling_slip(store: Any, event_id: int | None, ruling_id: int, lang: str) -> tuple[Any, Any]:
    """(the event, the :class:`RulingSlipData` of a stored ruling): its time and number, the
    offender's name and pair, the clause it applied, whether a later version replaced it,
    and the appeal on it (decided: no invitation to appeal) or the appeal it decides."""
    from .data import RulingSlipData, applied_clause

    zh = lang == "zh"
    ev = store.pick_event(event_id)
    r = store.ruling(ruling_id)
    if r["event_id"] != ev.id:
        raise LookupError(f"--ruling: no ruling {ruling_id} in event {ev.id} ({ev.name})")
    rulebook = store.pinned_rulebook(ev.id)
    ruling = ruling_in_lang(store, r, rulebook, lang)
    pairs = stored_pairs(store, ev.id, {"NS": r["ns_number"], "EW": r["ew_number"]})
    appeals = store.appeals(ev.id, r["round"])
    referee = r.get("ruled_by")
    decided_on_appeal = None
    for a in appeals:
        if a["new_match_id"] == r["match_id"]:
            original = store.ruling(a["ruling_id"])
            if (original["hand"], original["position"], original["kind"]) == (
                r["hand"],
                r["position"],
                r["kind"],
            ):
                referee = original.get("ruled_by")  # the table referee ruled; the committee decided
                committee = ("、" if zh else ", ").join(a["committee"])
                verdict = _DECISIONS.get(a["decision"] or "", ("", ""))[0 if zh else 1]
                at = local_text(a["decided_at"])
                decided_on_appeal = (
                    f"仲裁委员会裁决（申诉 #{a['id']}，{verdict}；{committee}；{at}）"
                    if zh
                    else f"Arbitration committee's decision (appeal #{a['id']}, {verdict}; {committee}; {at})"
                )
    outcome = None
    for a in appeals:
        if a["ruling_id"] == r["id"] and a["decision"]:
            verdict = _DECISIONS.get(a["decision"], ("", ""))[0 if zh else 1]
            outcome = (
                f"已就本判罚申诉（#{a['id']}），仲裁委员会已裁决：{verdict}（{local_text(a['decided_at'])}）。"
                if zh
                else f"Appealed (#{a['id']}); the arbitration committee decided: {verdict} "
                f"({local_text(a['decided_at'])})."
            )
    superseded = None
    history = store.history(ev.id, r["round"], r["table"])
    mine = next((h for h in history if h["id"] == r["match_id"]), None)
    latest = history[-1] if history else None
    if mine is not None and mine.get("void_reason"):
        superseded = (
            f"第{r['version']}版记录已作废：{mine['void_reason']}"
            if zh
            else f"record version {r['version']} was voided: {mine['void_reason']}"
        )
    elif latest is not None and int(latest["version"]) > int(r["version"]):
        why = next(
            (
                f"申诉 #{a['id']}" if zh else f"appeal #{a['id']}"
                for a in appeals
                if a["ruling_id"] == r["id"] and a["new_match_id"]
            ),
            "",
        )
        superseded = (
            f"第{r['version']}版记录已由第{latest['version']}版取代" + (f"（{why}）" if why else "")
            if zh
            else f"record version {r['version']} was replaced by version {latest['version']}"
            + (f" ({why})" if why else "")
        )
    trick = (r.get("infraction") or {}).get("trick")
    proposed = ruling.get("proposed")
    version = int(r["version"])
    paper = paper_stamp(
        store, ev.id, "S",
        lambda identity: stored_digest(store, ev.id, r["round"], r["table"], version, identity) or "",
        int(r["round"]), int(r["table"]), version, int(r["id"]),
    )  # fmt: skip
    data = RulingSlipData(
        event=stored_header(store, ev, rulebook),
        ruling=ruling,
        round=r["round"],
        table=r["table"],
        hand=r["hand"],
        trick=trick if isinstance(trick, int) else None,
        pairs=pairs,
        infraction_label=infraction_labels(rulebook).get(r["kind"], ("", "")),
        clause=applied_clause(rulebook, ruling),
        proposed_clause=applied_clause(rulebook, proposed) if isinstance(proposed, Mapping) else None,
        appeal=rulebook.data.get("appeal"),
        referee=referee,
        lang=lang,
        serial=f"{ev.id}-{r['id']:05d}",
        ruled_at=local_time(r["ruled_at"]),
        superseded_by=superseded,
        appeal_outcome=outcome,
        decided_on_appeal=decided_on_appeal,
        paper=paper,
    )
    return ev, data


def ruling_in_lang(store: Any, r: Mapping[str, Any], rulebook: Any, lang: str) -> dict[str, Any]:
    """The stored ruling worded in ``lang``; one stored with its words in another language
    (before rulings were stored in no language) is judged again (same engine and rulebook)."""
    from ..core.engine import word_ruling

    if "scope" in r["ruling"] and "text" not in r["ruling"]:
        return word_ruling(copy.deepcopy(dict(r["ruling"])), lang, rulebook)
    version = [h for h in store.history(r["event_id"], r["round"], r["table"]) if h["id"] == r["match_id"]]
    if not version or version[0]["lang"] == lang:
        return dict(r["ruling"])
    from ..core.engine import judge

    case, _meta = split_case(json.loads(version[0]["case_json"]))
    decision = judge(case, lang=lang, rulebook=rulebook)
    found = (
        decision.get("before_play")
        if r["hand"] is None
        else (decision.get("hands") or [{}] * r["hand"])[r["hand"] - 1].get("rulings")
    ) or []
    pos = r.get("ruling_position")
    return dict(found[pos]) if isinstance(pos, int) and 0 <= pos < len(found) else dict(r["ruling"])


def blank_appeal_form(store: Any, event_id: int | None, lang: str) -> tuple[Any, AppealFormData]:
    """A blank appeal form (空白申诉表) of the event: its header, the rulebook's window, fee
    and clause, the chief referee; the ruling, the appellant, the times, the grounds and the
    decision left to fill in by hand."""
    ev = store.pick_event(event_id)
    rulebook = store.pinned_rulebook(ev.id)
    cfg = rulebook.data.get("appeal") or {}
    return ev, AppealFormData(
        event=stored_header(store, ev, rulebook),
        ruling={},
        by_side="",
        filed_at=None,
        grounds="\n".join(["\u3000"] * 8),
        window_minutes=int(cfg.get("window_minutes") or 0),
        window_from=str(cfg.get("window_from") or "round_end"),
        fee_yuan=int(cfg.get("fee_yuan") or 0),
        refunded_if_upheld=bool(cfg.get("refunded_if_upheld", True)),
        appeal_clause=cfg or None,
        chief_referee=stored_chief_referee(store, ev.id) or None,
        lang=lang,
        blank=True,
    )


def appeal_form_data(store: Any, appeal_id: int, lang: str) -> tuple[Any, Any]:
    """(the event, the :class:`AppealFormData`) of a stored appeal: the ruling, the time filed
    against the window, fee and receipt, grounds, and the decision when there is one. The
    command line and the desktop app's appeals desk print from this."""
    from .data import AppealFormData, infraction_labels, local_time, sanction_summary

    zh = lang == "zh"
    a = store.appeal(appeal_id)
    ev = store.pick_event(a["event_id"])
    rulebook = store.pinned_rulebook(ev.id)
    r = store.ruling(a["ruling_id"])
    ruling = ruling_in_lang(store, r, rulebook, lang)
    pairs = stored_pairs(store, ev.id, {"NS": r["ns_number"], "EW": r["ew_number"]})
    new_sanction = None
    if a["decision"] == "upheld":
        new_sanction = "撤销原判罚，不处罚" if zh else "ruling overturned: no sanction"
    elif a["decision"] == "modified" and a["new_match_id"]:
        for row in store.rulings_of(a["new_match_id"]):
            other = store.ruling(row["id"])
            if (other["hand"], other["position"], other["kind"]) == (r["hand"], r["position"], r["kind"]):
                new_sanction = sanction_summary(ruling_in_lang(store, other, rulebook, lang), lang)
                break
    cfg = rulebook.data.get("appeal") or {}
    decided = a["decision"] is not None
    filed_at = local_time(a["filed_at"])
    assert filed_at is not None  # the store keeps every appeal's filing time
    data = AppealFormData(
        event=stored_header(store, ev, rulebook),
        ruling=ruling,
        by_side=a["by"],
        filed_at=filed_at,
        grounds=a["grounds"],
        window_minutes=a["window_minutes"],
        window_from=a["window_from"],
        window_start=local_time(a["window_start"]),
        fee_yuan=a["fee_yuan"],
        refunded_if_upheld=bool(cfg.get("refunded_if_upheld", True)),
        appeal_clause=cfg or None,
        round=a["round"],
        table=a["table"],
        hand=a["hand"],
        appeal_no=f"#{a['id']}",
        by_pair=pairs.get(a["by"]),
        infraction_label=infraction_labels(rulebook).get(a["kind"], ("", "")),
        ruled_at=local_time(a["ruled_at"]),
        receipt_no=a["receipt"],
        evidence=a["evidence"],
        late_accepted_by=a["late_accepted_by"],
        decision=a["decision"],
        decision_reasons=a["decision_reason"] if decided else None,
        new_sanction=new_sanction,
        decided_at=local_time(a["decided_at"]),
        chief_referee=stored_chief_referee(store, ev.id) or None,
        committee=list(a["committee"]),
        fee_outcome=a["fee"],
        lang=lang,
        paper=paper_stamp(
            store,
            ev.id,
            "A",
            lambda identity: appeal_digest(a, identity),
            int(a["round"]),
            int(a["table"]),
            number=int(a["id"]),
        ),  # fmt: skip
    )
    return ev, data
