"""The desktop bundle's lock files (issue 28): every dependency pinned with hashes for each
system the release workflow builds on, each pin with a wheel for that system at every
supported Python, read from the wheel names recorded beside the locks (no network here), and
the locks in step with pyproject.toml. tools/lock_dependencies.py writes them."""

from __future__ import annotations

import importlib.util
import json
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]


def _tool():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "lock_dependencies", ROOT / "tools" / "lock_dependencies.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["lock_dependencies"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


lock = _tool()
WHEELS: dict[str, list[str]] = json.loads(lock.WHEELS.read_text(encoding="utf-8"))


def _pins(system):  # type: ignore[no-untyped-def]
    return lock.read_pins(lock.lock_file(system).read_text(encoding="utf-8"))


def test_every_locked_dependency_has_a_wheel_for_each_system_at_each_supported_python() -> None:
    problems = [line for system in lock.SYSTEMS for line in lock.wheel_problems(_pins(system), WHEELS)]
    assert not problems, "\n".join(sorted(set(problems)))


def test_the_wheel_check_names_the_package_and_system_without_a_wheel() -> None:
    windows = next(s for s in lock.SYSTEMS if s.name == "windows")
    pins = _pins(windows)
    pillow = next(p for p in pins if p.name == "pillow")
    key = f"pillow=={pillow.version}"
    without = dict(WHEELS, **{key: [f for f in WHEELS[key] if "win_amd64" not in f]})
    problems = set(lock.wheel_problems(pins, without))
    assert f"{key}: no wheel for windows at Python 3.12" in problems
    assert not any("macos" in line or "linux" in line for line in problems)


def test_every_pin_has_hashes_and_recorded_wheels() -> None:
    for system in lock.SYSTEMS:
        pins = _pins(system)
        assert len(pins) > 30, system.name
        for pin in pins:
            assert pin.hashes and all(h.startswith("sha256:") for h in pin.hashes), (
                f"{system.name}: {pin.name}"
            )
            assert f"{pin.name}=={pin.version}" in WHEELS, f"{system.name}: {pin.name}=={pin.version}"


def test_the_locks_hold_every_dependency_of_pyproject_within_its_bounds() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = [r for extra in lock.EXTRAS for r in project["optional-dependencies"][extra]]
    wanted = [Requirement(r) for r in project["dependencies"] + extras]
    for system in lock.SYSTEMS:
        for python in lock.PYTHONS:
            env = system.environment(python)
            pins = {p.name: p for p in _pins(system) if p.applies(system, python)}
            for req in wanted:
                if req.marker is not None and not req.marker.evaluate(env):
                    continue
                name = lock.canonicalize_name(req.name)
                assert name in pins, (
                    f"{name}: not in {system.name}'s lock at {python} (run tools/lock_dependencies.py)"
                )
                assert req.specifier.contains(pins[name].version), (
                    f"{name}=={pins[name].version} in {system.name}'s lock is outside {req.specifier} "
                    "(run tools/lock_dependencies.py)"
                )


def test_every_lock_carries_the_postgresql_driver_at_each_supported_python() -> None:
    assert "postgresql" in lock.EXTRAS
    problems = [line for system in lock.SYSTEMS for line in lock.driver_problems(system, _pins(system))]
    assert not problems, "\n".join(problems)


def test_a_lock_without_the_compiled_driver_is_a_problem_named_for_its_system() -> None:
    windows = next(s for s in lock.SYSTEMS if s.name == "windows")
    pins = [p for p in _pins(windows) if p.name != "psycopg-binary"]
    problems = list(lock.driver_problems(windows, pins))
    assert problems == [
        f"psycopg-binary: not in windows's lock at Python {python} (the PostgreSQL driver)"
        for python in lock.PYTHONS
    ]


def test_the_release_workflow_installs_the_bundle_from_its_systems_lock() -> None:
    text = (ROOT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    assert "--require-hashes" in text and "packaging/locks/${{ matrix.platform }}.txt" in text
    assert f'python-version: "{lock.BUNDLE_PYTHON}"' in text
    for system in lock.SYSTEMS:
        assert f"platform: {system.name}" in text
