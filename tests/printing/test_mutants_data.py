"""Tests that kill mutmut's surviving mutants of printing/data.py (issue 16).

Every field the scoresheet, ruling slip and appeal form are filled from, pinned on its
own: the appeal window's boundary (on time at the deadline, late by whole minutes rounded
up), the fee's outcome, the signers' names, the QR text and its reading back, the digest
(language-free), the pairs' metadata and its one-line errors, the sanction summary in zh
and en, and the clause a ruling applied. Equivalent mutants: tools/mutation-equivalents.md.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest

from referee_app.core.rulebook import load_rulebook
from referee_app.printing.data import (
    AppealFormData,
    EventHeader,
    PairInfo,
    PaperCodeError,
    RecordStamp,
    ScoresheetData,
    Voiding,
    all_rulings,
    appeal_timing,
    applied_clause,
    blank_sheet,
    canonical_json,
    event_header,
    infraction_labels,
    language_free,
    local_text,
    local_time,
    offender_text,
    pairs_from_meta,
    parse_paper_code,
    qr_payload,
    record_digest,
    ruling_clause,
    sanction_summary,
    scoresheet_from_case,
    seat_player,
    seat_player_text,
    split_case,
    zone_name,
)

BHG = load_rulebook("bhg-2011")
PAIRS = {
    "NS": PairInfo("12", ["甲一", "甲二"], "一队"),
    "EW": PairInfo("7", ["乙一", "乙二"], "二队"),
}
START = datetime(2024, 5, 18, 15, 30)


# -- the appeal window (申诉时限) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("after", "on_time", "late"),
    [
        (timedelta(minutes=10), True, 0),  # at the deadline: on time
        (timedelta(minutes=10, seconds=1), False, 1),  # one second over: late by 1 (rounded up)
        (timedelta(minutes=11), False, 1),
        (timedelta(minutes=11, seconds=1), False, 2),
        (timedelta(minutes=3), True, 0),
    ],
)
def test_appeal_timing_boundary(after: timedelta, on_time: bool, late: int) -> None:
    t = appeal_timing(START + after, START, 10)
    assert (t.deadline, t.on_time, t.late_minutes) == (START + timedelta(minutes=10), on_time, late)


def appeal(**kw: Any) -> AppealFormData:
    base = dict(
        event=EventHeader("赛事"),
        ruling={},
        by_side="EW",
        filed_at=START + timedelta(minutes=5),
        grounds="理由",
        window_minutes=10,
    )
    base.update(kw)
    return AppealFormData(**base)  # type: ignore[arg-type]


def test_appeal_timing_only_once_the_window_has_opened() -> None:
    assert appeal().timing() is None
    t = appeal(window_start=START, filed_at=START + timedelta(minutes=12)).timing()
    assert t is not None and (t.on_time, t.late_minutes) == (False, 2)


@pytest.mark.parametrize(
    ("decision", "refunded_if_upheld", "outcome", "expected"),
    [
        (None, True, None, None),  # undecided
        ("upheld", True, None, True),
        ("upheld", False, None, False),  # the rulebook keeps the fee even when upheld
        ("modified", True, None, False),
        ("rejected", True, None, False),
        ("withdrawn", True, None, False),
        ("rejected", True, "refunded", True),  # the store's record wins
        ("upheld", True, "kept", False),
        ("upheld", True, "none", None),
    ],
)
def test_fee_refunded(
    decision: str | None, refunded_if_upheld: bool, outcome: str | None, expected: Any
) -> None:
    assert (
        appeal(decision=decision, refunded_if_upheld=refunded_if_upheld, fee_outcome=outcome).fee_refunded()
        is expected
    )


# -- the scoresheet's own fields ------------------------------------------------------------


def sheet(**kw: Any) -> ScoresheetData:
    base: dict[str, Any] = dict(
        event=EventHeader("赛事"),
        case={"event": "bhg-2011"},
        decision={"hands": []},
        round=3,
        table=5,
        pairs=dict(PAIRS),
    )
    base.update(kw)
    return ScoresheetData(**base)


def test_signer_name_from_the_names_given_else_the_pairs_players_in_seat_order() -> None:
    s = sheet(signer_names={"table_referee": "裁判丙", "ns_player_2": "代签"})
    assert s.signer_name("table_referee") == "裁判丙"
    assert s.signer_name("ns_player_2") == "代签"
    assert s.signer_name("ns_player_1") == "甲一"
    assert s.signer_name("ew_player_1") == "乙一" and s.signer_name("ew_player_2") == "乙二"
    assert s.signer_name("ew_player_3") == "" and s.signer_name("ew_player_0") == ""
    assert s.signer_name("chief_referee") == ""
    assert sheet(pairs={}).signer_name("ns_player_1") == ""


def test_digest_of_the_stored_decision_when_judged_again_for_wording() -> None:
    s = sheet(decision={"hands": [], "text": "中文"})
    assert s.digest == record_digest(s.case, s.decision, s.pairs, 3, 5)
    t = sheet(decision={"hands": [1]}, stored_decision={"hands": [2]})
    assert t.digest == record_digest(t.case, {"hands": [2]}, t.pairs, 3, 5)
    assert t.digest != record_digest(t.case, {"hands": [1]}, t.pairs, 3, 5)


def test_record_digest_is_sha256_of_the_canonical_record() -> None:
    text = canonical_json(
        {
            "case": {"b": 1, "a": "二"},
            "decision": {"n": 1},
            "pairs": {
                "EW": {"number": "7", "players": ["乙一", "乙二"], "unit": "二队"},
                "NS": {"number": "12", "players": ["甲一", "甲二"], "unit": "一队"},
            },
            "round": 3,
            "table": 5,
        }
    )
    assert text.startswith('{"case":{"a":"二","b":1}')  # sorted, no spaces, not escaped
    digest = record_digest({"b": 1, "a": "二"}, {"n": 1, "text": "x"}, PAIRS, 3, 5)
    assert digest == hashlib.sha256(text.encode("utf-8")).hexdigest()
    # every part counts
    assert record_digest({}, {}, None, None, None) != record_digest({}, {}, None, 1, None)
    assert record_digest({}, {}, None, 1, None) != record_digest({}, {}, None, None, 1)


def test_language_free_drops_wording_at_any_depth_and_keeps_the_rest() -> None:
    value = {
        "text": "罚分",
        "n": 2,
        "hands": [{"instruction": "x", "points": 10, "sub": [{"text": 1, "k": 3}]}],
    }
    assert language_free(value) == {"n": 2, "hands": [{"points": 10, "sub": [{"k": 3}]}]}
    assert language_free(["text", 1]) == ["text", 1]


# -- the QR code, written and read back -----------------------------------------------------


def test_qr_payload_from_the_record_and_from_a_case_file() -> None:
    stamp = RecordStamp(event_id=4, version=2, chain_seq=31, chain_hash="abcdef0123456789" + "f" * 48)
    s = sheet(record=stamp)
    assert qr_payload(s) == f"RA1:E4:R3:T5:V2:H31-ABCDEF0123456789:D{s.digest.upper()}"
    c = sheet(round=None, table=None)
    assert qr_payload(c) == f"RA1:CASE:D{c.digest.upper()}"
    code = parse_paper_code(qr_payload(s).lower() + "\n")
    assert (code.event_id, code.round, code.table, code.version, code.chain_seq) == (4, 3, 5, 2, 31)
    assert code.chain_hash_prefix == "abcdef0123456789" and code.digest == s.digest


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("XX1:E1", r"^not a referee-app scoresheet code \(expected RA1:…, got 'XX1:E1'\)$"),
        ("RA1:CASE:D" + "0" * 64, "^this sheet was printed from a case file"),
        ("RA1:E1:R1:T1:V1:H1-ab:D" + "0" * 64 + ":E2", r"^unexpected part 'E2' in the code$"),
        ("RA1:E1:R1:T1:V1:H1-ab:Q" + "0" * 64, r"^unexpected part 'Q0+' in the code$"),
        ("RA1::E1", r"^unexpected part '' in the code$"),
        (
            "RA1:E1:R1:T1:V1:D" + "0" * 64,
            r"^the code lacks its H part \(event, round, table, version, head, digest\)$",
        ),
        ("RA1:E1:R1:T1:H1-ab:D" + "0" * 64, "^the code lacks its V part"),
        ("RA1:EX:R1:T1:V1:H1-ab:D" + "0" * 64, "^a number in the code is unreadable: "),
        ("RA1:E1:R1:T1:V1:H1:D" + "0" * 64, "^a number in the code is unreadable"),
        ("RA1:E1:R1:T1:V1:H1-ab:D" + "0" * 63, "^the digest in the code is not 64 hexadecimal digits$"),
        ("RA1:E1:R1:T1:V1:H1-ab:D" + "0" * 65, "^the digest in the code is not 64"),
        ("RA1:E1:R1:T1:V1:H1-ag:D" + "0" * 64, "^the digest in the code is not 64"),
        ("RA1:E1:R1:T1:V1:H1-ab:D" + "0" * 63 + "g", "^the digest in the code is not 64"),
    ],
)
def test_parse_paper_code_names_what_is_wrong_in_one_line(text: str, message: str) -> None:
    with pytest.raises(PaperCodeError, match=message):
        parse_paper_code(text)


def test_parse_paper_code_accepts_every_hex_digit() -> None:
    code = parse_paper_code("RA1:E1:R2:T3:V4:H5-0123456789ABCDEF:D" + "0123456789abcdef" * 4)
    assert code.digest == "0123456789abcdef" * 4 and code.chain_hash_prefix == "0123456789abcdef"


# -- times: local, with the zone named -------------------------------------------------------


def test_local_time_and_text() -> None:
    assert local_time(None) is None and local_time("") is None and local_text(None) == ""
    utc = local_time("2026-11-30T07:20:00Z")
    assert utc is not None and utc == datetime(2026, 11, 30, 7, 20, tzinfo=UTC)
    assert utc.tzinfo is not None
    naive = datetime(2026, 11, 30, 15, 20)
    assert local_time(naive).replace(tzinfo=None) == naive  # naive: already local
    assert local_text(naive) == "2026-11-30 15:20"
    assert local_text(naive, zone=True) == f"2026-11-30 15:20 {zone_name(naive)}"


@pytest.fixture
def station_zone(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Sets the station's time zone (TZ) for one test and restores it after."""
    import time

    def set_zone(name: str) -> None:
        monkeypatch.setenv("TZ", name)
        time.tzset()

    yield set_zone
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize(
    ("zone", "shown"),
    [
        ("Asia/Shanghai", "UTC+08:00"),
        ("UTC", "UTC+00:00"),
        ("America/St_Johns", "UTC−03:30"),
        ("Asia/Kathmandu", "UTC+05:45"),
        ("America/Bogota", "UTC−05:00"),
    ],
)
def test_zone_name_of_the_station(station_zone: Any, zone: str, shown: str) -> None:
    """Every form says which zone its times are in: ``UTC±hh:mm`` (− is U+2212)."""
    station_zone(zone)
    winter = datetime(2026, 1, 15, 12, 0)
    assert zone_name(winter) == shown
    assert zone_name() in {shown, zone_name(datetime.now())}
    assert local_text(winter, zone=True) == f"2026-01-15 12:00 {shown}"


def test_local_time_of_a_utc_stamp_in_the_stations_zone(station_zone: Any) -> None:
    station_zone("Asia/Shanghai")
    at = local_time("2026-11-30T07:20:00Z")
    assert at is not None and at.replace(tzinfo=None) == datetime(2026, 11, 30, 15, 20)
    assert local_text("2026-11-30T07:20:00+00:00") == "2026-11-30 15:20"


# -- a blank sheet, the case split, the pairs -----------------------------------------------


def test_blank_sheet_keeps_the_header_and_drops_everything_judged() -> None:
    s = sheet(
        case={"event": "bhg-2011", "first_dealer": "E", "levels": {"NS": "2", "EW": "2"}, "hands": [{}]},
        decision={"hands": [1], "result": {"winner": "NS"}},
        voidings=[Voiding("x", "y")],
        signatures={"ns_player_1": b"png"},
        signed_at=START,
        record=RecordStamp(1, 1, 1, "ab"),
        stored_decision={"hands": [1]},
        signer_names={"chief_referee": "总裁判", "table_referee": "裁判丙"},
    )
    b = blank_sheet(s, 12)
    assert b.case == {"event": "bhg-2011", "first_dealer": "E", "levels": {"NS": "2", "EW": "2"}}
    assert b.decision == {"hands": [], "result": None}
    assert (b.voidings, b.signatures, b.signed_at, b.record, b.stored_decision) == ([], {}, None, None, None)
    assert b.blank_hands == 12 and b.signer_names == {"chief_referee": "总裁判"}
    assert b.pairs == s.pairs and b.round == 3 and b.table == 5


def test_split_case_separates_the_stores_keys_and_copies() -> None:
    raw = {"event": "bhg-2011", "round": 3, "table": 5, "pairs": {"NS": "1"}, "hands": [{"n": 1}]}
    case, meta = split_case(raw)
    assert case == {"event": "bhg-2011", "hands": [{"n": 1}]}
    assert meta == {"round": 3, "table": 5, "pairs": {"NS": "1"}}
    case["hands"][0]["n"] = 2
    meta["pairs"]["NS"] = "9"
    assert raw["hands"][0]["n"] == 1 and raw["pairs"]["NS"] == "1"
    assert split_case({"event": "x"}) == ({"event": "x"}, {})


def test_pairs_from_meta_reads_numbers_and_objects() -> None:
    assert pairs_from_meta(None) == {}
    assert pairs_from_meta({"NS": 12, "EW": "7"}) == {"NS": PairInfo("12"), "EW": PairInfo("7")}
    got = pairs_from_meta({"NS": {"number": 12, "players": ["甲一", "甲二"], "unit": 3}, "EW": {}})
    assert got == {"NS": PairInfo("12", ["甲一", "甲二"], "3"), "EW": PairInfo(None, [], None)}


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (["NS"], r'^pairs: expected an object with NS and EW, got \["NS"\]$'),
        ({"N": "1"}, r"^pairs\.N: unknown side \(expected NS or EW\)$"),
        ({"NS": True}, r"^pairs\.NS: expected a pair number or an object$"),
        ({"NS": 1.5}, r"^pairs\.NS: expected a pair number or an object$"),
        ({"NS": {"name": "x", "zz": 1}}, r"^pairs\.NS\.name: unknown key$"),
        ({"NS": {"players": "甲一"}}, r"^pairs\.NS\.players: expected a list of names$"),
        ({"NS": {"players": ["甲一", 2]}}, r"^pairs\.NS\.players: expected a list of names$"),
    ],
)
def test_pairs_from_meta_errors_name_the_field(value: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pairs_from_meta(value)


def test_pairs_from_meta_names_its_place() -> None:
    with pytest.raises(ValueError, match=r"^case\.pairs\.X: unknown side"):
        pairs_from_meta({"X": 1}, where="case.pairs")


# -- the header and the labels ----------------------------------------------------------------


def test_event_header_from_the_rulebook_for_a_case_file() -> None:
    ev = BHG.data["event"]
    h = event_header(BHG, "2024-05-18")
    assert h.name_zh == ev["name"]["zh"] and h.name_en == ev["name"].get("en", "")
    org = ev.get("organiser") or {}
    assert h.organiser_zh == (org.get("zh", "") if isinstance(org, dict) else str(org))
    assert h.organiser_en == (org.get("en", "") if isinstance(org, dict) else "")
    assert (h.date, h.rulebook_id, h.rulebook_sha256) == ("2024-05-18", BHG.id, BHG.sha256)


def test_event_header_of_a_stored_event_prints_its_own_name_and_organiser() -> None:
    ev = BHG.data["event"]
    h = event_header(BHG, None, name="区赛第二站", organiser="区体育局")
    assert h.name_zh == "区赛第二站"
    assert h.name_en == ev["name"]["zh"] + " · " + ev["name"].get("en", "")
    assert (h.organiser_zh, h.organiser_en, h.date) == ("区体育局", "", None)
    assert event_header(BHG, name="区赛").organiser_zh == ""  # blank, filled by hand


def test_event_header_with_a_plain_organiser() -> None:
    data = {"event": {"name": {"zh": "赛"}, "organiser": "主办方"}}
    rb = SimpleNamespace(data=data, id="x", sha256="0")
    h = event_header(rb)
    assert (h.name_en, h.organiser_zh, h.organiser_en) == ("", "主办方", "")


def test_infraction_labels_in_both_languages() -> None:
    labels = infraction_labels(BHG)
    assert labels["exposed_card"] == ("暴露张", "Exposed card")
    assert set(labels) == set(BHG.data["infractions"])


# -- who, and what sanction -------------------------------------------------------------------


def test_seat_player_by_seat() -> None:
    assert [seat_player(PAIRS, s) for s in "NSEW"] == ["甲一", "甲二", "乙一", "乙二"]
    assert seat_player(PAIRS, None) == "" and seat_player(PAIRS, "X") == ""
    assert seat_player({"NS": PairInfo("1", ["甲一"])}, "S") == ""


def test_seat_player_text() -> None:
    assert seat_player_text(PAIRS, "W", None, "zh") == "乙二（7号对）"
    assert seat_player_text(PAIRS, "W", None, "en") == "乙二 (pair 7)"
    assert seat_player_text(PAIRS, None, "NS", "zh") == "甲一、甲二（12号对）"
    assert seat_player_text(PAIRS, None, "NS", "en") == "甲一, 甲二 (pair 12)"
    assert seat_player_text({}, "N", None, "zh") == ""
    assert seat_player_text({"NS": PairInfo(None, [])}, None, "NS", "zh") == ""
    assert seat_player_text({"NS": PairInfo("3", [])}, None, "NS", "zh") == "（3号对）"
    assert seat_player_text(PAIRS, None, None, "zh") == ""


def test_offender_text() -> None:
    assert offender_text({"seat": "N", "side": "NS"}, "zh") == "北家（南北方）"
    assert offender_text({"seat": "E", "side": "EW"}, "en") == "East (East-West)"
    assert offender_text({"side": "EW"}, "zh") == "东西方"
    assert offender_text({"side": "NS"}, "en") == "North-South"
    assert offender_text({}, "zh") == "" and offender_text({}, "en") == ""
    assert offender_text({"seat": "Q"}, "zh") == "Q家（）"


@pytest.mark.parametrize(
    ("ruling", "zh", "en"),
    [
        ({}, "不处罚", "no sanction"),
        ({"warning": True}, "警告", "warning"),
        ({"points": 10, "side": "NS"}, "罚10分（南北方）", "10 points (North-South)"),
        ({"points": 20, "side": "NS", "against": "EW"}, "罚20分（东西方）", "20 points (East-West)"),
        ({"levels": {"NS": 1}}, "南北方升1级", "North-South +1 level"),
        ({"levels": {"EW": -2, "NS": 0}}, "东西方降2级", "East-West −2 levels"),
        (
            {"levels": {"NS": 3, "EW": 1}},
            "南北方升3级；东西方升1级",
            "North-South +3 levels; East-West +1 level",
        ),
        ({"hand_lost": True, "ends_hand": True, "side": "EW"}, "判负（东西方）", "hand lost (East-West)"),
        ({"ends_hand": True}, "本副牌结束", "hand ends"),
        ({"round_forfeit": True, "side": "NS"}, "判本轮弃权（南北方）", "round forfeited (North-South)"),
        ({"suspension_rounds": 1}, "停赛1轮", "suspended 1 round"),
        ({"suspension_rounds": 2}, "停赛2轮", "suspended 2 rounds"),
        ({"disqualified": True}, "取消比赛资格", "disqualified"),
        (
            {"warning": True, "points": 10, "side": "EW"},
            "警告；罚10分（东西方）",
            "warning; 10 points (East-West)",
        ),
        ({"instruction": "重新出牌"}, "重新出牌", "重新出牌"),
        ({"instruction": {"zh": "重出", "en": "replay"}}, "重出", "replay"),
        ({"instruction": {"zh": "重出"}}, "重出", "重出"),
        ({"instruction": {}}, "不处罚", "no sanction"),
    ],
)
def test_sanction_summary(ruling: dict[str, Any], zh: str, en: str) -> None:
    assert sanction_summary(ruling, "zh") == zh
    assert sanction_summary(ruling, "en") == en


def test_sanction_summary_leaves_the_instruction_off_the_scoresheet() -> None:
    ruling = {"points": 10, "side": "NS", "instruction": "重新出牌"}
    assert sanction_summary(ruling, "zh", instruction=False) == "罚10分（南北方）"
    assert sanction_summary(ruling, "zh") == "罚10分（南北方）；重新出牌"


def test_all_rulings_in_order_with_their_hand() -> None:
    decision = {
        "before_play": [{"k": 0}],
        "hands": [
            {"number": 1, "rulings": [{"k": 1}, {"k": 2}]},
            {"number": 2},
            {"number": 3, "rulings": [{"k": 3}]},
        ],
    }
    assert all_rulings(decision) == [(None, {"k": 0}), (1, {"k": 1}), (1, {"k": 2}), (3, {"k": 3})]
    assert all_rulings({}) == []


# -- the clause a ruling applied ---------------------------------------------------------------


def test_ruling_clause_of_its_branch_else_the_first_with_a_clause() -> None:
    spec = BHG.data["infractions"]["exposed_card"]
    assert ruling_clause(BHG, {"kind": "exposed_card", "branch": "per_card"}) == spec["rules"][0]["clause"]
    assert ruling_clause(BHG, {"kind": "exposed_card", "branch": "nope"}) == spec["rules"][0]["clause"]
    assert ruling_clause(BHG, {"kind": "no_such_kind"}) is None
    override = {"kind": "exposed_card", "branch": "override", "proposed": {"branch": "per_card"}}
    assert ruling_clause(BHG, override) == spec["rules"][0]["clause"]


def rulebook_two_branches() -> Any:
    a = {"ref": "1", "title": "a"}
    b = {"ref": "2", "title": "b"}
    step2 = {"ref": "3", "title": "second time"}
    step3 = {"ref": "4", "title": "third time"}
    data = {
        "infractions": {
            "x": {
                "rules": [
                    {"id": "plain"},
                    {"id": "first", "clause": a},
                    {"id": "second", "clause": b, "counter": "cx"},
                ]
            },
            "bare": {"rules": [{"id": "r"}]},
        },
        "counters": {
            "cx": {
                "steps": [
                    {"from_count": 3, "clause": step3},
                    {"from_count": 2, "clause": step2},
                    {"from_count": 4},
                ]
            }
        },
    }
    return SimpleNamespace(data=data)


def test_ruling_clause_picks_the_named_branch_not_the_first() -> None:
    rb = rulebook_two_branches()
    assert ruling_clause(rb, {"kind": "x", "branch": "second"}) == {"ref": "2", "title": "b"}
    assert ruling_clause(rb, {"kind": "x", "branch": "plain"}) == {"ref": "1", "title": "a"}
    assert ruling_clause(rb, {"kind": "bare", "branch": "r"}) is None
    over = {"kind": "x", "branch": "override", "proposed": {"branch": "second"}}
    assert ruling_clause(rb, over) == {"ref": "2", "title": "b"}
    assert ruling_clause(rb, {"kind": "x", "branch": "override", "proposed": "second"}) == {
        "ref": "1",
        "title": "a",
    }


@pytest.mark.parametrize(
    ("occurrence", "ref"),
    [(1, "2"), (2, "3"), (3, "4"), (4, "2"), (None, "2")],  # step 4 has no clause: the branch's
)
def test_applied_clause_of_the_escalation_step_reached(occurrence: int | None, ref: str) -> None:
    """ "累积3次": an escalated ruling applies the clause of the highest step it reached."""
    rb = rulebook_two_branches()
    ruling = {"kind": "x", "branch": "second", "escalated": True, "occurrence": occurrence}
    assert applied_clause(rb, ruling)["ref"] == ref  # type: ignore[index]


def test_applied_clause_without_escalation_is_the_branchs() -> None:
    rb = rulebook_two_branches()
    assert applied_clause(rb, {"kind": "x", "branch": "second", "occurrence": 3}) == {
        "ref": "2",
        "title": "b",
    }
    assert applied_clause(rb, {"kind": "nope"}) is None
    # BHG 二、4: the 3rd exposed card in a hand applies "暴露张累积3次"
    third = applied_clause(
        BHG, {"kind": "exposed_card", "branch": "per_card", "escalated": True, "occurrence": 3}
    )
    assert third is not None and third["title"] == "暴露张累积3次"
    second = applied_clause(
        BHG, {"kind": "exposed_card", "branch": "per_card", "escalated": True, "occurrence": 2}
    )
    assert second is not None and second["title"] == "暴露张"


def test_applied_clause_counter_named_by_the_kind_when_the_rule_has_none() -> None:
    data = {
        "infractions": {"cx": {"rules": [{"id": "r", "clause": {"ref": "1"}}]}},
        "counters": {"cx": {"steps": [{"from_count": 2, "clause": {"ref": "2"}}]}},
    }
    rb = SimpleNamespace(data=data)
    assert applied_clause(rb, {"kind": "cx", "branch": "r", "escalated": True, "occurrence": 2}) == {
        "ref": "2"
    }
    assert applied_clause(rb, {"kind": "cx", "branch": "zz", "escalated": True, "occurrence": 2}) == {
        "ref": "2"
    }
    assert applied_clause(
        SimpleNamespace(data={"infractions": data["infractions"]}),
        {"kind": "cx", "branch": "r", "escalated": True, "occurrence": 2},
    ) == {"ref": "1"}


def test_json_is_canonical() -> None:
    assert canonical_json({"b": [1, "二"], "a": None}) == '{"a":null,"b":[1,"二"]}'
    assert json.loads(canonical_json({"x": 1})) == {"x": 1}


# -- second pass: the survivors of the first run ----------------------------------------------

CASE_FILE = __import__("pathlib").Path(__file__).parent / "data" / "round3-table5.json"


def test_ruling_slip_names_the_offender_and_the_pair() -> None:
    from referee_app.printing.data import RulingSlipData

    slip = RulingSlipData(
        event=EventHeader("赛事"), ruling={"seat": "W", "side": "EW"}, pairs=dict(PAIRS), lang="en"
    )
    assert slip.offender_players() == "乙二 (pair 7)"
    side = RulingSlipData(event=EventHeader("赛事"), ruling={"side": "NS"}, pairs=dict(PAIRS))
    assert side.offender_players() == "甲一、甲二（12号对）"


def test_offender_text_unknown_seat_or_side_in_english() -> None:
    assert offender_text({"seat": "Q"}, "en") == "Q ()"
    assert offender_text({"seat": "N"}, "en") == "North ()"
    assert offender_text({"seat": "S", "side": "XX"}, "zh") == "南家（）"


def test_scoresheet_from_a_case_file_fills_every_field() -> None:
    raw = json.loads(CASE_FILE.read_text("utf-8"))
    s = scoresheet_from_case(raw, "en", date="2024-05-18")
    assert (s.round, s.table, s.lang, s.event.date) == (3, 5, "en", "2024-05-18")
    assert s.pairs["EW"].number == "7" and "round" not in s.case and "pairs" not in s.case
    assert s.infraction_labels == infraction_labels(BHG)
    assert s.event.rulebook_id == BHG.id
    assert s.decision["hands"] and "result" in s.decision
    t = scoresheet_from_case(raw, round_no=4, table_no=9)
    assert (t.round, t.table, t.lang, t.event.date) == (4, 9, "zh", None)
    assert t.decision["result"] == s.decision["result"]  # wording differs, the ruling does not


@pytest.mark.parametrize(
    ("key", "value", "shown"),
    [
        ("round", 0, "0"),
        ("table", 0, "0"),
        ("round", True, "true"),
        ("table", "5", '"5"'),
        ("round", 2.0, "2.0"),
    ],
)
def test_scoresheet_round_and_table_must_be_whole_numbers_from_1(key: str, value: Any, shown: str) -> None:
    raw = json.loads(CASE_FILE.read_text("utf-8"))
    raw[key] = value
    with pytest.raises(ValueError, match=f"^{key}: expected a whole number ≥ 1, got {shown}$"):
        scoresheet_from_case(raw)


def test_scoresheet_round_and_table_1_are_accepted() -> None:
    raw = json.loads(CASE_FILE.read_text("utf-8"))
    raw["round"], raw["table"] = 1, 1
    s = scoresheet_from_case(raw)
    assert (s.round, s.table) == (1, 1)


def test_sanction_summary_without_a_side_and_an_instruction_in_neither_language() -> None:
    # no side known: the points alone, no empty brackets
    assert sanction_summary({"points": 10}, "zh") == "罚10分"
    assert sanction_summary({"points": 10, "side": "XX"}, "en") == "10 points"
    assert sanction_summary({"instruction": {"fr": "x"}}, "zh") == "不处罚"
    assert sanction_summary({"levels": {"NS": 0, "EW": 0}}, "en") == "no sanction"


def test_seat_player_text_for_a_pair_without_a_number() -> None:
    assert seat_player_text({"NS": PairInfo(None, ["甲一", "甲二"])}, None, "NS", "zh") == "甲一、甲二"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("RA1:X1:R1:T1:V1:H1-ab:D" + "0" * 64, r"^unexpected part 'X1' in the code$"),
        ("RA1:E1:R1:T1:V1:H1-ab-cd:D" + "0" * 64, "^the digest in the code is not 64"),
        ("RA1:E1:R1:T1:V1:H1-xx:D" + "0" * 64, "^the digest in the code is not 64"),
        ("XX" + "9" * 60, r"^not a referee-app scoresheet code \(expected RA1:…, got 'XX9{38}'\)$"),
        (
            "RA1:EX:R1:T1:V1:H1-ab:D" + "0" * 70,
            r"^a number in the code is unreadable: 'RA1:EX:R1:T1:V1:H1-ab:D0{57}'$",
        ),
    ],
)
def test_parse_paper_code_second_pass(text: str, message: str) -> None:
    with pytest.raises(PaperCodeError, match=message):
        parse_paper_code(text)


def test_local_text_names_the_zone_at_that_time_not_now(station_zone: Any) -> None:
    """A summer time printed in winter still says summer's offset (Berlin: +02:00 in July)."""
    station_zone("Europe/Berlin")
    assert local_text(datetime(2026, 7, 1, 12, 0), zone=True) == "2026-07-01 12:00 UTC+02:00"
    assert local_text(datetime(2026, 1, 1, 12, 0), zone=True) == "2026-01-01 12:00 UTC+01:00"


def test_event_header_organiser_in_one_language_only() -> None:
    rb = SimpleNamespace(
        data={"event": {"name": {"zh": "赛"}, "organiser": {"en": "Org"}}}, id="x", sha256="0"
    )
    h = event_header(rb)
    assert (h.organiser_zh, h.organiser_en) == ("", "Org")
    rb2 = SimpleNamespace(
        data={"event": {"name": {"zh": "赛"}, "organiser": {"zh": "主办"}}}, id="x", sha256="0"
    )
    assert (event_header(rb2).organiser_zh, event_header(rb2).organiser_en) == ("主办", "")
    assert event_header(rb2, name="本站").name_en == "赛 · "


def test_clauses_of_an_infraction_without_rules() -> None:
    rb = SimpleNamespace(data={"infractions": {"x": {"label": {"zh": "x", "en": "x"}}}})
    assert ruling_clause(rb, {"kind": "x", "branch": "a"}) is None
    assert applied_clause(rb, {"kind": "x", "branch": "a", "escalated": True, "occurrence": 3}) is None


def test_applied_clause_step_from_1_needs_an_occurrence_and_a_step_without_from_count_always_applies() -> (
    None
):
    data = {
        "infractions": {"cx": {"rules": [{"id": "r", "clause": {"ref": "1"}}]}},
        "counters": {"cx": {"steps": [{"from_count": 1, "clause": {"ref": "s1"}}]}},
    }
    rb = SimpleNamespace(data=data)
    assert applied_clause(rb, {"kind": "cx", "branch": "r", "escalated": True}) == {"ref": "1"}
    data["counters"]["cx"]["steps"] = [{"clause": {"ref": "s0"}}]
    assert applied_clause(rb, {"kind": "cx", "branch": "r", "escalated": True, "occurrence": 0}) == {
        "ref": "s0"
    }
    data["counters"]["cx"]["steps"] = [{"clause": {"ref": "s0"}}, {"from_count": 1, "clause": {"ref": "s1"}}]
    assert applied_clause(rb, {"kind": "cx", "branch": "r", "escalated": True, "occurrence": 1}) == {
        "ref": "s1"
    }


def test_split_case_copies_the_pairs_deeply() -> None:
    raw = {"event": "bhg-2011", "pairs": {"NS": {"players": ["甲一"]}}}
    _, meta = split_case(raw)
    meta["pairs"]["NS"]["players"].append("甲二")
    assert raw["pairs"]["NS"]["players"] == ["甲一"]


def test_scoresheet_judged_in_the_sheets_language() -> None:
    raw = json.loads(CASE_FILE.read_text("utf-8"))
    en = [r.get("text") for _, r in all_rulings(scoresheet_from_case(raw, "en").decision)]
    zh = [r.get("text") for _, r in all_rulings(scoresheet_from_case(raw, "zh").decision)]
    assert en and len(en) == len(zh) and en != zh
    assert language_free(scoresheet_from_case(raw, "en").decision) == language_free(
        scoresheet_from_case(raw).decision
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("RA1:KP:E1:R2:T3:V1:H1-ab:D" + "0" * 64, r"^unexpected part 'T3' in the code$"),
        ("RA1:KX:E1:R2:V1:H1-ab:D" + "0" * 64, r"^unexpected part 'KX' in the code$"),
        (
            "RA1:KS:E1:R2:T3:V1:H1-ab:D" + "0" * 64,
            r"^the code lacks its N part \(event, round, table, version",
        ),
        (
            "RA1:KL:E1:R2:H1-ab:D" + "0" * 64,
            r"^the code lacks its N part \(event, round, number, head, digest\)$",
        ),
    ],
)
def test_a_forms_code_carries_the_parts_of_its_kind(text: str, message: str) -> None:
    with pytest.raises(PaperCodeError, match=message):
        parse_paper_code(text)
    ok = parse_paper_code("RA1:KA:E1:I00AA:R2:T3:N7:H1-ab:D" + "0" * 64)
    assert (ok.kind, ok.table, ok.version, ok.number, ok.identity) == ("A", 3, None, 7, "00aa")


def test_a_forms_stamp_writes_the_scoresheets_code_with_its_kind_and_one_digest() -> None:
    from referee_app.printing.data import PaperStamp, named_digest, record_digest

    stamp = PaperStamp("S", 4, "ab" * 32, 31, "cd" * 32, "ef" * 32, 3, 5, 2, 17)
    code = stamp.payload()
    assert code == "RA1:KS:E4:IABABABABABABABAB:R3:T5:V2:N17:H31-CDCDCDCDCDCDCDCD:D" + "EF" * 32
    back = parse_paper_code(code)
    assert (back.kind, back.event_id, back.round, back.table, back.version, back.number) == (
        "S",
        4,
        3,
        5,
        2,
        17,
    )
    assert back.identity == "ab" * 8 and back.digest == "ef" * 32
    standings = PaperStamp("L", 1, "", 2, "00" * 32, "11" * 32, 4, number=9).payload()
    assert standings == "RA1:KL:E1:R4:N9:H2-0000000000000000:D" + "11" * 32  # no identity: no I part
    # the scoresheet's digest is the one named digest of its record's body
    body = {"case": {}, "decision": {}, "pairs": {}, "round": 1, "table": 2}
    assert record_digest({}, {}, {}, 1, 2, "x") == named_digest(body, "x") != named_digest(body, "y")
    assert record_digest({}, {}, {}, 1, 2) == named_digest(body)
