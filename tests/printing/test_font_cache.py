"""Issue 11 (printing): the parsed font faces kept in the user's cache folder. A sheet
printed from the cache is the same sheet; a damaged entry is parsed again, never trusted."""

from __future__ import annotations

import hashlib
import hmac
import marshal
import subprocess
from pathlib import Path

from .conftest import requires_poppler
from .helpers import CASE, pdftotext, run_cli


def _print(tmp_path: Path, cache: Path, name: str, **env: str) -> Path:
    out = tmp_path / f"{name}.pdf"
    proc = run_cli(
        "print", "scoresheet", "--case", str(CASE), "-o", str(out), env={"XDG_CACHE_HOME": str(cache), **env}
    )
    assert proc.returncode == 0, proc.stderr
    return out


def _fonts(pdf: Path) -> list[str]:
    out = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
    return sorted(line.split()[0].split("+", 1)[-1] for line in out.splitlines()[2:])


@requires_poppler
def test_a_sheet_printed_from_the_cached_faces_is_the_same_sheet(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = _print(tmp_path, cache, "parsed")
    entries = sorted(p.name for p in (cache / "referee-app" / "fonts").iterdir())
    assert entries == ["wqy-microhei-0.face", "wqy-microhei-1.face"]  # the digest face too
    second = _print(tmp_path, cache, "cached")
    assert pdftotext(second) == pdftotext(first)
    assert (
        _fonts(second)
        == _fonts(first)
        == sorted(["WenQuanYiMicroHei-0", "WenQuanYiMicroHei-0", "WenQuanYiMicroHeiMono-1"])
    )


@requires_poppler
def test_a_damaged_face_entry_is_parsed_again_and_rewritten(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    good = _print(tmp_path, cache, "good")
    entry = cache / "referee-app" / "fonts" / "wqy-microhei-0.face"
    whole = entry.read_bytes()
    damaged = whole[:1000] + b"\0" * 64 + whole[1064:]  # same size, some bytes changed
    entry.write_bytes(damaged)
    again = _print(tmp_path, cache, "again")
    assert pdftotext(again) == pdftotext(good)
    rewritten = entry.read_bytes()
    assert rewritten != damaged and _signed(rewritten, tmp_path)


def _secret(tmp_path: Path) -> bytes:
    """The installation's secret of the runs above (their data folder is the session's)."""
    from referee_app.core.validated import installation_secret

    secret = installation_secret(create=False)
    assert secret is not None
    return secret


def _signed(blob: bytes, tmp_path: Path) -> bool:
    return hmac.new(_secret(tmp_path), blob[32:], hashlib.sha256).digest() == blob[:32]


@requires_poppler
def test_a_forged_face_entry_is_never_printed_from(tmp_path: Path) -> None:
    """Issue 24 item 4, for the faces: an entry edited with its plain SHA-256 made again
    (the check entries carried before) is parsed afresh, not trusted."""
    cache = tmp_path / "cache"
    good = _print(tmp_path, cache, "good")
    entry = cache / "referee-app" / "fonts" / "wqy-microhei-0.face"
    stamp, fields = marshal.loads(entry.read_bytes()[32:])
    assert b"WenQuanYiMicroHei" in fields["name"]
    fields["name"] = bytes(fields["name"]).replace(b"WenQuanYiMicroHei", b"ForgedFaceForgery")
    body = marshal.dumps((stamp, fields))
    entry.write_bytes(hashlib.sha256(body).digest() + body)
    again = _print(tmp_path, cache, "again")
    assert _fonts(again) == _fonts(good) and "ForgedFaceForgery" not in " ".join(_fonts(again))
    rewritten = entry.read_bytes()
    assert _signed(rewritten, tmp_path) and b"ForgedFaceForgery" not in rewritten


def test_no_cache_leaves_the_cache_folder_alone(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _print(tmp_path, cache, "uncached", REFEREE_APP_NO_CACHE="1")
    assert not (cache / "referee-app" / "fonts").exists()


def test_the_cached_face_holds_what_reportlab_parsed(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    """The tables kept as arrays come back equal, in order and of the same number types
    (reportlab writes a subset's widths from them); glyphToChar, unpacked when first read."""
    from reportlab.pdfbase.ttfonts import TTFont

    from referee_app.printing import fonts

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("REFEREE_APP_NO_CACHE", raising=False)
    path = fonts.font_path()
    parsed = TTFont("ParsedFace", str(path), subfontIndex=1).face
    fonts._face_cache_write(path, 1, parsed)
    assert fonts._face_cache_file(path, 1).is_relative_to(tmp_path)
    cached = fonts.load_face("CachedFace", path, 1).face
    assert "glyphToChar" not in cached.__dict__  # not unpacked until asked for
    for name, value in parsed.__dict__.items():
        if name == "_pdfScale":
            continue
        again = getattr(cached, name)
        assert again == value, name
        if isinstance(value, dict):
            assert list(again.items()) == list(value.items()), name
            assert [type(v) for v in again.values()] == [type(v) for v in value.values()], name
        elif isinstance(value, list):
            flat = [type(x) for v in value for x in (v if isinstance(v, tuple) else (v,))]
            assert [type(x) for v in again for x in (v if isinstance(v, tuple) else (v,))] == flat, name
    assert len(parsed.hmetrics) > 30000 and len(parsed.charToGlyph) > 30000
