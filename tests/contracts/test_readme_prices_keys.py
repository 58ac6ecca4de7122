"""The README's account of the plan JSON's `prices` names every key a plan's JSON holds there, and says which are
there only sometimes (an audit, 2026-12-06: it listed `snapshots` as always there, which a plan without a store
lacks, and left out `requested_source` and `warning`, which a scenario asking for a store that is not there gets)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from planner.cli import app

ROOT = Path(__file__).resolve().parents[2]


def prices_paragraph() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("`prices` (`source`")
    return " ".join(text[start:text.index("`prices_used`", start)].split())


def prices_of(tmp_path: Path, source: str) -> dict:
    scenario = tmp_path / f"{source}.yaml"
    scenario.write_text(f"name: s\nprices:\n  source: {source}\n  purchase_options: [on_demand]\n"
                        "workloads:\n  - {name: w, gpu_hours_per_month: 100, reference_gpu: T4}\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["plan", str(scenario), "--no-baselines", "--no-decisions", "--format", "json",
                                      "--store", str(tmp_path / "absent.sqlite")])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["prices"]


def test_a_plan_on_the_snapshot_has_no_snapshots_nor_warning_and_the_readme_says_when_they_are_there(tmp_path):
    packaged = prices_of(tmp_path, "snapshot")
    assert packaged["source"] == "snapshot"
    assert not {"snapshots", "requested_source", "warning"} & set(packaged)
    said = prices_paragraph()
    assert "`snapshots`, only where store snapshots were used" in said
    assert re.search(r"`requested_source`, only where that differs from the scenario's `prices.source`", said)
    assert "`warning`, only where the prices are not all as asked" in said


def test_a_plan_asking_for_a_missing_store_says_what_it_read_and_the_readme_names_each_key(tmp_path):
    fallback = prices_of(tmp_path, "store")
    assert (fallback["source"], fallback["requested_source"]) == ("snapshot", "store")
    assert fallback["warning"].startswith(f"no price store at {tmp_path / 'absent.sqlite'}: ")
    assert "snapshots" not in fallback
    said = prices_paragraph()
    for key in {*fallback, *prices_of(tmp_path, "snapshot")}:
        assert f"`{key}`" in said, key
