"""The licences of the app and of everything it ships (关于 / About, issue 28).

The desktop bundle carries each third-party licence text: at build time
(``packaging/referee-app.spec``) :func:`write_licences` copies them from the installed
distributions' metadata (their ``License-File`` texts, the ``License-Expression`` or
``License`` field) into ``licences/`` with a listing, ``LICENCES.txt``, and an index the
window's 关于 dialog reads (:func:`third_party`). Run from a venv, the dialog lists the same
from the installed metadata.

Qt and PySide6 ship no licence text in their wheels: the LGPL-3.0 (and the GPL-3.0 it builds
on) come from ``resources/licences/``, and so do those of the libraries inside psycopg-binary's
wheels (libpq, OpenSSL, …; :data:`PSYCOPG_LIBRARIES`). Standard library only: it runs inside the bundle too.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path

from ..locations import resources_dir

ROOT_DISTRIBUTION = "referee-app"
INDEX = "index.json"
LISTING = "LICENCES.txt"
#: Qt's packages: used under the LGPL-3.0 (their wheels carry no licence file)
QT = ("pyside6-essentials", "pyside6-pdf", "shiboken6")
QT_TEXTS = ("LGPL-3.0.txt", "GPL-3.0.txt")
#: Qt's LGPL asks that a user can replace its libraries and get its source: the one-folder
#: bundle keeps them as ordinary files, and the source is Qt's own.
QT_NOTICE = {
    "zh": "Qt 6 与 PySide6（Qt for Python）按 GNU 宽通用公共许可证第 3 版（LGPL-3.0，全文在 licences/）"
    "使用。Qt 的库是本软件文件夹中的独立文件，可换成兼容的版本。其源代码由 Qt 公司发布"
    "（https://download.qt.io/official_releases/ 、https://code.qt.io/）。",
    "en": "Qt 6 and PySide6 (Qt for Python) are used under the GNU Lesser General Public License "
    "v3 (LGPL-3.0; texts in licences/). The Qt libraries are separate files in the app's "
    "folder and may be replaced by compatible builds. Their source code is published by the "
    "Qt Company (https://download.qt.io/official_releases/, https://code.qt.io/).",
}
#: psycopg-binary, the PostgreSQL driver's compiled part: its wheels carry libpq and the
#: libraries libpq links (``psycopg_binary.libs/`` on Windows and Linux, ``.dylibs/`` on macOS),
#: whose licences its metadata lacks. Their texts are in ``resources/licences/psycopg-binary/``
#: (each upstream project's copyright and licence file as Debian ships it, and the full texts
#: those refer to); the libraries of psycopg-binary 3.3.9's wheels, read off them.
PSYCOPG_BINARY = "psycopg-binary"
PSYCOPG_TEXTS = "psycopg-binary"


@dataclass(frozen=True)
class Library:
    """A library inside a wheel, not a distribution of its own: its licence, its texts (in
    ``resources/licences/psycopg-binary/``) and the systems (``sys.platform``) whose wheel has it."""

    name: str
    licence: str
    texts: tuple[str, ...]
    systems: tuple[str, ...]


_EVERY_SYSTEM = ("win32", "darwin", "linux")
PSYCOPG_LIBRARIES = (
    Library("libpq (PostgreSQL)", "PostgreSQL", ("libpq.txt",), _EVERY_SYSTEM),
    Library("OpenSSL", "Apache-2.0", ("openssl.txt", "Apache-2.0.txt"), _EVERY_SYSTEM),
    Library("krb5 (MIT Kerberos, with its com_err)", "MIT", ("krb5.txt",), ("darwin", "linux")),
    Library("OpenLDAP (libldap, liblber)", "OLDAP-2.8", ("openldap.txt",), ("darwin", "linux")),
    Library("com_err (e2fsprogs)", "MIT", ("com_err.txt",), ("linux",)),
    Library("Cyrus-SASL (libsasl2)", "BSD-Attribution-HPND-disclaimer", ("cyrus-sasl.txt",), ("linux",)),
    Library("keyutils (libkeyutils)", "LGPL-2.1-or-later", ("keyutils.txt", "LGPL-2.1.txt"), ("linux",)),
    Library("libcrypt", "LGPL-2.1-or-later", ("libcrypt.txt", "LGPL-2.1.txt"), ("linux",)),
)
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*")
_LICENCE_FILE = re.compile(r"(LICEN[CS]E|COPYING|NOTICE|AUTHORS)", re.IGNORECASE)


@dataclass(frozen=True)
class Component:
    """One shipped component: its name, version, licence, and its texts' file names (in the
    ``licences/`` folder, when bundled)."""

    name: str
    version: str
    licence: str
    files: tuple[str, ...] = field(default=())


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def bundled_distributions(exclude: tuple[str, ...] = ()) -> list[metadata.Distribution]:
    """The installed distributions the app needs (its requirements, followed through, without
    optional extras), less ``exclude`` (distributions the bundle leaves out)."""
    seen: dict[str, metadata.Distribution] = {}
    todo = [ROOT_DISTRIBUTION]
    skip = {_canonical(n) for n in exclude}
    while todo:
        name = _canonical(todo.pop())
        if name in seen or name in skip:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue  # a requirement for another system (its marker is false here)
        seen[name] = dist
        for requirement in dist.requires or []:
            if "extra" in requirement.partition(";")[2]:
                continue
            match = _NAME.match(requirement)
            if match:
                todo.append(match.group(0))
    return [seen[n] for n in sorted(seen) if n != ROOT_DISTRIBUTION]


def licence_of(dist: metadata.Distribution) -> str:
    """A distribution's licence in one line: its SPDX expression, else its License field's
    first line, else its trove classifiers."""
    meta = dist.metadata
    expression = next(iter(meta.get_all("License-Expression") or []), None)
    if expression:
        return str(expression)
    text = str(next(iter(meta.get_all("License") or []), "")).strip()
    if text and text.upper() != "UNKNOWN":
        return text.splitlines()[0].split(" (")[0].split(",")[0][:80]  # reportlab's: a sentence
    classifiers = [
        c.split("::")[-1].strip() for c in meta.get_all("Classifier") or [] if c.startswith("License")
    ]
    return ", ".join(classifiers) or "see its licence text"


def _texts(dist: metadata.Distribution) -> list[tuple[str, Path]]:
    """The licence files of ``dist`` in its metadata folder (those its metadata names, and
    any named like one), each with the name it gets in the listing's folder."""
    named = set(dist.metadata.get_all("License-File") or [])
    found = []
    for f in dist.files or []:
        head, sep, inside = str(f).replace("\\", "/").partition(".dist-info/")
        if not sep:
            continue
        inside = inside.removeprefix("licenses/")
        if inside in named or _LICENCE_FILE.search(Path(inside).name):
            found.append((inside.replace("/", "_"), Path(str(dist.locate_file(f)))))
    return found


def _python() -> tuple[Component, list[tuple[str, Path]]]:
    import sysconfig

    version = ".".join(map(str, sys.version_info[:3]))
    text = Path(sysconfig.get_paths()["stdlib"]) / "LICENSE.txt"
    return Component("Python", version, "PSF-2.0"), [("LICENSE.txt", text)] if text.is_file() else []


def _libraries_inside(
    dist: metadata.Distribution, platform: str
) -> list[tuple[Component, list[tuple[str, Path]]]]:
    """The libraries ``dist``'s wheel for ``platform`` carries, with their licence texts."""
    if _canonical(dist.metadata["Name"]) != PSYCOPG_BINARY:
        return []
    texts = resources_dir() / "licences" / PSYCOPG_TEXTS
    return [
        (
            Component(f"{lib.name} in {PSYCOPG_BINARY}", dist.version, lib.licence),
            [(name, texts / name) for name in lib.texts],
        )
        for lib in PSYCOPG_LIBRARIES
        if platform in lib.systems
    ]


def write_licences(
    folder: Path, exclude: tuple[str, ...] = (), also: tuple[str, ...] = (), platform: str = sys.platform
) -> list[Component]:
    """Copy the licence texts of everything shipped into ``folder`` (one sub-folder each), with
    the listing and the index; ``also`` names installed distributions shipped besides the
    app's requirements (PyInstaller, whose start-up code is in every bundle; the PostgreSQL
    driver, whose wheel for ``platform`` brings libpq and the libraries it links)."""
    folder.mkdir(parents=True, exist_ok=True)
    font = resources_dir() / "fonts" / "LICENSE-wqy-microhei.txt"
    entries: list[tuple[Component, list[tuple[str, Path]]]] = [
        _python(),
        (
            Component(
                "WenQuanYi Micro Hei (文泉驿微米黑)",
                "0.2.0",
                "Apache-2.0 OR GPL-3.0-or-later WITH Font-exception-2.0",
            ),
            [("LICENSE.txt", font)],
        ),
    ]
    dists = bundled_distributions(exclude) + [metadata.distribution(n) for n in also]
    if not any(_canonical(d.metadata["Name"]) in QT for d in dists):  # the app is not installed
        raise RuntimeError(f"{ROOT_DISTRIBUTION} is not installed here: its dependencies cannot be found")
    qt_texts = [(name, resources_dir() / "licences" / name) for name in QT_TEXTS]
    for dist in dists:
        name = _canonical(dist.metadata["Name"])
        texts = _texts(dist) or (qt_texts if name in QT else [])
        entries.append((Component(dist.metadata["Name"], dist.version, licence_of(dist)), texts))
        entries += _libraries_inside(dist, platform)
    components: list[Component] = []
    for component, texts in entries:
        own = folder / _canonical(component.name.split(" ")[0])
        own.mkdir(exist_ok=True)
        names = []
        for name, source in texts:
            shutil.copyfile(source, own / name)
            names.append(f"{own.name}/{name}")
        components.append(Component(component.name, component.version, component.licence, tuple(names)))
    (folder / INDEX).write_text(
        json.dumps([asdict(c) for c in components], ensure_ascii=False, indent=1), encoding="utf-8"
    )
    lines = [
        "Third-party components shipped with referee-app, and their licences (texts in this folder).",
        "随本软件分发的第三方组件及其许可（全文在本文件夹中）。",
        "",
        *(f"{c.name} {c.version}: {c.licence}" for c in components),
        "",
        QT_NOTICE["zh"],
        QT_NOTICE["en"],
    ]
    (folder / LISTING).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return components


def licences_dir() -> Path | None:
    """The bundle's ``licences/`` folder (beside the package's shipped files), if there is one."""
    folder = Path(__file__).resolve().parents[1] / "licences"
    return folder if (folder / INDEX).is_file() else None


def read_index(folder: Path) -> list[Component]:
    """The components :func:`write_licences` listed in ``folder``."""
    rows = json.loads((folder / INDEX).read_text(encoding="utf-8"))
    return [Component(r["name"], r["version"], r["licence"], tuple(r["files"])) for r in rows]


def third_party() -> list[Component]:
    """What the 关于 dialog lists: the bundle's index, else the installed metadata."""
    folder = licences_dir()
    if folder is not None:
        return read_index(folder)
    python, _ = _python()
    return [python] + [
        Component(d.metadata["Name"], d.version, licence_of(d)) for d in bundled_distributions()
    ]
