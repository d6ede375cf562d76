"""The embedded CJK font and Chinese line breaking.

WenQuanYi Micro Hei (``resources/fonts/wqy-microhei.ttc``, Apache-2.0 or GPL-3+ with the
font exception; see ``LICENSE-wqy-microhei.txt``) covers Chinese, Latin and ♠♥♣♦. It is
found like ``rules/`` (:mod:`referee_app.locations`); ``REFEREE_APP_RESOURCES`` overrides.

Line breaking: reportlab's ``wordWrap="CJK"`` lets ``，；：！？》”`` start a line and hangs a
single closing mark past the right margin. :func:`break_lines` is the replacement used by
:class:`CJKParagraph`: no line starts with a closing mark, no line ends with an opening
one, Latin words and numbers are not cut, and no line is wider than the column.
"""

from __future__ import annotations

import gc
import hmac
import marshal
import os
import threading
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.validated import installation_secret, sign
from ..locations import FONT_FILE, font_path, resources_dir
from .errors import ResourceError

if TYPE_CHECKING:
    from reportlab.pdfbase.ttfonts import TTFontFace

FONT = "WQYMicroHei"
FONT_MONO = "WQYMicroHeiMono"  # the same file's second face, for digests

# Cannot start a line (避头): closing punctuation and marks, full-width and ASCII.
CANNOT_START = (
    "!),.:;?]}·’”…‥、。〉》」』】〕〗〙〛〞〟﹐﹑﹒﹔﹕﹖﹗﹚﹜﹞！％），．：；？］｝～"
    "ー々ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ‰℃°′″—"
)
# Cannot end a line (避尾): opening punctuation and prefixes.
CANNOT_END = "([{‘“〈《「『【〔〖〘〚〝﹙﹛﹝（［｛＄￥£$#@§"


_registered = False


def register_fonts() -> str:
    """Register the CJK font's main face with reportlab (once) and return its name; the
    second face is :func:`mono_font`."""
    global _registered
    if _registered:
        return FONT
    from reportlab.lib import fonts as rl_fonts
    from reportlab.lib import textsplit
    from reportlab.pdfbase import pdfmetrics
    from reportlab.platypus import paragraph

    path = font_path()
    if not path.is_file():
        raise ResourceError(
            f"{path}: the CJK font is missing (resources/fonts/{FONT_FILE})",
            code="print.font_missing",
            source=path,
        )
    try:
        pdfmetrics.registerFont(load_face(FONT, path, 0))
    except Exception as exc:  # noqa: BLE001 - reportlab raises TTFError and others
        raise ResourceError(
            f"{path}: cannot load the font: {exc}", code="print.font_unreadable", source=path
        ) from None
    from reportlab.pdfbase import ttfonts

    ttfonts.makeToUnicodeCMap = _to_unicode_cmap  # characters beyond U+FFFF extract right
    # One face: bold and italic map to it, so <b> in a paragraph cannot fall back to Helvetica.
    rl_fonts.addMapping(FONT, 0, 0, FONT)
    rl_fonts.addMapping(FONT, 1, 0, FONT)
    rl_fonts.addMapping(FONT, 0, 1, FONT)
    rl_fonts.addMapping(FONT, 1, 1, FONT)
    # reportlab's own CJK splitter (used for paragraphs with markup) reads these globals.
    extended = "".join(sorted(set(textsplit.ALL_CANNOT_START) | set(CANNOT_START)))
    textsplit.ALL_CANNOT_START = extended  # type: ignore[misc]  # Final in the stubs; reportlab reads it
    paragraph.ALL_CANNOT_START = extended  # type: ignore[attr-defined]
    _registered = True
    return FONT


# -- the parsed faces, kept between runs ------------------------------------------------------
#: Parsing a face of the 5 MB TTC (cmap, widths, glyph offsets) in reportlab's pure Python
#: costs about half a second at every start; its result is kept in the user's cache folder
#: (``fonts/``), tied to the font file's size and time, the face and reportlab's version, and
#: signed under this installation's secret (:mod:`..core.validated`): an entry edited, even
#: with a plain hash made again, is parsed afresh, never printed from.
_FACE_CACHE_FORMAT = 2
_NAME_FIELDS = ("name", "familyName", "styleName", "fullName", "uniqueFontID")
_face_lock = threading.Lock()


def _face_stamp(path: Path, index: int) -> str:
    import reportlab

    stat = path.stat()
    return f"{_FACE_CACHE_FORMAT}-{reportlab.Version}-{stat.st_size}-{stat.st_mtime_ns}-{index}"


def _face_cache_file(path: Path, index: int) -> Path:
    from ..locations import user_cache_dir

    return user_cache_dir() / "fonts" / f"{path.stem}-{index}.face"


def _face_cache_read(path: Path, index: int) -> dict[str, Any] | None:
    if os.environ.get("REFEREE_APP_NO_CACHE"):
        return None
    secret = installation_secret(create=False)
    if secret is None:
        return None
    try:
        blob = _face_cache_file(path, index).read_bytes()
        check, body = blob[:32], blob[32:]
        if not hmac.compare_digest(sign(secret, body), check):
            return None  # damaged or forged: parse the font again (and rewrite the entry)
        stamp, fields = marshal.loads(body)
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if stamp != _face_stamp(path, index) or not isinstance(fields, dict):
        return None
    gc.disable()  # some 150,000 numbers and pairs made at once: no collection can free any
    try:
        return _unpack_tables(fields)
    except (KeyError, TypeError, ValueError):
        return None  # not what this version wrote: parse the font again
    finally:
        gc.enable()


#: The face's large tables (a few tens of thousands of entries each) as typed arrays in the
#: cache: marshal rebuilds a dict or list of Python numbers entry by entry (some 80 ms a
#: face, and a scoresheet loads two faces), an array's bytes come back at once.
_PACKED = "_packed_tables"


def _array(kind: str, values: Any) -> bytes:
    from array import array

    return array(kind, values).tobytes()


def _numbers(kind: str, raw: bytes) -> list[Any]:
    from array import array

    out = array(kind)
    out.frombytes(raw)
    return out.tolist()


def _kind(values: list[Any]) -> str | None:
    """The array type that holds ``values`` exactly (ints, or floats), or None."""
    if all(type(v) is int for v in values):
        return "q"
    if all(type(v) is float for v in values):
        return "d"
    return None


def _pack_tables(fields: dict[str, Any]) -> dict[str, Any]:
    """``fields`` with charToGlyph, charWidths, glyphPos, hmetrics and glyphToChar as
    arrays where their values allow it (any other shape is kept as it is)."""
    out = dict(fields)
    packed: dict[str, Any] = {}
    for name in ("charToGlyph", "charWidths"):
        table = out.get(name)
        if isinstance(table, dict):
            keys, values = list(table), list(table.values())
            k, v = _kind(keys), _kind(values)
            if k == "q" and v is not None:
                packed[name] = ("map", _array(k, keys), v, _array(v, values))
                del out[name]
    positions = out.get("glyphPos")
    if isinstance(positions, list) and _kind(positions) == "q":
        packed["glyphPos"] = ("list", _array("q", positions))
        del out["glyphPos"]
    metrics = out.get("hmetrics")
    if isinstance(metrics, list) and all(type(m) is tuple and len(m) == 2 for m in metrics):
        widths, bearings = [m[0] for m in metrics], [m[1] for m in metrics]
        # reportlab keeps the advance widths it read as ints, then repeats the last one
        # scaled, as a float: kept as the two runs, they come back as they were
        ints = next((i for i, w in enumerate(widths) if type(w) is not int), len(widths))
        if _kind(bearings) == "q" and all(type(w) is float for w in widths[ints:]):
            packed["hmetrics"] = (
                "pairs",
                _array("q", widths[:ints]),
                _array("d", widths[ints:]),
                _array("q", bearings),
            )
            del out["hmetrics"]
    chars = out.get("glyphToChar")
    if isinstance(chars, dict) and _kind(list(chars)) == "q":
        lists = list(chars.values())
        if all(type(v) is list and _kind(v) == "q" for v in lists):
            flat = [c for v in lists for c in v]
            counts = [len(v) for v in lists]
            packed["glyphToChar"] = (
                "lists",
                _array("q", list(chars)),
                _array("q", counts),
                _array("q", flat),
            )
            del out["glyphToChar"]
    out[_PACKED] = packed
    return out


def _unpack_tables(fields: dict[str, Any]) -> dict[str, Any]:
    """The fields as reportlab's face holds them; glyphToChar (used only when text is
    shaped) is left packed for :class:`~.fonts` faces to unpack when first asked."""
    packed = fields.pop(_PACKED)
    for name, entry in packed.items():
        if entry[0] == "map":
            _tag, keys, kind, values = entry
            fields[name] = dict(zip(_numbers("q", keys), _numbers(kind, values), strict=True))
        elif entry[0] == "list":
            fields[name] = _numbers("q", entry[1])
        elif entry[0] == "pairs":
            widths = _numbers("q", entry[1]) + _numbers("d", entry[2])
            fields[name] = list(zip(widths, _numbers("q", entry[3]), strict=True))
        elif entry[0] == "lists":
            fields["_packed_glyph_to_char"] = entry
        else:
            raise ValueError(entry[0])
    return fields


def _glyph_to_char(entry: tuple[Any, ...]) -> dict[int, list[int]]:
    _tag, glyphs, counts, flat = entry
    chars = _numbers("q", flat)
    out: dict[int, list[int]] = {}
    at = 0
    for glyph, n in zip(_numbers("q", glyphs), _numbers("q", counts), strict=True):
        out[glyph] = chars[at : at + n]
        at += n
    return out


@cache
def _face_class() -> type[TTFontFace]:
    """reportlab's face whose ``glyphToChar`` is unpacked from the cache when first read
    (only shaping reads it; rebuilding its lists costs as much as the rest of the face)."""
    from reportlab.pdfbase import ttfonts

    class CachedFace(ttfonts.TTFontFace):
        def __getattr__(self, name: str) -> Any:
            entry = self.__dict__.get("_packed_glyph_to_char")
            if name != "glyphToChar" or entry is None:
                raise AttributeError(name)
            value = _glyph_to_char(entry)
            self.__dict__["glyphToChar"] = value
            return value

    return CachedFace


def _face_cache_write(path: Path, index: int, face: Any) -> None:
    if os.environ.get("REFEREE_APP_NO_CACHE"):
        return
    fields = {k: v for k, v in face.__dict__.items() if k not in ("_ttf_data", "_pdfScale")}
    fields = _pack_tables(fields)
    for k in _NAME_FIELDS:
        if isinstance(fields.get(k), bytes):
            fields[k] = bytes(fields[k])
    secret = installation_secret(create=True)
    if secret is None:
        return  # nothing to sign with: an unsigned entry would never be read
    try:
        body = marshal.dumps((_face_stamp(path, index), fields))
        target = _face_cache_file(path, index)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        tmp.write_bytes(sign(secret, body) + body)
        os.replace(tmp, target)
    except (OSError, ValueError):
        pass  # a cache that cannot be written only costs time


def load_face(name: str, path: Path, index: int) -> Any:
    """reportlab's ``TTFont(name, path, subfontIndex=index)``, its parsed face from the cache
    when the cache holds this file's face (the file's bytes are always read afresh)."""
    from reportlab.pdfbase import ttfonts

    fields = _face_cache_read(path, index)
    if fields is None:
        font = ttfonts.TTFont(name, str(path), subfontIndex=index)
        _face_cache_write(path, index, font.face)
        return font
    face = _face_class().__new__(_face_class())
    face.__dict__.update(fields)
    for k in _NAME_FIELDS:
        if isinstance(fields.get(k), bytes):
            setattr(face, k, ttfonts.TTFNameBytes(fields[k]))
    face._ttf_data = path.read_bytes()  # type: ignore[attr-defined]  # reportlab's own, not in its stubs
    scale = 1000 / face.unitsPerEm
    face._pdfScale = (lambda x: x) if face.unitsPerEm == 1000 else (lambda x: x * scale)  # type: ignore[attr-defined]
    with _face_lock:  # TTFont builds its face itself: hand it the cached one
        parse = ttfonts.TTFontFace
        ttfonts.TTFontFace = lambda *args, **kwargs: face  # type: ignore[misc,assignment]
        try:
            return ttfonts.TTFont(name, str(path), subfontIndex=index)
        finally:
            ttfonts.TTFontFace = parse  # type: ignore[misc]


_mono_registered = False


def mono_font() -> str:
    """Register the file's second face, for digests, on first use (parsing a face costs
    about as much as laying out a sheet, and most forms print no digest) and return its name."""
    global _mono_registered
    if _mono_registered:
        return FONT_MONO
    register_fonts()
    from reportlab.lib import fonts as rl_fonts
    from reportlab.pdfbase import pdfmetrics

    path = font_path()
    try:
        pdfmetrics.registerFont(load_face(FONT_MONO, path, 1))
    except Exception as exc:  # noqa: BLE001 - reportlab raises TTFError and others
        raise ResourceError(
            f"{path}: cannot load the font's second face: {exc}", code="print.font_unreadable", source=path
        ) from None
    for bold in (0, 1):
        for italic in (0, 1):
            rl_fonts.addMapping(FONT_MONO, bold, italic, FONT_MONO)
    _mono_registered = True
    return FONT_MONO


def _is_word_char(ch: str) -> bool:
    """Part of a Latin word or number that must not be cut."""
    return ch.isascii() and not ch.isspace() and (ch.isalnum() or ch in "-_./:%+#'&@")


def _bad_break(text: str, k: int) -> bool:
    """Breaking before ``text[k]`` is not allowed."""
    before, after = text[k - 1], text[k]
    if after in CANNOT_START or before in CANNOT_END:
        return True
    return _is_word_char(before) and _is_word_char(after)


def break_lines(text: str, width_of: Callable[[str], float], max_width: float) -> list[str]:
    """Break ``text`` into lines no wider than ``max_width``.

    ``width_of(s)`` gives the width of a string. Newlines force a break. A line never starts
    with a :data:`CANNOT_START` mark nor ends with a :data:`CANNOT_END` one, unless a single
    unbreakable run is wider than the column (then it is cut where it must be).

    >>> w = lambda s: 10.0 * len(s)
    >>> break_lines("甲乙丙丁，戊己", w, 40)
    ['甲乙丙', '丁，戊己']
    >>> break_lines("score 120 points", w, 100)
    ['score 120', 'points']
    """
    lines: list[str] = []
    for para in text.split("\n"):
        lines.extend(_break_paragraph(para, width_of, max_width))
    return lines


def _break_paragraph(text: str, width_of: Callable[[str], float], max_width: float) -> list[str]:
    text = text.rstrip()
    if not text:
        return [""]
    widths = [width_of(ch) for ch in text]
    lines: list[str] = []
    start = 0
    n = len(text)
    while start < n:
        while start < n and text[start] == " ":
            start += 1
        if start >= n:
            break
        used = 0.0
        i = start
        while i < n and used + widths[i] <= max_width + 1e-6:
            used += widths[i]
            i += 1
        if i >= n:
            lines.append(text[start:].rstrip())
            break
        if i == start:  # not even one glyph fits: take it anyway so the text progresses
            i = start + 1
        k = i
        while k > start + 1 and text[k] != " " and _bad_break(text, k):
            k -= 1
        if k <= start + 1 and text[i] != " " and _bad_break(text, i):
            k = i  # one unbreakable run wider than the column: cut it
        lines.append(text[start:k].rstrip())
        start = k
    return lines


def make_cjk_paragraph_class() -> Any:
    """:class:`reportlab.platypus.Paragraph` whose single-style CJK text uses :func:`break_lines`."""
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.platypus import Paragraph

    class CJKParagraph(Paragraph):
        """A paragraph with ``wordWrap="CJK"``; plain text breaks by Chinese rules."""

        def breakLinesCJK(self, maxWidths: Any) -> Any:  # noqa: N802 - reportlab's name
            frags = self.frags
            style = self.style
            if (
                len(frags) != 1
                or hasattr(frags[0], "cbDefn")
                or style.endDots
                or not hasattr(frags[0], "text")
                or self.bulletText
            ):
                return super().breakLinesCJK(maxWidths)
            if hasattr(self, "blPara") and getattr(self, "_splitpara", False):
                return frags[0].clone(kind=0, lines=self.blPara.lines)
            f = frags[0]
            if not isinstance(maxWidths, (list, tuple)):
                maxWidths = [maxWidths]
            width = min(maxWidths)

            def width_of(s: str) -> float:
                return float(stringWidth(s, f.fontName, f.fontSize))

            lines = break_lines(f.text, width_of, width)
            wrapped = [(width - width_of(line), [line]) for line in lines]
            return f.clone(kind=0, lines=wrapped, ascent=f.fontSize, descent=-0.2 * f.fontSize)

    return CJKParagraph


_cjk_class: Any = None


def cjk_paragraph(text: str, style: Any) -> Any:
    """A :class:`CJKParagraph` of plain ``text`` (escaped; newlines become spaces)."""
    global _cjk_class
    if _cjk_class is None:
        _cjk_class = make_cjk_paragraph_class()
    return _cjk_class(markup(" ".join(text.split("\n"))), style)


# -- characters the main font lacks (CJK extensions: 𠮷, 䶮 …) ---------------------------------
#: TrueType fonts tried, in order, for a character WenQuanYi Micro Hei lacks: those named in
#: ``REFEREE_APP_FALLBACK_FONTS`` (paths separated by the system's path separator), TrueType
#: files under ``resources/fonts/fallback/``, then the system's: Debian's fonts-hanazono
#: (HanaMinA/HanaMinB, GlyphWiki's Hanazono Mincho, Hanazono Font License or OFL-1.1),
#: Windows' SimSun-ExtB. reportlab draws TrueType outlines only (no CFF/OpenType-PS).
SYSTEM_FALLBACKS = (
    "/usr/share/fonts/truetype/hanazono/HanaMinA.ttf",
    "/usr/share/fonts/truetype/hanazono/HanaMinB.ttf",
    "C:/Windows/Fonts/simsunb.ttf",
)
FALLBACK_ENV = "REFEREE_APP_FALLBACK_FONTS"


class MissingGlyphError(ResourceError):
    """A character no available font can draw: the form is refused, never printed blank."""

    default_code = "print.missing_glyph"


def fallback_paths() -> list[Path]:
    paths = [Path(x) for x in os.environ.get(FALLBACK_ENV, "").split(os.pathsep) if x.strip()]
    bundled = resources_dir() / "fonts" / "fallback"
    if bundled.is_dir():
        paths += sorted(bundled.glob("*.ttf"))
    paths += [Path(x) for x in SYSTEM_FALLBACKS]
    return [x for x in paths if x.is_file()]


_main_chars: frozenset[int] | None = None
_fallbacks: list[tuple[str, frozenset[int]]] | None = None
_chosen: dict[str, str | None] = {}


def _covered(ch: str) -> bool:
    """The main font draws ``ch`` (or it is a control character nothing needs to draw)."""
    global _main_chars
    if ch in "\n\r\t" or ord(ch) < 0x20:
        return True
    if _main_chars is None:
        register_fonts()
        from reportlab.pdfbase import pdfmetrics

        face = pdfmetrics.getFont(FONT).face  # type: ignore[attr-defined]  # a TTFont: getFont is typed Font
        _main_chars = frozenset(face.charToGlyph)
    return ord(ch) in _main_chars


def fallback_font(ch: str) -> str | None:
    """The registered name of a fallback font that draws ``ch``, or None."""
    global _fallbacks
    if ch in _chosen:
        return _chosen[ch]
    if _fallbacks is None:
        from reportlab.pdfbase import pdfmetrics
        from reportlab.pdfbase.ttfonts import TTFont

        _fallbacks = []
        for i, path in enumerate(fallback_paths()):
            name = f"Fallback{i}"
            try:
                font = TTFont(name, str(path))
            except Exception:  # noqa: BLE001 - an unreadable font is skipped, the next one tried
                continue
            pdfmetrics.registerFont(font)
            _fallbacks.append((name, frozenset(font.face.charToGlyph)))
    found = next((name for name, chars in _fallbacks if ord(ch) in chars), None)
    _chosen[ch] = found
    return found


def font_runs(text: str) -> list[tuple[str, str]]:
    """``text`` cut into (font name, run) pieces: the main font, or a fallback font for the
    characters it lacks. :class:`MissingGlyphError` names a character no font can draw."""
    runs: list[tuple[str, str]] = []
    for ch in text:
        font = FONT if _covered(ch) else fallback_font(ch)
        if font is None:
            raise MissingGlyphError(
                f"{ch} (U+{ord(ch):04X}) in {text[:60]!r}: no font on this station can print this "
                f"character; install a TrueType font that has it (Debian: fonts-hanazono) or name "
                f"one in {FALLBACK_ENV}",
                code="print.missing_glyph",
                char=ch,
                codepoint=f"U+{ord(ch):04X}",
            )
        if runs and runs[-1][0] == font:
            runs[-1] = (font, runs[-1][1] + ch)
        else:
            runs.append((font, ch))
    return runs


def needs_fallback(text: str) -> bool:
    """Whether a character of ``text`` is missing from the main font."""
    if not text:
        return False
    if _main_chars is not None and _main_chars.issuperset(map(ord, text)):
        return False  # the common case, checked in C: every cell of every sheet asks
    return not all(_covered(ch) for ch in text)


def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` as entities (``xml.sax.saxutils.escape``, whose module imports
    urllib's client side: a tenth of a short command's start)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def markup(text: str) -> str:
    """``text`` escaped for a reportlab paragraph, with the characters the main font lacks
    set in a fallback font (never left blank)."""
    if not needs_fallback(text):
        return escape(text)
    return "".join(
        escape(run) if font == FONT else f'<font name="{font}">{escape(run)}</font>'
        for font, run in font_runs(text)
    )


def _to_unicode_cmap(fontname: str, subset: list[int]) -> str:
    """reportlab's ToUnicode CMap, with characters beyond U+FFFF written as UTF-16
    surrogate pairs (reportlab writes 5 hex digits, and 𠮷 extracts as ₻)."""

    def utf16(v: int) -> str:
        if v > 0xFFFF:
            v -= 0x10000
            return f"{0xD800 + (v >> 10):04X}{0xDC00 + (v & 0x3FF):04X}"
        return f"{v:04X}"

    cmap = [
        "/CIDInit /ProcSet findresource begin",
        "12 dict begin",
        "begincmap",
        "/CIDSystemInfo",
        f"<< /Registry ({fontname})",
        f"/Ordering ({fontname})",
        "/Supplement 0",
        ">> def",
        f"/CMapName /{fontname} def",
        "/CMapType 2 def",
        "1 begincodespacerange",
        f"<00> <{len(subset) - 1:02X}>",
        "endcodespacerange",
        f"{len(subset)} beginbfchar",
        *[f"<{i:02X}> <{utf16(v)}>" for i, v in enumerate(subset)],
        "endbfchar",
        "endcmap",
        "CMapName currentdict /CMap defineresource pop",
        "end",
        "end",
    ]
    return "\n".join(cmap)


def cjk_paragraphs(text: str, style: Any) -> list[Any]:
    """One :func:`cjk_paragraph` per line of ``text`` (blank lines dropped)."""
    return [cjk_paragraph(p, style) for p in text.split("\n") if p.strip()] or [cjk_paragraph("", style)]
