"""The README and docs name this repository's files and tests as they are: a reader following
`tests/pricing_adapters/test_azure_audit_2026_12_06.py` from docs/reliability.md found nothing (it had been renamed)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# the repository's own folders: paths under them are this clone's (other paths in the docs are other repositories')
OWN_FOLDERS = ("tests", "planner", "pricing_adapters", "fleetplan_dashboard", "scenarios", "docs", "benchmarks",
               "examples", "notebooks", "scripts", "schema")
OWN_PATH = re.compile(r"`((?:" + "|".join(OWN_FOLDERS) + r")/[^`\s]+)`")
TEST_NAME = re.compile(r"::(test_\w+)")
PLACEHOLDER = set("<>*{}$…")   # `scenarios/<name>.yaml`, `tests/**/…`: a pattern, not a file


def _named_paths(text: str) -> list[str]:
    paths = (match[1].split("::")[0].rstrip(".,:;)") for match in OWN_PATH.finditer(text))
    return [path for path in paths if not PLACEHOLDER & set(path)]


def test_the_finder_sees_a_missing_file_and_skips_patterns():
    text = "see `tests/planner/test_gone.py::test_x`, `scenarios/<name>.yaml` and `planner/engine/solve.py`."
    assert _named_paths(text) == ["tests/planner/test_gone.py", "planner/engine/solve.py"]


def test_every_file_the_docs_name_exists():
    missing = [f"{doc.relative_to(ROOT)}: {path}" for doc in DOCS for path in _named_paths(doc.read_text(encoding="utf-8"))
               if not (ROOT / path).exists()]
    assert not missing, missing


def test_every_test_the_docs_name_is_defined():
    defined = {name for test_file in (ROOT / "tests").rglob("test_*.py")
               for name in re.findall(r"^\s*(?:async )?def (test_\w+)", test_file.read_text(encoding="utf-8"), re.M)}
    named = {(doc.relative_to(ROOT), name) for doc in DOCS for name in TEST_NAME.findall(doc.read_text(encoding="utf-8"))}
    assert named, "the docs name tests as `path::test_name`"
    missing = sorted(f"{doc}: {name}" for doc, name in named if name not in defined)
    assert not missing, missing
