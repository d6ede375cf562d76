"""Form templates are data validated by a strict schema with one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee_app.printing.forms import SPEC, FormError, check_forms, forms_dir, load_form, parse_form


def test_bundled_templates_are_valid() -> None:
    assert check_forms() == []
    for kind in SPEC:
        form = load_form(kind)
        assert form.title.zh and form.title.en
        assert form.zh("page", page=1, pages=2) == "第 1 页 共 2 页"


def _edited(kind: str, old: str, new: str) -> str:
    text = (forms_dir() / f"{kind}.toml").read_text("utf-8")
    assert old in text
    return text.replace(old, new, 1)


def _error(text: str, origin: str = "forms/appeal.toml") -> str:
    with pytest.raises(FormError) as info:
        parse_form(text, origin)
    message = str(info.value)
    assert "\n" not in message
    return message


def test_unknown_label_names_file_key_and_line() -> None:
    text = _edited("appeal", 'grounds = { zh = "四、申诉理由"', 'grounds_typo = { zh = "四、申诉理由"')
    message = _error(text)
    assert message.startswith("forms/appeal.toml: labels.grounds_typo: unknown key (line ")


def test_missing_label() -> None:
    text = _edited("ruling", 'offender = { zh = "违例方签收", en = "Received by offender" }\n', "")
    assert _error(text, "forms/ruling.toml") == "forms/ruling.toml: labels.offender: missing"


def test_unknown_top_level_and_nested_keys() -> None:
    assert "colour: unknown key" in _error(
        _edited("appeal", "schema_version = 1", 'schema_version = 1\ncolour = "red"')
    )
    msg = _error(
        _edited(
            "appeal",
            'title = { zh = "申诉表", en = "Appeal form" }',
            'title = { zh = "申诉表", en = "Appeal form", fr = "x" }',
        )
    )
    assert "title.fr: unknown key" in msg


def test_unknown_box_and_placeholder() -> None:
    msg = _error(_edited("scoresheet", '"integrity"]', '"integrity", "weather"]'), "forms/scoresheet.toml")
    assert msg.startswith("forms/scoresheet.toml: boxes[7]: unknown 'weather'")
    msg = _error(_edited("appeal", "逾时{minutes}分钟", "逾时{minutes}分钟{seconds}"))
    assert "labels.late.zh: unknown placeholder {seconds}" in msg


def test_bad_toml_and_wrong_kind(tmp_path: Path) -> None:
    assert "not valid TOML" in _error("title = ")
    (tmp_path / "appeal.toml").write_text((forms_dir() / "ruling.toml").read_text("utf-8"), "utf-8")
    with pytest.raises(FormError, match=r"appeal.toml: form: expected 'appeal', got 'ruling'"):
        load_form("appeal", tmp_path)


def test_a_reworded_template_changes_the_pdf(tmp_path: Path) -> None:
    """An organiser changes wording without touching code."""
    import subprocess

    from referee_app.printing.render import render_ruling

    from .helpers import scoresheet

    folder = tmp_path / "forms"
    folder.mkdir()
    for kind in SPEC:
        (folder / f"{kind}.toml").write_text((forms_dir() / f"{kind}.toml").read_text("utf-8"), "utf-8")
    text = (
        (folder / "ruling.toml")
        .read_text("utf-8")
        .replace('title = { zh = "判罚单"', 'title = { zh = "违例判罚通知单"')
    )
    (folder / "ruling.toml").write_text(text, "utf-8")
    from referee_app.printing.data import RulingSlipData

    sheet = scoresheet()
    out = tmp_path / "slip.pdf"
    render_ruling(
        RulingSlipData(event=sheet.event, ruling=sheet.decision["hands"][0]["rulings"][0]),
        out,
        form=load_form("ruling", folder),
    )
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout
    assert "违例判罚通知单" in text


def test_a_valid_template_is_validated_once_then_read_without_pydantic(tmp_path) -> None:  # noqa: ANN001
    """Issue 11: pydantic is a large part of a short command's start; a template's text is
    validated the first time it is seen and read back as plain data after that."""
    import os
    import subprocess
    import sys

    script = (
        "import sys; from referee_app.printing.forms import load_form; "
        "f = load_form('scoresheet'); print(f.zh('page', page=1, pages=2), f.has('hands'), "
        "'pydantic' in sys.modules)"
    )
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    env.pop("REFEREE_APP_NO_CACHE", None)
    runs = [
        subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
        for _ in range(2)
    ]
    assert [r.stdout.split() for r in runs] == [
        ["第", "1", "页", "共", "2", "页", "True", w] for w in ("True", "False")
    ]
    assert list((tmp_path / "cache" / "referee-app" / "forms").rglob("*.json"))
