"""The language a station speaks when nobody has chosen one."""

from __future__ import annotations

import locale
import os


def default_lang() -> str:
    """Chinese unless the user's locale is clearly another language.

    The one rule for the command line and the window: the first of ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``, ``LANGUAGE`` that is set decides, else the system locale
    (Windows, macOS apps started from the Finder). ``C``, ``C.UTF-8`` and ``POSIX`` name no
    language, so they leave Chinese.
    """
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(name)
        if value:
            return _lang_of_locale(value)
    try:
        current = locale.getlocale()[0] or ""
    except ValueError:
        current = ""
    return _lang_of_locale(current)


def _lang_of_locale(name: str) -> str:
    base = name.split(".")[0].split("@")[0].lower()
    if not base or base in ("c", "posix") or base.startswith(("zh", "chinese")):
        return "zh"
    return "en"
