"""The one message catalogue (resources/messages/): every code raised in referee_app/ has a
Chinese and an English entry with the same placeholders; plurals; errors as data."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from referee_app.app import messages
from referee_app.app.messages import describe, message, placeholders
from referee_app.core.errors import Reported

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "referee_app"
#: An ASCII word of three letters or more: English (tokens a Chinese text may carry are kept out).
ALLOWED = {
    "PDF",
    "DER",
    "PNG",
    "QR",
    "PIN",
    "CSV",
    "SQLite",
    "PostgreSQL",
    "JSON",
    "UTF",
    "GB18030",
    "URL",
    "ISO",
    "PKCS",
    "PEM",
    "Excel",
    "TOML",
}


def _case_words() -> set[str]:
    """The case format's own keys and values (``defender_points``, ``late_arrival``, ``true``):
    a message about a case file quotes them as the file has them."""
    words = {"true", "false", "hands", "pairs", "event", "first_dealer", "number", "player"}
    for name in ("case.py", "rulebook_kinds.py"):
        tree = ast.parse((PACKAGE / "core" / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and re.fullmatch(r"[a-z_]+", node.value)
            ):
                words.add(node.value)
    # a rulebook's keys and values, which a message to its author quotes as the file has them
    schema = ast.parse((PACKAGE / "core" / "rulebook_schema.py").read_text(encoding="utf-8"))
    for node in ast.walk(schema):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            words.add(node.target.id)
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and re.fullmatch(r"[a-z_]+", node.value)
        ):
            words.add(node.value)
    return words


CASE_WORDS = _case_words()


def _raised_codes() -> dict[str, str]:
    """Every ``code="…"`` given to a call in the package, and where."""
    found: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                for kw in node.keywords:
                    if (
                        kw.arg == "code"
                        and isinstance(kw.value, ast.Constant)
                        and isinstance(kw.value.value, str)
                    ):
                        found.setdefault(kw.value.value, f"{path.relative_to(ROOT)}:{node.lineno}")
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "default_code" for t in node.targets
            ):
                assert isinstance(node.value, ast.Constant)
                found.setdefault(str(node.value.value), f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def _all_entries() -> dict[str, dict]:
    entries: dict[str, dict] = {}
    for name in messages.FILES:
        entries.update({f"{name}:{k}": v for k, v in messages.catalogue(name).items()})
    return entries


def test_every_raised_code_has_both_languages() -> None:
    codes = _raised_codes()
    assert len(codes) > 100
    missing = [f"{code} ({where})" for code, where in codes.items() if not messages.has(code)]
    assert not missing, "no catalogue entry: " + ", ".join(missing)


@pytest.mark.parametrize("key", sorted(_all_entries()))
def test_an_entry_has_the_same_placeholders_in_both_languages(key: str) -> None:
    entry = _all_entries()[key]
    assert {"zh", "en"} <= set(entry) <= {"zh", "en", "field"}, key
    # {detail}: a library's own English line (a database driver's), shown in English only
    assert placeholders(entry["zh"]) == placeholders(entry["en"]) - {"detail"}, key
    if isinstance(entry["en"], dict):
        assert set(entry["en"]) == {"one", "other"}, key


def english_words(text: str) -> list[str]:
    """The English words of a Chinese text: ASCII words of three letters or more, less what
    a user types as it is (environment variables, file suffixes and folders, the case
    format's keys and values, the names of ALLOWED)."""
    text = re.sub(r"\{[^}]*\}", "", text)  # placeholders are filled with the user's values
    text = re.sub(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b", "", text)  # REFEREE_APP_PIN
    text = re.sub(r"\.[a-z0-9]+\b|[\w-]+/", "", text)  # .toml, station-keys/
    return [w for w in re.findall(r"[A-Za-z_]{3,}", text) if w not in ALLOWED | CASE_WORDS]


@pytest.mark.parametrize("key", sorted(k for k in _all_entries() if not k.startswith("gui:")))
def test_a_chinese_text_has_no_flag_and_no_english(key: str) -> None:
    entry = _all_entries()[key]
    zh = entry["zh"] if isinstance(entry["zh"], str) else " ".join(entry["zh"].values())
    assert not re.search(r"--[a-z]", zh), (key, zh)
    assert not english_words(zh), (key, zh)


def test_english_plurals() -> None:
    assert message("pairs.imported", "en", n=1) == "1 pair imported"
    assert message("pairs.imported", "en", n=2) == "2 pairs imported"
    assert message("pairs.imported", "en", n=0) == "0 pairs imported"
    assert message("pairs.imported", "zh", n=1) == "已导入 1 对参赛对。"


def test_an_error_carries_its_code_field_and_values() -> None:
    from referee_app.store.errors import InputError

    err = InputError(
        "--reason: a voiding needs a written reason", code="match.void_reason_missing", field="reason"
    )
    assert str(err) == "--reason: a voiding needs a written reason"  # the English line stays
    assert (err.code, err.field, err.values) == ("match.void_reason_missing", "reason", {})
    assert describe(err, "zh") == "理由：作废记录需要书面理由。"
    assert describe(err, "en") == "reason: a voiding needs a written reason"
    flags = describe(err, "en", field_name=lambda field, lang: f"--{field}")
    assert flags == "--reason: a voiding needs a written reason"


def test_values_are_worded_in_the_language() -> None:
    from referee_app.store.errors import RoleError

    err = RoleError(
        "x", code="role.refused", action="match.correct", needs=["chief_referee"], role="table_referee"
    )
    assert describe(err, "zh") == "更正记录需要裁判长的 PIN（当前角色：裁判员）。"
    assert "chief referee" in describe(err, "en")


def test_an_error_without_a_code_of_its_own() -> None:
    from referee_app.store.errors import InputError

    err = InputError("something English")
    assert not err.coded and err.code == "store.input"
    assert describe(err, "en") == "something English"
    assert describe(err, "zh") == message("store.input", "zh")
    assert describe(ValueError("boom"), "zh") == message("error.unexpected", "zh")


def test_errors_keep_their_data_through_pickling() -> None:
    import pickle

    from referee_app.store.errors import PinError

    err = PinError(
        "wrong PIN", role="chief_referee", tries_left=2, code="pin.wrong", field="pin", n=2, lock=60
    )
    back = pickle.loads(pickle.dumps(err))
    assert (back.code, back.field, back.values, back.role, str(back)) == (
        "pin.wrong",
        "pin",
        {"n": 2, "lock": 60},
        "chief_referee",
        "wrong PIN",
    )
    assert isinstance(back, Reported)


#: The error classes whose raises should carry a code.
CODED = {
    "CaseError", "RulebookError", "InputError", "NotFoundError", "PinError", "RoleError", "StoreError",
    "ConflictError", "LockedError", "DatabaseError", "SchemaTooNewError", "PaperCodeError",
    "ResourceError", "MissingGlyphError", "FormError", "SigningError", "ClockError", "StandingsError",
    "PairingError", "SpreadsheetError", "CommandError",
}  # fmt: skip
#: Raises still worded only by their class's general entry (a Chinese line without their
#: detail): rulebook and form-template checks for their authors, the PostgreSQL logins'
#: setup, the station keys' files. Only ever lowered.
UNCODED_AT_MOST = 19


def test_raises_carry_codes() -> None:
    uncoded = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Raise)
                and isinstance(node.exc, ast.Call)
                and getattr(node.exc.func, "id", "") in CODED
                # (a ``**data`` made by core.errors.cannot_read / cannot_write carries its code)
                and not any(k.arg in ("code", None) for k in node.exc.keywords)
            ):
                uncoded.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert len(uncoded) <= UNCODED_AT_MOST, "\n".join(uncoded)


def test_every_kind_of_rulebook_problem_has_its_words() -> None:
    """A rulebook problem's code is built from its kind (``rulebook.problem.<kind>``): every
    kind pydantic's errors map to, and every check of the schema's own, has an entry."""
    from referee_app.core import rulebook

    schema = (PACKAGE / "core" / "rulebook_schema.py").read_text(encoding="utf-8")
    own = set(re.findall(r'"rulebook_([a-z_]+)"', schema))
    assert len(own) >= 10
    source = (PACKAGE / "core" / "rulebook.py").read_text(encoding="utf-8")
    fixed = set(
        re.findall(r'"(toml|toml_at|toml_end|nested|huge_number|not_utf8|id_not_file|other)"', source)
    )
    assert fixed == {
        "toml",
        "toml_at",
        "toml_end",
        "nested",
        "huge_number",
        "not_utf8",
        "id_not_file",
        "other",
    }
    kinds = own | fixed | set(rulebook._PYDANTIC_KINDS.values())
    missing = sorted(k for k in kinds if not messages.has(f"rulebook.problem.{k}"))
    assert not missing, missing


def test_only_a_rulebook_problem_names_a_value_given_or_at_line() -> None:
    """``given`` and ``at_line`` are a rulebook problem's optional parts, shown as "，收到 …"
    and "（第 n 行）": another message naming a value so showed it garbled ("限时提醒（第 ，收到 2
    副时发出）", "案例写的是“，收到 gansu-2018”")."""
    for key, entry in _all_entries().items():
        if ":rulebook.problem." in key:
            continue
        assert not placeholders(entry["zh"]) & {"given", "at_line"}, key
    warned = messages.describe(
        Reported("x", code="case.past_time_warning", n=4, warned_in=2, last=3, rulebook="r", clause="c"), "zh"
    )
    assert warned == "第 4 副已超出限时提醒（第 2 副时发出）后允许的牌局：规则 r 只允许打到第 3 副（c）。"
