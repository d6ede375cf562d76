"""The real import graph of referee_app, read from the source (every import, also inside
functions and under ``if TYPE_CHECKING``): cycles between modules, imports from gui/ or cli/
into store/ or printing/, imports between gui/ and cli/, and modules that resolve imports
from strings (``importlib.import_module``, ``__import__``), which hide arrows from
import-linter and type checkers.

    python tools/import_graph.py [PROJECT_ROOT]

Prints what it finds and a summary line; exits 0 when there is none of these, else 1.
tests/test_layers.py runs it. (The project's copy of the check in shared/tools.)
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = "referee_app"
FRONT_ENDS = ("gui", "cli")
#: What reaches the store and the printing only through app/: the front ends and the hall web page.
THROUGH_APP = (*FRONT_ENDS, "hallweb")
BEHIND_APP = ("store", "printing")
STRING_IMPORTS = ("import_module", "__import__")


def modules(root: Path) -> dict[str, Path]:
    """Each module of the package under ``root`` by its dotted name."""
    found: dict[str, Path] = {}
    for path in (root / PACKAGE).rglob("*.py"):
        name = ".".join(path.relative_to(root).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def _targets(mods: dict[str, Path], current: str, node: ast.ImportFrom) -> list[str]:
    base = node.module or ""
    if node.level:
        package = current.split(".")
        if mods[current].name != "__init__.py":
            package = package[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join(package + ([base] if base else []))
    return [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]


def graph(mods: dict[str, Path]) -> tuple[dict[str, set[str]], set[str]]:
    """The imports between the package's modules, and the modules importing from strings."""
    edges: dict[str, set[str]] = {m: set() for m in mods}
    from_strings: set[str] = set()
    for name, path in mods.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                targets = _targets(mods, name, node)
            elif isinstance(node, ast.Call):
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if called in STRING_IMPORTS:
                    from_strings.add(name)
            for target in targets:
                while target and target not in mods:
                    target = target.rpartition(".")[0]
                if target and target != name and target.startswith(PACKAGE):
                    edges[name].add(target)
    return edges, from_strings


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), iteratively."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _area(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _short(module: str) -> str:
    return module.removeprefix(PACKAGE + ".")


def main(argv: list[str]) -> int:
    root = Path(argv[1] if len(argv) > 1 else ".")
    edges, from_strings = graph(modules(root))
    loops = cycles(edges)
    arrows = [(a, b) for a in sorted(edges) for b in sorted(edges[a])]
    past_app = [(a, b) for a, b in arrows if _area(a) in THROUGH_APP and _area(b) in BEHIND_APP]
    across = [(a, b) for a, b in arrows if {_area(a), _area(b)} == set(FRONT_ENDS)]
    for component in loops:
        print("cycle:", " <-> ".join(_short(m) for m in component))
    for a, b in past_app:
        print("front end reaches past app/:", _short(a), "->", _short(b))
    for a, b in across:
        print("gui and cli import each other:", _short(a), "->", _short(b))
    for m in sorted(from_strings):
        print("resolves imports from strings:", _short(m))
    print(
        f"{len(loops)} cycles, {len(past_app)} front-end imports past app/, {len(across)} gui<->cli "
        f"imports, {len(from_strings)} files resolving imports from strings"
    )
    return 0 if not (loops or past_app or across or from_strings) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
