"""What counts as a signature (签字) image: the one check of the window's pad and of ``sign``.

A signature locks a table's version, so an image that is not one must not: it must be a
PNG whose every chunk is intact (each CRC checked), of a size a signature has (pixels and
bytes), that decodes to its last row, and that carries ink — a blank pad, a tap or a
white rectangle is not a signature. The window's pad asks the same question of the PNG it
is about to give (``referee_app.gui.signature``), the store asks it of every image before
it locks anything (``Store.sign_match``).

The chunk walk is the standard library's (``zlib.crc32``), so a header claiming 100000 ×
100000 pixels or none is refused before anything is decoded; decoding and counting the ink
are Pillow's (it comes with reportlab).
"""

from __future__ import annotations

import io
import re
import struct
import zlib
from dataclasses import dataclass, field
from typing import Any

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
#: Bytes of one signature's PNG at most (the pad's are 5 to 20 KB; a scan may be more).
MAX_SIGNATURE_BYTES = 2_000_000
#: Pixels a side at most: a signature drawn or scanned at 300 dpi fits; a header claiming
#: more (a decompression bomb) is refused before decoding.
MAX_WIDTH, MAX_HEIGHT = 4000, 2000
#: Pixels a side at least (a pad is 260 × 110 at its smallest).
MIN_WIDTH, MIN_HEIGHT = 16, 8
#: Ink a signature needs: pixels that are opaque (alpha ≥ 128) and dark (grey level < 160
#: of 255), on a transparent or light background: a one-pixel line 120 pixels long, or 60
#: pixels of stroke of the pad's pen (measured: 124; 45 pixels give 94, a tap none).
MIN_INK_PIXELS = 120
#: Share of the pixels a signature inks at most: strokes on a background. A black or dark
#: rectangle (an image filled, not signed) has ink everywhere; a pad's signature inks under
#: 10 %, a thick felt pen scanned tight under 40 %.
MAX_INK_SHARE = 0.5
_INK_ALPHA, _INK_GREY = 128, 160


@dataclass(frozen=True)
class SignatureProblem:
    """Why an image is not a signature: a catalogue code (``signature.*``), the English
    reason, and the values its message is made of."""

    code: str
    reason: str
    values: dict[str, Any] = field(default_factory=dict)


def signature_problem(data: Any) -> SignatureProblem | None:
    """None if ``data`` (bytes) is a signature image, else why not."""
    if not isinstance(data, (bytes, bytearray)):
        return SignatureProblem("signature.not_png", f"expected PNG bytes, got {type(data).__name__}")
    data = bytes(data)
    if len(data) > MAX_SIGNATURE_BYTES:
        return SignatureProblem(
            "signature.too_big",
            f"{len(data)} bytes, more than {MAX_SIGNATURE_BYTES} for a signature",
            {"size": len(data), "limit": MAX_SIGNATURE_BYTES},
        )
    if not data.startswith(PNG_MAGIC):
        return SignatureProblem(
            "signature.not_png", f"not a PNG image ({len(data)} bytes, starts {data[:8]!r})"
        )
    found = _walk_chunks(data)
    if isinstance(found, SignatureProblem):
        return found
    width, height = found
    if not (MIN_WIDTH <= width <= MAX_WIDTH and MIN_HEIGHT <= height <= MAX_HEIGHT):
        return SignatureProblem(
            "signature.pixels",
            f"{width} × {height} pixels, not the size of a signature "
            f"({MIN_WIDTH} × {MIN_HEIGHT} to {MAX_WIDTH} × {MAX_HEIGHT})",
            {
                "width": width,
                "height": height,
                "min_width": MIN_WIDTH,
                "min_height": MIN_HEIGHT,
                "max_width": MAX_WIDTH,
                "max_height": MAX_HEIGHT,
            },
        )
    ink = _ink(data)
    if isinstance(ink, SignatureProblem):
        return ink
    if ink < MIN_INK_PIXELS:
        return SignatureProblem(
            "signature.blank",
            f"blank: {ink} pixels of ink, a signature has at least {MIN_INK_PIXELS}",
            {"ink": ink, "min": MIN_INK_PIXELS},
        )
    if ink > MAX_INK_SHARE * width * height:
        share = round(100 * ink / (width * height))
        return SignatureProblem(
            "signature.filled",
            f"filled: {share} % of its pixels are ink, a signature has strokes on a light or "
            f"transparent background (at most {round(100 * MAX_INK_SHARE)} %)",
            {"share": share, "most": round(100 * MAX_INK_SHARE)},
        )
    return None


def is_signature(data: Any) -> bool:
    return signature_problem(data) is None


def _broken(detail: str) -> SignatureProblem:
    return SignatureProblem("signature.broken", f"the PNG does not decode: {detail}", {"detail": detail})


def _walk_chunks(data: bytes) -> tuple[int, int] | SignatureProblem:
    """(width, height) from an intact chunk list (IHDR first, IDAT, IEND last, nothing
    after it, every CRC right), else the first fault."""
    pos, size = len(PNG_MAGIC), None
    kinds: list[bytes] = []
    while True:
        if pos + 8 > len(data):
            return _broken(f"cut off at byte {pos} (no IEND chunk)")
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        end = pos + 12 + length
        if end > len(data):
            return _broken(f"cut off in the {kind.decode('latin-1')!r} chunk at byte {pos}")
        body = data[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", data[end - 4 : end])
        if zlib.crc32(kind + body) != crc:
            return _broken(f"bad checksum of the {kind.decode('latin-1')!r} chunk at byte {pos}")
        if not kinds:
            if kind != b"IHDR" or length != 13:
                return _broken("the first chunk is not IHDR")
            size = struct.unpack(">II", body[:8])
        kinds.append(kind)
        pos = end
        if kind == b"IEND":
            break
    if pos != len(data):
        return _broken(f"{len(data) - pos} bytes after the IEND chunk")
    if b"IDAT" not in kinds:
        return _broken("no image data (IDAT)")
    assert size is not None
    return int(size[0]), int(size[1])


def _ink(data: bytes) -> int | SignatureProblem:
    """The inked pixels of the decoded image (every row decoded), or why it does not decode."""
    from PIL import Image, ImageChops

    try:
        with Image.open(io.BytesIO(data), formats=["PNG"]) as im:
            im.load()
            rgba = im.convert("RGBA")
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError, zlib.error) as err:
        # Pillow names its stream ("<_io.BytesIO object at 0x…>"), nothing the referee gave
        said = re.sub(r"\s*<_io\.BytesIO object at 0x[0-9a-f]+>", "", str(err))
        return _broken(" ".join(said.split())[:120] or type(err).__name__)
    grey = rgba.convert("L").point(lambda v: 255 if v < _INK_GREY else 0)
    opaque = rgba.getchannel("A").point(lambda v: 255 if v >= _INK_ALPHA else 0)
    return int(ImageChops.multiply(grey, opaque).histogram()[255])
