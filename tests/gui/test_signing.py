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


def test_the_chief_referee_corrects_a_signed_round(make_window, pairs_csv) -> None:
    window = make_window()
    open_event_with_table(window, "bhg-2011", pairs_csv)
    view = window.table_view
    record = window.session.save(view.record, editing.complete_hand(view.record.case, 60))
    record = window.session.save(record, editing.end_on_time(record.case))
    view.load(record)
    when_modal(sign_everyone)
    assert view.sign_round()
    signed_version = view.record.version
    assert view.correct_button.isVisible() and not view.void_button.isEnabled()
    warned = {}
    when_modal(lambda box: (warned.setdefault("text", box.text()), box.close()))
    assert not view.start_correction(" ")
    assert warned["text"] == "更正须写明理由。"
    assert view.start_correction("第1副防守方得分应为65分，记录笔误")
    assert view.void_button.isEnabled()
    view.rulings_view.selectRow(0)  # nothing to void; correct the hand's points instead
    case = editing.end_on_time(
        editing.complete_hand({**view.record.case, "hands": [], "finished": "open"}, 65)
    )
    assert view.save(case)
    assert view.record.version == signed_version + 1 and not view.record.signed
    assert view.sign_button.isEnabled() and view.correction_reason is None
    history = window.session.store.history(window.session.event.id, 1, 1)
    assert len(history) == signed_version + 1
    log = window.session.store.log(window.session.event.id, 1, 1)
    assert any("第1副防守方得分应为65分" in str(entry) for entry in log)


def test_the_pad_asks_the_check_sign_makes_of_its_image(make_window, qtbot) -> None:
    """Issue 24 item 2: the pad's "signed" is the store's check (core/signature_image.py) of
    the PNG it gives, not a count of its own strokes: strokes drawn off the pad leave no ink
    in the image, and what the pad accepts the store accepts."""
    from referee_app.core.signature_image import signature_problem
    from referee_app.gui.signature import SignDialog

    window = make_window()
    dialog = SignDialog(window.language, {"N": "张三"}, "第1轮 第1桌", window)
    qtbot.addWidget(dialog)
    dialog.show()
    pad = dialog.pads["N"]
    for other in ("E", "S", "W", "referee"):
        dialog.pads[other].add_stroke([(10, 40), (40, 20), (70, 50), (110, 25)])
    # 200 pixels of stroke, all of it beyond the pad's edge (a pen dragged off it)
    pad.add_stroke([(-400, -300), (-200, -300)])
    assert pad.ink() >= 200
    assert signature_problem(pad.to_png()) is not None and pad.is_empty()
    assert not dialog.confirm_button.isEnabled()
    assert "北" in dialog.missing.text()
    pad.add_stroke([(20, 60), (120, 60)])
    assert signature_problem(pad.to_png()) is None and not pad.is_empty()
    assert dialog.confirm_button.isEnabled()
    assert all(signature_problem(png) is None for png in dialog.signatures().values())
