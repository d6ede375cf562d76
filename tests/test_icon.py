"""The Windows icon (issue 28): packaging/referee-app.ico holds every size Windows picks from
(16 to 256 pixels), each the app's red card scaled from resources/icons/referee-app.png, read
back with Pillow."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageChops, ImageStat

ROOT = Path(__file__).resolve().parents[1]
ICO = ROOT / "packaging" / "referee-app.ico"
PNG = ROOT / "resources" / "icons" / "referee-app.png"
SIZES = (16, 24, 32, 48, 64, 128, 256)


def test_the_windows_icon_holds_each_size_from_16_to_256() -> None:
    with Image.open(ICO) as ico:
        assert sorted(ico.ico.sizes()) == [(s, s) for s in SIZES]  # type: ignore[attr-defined]


def test_each_size_of_the_icon_is_the_card_of_the_png_scaled_down() -> None:
    with Image.open(PNG) as png, Image.open(ICO) as ico:
        for size in SIZES:
            frame = ico.ico.getimage((size, size)).convert("RGBA")  # type: ignore[attr-defined]
            assert frame.size == (size, size)
            expected = png.convert("RGBA").resize((size, size), Image.Resampling.LANCZOS)
            diff = ImageStat.Stat(ImageChops.difference(frame, expected)).mean
            assert max(diff) < 8, f"{size}px differs from the PNG: {diff}"
            # the corners are transparent, the card's middle is opaque and red
            assert frame.getpixel((0, 0))[3] < 16, size
            r, g, b, a = frame.getpixel((round(size * 0.2), round(size * 0.85)))
            assert a > 250 and r > 150 and g < 100, (size, (r, g, b, a))
