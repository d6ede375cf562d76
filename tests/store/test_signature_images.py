"""Issue 24 item 2: an image that is not a signature does not lock a table. A signature must
decode fully, stay within its size limits (pixels and bytes) and carry ink — the check the
window's pad makes too (core/signature_image.py)."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import pytest
from store_helpers import cli, cli_within, count_entries, make_case, write_json

from referee_app.core import signature_image
from referee_app.core.signature_image import PNG_MAGIC, signature_problem
from referee_app.store.service import Store

SIGNERS = ("N", "E", "S", "W", "referee")


def good_png(seed: int = 0, size: tuple[int, int] = (120, 40)) -> bytes:
    from PIL import Image, ImageDraw

    im = Image.new("RGBA", size, (0, 0, 0, 0))
    ImageDraw.Draw(im).line([(5, 20), (40, 5 + seed % 30), (115, 30)], fill=(20, 30, 120, 255), width=3)
    out = io.BytesIO()
    im.save(out, "PNG")
    return out.getvalue()


def chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def header_only(width: int, height: int) -> bytes:
    """A PNG whose chunks are all intact (right CRCs) and whose header claims ``width`` ×
    ``height``, with one row of image data: what a decompression bomb looks like."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return PNG_MAGIC + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")


def flip(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 0x55]) + data[at + 1 :]


def idat_at(data: bytes) -> int:
    return data.index(b"IDAT")


def blank(mode: str, colour: object) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new(mode, (200, 80), colour).save(out, "PNG")  # type: ignore[arg-type]
    return out.getvalue()


def filled(mode: str, size: tuple[int, int], colour: object, dark_width: int | None = None) -> bytes:
    """An image filled with dark ``colour`` (only its left ``dark_width`` columns, the rest
    white, when given): no strokes at all."""
    from PIL import Image, ImageDraw

    im = Image.new(mode, size, colour if dark_width is None else "white")  # type: ignore[arg-type]
    if dark_width is not None:
        ImageDraw.Draw(im).rectangle([0, 0, dark_width - 1, size[1] - 1], fill=colour)  # type: ignore[arg-type]
    out = io.BytesIO()
    im.save(out, "PNG")
    return out.getvalue()


def header_with(width: int, height: int, *, colour_type: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return PNG_MAGIC + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")


def short_idat() -> bytes:
    """Intact chunks (every CRC right) whose image data stop after the first rows."""
    data = good_png()
    at = idat_at(data) - 4
    (length,) = struct.unpack(">I", data[at : at + 4])
    pixels = zlib.decompress(data[at + 8 : at + 8 + length])
    cut = zlib.compress(pixels[: len(pixels) // 3])
    return data[:at] + chunk(b"IDAT", cut) + chunk(b"IEND", b"")


GOOD = good_png()
#: family -> (image, what the refusal says)
BAD: dict[str, tuple[bytes, str]] = {
    "truncated": (GOOD[: len(GOOD) * 2 // 3], "does not decode: cut off"),
    "truncated after IDAT": (GOOD[:-12], "does not decode: cut off"),
    "bad IHDR checksum": (flip(GOOD, 8 + 8 + 3), "bad checksum of the 'IHDR' chunk"),
    "bad IDAT checksum": (flip(GOOD, idat_at(GOOD) + 10), "bad checksum of the 'IDAT' chunk"),
    "image data cut short": (short_idat(), "does not decode"),
    "trailing bytes": (GOOD + b"junk", "4 bytes after the IEND chunk"),
    "100000 x 100000 header": (header_only(100_000, 100_000), "100000 × 100000 pixels"),
    "zero-size header": (header_only(0, 0), "0 × 0 pixels"),
    "one-pixel-high header": (header_only(4000, 1), "4000 × 1 pixels"),
    "blank transparent": (blank("RGBA", (0, 0, 0, 0)), "blank: 0 pixels of ink"),
    "blank white": (blank("RGB", (255, 255, 255)), "blank: 0 pixels of ink"),
    "not a PNG": (b"GIF89a" + b"x" * 40, "not a PNG image"),
    "filled black": (blank("RGB", (0, 0, 0)), "filled: 100 % of its pixels are ink"),
    "filled dark grey, smallest size": (filled("L", (16, 8), 100), "filled: 100 % of its pixels are ink"),
    "filled over half": (filled("RGB", (200, 80), (0, 0, 0), dark_width=102), "filled: 51 %"),
    "a colour type PNG has not": (header_with(300, 100, colour_type=5), "does not decode: cannot identify"),
    "too many bytes": (PNG_MAGIC + b"\0" * (signature_image.MAX_SIGNATURE_BYTES + 1), "more than 2000000"),
}


@pytest.mark.parametrize("family", list(BAD))
def test_each_family_of_bad_image_is_not_a_signature(family: str) -> None:
    image, says = BAD[family]
    problem = signature_problem(image)
    assert problem is not None and says in problem.reason, (family, problem)
    assert "0x" not in problem.reason  # Pillow's name of its stream is nothing the referee gave


def test_a_signature_drawn_or_scanned_is_one() -> None:
    assert signature_problem(GOOD) is None
    # dark ink on a white scan, no transparency
    from PIL import Image, ImageDraw

    im = Image.new("RGB", (600, 200), "white")
    ImageDraw.Draw(im).line([(20, 150), (200, 40), (580, 120)], fill=(10, 10, 10), width=4)
    out = io.BytesIO()
    im.save(out, "PNG")
    assert signature_problem(out.getvalue()) is None
    # a thick pen scanned tight inks under half of the pixels
    assert signature_problem(filled("RGB", (200, 80), (0, 0, 0), dark_width=98)) is None


def _signed_case(db: str, tmp_path: Path) -> list[str]:
    rc, _, err = cli(db, "record", write_json(tmp_path / "c.json", make_case()))
    assert rc == 0, err
    files = []
    for i, k in enumerate(SIGNERS):
        p = tmp_path / f"{k}.png"
        p.write_bytes(good_png(i))
        files += [f"--{k}", str(p)]
    return files


@pytest.mark.parametrize("family", list(BAD))
def test_sign_refuses_a_bad_image_naming_the_file_and_locks_nothing(
    event_db: str, tmp_path: Path, family: str
) -> None:
    files = _signed_case(event_db, tmp_path)
    image, says = BAD[family]
    bad = tmp_path / "bad signature.png"
    bad.write_bytes(image)
    files[files.index("--E") + 1] = str(bad)
    before = count_entries(event_db)
    for lang in ("en", "zh"):
        rc, out, err = cli(
            event_db, "sign", "--round", "1", "--table", "1", "--expect-version", "1", *files, lang=lang
        )
        assert rc == 2 and out == "" and err.count("\n") == 1, (family, rc, err)
        assert err.startswith(str(bad)), err
        if lang == "en":
            assert says in err, err
        assert "Traceback" not in err and "signed and locked" not in err
    assert count_entries(event_db) == before
    with Store.open(event_db) as s:
        assert s.signatures_of(1, 1, 1) == {}
    # the same signers with the good image: signed and locked
    files[files.index("--E") + 1] = str(tmp_path / "E.png")
    rc, _, err = cli(event_db, "sign", "--round", "1", "--table", "1", "--expect-version", "1", *files)
    assert rc == 0 and "signed and locked" in err, err


def test_the_store_refuses_one_given_without_a_file_by_its_field(event_db: str, tmp_path: Path) -> None:
    from referee_app.store.common import Actor
    from referee_app.store.errors import SignatureImageError

    _signed_case(event_db, tmp_path)
    sigs = {k: good_png(i) for i, k in enumerate(SIGNERS)}
    with Store.open(event_db) as s:
        with pytest.raises(SignatureImageError, match=r"^signatures\.W: 100000 × 100000 pixels") as err:
            s.sign_match(1, 1, 1, 1, {**sigs, "W": header_only(100_000, 100_000)}, Actor("甲", "t1"))
        assert err.value.exit_code == 2 and err.value.field == "signatures.W"
        assert s.signatures_of(1, 1, 1) == {}


def test_sign_reads_no_device_pipe_or_folder_given_as_an_image(event_db: str, tmp_path: Path) -> None:
    """``--E /dev/zero`` read until memory ran out, a FIFO waited for ever: refused unread."""
    import os

    files = _signed_case(event_db, tmp_path)
    fifo, folder = tmp_path / "pipe.png", tmp_path / "folder.png"
    os.mkfifo(fifo)
    folder.mkdir()
    before = count_entries(event_db)
    for given in ("/dev/zero", str(fifo), str(folder)):
        files[files.index("--E") + 1] = given
        rc, out, err = cli_within(
            10, event_db, "sign", "--round", "1", "--table", "1", "--expect-version", "1", *files
        )
        assert rc == 2 and out == "" and err.startswith(f"{given}: cannot read: not a file ("), err
    assert count_entries(event_db) == before
