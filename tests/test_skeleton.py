"""The project's own shape: rules/ and scoring/ never import Django."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = ("django", "rest_framework", "celery", "tournaments")


@pytest.mark.parametrize("package", ["rules", "scoring"])
def test_pure_packages_import_no_django(package: str) -> None:
    offenders = []
    for path in (ROOT / package).rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert offenders == []
    if package == "rules":
        assert not any("scoring" in o for o in offenders)
