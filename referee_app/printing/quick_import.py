"""reportlab's platypus imported without compiling, at every start, two regular expressions
that span all of Unicode and that the forms never use (issue 11).

``reportlab.platypus.paragraph`` compiles a case-insensitive URL pattern with character
classes up to U+FFFF (to hyphenate URLs in justified text), and ``reportlab.lib.textsplit``
a pattern of every CJK code point (for its ``cjkwrap`` recipe): about 70 ms of CPU at each
start of ``referee-app print``, a tenth of the command. While those two modules execute,
a pattern reaching U+FFFF is handed back as :class:`PatternOnUse`, compiled when first
used; every other pattern compiles as usual. :func:`install` puts the hook in front of the
import system when :mod:`referee_app.printing` is imported, before any reportlab import.
"""

from __future__ import annotations

import re
import sys
import threading
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from importlib.abc import Loader

#: The modules whose patterns reaching U+FFFF are compiled when first used.
MODULES = frozenset({"reportlab.platypus.paragraph", "reportlab.lib.textsplit"})

_compile = re.compile
_lock = threading.RLock()  # paragraph imports textsplit while its own code runs


class PatternOnUse:
    """A regular expression compiled the first time one of its methods is asked for."""

    __slots__ = ("_args", "_compiled")

    def __init__(self, pattern: str, flags: int) -> None:
        self._args = (pattern, flags)
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = _compile(*self._args)
        return getattr(compiled, name)


def _compile_on_use(pattern: Any, flags: int = 0) -> Any:
    if isinstance(pattern, str) and "\uffff" in pattern:
        return PatternOnUse(pattern, flags)
    return _compile(pattern, flags)


class _Loader:
    """The module's own loader, running its code with :func:`_compile_on_use` as
    ``re.compile``."""

    def __init__(self, loader: Any) -> None:
        self.loader = loader

    def create_module(self, spec: Any) -> Any:
        return self.loader.create_module(spec)

    def exec_module(self, module: Any) -> None:
        with _lock:
            before = re.compile  # this hook's own, when paragraph imports textsplit
            re.compile = _compile_on_use
            try:
                self.loader.exec_module(module)
            finally:
                re.compile = before

    def __getattr__(self, name: str) -> Any:  # get_source, is_package… as the loader has them
        return getattr(self.loader, name)


class _Finder:
    """Finds :data:`MODULES` as the other finders would, with :class:`_Loader` around
    their loader."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name not in MODULES:
            return None
        from importlib.machinery import PathFinder

        spec = PathFinder.find_spec(name, path, target)
        if spec is not None and spec.loader is not None and hasattr(spec.loader, "exec_module"):
            spec.loader = cast("Loader", _Loader(spec.loader))  # a Loader by its methods
        return spec


_finder = _Finder()


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once)."""
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)
