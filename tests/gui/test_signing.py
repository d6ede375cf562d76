"""Signing the round on screen: five signatures, then the record is locked."""

from __future__ import annotations

import subprocess

from referee_app.core import editing

from .conftest import open_event_with_table, when_modal


def sign_everyone(dialog) -> None:
    assert not dialog.confirm_button.isEnabled()
    assert "本桌裁判员" in dialog.missing.text()
    for pad in dialog.pads.values():
        pad.add_stroke([(10, 40), (40, 20), (70, 50), (110, 25)])
    assert dialog.confirm_button.isEnabled() and dialog.missing.text() == ""
    dialog.confirm_button.click()


def test_sign_locks_the_round_and_the_scoresheet_carries_the_signatures(
    make_window, pairs_csv, tmp_path
) -> None:
    window = make_window()
    open_event_with_table(window, "bhg-2011", pairs_csv)
    view = window.table_view
    assert not view.sign_button.isEnabled()  # nothing to sign before the round has a result
    record = window.session.save(view.record, editing.complete_hand(view.record.case, 60))
    record = window.session.save(record, editing.end_on_time(record.case))
    view.load(record)
    assert view.sign_button.isEnabled()

    when_modal(sign_everyone)
    assert view.sign_round()
    assert view.record.signed and view.record.status == "signed"
    assert set(window.session.signatures(view.record)) == {"N", "E", "S", "W", "referee"}
    assert all(png.startswith(b"\x89PNG") for png in window.session.signatures(view.record).values())
    assert not view.hand_box.isEnabled() and not view.kind_box.isEnabled()
    assert not view.sign_button.isEnabled()
    window.show_hall()
    assert "已签字" in window.hall.cards[0].text()

    saved = {}
    when_modal(
        lambda dialog: (
            saved.setdefault("path", dialog.save_pdf(str(tmp_path / "signed.pdf"))),
            dialog.accept(),
        )
    )
    view.preview_scoresheet()
    images = (
        subprocess.run(["pdfimages", "-list", saved["path"]], capture_output=True, text=True, check=True)
        .stdout.strip()
        .splitlines()[2:]
    )
    assert len(images) >= 5  # the five signatures drawn in their boxes
