"""QR codes: reportlab's QR encoder (pure Python), made fast where a round's PDF spends its
time, and the one place the app makes a QR code's modules: the printed forms draw them
(:class:`~.render.QRFlowable`), the window and the hall display paint them (through
``app.printouts.qr_modules``).

Importing this module loads no reportlab drawing code: the encoder is loaded alone."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from operator import itemgetter
from pathlib import Path
from typing import Any

#: The QR's mask pattern, fixed: choosing the best of the 8 (reportlab's ``make()``) scores
#: every mask in pure Python, 8 encodings for one code, and any mask decodes the same.
QR_MASK = 0


def _qrencoder() -> Any:
    """reportlab's QR encoder module (pure Python, standard library only), loaded without
    its package: ``reportlab.graphics.barcode`` registers every barcode widget on import
    (30 ms) and the forms use none of them."""
    import importlib.util
    import sys

    name = "reportlab.graphics.barcode.qrencoder"
    found = sys.modules.get(name)
    if found is None:
        import reportlab

        where = Path(reportlab.__file__).parent / "graphics" / "barcode" / "qrencoder.py"
        if not where.is_file():  # a desktop bundle keeps only bytecode: the package's way
            from reportlab.graphics.barcode import qrencoder

            return qrencoder
        spec = importlib.util.spec_from_file_location(name, where)
        assert spec is not None and spec.loader is not None
        found = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(found)
        sys.modules[name] = found  # the package, if imported later, uses this one
    return found


def qr_codewords(version: int, level: int, data_list: Sequence[Any]) -> list[int]:
    """The code's data and error-correction codewords, interleaved: what reportlab's
    ``QRCode.createData`` returns, with the Reed–Solomon remainders taken by table lookups
    against generator polynomials made once (reportlab rebuilds each polynomial and divides
    through lists of objects: two thirds of a sheet's QR time)."""
    from itertools import chain, zip_longest

    qrencoder = _qrencoder()

    blocks = qrencoder.QRRSBlock.getRSBlocks(version, level)
    buffer = _Bits()
    for data in data_list:
        data.write(buffer, version)
    capacity = sum(b.dataCount for b in blocks) * 8
    if buffer.getLengthInBits() > capacity:
        raise ValueError(f"QR code length overflow ({buffer.getLengthInBits()} > {capacity})")
    if buffer.getLengthInBits() + 4 <= capacity:
        buffer.put(0, 4)  # the end mark
    while buffer.getLengthInBits() % 8:
        buffer.putBit(False)
    pads = (qrencoder.QRCode.PAD0, qrencoder.QRCode.PAD1)
    k = 0
    while buffer.getLengthInBits() < capacity:
        buffer.put(pads[k % 2], 8)
        k += 1
    data_blocks, ec_blocks = [], []
    offset = 0
    for block in blocks:
        words = buffer.buffer[offset : offset + block.dataCount]
        offset += block.dataCount
        data_blocks.append(words)
        ec_blocks.append(_rs_remainder(words, block.totalCount - block.dataCount))
    return [
        w
        for group in chain(zip_longest(*data_blocks), zip_longest(*ec_blocks))
        for w in group
        if w is not None
    ]


class _Bits:
    """reportlab's ``QRBitBuffer`` (what the QR's data segments write into) as one integer:
    its own appends a bit at a time."""

    def __init__(self) -> None:
        self.value = 0
        self.length = 0

    def put(self, num: int, length: int) -> None:
        self.value = (self.value << length) | (num & ((1 << length) - 1))
        self.length += length

    def putBit(self, bit: bool) -> None:  # noqa: N802 - reportlab's name
        self.put(1 if bit else 0, 1)

    def getLengthInBits(self) -> int:  # noqa: N802 - reportlab's name
        return self.length

    @property
    def buffer(self) -> list[int]:
        n = (self.length + 7) // 8
        return list((self.value << (n * 8 - self.length)).to_bytes(n, "big"))


@cache
def _qr_template(version: int) -> tuple[list[list[bool]], list[tuple[int, int]], list[bool]]:
    """A level-M code of ``version`` with :data:`QR_MASK` as reportlab lays it out with no
    data (finder, timing and format patterns, the mask over the data area), where its data
    bits go in order (column, row), and the mask at each: the same for every code of the
    version, so a sheet's code only sets its data bits (reportlab walks and masks the whole
    matrix for each)."""
    qrencoder = _qrencoder()

    level = qrencoder.QRErrorCorrectLevel.M
    qr = qrencoder.QRCode(version, level)
    qr.dataCache = [0] * sum(b.totalCount for b in qrencoder.QRRSBlock.getRSBlocks(version, level))
    qr.makeImpl(False, QR_MASK)
    n = qr.getModuleCount()
    template = [[bool(qr.isDark(r, c)) for c in range(n)] for r in range(n)]
    positions = list(qr.dataPosIterator())
    return template, positions, [template[r][c] for c, r in positions]


@cache
def _qr_layout(version: int) -> tuple[int, int, Callable[[list[bool]], tuple[bool, ...]], int]:
    """For a code of ``version`` (:func:`_qr_template`): its size, how many data modules,
    what picks the matrix row by row from the masked data bits followed by a light and a
    dark module, and the mask over the data bits as an integer (the first bit highest)."""
    template, positions, masked = _qr_template(version)
    n, length = len(template), len(positions)
    order = {pos: i for i, pos in enumerate(positions)}  # (column, row) → its data bit
    picks = [order.get((c, r), length + 1 if template[r][c] else length) for r in range(n) for c in range(n)]
    mask = int("".join("1" if m else "0" for m in masked) or "0", 2)
    return n, length, itemgetter(*picks), mask


#: ``0``/``1`` characters to the bytes 0 and 1.
_BITS = bytes.maketrans(b"01", b"\x00\x01")


def _gf_tables() -> tuple[list[int], list[int]]:
    exp = [0] * 256
    x = 1
    for i in range(255):
        exp[i] = x
        x <<= 1
        if x & 0x100:
            x ^= 0x11D  # the QR code's field polynomial
    exp[255] = exp[0]
    log = [0] * 256
    for i in range(255):
        log[exp[i]] = i
    return exp, log


_EXP, _LOG = _gf_tables()
#: Per number of error-correction codewords, per factor, what the factor times the
#: generator polynomial adds to the remainder (:func:`_rs_remainder`).
_RS_TABLES: dict[int, list[list[int]]] = {}


def _rs_remainder(words: Sequence[int], ec: int) -> list[int]:
    """The ``ec`` error-correction codewords of ``words`` (remainder of the division by the
    generator polynomial of degree ``ec``), as a shift register whose feedback, a factor
    times the generator, is looked up (each word one row, not ``ec`` multiplications)."""
    table = _RS_TABLES.get(ec)
    if table is None:
        poly = [1]
        for i in range(ec):
            nxt = poly + [0]
            for j, coef in enumerate(poly):
                if coef:
                    nxt[j + 1] ^= _EXP[(_LOG[coef] + i) % 255]
            poly = nxt
        gen = [_LOG[c] if c else -1 for c in poly[1:]]  # after the leading 1, as logarithms
        table = [[0] * ec]
        for factor in range(1, 256):
            lf = _LOG[factor]
            table.append([_EXP[(lf + g) % 255] if g >= 0 else 0 for g in gen])
        _RS_TABLES[ec] = table
    rem = [0] * ec
    for word in words:
        feedback = table[word ^ rem[0]]
        rem = [a ^ b for a, b in zip(rem[1:], feedback, strict=False)]  # its last term: below
        rem.append(feedback[-1])
    return rem


def qr_modules(payload: str) -> list[list[bool]]:
    """The QR code of ``payload`` (level M, mask :data:`QR_MASK`, the smallest version that
    holds it) as rows of modules, True for dark, without the quiet zone. ASCII payloads."""
    qrencoder = _qrencoder()

    qr = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    qr.addData(payload)
    version = qr.calculate_version()
    words = qr_codewords(version, qr.errorCorrectLevel, qr.dataList)
    # what reportlab's makeImpl lays out, from the version's fixed patterns and mask:
    # the data bits (zeros after the last codeword) masked, in their order, then each
    # module picked from them or from the fixed patterns in one C call
    n, length, pick, mask = _qr_layout(version)
    data = int.from_bytes(bytes(words), "big")
    extra = length - 8 * len(words)
    data = data << extra if extra >= 0 else data >> -extra
    values = list(map(bool, format(data ^ mask, f"0{length}b").encode().translate(_BITS)))
    flat = pick([*values, False, True])  # the last two: the fixed patterns' light, dark
    return [list(flat[r * n : (r + 1) * n]) for r in range(n)]
