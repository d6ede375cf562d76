"""Where referee-app finds its shipped files and keeps the user's files.

Shipped files — the rulebooks (``rules/``), the form templates (``forms/``) and the font,
icons and the message catalogue (``resources/``) — live at the top of the repository. The wheel and
the desktop bundle carry them inside the package (``referee_app/rules``, …); a checkout
(editable install, tests) has them next to the package. Each can be pointed elsewhere with
an environment variable (``REFEREE_APP_RULES``, ``REFEREE_APP_FORMS``,
``REFEREE_APP_RESOURCES``).

The user's files go where the platform expects them (``platformdirs``): the event store in
the data folder, the rulebook cache in the cache folder, the log in the log folder.

Pure standard library plus platformdirs: the domain core imports this module.
"""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "referee-app"
#: The bundled CJK font (resources/fonts/): the window shows it and the printed forms embed it.
FONT_FILE = "wqy-microhei.ttc"

_SHIPPED_ENV = {
    "rules": "REFEREE_APP_RULES",
    "forms": "REFEREE_APP_FORMS",
    "resources": "REFEREE_APP_RESOURCES",
    "examples": "REFEREE_APP_EXAMPLES",
}
#: Where a checkout keeps a shipped folder that is not at the top of the repository: the
#: example cases are the tests' clause and combination cases (one set, judged by the tests
#: and shown by the trial bench, ``rules try``).
_IN_CHECKOUT = {"examples": ("tests", "cases")}


def shipped_dir(name: str) -> Path:
    """The folder of shipped files ``name`` (``rules``, ``forms`` or ``resources``)."""
    configured = os.environ.get(_SHIPPED_ENV[name])
    if configured:
        return Path(configured)
    # Installed (wheel, PyInstaller bundle): inside the package (the package's folder, not
    # importlib.resources: its import alone is some 7 ms of every `judge`, issue 23). A
    # package imported from a zip would have no folder; the app is never shipped that way.
    package = Path(__file__).resolve().parent
    inside = package / name
    if inside.is_dir():
        return inside
    return package.parent.joinpath(*_IN_CHECKOUT.get(name, (name,)))  # a checkout


def rules_dir() -> Path:
    return shipped_dir("rules")


def forms_dir() -> Path:
    return shipped_dir("forms")


def resources_dir() -> Path:
    return shipped_dir("resources")


def examples_dir() -> Path:
    """The bundled example cases (案例), by event, that the trial bench judges."""
    return shipped_dir("examples")


def manual_dir() -> Path:
    """The manual (使用手册, Markdown) shipped with the app: ``docs/manual/`` of a checkout,
    ``referee_app/manual`` inside the wheel and the bundle; the window's F1 reads it offline."""
    package = Path(__file__).resolve().parent
    inside = package / "manual"
    return inside if inside.is_dir() else package.parent / "docs" / "manual"


def font_path() -> Path:
    """The bundled CJK font file (文泉驿微米黑)."""
    return resources_dir() / "fonts" / FONT_FILE


def user_data_dir() -> Path:
    """The event store's default folder."""
    import platformdirs

    return Path(platformdirs.user_data_path(APP_NAME, appauthor=False))


def user_cache_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_path(APP_NAME, appauthor=False))


def user_log_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_log_path(APP_NAME, appauthor=False))
