"""No import cycles in rules/, scoring/ and tournaments/: a module never needs, even through others, a module
that needs it back. Read from the source with :mod:`ast` (nothing is imported), so a cycle hidden behind a
function-level import is found too."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("rules", "scoring", "tournaments")


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(module: str, path: Path, *, nested: bool) -> Iterator[str]:
    """Every module name ``module`` imports: at module level only, or also inside functions and classes
    (``nested``). Imports under ``if TYPE_CHECKING:`` are not imports at run time and are left out."""
    is_package = path.name == "__init__.py"

    def walk(nodes: list[ast.stmt], top: bool) -> Iterator[str]:
        for node in nodes:
            if _is_type_checking(node):
                continue
            if isinstance(node, ast.Import) and (top or nested):
                yield from (alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and (top or nested):
                base = node.module or ""
                if node.level:
                    parts = module.split(".")[: None if is_package else -1]
                    parts = parts[: len(parts) - (node.level - 1)]
                    base = ".".join([*parts, *([node.module] if node.module else [])])
                yield base
                yield from (f"{base}.{alias.name}" for alias in node.names)
            for field in ("body", "orelse", "finalbody", "handlers"):
                children = getattr(node, field, None)
                if isinstance(children, list):
                    yield from walk(children, top and isinstance(node, ast.If | ast.Try | ast.With))

    yield from walk(ast.parse(path.read_text(encoding="utf-8")).body, True)


def _graph(*, nested: bool) -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        needs = set()
        for imported in _imports(name, path, nested=nested):
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                needs.add(imported)
        graph[name] = needs
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
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

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("nested", [False, True], ids=["module-level", "function-level too"])
def test_no_import_cycle(nested):
    assert cycles(_graph(nested=nested)) == []


def _source_files() -> Iterator[tuple[str, str]]:
    for name, path in _modules().items():
        yield name, path.read_text(encoding="utf-8")


def test_no_import_is_guarded():
    """A broken import fails loudly: no module catches ImportError around an import, or asks find_spec
    whether a module of the project exists."""
    guarded = [name for name, text in _source_files()
               if "except ImportError" in text or "except ModuleNotFoundError" in text or "find_spec(" in text]
    assert guarded == []


def test_no_model_signal_does_work_behind_the_writers_back():
    """The services tell the rest through tournaments/common/hooks.py; no Django signal is connected."""
    marks = ("signals.post_save", "signals.pre_save", "signals.post_delete", "post_save.connect",
             "pre_save.connect", "post_delete.connect", "from django.db.models.signals", "from django.dispatch",
             "@receiver")
    connected = [name for name, text in _source_files()
                 if name.startswith("tournaments") and any(mark in text for mark in marks)]
    assert connected == []
