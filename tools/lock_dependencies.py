"""The desktop bundle's lock files (issue 28): every dependency pinned with its hashes, one file
per system the release workflow builds on, so two builds of one tag install the same files.

    pip install uv && python tools/lock_dependencies.py         # after a change of dependencies

Writes ``packaging/locks/<system>.txt`` (``pip install --require-hashes -r`` reads them: the
app's dependencies, the ``bundle`` extra, PyInstaller, and the ``postgresql`` extra, the
PostgreSQL driver psycopg with its compiled libpq, psycopg-binary) and
``packaging/locks/wheels.json``, the wheel file names of every locked version. The
resolution is uv's (``uv lock``, one resolution for every system and supported Python, in a
scratch copy of ``pyproject.toml``; ``uv export`` writes it with hashes); this script only
splits it by system and keeps the wheel names, which ``tests/test_locks.py`` reads to check,
without the network, that every locked dependency has a wheel for each system at each supported Python.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from packaging.markers import Marker
from packaging.tags import Tag, compatible_tags, cpython_tags, mac_platforms
from packaging.utils import canonicalize_name, parse_wheel_filename

ROOT = Path(__file__).resolve().parents[1]
LOCKS = ROOT / "packaging" / "locks"
WHEELS = LOCKS / "wheels.json"

#: The Pythons the app supports (``requires-python``); the bundles are built with BUNDLE_PYTHON.
PYTHONS = ("3.11", "3.12", "3.13", "3.14")
BUNDLE_PYTHON = "3.12"
#: The extras the bundles carry: PyInstaller (the builder) and the PostgreSQL driver, so a
#: hall on PostgreSQL (docs/manual/hall-postgresql.md) runs the released bundle as it is.
EXTRAS = ("bundle", "postgresql")
#: The PostgreSQL driver's distributions: the ``postgresql`` extra, psycopg[binary]
DRIVER = ("psycopg", "psycopg-binary")

#: The oldest systems the bundles run on: Qt 6.12's wheels need macOS 14 and glibc 2.34
#: (the Linux runner, Ubuntu 22.04, has 2.35).
MACOS = (14, 0)
GLIBC = (2, 35)


@dataclass(frozen=True)
class System:
    """A system the release workflow builds a bundle on: its marker values and wheel platforms."""

    name: str
    markers: dict[str, str]
    platforms: tuple[str, ...]

    def environment(self, python: str) -> dict[str, str]:
        return dict(
            self.markers,
            python_version=python,
            python_full_version=f"{python}.0",
            implementation_name="cpython",
            platform_python_implementation="CPython",
        )

    def tags(self, python: str) -> set[Tag]:
        version = tuple(int(p) for p in python.split("."))
        interpreter = "cp" + python.replace(".", "")
        return set(cpython_tags(version, platforms=self.platforms)) | set(
            compatible_tags(version, interpreter, platforms=self.platforms)
        )


def _manylinux(glibc: tuple[int, int], arch: str) -> tuple[str, ...]:
    legacy = {17: "manylinux2014", 12: "manylinux2010", 5: "manylinux1"}
    tags: list[str] = []
    for minor in range(glibc[1], 4, -1):
        tags.append(f"manylinux_{glibc[0]}_{minor}_{arch}")
        if minor in legacy:
            tags.append(f"{legacy[minor]}_{arch}")
    return tuple(tags)


SYSTEMS = (
    System(
        "windows",
        {"sys_platform": "win32", "platform_system": "Windows", "platform_machine": "AMD64", "os_name": "nt"},
        ("win_amd64",),
    ),
    System(
        "macos-arm64",
        {
            "sys_platform": "darwin",
            "platform_system": "Darwin",
            "platform_machine": "arm64",
            "os_name": "posix",
        },
        tuple(mac_platforms(MACOS, "arm64")),
    ),
    System(
        "macos-x86_64",
        {
            "sys_platform": "darwin",
            "platform_system": "Darwin",
            "platform_machine": "x86_64",
            "os_name": "posix",
        },
        tuple(mac_platforms(MACOS, "x86_64")),
    ),
    System(
        "linux",
        {
            "sys_platform": "linux",
            "platform_system": "Linux",
            "platform_machine": "x86_64",
            "os_name": "posix",
        },
        _manylinux(GLIBC, "x86_64"),
    ),
)


@dataclass(frozen=True)
class Pin:
    """One locked requirement: ``name==version ; marker`` and its hashes."""

    name: str
    version: str
    marker: str | None
    hashes: tuple[str, ...]

    def applies(self, system: System, python: str) -> bool:
        return self.marker is None or Marker(self.marker).evaluate(system.environment(python))

    def line(self) -> str:
        head = f"{self.name}=={self.version}" + (f" ; {self.marker}" if self.marker else "")
        return " \\\n    ".join([head, *(f"--hash={h}" for h in self.hashes)])


_PIN = re.compile(r"^(?P<name>[A-Za-z0-9._-]+)==(?P<version>[^ ;\\]+)\s*(?:;\s*(?P<marker>[^\\]+?))?\s*\\?$")


def read_pins(text: str) -> list[Pin]:
    """The pins of a requirements file written by ``uv export`` or by this script."""
    pins: list[Pin] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = _PIN.match(lines[i])
        i += 1
        if not m:
            continue
        hashes: list[str] = []
        while i < len(lines) and lines[i].strip().startswith("--hash="):
            hashes.append(lines[i].strip().removeprefix("--hash=").rstrip(" \\"))
            i += 1
        pins.append(Pin(canonicalize_name(m["name"]), m["version"], m["marker"], tuple(hashes)))
    return pins


def lock_file(system: System) -> Path:
    return LOCKS / f"{system.name}.txt"


def wheel_problems(pins: list[Pin], wheels: dict[str, list[str]]) -> Iterator[str]:
    """One line for each locked dependency that has no wheel for a system at a Python."""
    for system in SYSTEMS:
        for python in PYTHONS:
            tags = system.tags(python)
            for pin in pins:
                if not pin.applies(system, python):
                    continue
                files = wheels.get(f"{pin.name}=={pin.version}", [])
                if not any(parse_wheel_filename(f)[3] & tags for f in files):
                    yield f"{pin.name}=={pin.version}: no wheel for {system.name} at Python {python}"


def driver_problems(system: System, pins: list[Pin]) -> Iterator[str]:
    """One line for each supported Python at which ``system``'s lock lacks the PostgreSQL
    driver (psycopg and its compiled libpq, psycopg-binary): its bundle could not open a
    hall's PostgreSQL store."""
    for python in PYTHONS:
        here = {p.name for p in pins if p.applies(system, python)}
        for name in DRIVER:
            if name not in here:
                yield f"{name}: not in {system.name}'s lock at Python {python} (the PostgreSQL driver)"


def _uv() -> str:
    beside = Path(sys.executable).parent / ("uv.exe" if sys.platform == "win32" else "uv")
    found = str(beside) if beside.is_file() else shutil.which("uv")
    if found is None:
        raise SystemExit("uv is not installed: pip install uv")
    return found


def _wheel_names(lock: dict[str, object]) -> dict[str, list[str]]:
    names: dict[str, list[str]] = {}
    for package in lock["package"]:  # type: ignore[attr-defined]
        key = f"{canonicalize_name(package['name'])}=={package['version']}"
        names[key] = sorted(w["url"].rsplit("/", 1)[-1] for w in package.get("wheels", []))
    return names


def main() -> int:
    uv = _uv()
    with tempfile.TemporaryDirectory(prefix="referee-app-lock-") as scratch:
        work = Path(scratch)
        shutil.copy(ROOT / "pyproject.toml", work)
        shutil.copy(ROOT / "README.md", work)
        subprocess.run([uv, "lock", "--quiet"], cwd=work, check=True)
        exported = subprocess.run(
            [uv, "export", "--frozen", "--no-dev", "--no-emit-project", *(f"--extra={e}" for e in EXTRAS)]
            + ["--format", "requirements-txt", "--no-header", "--no-annotate"],
            cwd=work,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        wheels = _wheel_names(tomllib.loads((work / "uv.lock").read_text(encoding="utf-8")))
    pins = read_pins(exported)
    LOCKS.mkdir(parents=True, exist_ok=True)
    for system in SYSTEMS:
        mine = [p for p in pins if any(p.applies(system, py) for py in PYTHONS)]
        head = (
            f"# The desktop bundle's dependencies on {system.name} (Python {', '.join(PYTHONS)}; the\n"
            f"# bundle is built with {BUNDLE_PYTHON}), pinned with hashes. Written by\n"
            "# tools/lock_dependencies.py from uv's resolution of pyproject.toml: do not edit.\n"
            f"# Extras: {', '.join(EXTRAS)}; the PostgreSQL driver (psycopg, psycopg-binary with libpq)\n"
            "# is in at every Python above (its wheels exist for each system).\n"
        )
        lock_file(system).write_text(head + "".join(p.line() + "\n" for p in mine), encoding="utf-8")
    locked = {f"{p.name}=={p.version}" for p in pins}
    WHEELS.write_text(
        json.dumps({k: v for k, v in sorted(wheels.items()) if k in locked}, indent=1) + "\n",
        encoding="utf-8",
    )
    problems = list(wheel_problems(pins, wheels))
    problems += [
        line
        for system in SYSTEMS
        for line in driver_problems(system, read_pins(lock_file(system).read_text(encoding="utf-8")))
    ]
    for line in problems:
        print(line, file=sys.stderr)
    print(f"{len(pins)} pins, {len(SYSTEMS)} systems; {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
