"""Names a package offers without importing their modules up front.

The window must paint before SQLAlchemy, reportlab, pydantic and the ruling engine are
imported (issue 11), and the command line's ``judge`` must not load the first three at all;
so the core and the app layer name what their users need and import each name's module on
first use (PEP 562's module ``__getattr__``)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(module_name: str, names: Mapping[str, str]) -> Callable[[str], Any]:
    """A ``__getattr__`` for the module ``module_name`` (called while it runs): ``names`` maps
    a name to the module that has it (relative to the module's package, the package itself for
    an ``__init__``), with ``:attr`` when named differently; a name may be a submodule of that
    module."""
    package = sys.modules[module_name].__package__ or module_name.rpartition(".")[0]

    def __getattr__(name: str) -> Any:
        where = names.get(name)
        if where is None:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        module, _, attr = where.partition(":")
        found = importlib.import_module(module, package)
        if hasattr(found, attr or name):
            value = getattr(found, attr or name)
        else:
            value = importlib.import_module(f"{module}.{attr or name}", package)  # a submodule
        # kept in the module, so later uses are a plain attribute (a save looked up eight)
        setattr(sys.modules[module_name], name, value)
        return value

    return __getattr__
