"""The licences of everything the desktop bundle ships (issue 28): write_licences (run by
packaging/referee-app.spec) copies each bundled distribution's licence texts from its
installed metadata, with Qt's LGPL (its wheels carry none), Python's, and the font's, and
lists them; the bundle leaves numpy out, so its licence is not listed."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

from referee_app.app.licences import (
    PSYCOPG_LIBRARIES,
    QT_NOTICE,
    Component,
    read_index,
    third_party,
    write_licences,
)

#: what packaging/referee-app.spec adds when the build environment has the PostgreSQL driver
DRIVER = ("psycopg", "psycopg-binary")


def test_every_bundled_component_gets_its_licence_texts_and_a_line_in_the_listing(tmp_path: Path) -> None:
    folder = tmp_path / "licences"
    components = write_licences(folder, exclude=("numpy",))
    by_name = {c.name.lower(): c for c in components}
    for needed in (
        "pyside6_essentials",
        "shiboken6",
        "reportlab",
        "sqlalchemy",
        "openpyxl",
        "certifi",
        "pyhanko",
    ):
        assert needed in by_name or needed.replace("_", "-") in by_name, needed
    assert "numpy" not in by_name  # the bundle leaves it out (tests/test_bundle_lean.py)
    for component in components:
        sizes = [(folder / name).stat().st_size for name in component.files]
        assert sizes and max(sizes) > 500, f"{component.name}: no licence text ({component.files})"
    assert by_name["certifi"].licence == "MPL-2.0"
    assert by_name["reportlab"].licence.startswith("BSD")
    assert by_name["sqlalchemy"].version == metadata.version("sqlalchemy")
    qt = by_name["pyside6_essentials"]
    assert "LGPL-3.0" in qt.licence
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in (folder / qt.files[0]).read_text(encoding="utf-8")
    assert "Python Software Foundation" in (folder / by_name["python"].files[0]).read_text(encoding="utf-8")
    font = next(c for c in components if c.name.startswith("WenQuanYi"))
    assert "Apache" in (folder / font.files[0]).read_text(encoding="utf-8")

    listing = (folder / "LICENCES.txt").read_text(encoding="utf-8")
    for component in components:
        assert f"{component.name} {component.version}: {component.licence}" in listing
    assert QT_NOTICE["zh"] in listing and QT_NOTICE["en"] in listing
    assert read_index(folder) == components


def test_from_a_python_environment_the_list_comes_from_the_installed_metadata() -> None:
    names = {c.name.lower().replace("_", "-") for c in third_party()}
    assert {"python", "pyside6-essentials", "reportlab", "pyhanko", "rustworkx"} <= names
    assert "referee-app" not in names and "pytest" not in names  # the app's own; a test tool


def _driver_listing(tmp_path: Path, platform: str) -> tuple[dict[str, Component], Path]:
    folder = tmp_path / platform
    components = write_licences(folder, exclude=("numpy",), also=DRIVER, platform=platform)
    return {c.name: c for c in components}, folder


def test_with_the_postgresql_driver_the_libraries_its_wheel_carries_are_listed_with_their_texts(
    tmp_path: Path,
) -> None:
    linux, folder = _driver_listing(tmp_path, "linux")
    assert "psycopg-binary" in {n.lower() for n in linux}
    version = metadata.version("psycopg-binary")
    listing = (folder / "LICENCES.txt").read_text(encoding="utf-8")
    for library in PSYCOPG_LIBRARIES:
        component = linux[f"{library.name} in psycopg-binary"]
        assert f"{component.name} {version}: {library.licence}" in listing
        assert [Path(f).name for f in component.files] == list(library.texts)
    libpq = (folder / linux["libpq (PostgreSQL) in psycopg-binary"].files[0]).read_text(encoding="utf-8")
    assert "PostgreSQL Global Development Group" in libpq
    openssl = linux["OpenSSL in psycopg-binary"]
    assert "Apache License" in (folder / openssl.files[1]).read_text(encoding="utf-8")


def test_the_windows_listing_names_only_what_the_windows_wheel_carries(tmp_path: Path) -> None:
    windows, _ = _driver_listing(tmp_path, "win32")
    inside = sorted(n for n in windows if n.endswith(" in psycopg-binary"))
    assert inside == ["OpenSSL in psycopg-binary", "libpq (PostgreSQL) in psycopg-binary"]


def test_without_the_driver_none_of_its_libraries_is_listed(tmp_path: Path) -> None:
    components = write_licences(tmp_path / "licences", exclude=("numpy",), platform="linux")
    assert not [c for c in components if "psycopg" in c.name.lower()]
