"""One card more or fewer says what it asked and, for a count it could not plan, why (an audit, 2026-12-06): the
CLI's "alternative_units 87" beside "held_units 80" read as two counts that contradict (87 meant at most 87), and
"1 of 5 not shown: no plan holds that many (1)" named no row, though startup-hybrid.yaml's own rule
`constraints.min_units: {a100-80gb-pcie: 1}` forbids its "at most 0" — it sounded as if no such fleet could exist.

The scenario is test_count_alternatives_held.py's pair (two RTX A5000s are the plan, hand-worked there); each rule
below forbids one of its two counts asked (at most 1, at least 3), read off the rule itself."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from planner.cli import app
from planner.engine import decisions
from tests.planner.test_count_alternatives_held import NONE, THREE, pair

ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"


def ruled(tmp_path: Path, rule: str) -> Path:
    """The pair scenario with `rule` (YAML under `onprem:` or a `constraints:` block) added."""
    path = pair(tmp_path)
    text = path.read_text()
    if rule.startswith("constraints"):
        text += rule + "\n"
    else:
        text = text.replace("onprem:\n", f"onprem:\n  {rule}\n", 1)
    path.write_text(text)
    return path


def planned(path: Path, *options: str):
    result = CliRunner().invoke(app, ["plan", str(path), "--no-baselines", *options])
    assert result.exit_code == 0, result.output
    return result


def test_the_cli_table_shows_the_count_asked_as_at_most_or_at_least(tmp_path):
    text = " ".join(planned(pair(tmp_path)).stdout.split())
    assert "┃ card ┃ held ┃ asked ┃ held_units ┃ total ┃ increase ┃ increase_pct ┃" in text
    assert f"│ rtx-a5000 │ 2 │ ≤ 1 │ 0 │ {NONE:,.1f} │" in text
    assert f"│ rtx-a5000 │ 2 │ ≥ 3 │ 3 │ {THREE:,.1f} │" in text   # the column's one decimal


@pytest.mark.parametrize("rule, line, note", [
    ("constraints:\n  min_units: {rtx-a5000: 2}", "at most 1 rtx-a5000: below constraints.min_units (2)",
     "below constraints.min_units (2)"),
    ("existing: {rtx-a5000: 2}\n  sell_owned: false",
     "at most 1 rtx-a5000: below the 2 owned, which onprem.sell_owned: false keeps",
     "below the 2 owned, which onprem.sell_owned: false keeps"),
])
def test_a_count_the_scenario_forbids_names_the_row_and_the_rule(tmp_path, rule, line, note):
    path = ruled(tmp_path, rule)
    text = " ".join(planned(path).stdout.split())
    assert f"one card more or fewer: 1 of 2 not shown: {line}" in text
    rows = json.loads(planned(path, "--format", "json").stdout)["runner_up"]["count_alternatives"]
    assert [(a["alternative_units"], a["total"] is None, a["note"]) for a in rows if a["total"] is None] == [(1, True, note)]


def test_startup_hybrids_left_out_row_is_its_required_a100(tmp_path):
    # startup-hybrid.yaml: constraints.min_units {a100-80gb-pcie: 1}; the plan holds one (docs/decisions.md)
    text = " ".join(planned(STARTUP).stdout.split())
    assert "one card more or fewer: 1 of 5 not shown: at most 0 a100-80gb-pcie: below constraints.min_units (1)" in text
    assert "no plan holds that many" not in text


def test_a_count_no_rule_forbids_says_no_plan_meets_the_demand_and_caps():
    scenario = SimpleNamespace(constraints=SimpleNamespace(min_units={"b": 1}, max_units={"a": 9}),
                               onprem=SimpleNamespace(sell_owned=True, owned_count=lambda card: 2, capex_budget=None))
    r = SimpleNamespace(scenario=scenario, inp=SimpleNamespace(resale_unknown=frozenset()))
    outcome = SimpleNamespace(status="infeasible", why="")
    assert decisions._count_note(r, outcome, "a", 5) == "no plan meets the scenario's demand and caps with that many"
    assert decisions._count_note(r, outcome, "a", 10) == "above constraints.max_units (9)"
    assert decisions._count_note(r, outcome, "b", 0) == "below constraints.min_units (1)"


def test_the_line_names_each_row_left_out_by_its_reason():
    rows = [{"card": "a", "units": 2, "alternative_units": 1, "total": 5.0, "note": None},
            {"card": "a", "units": 2, "alternative_units": 3, "total": None, "note": "stopped"},
            {"card": "b", "units": 0, "alternative_units": 1, "total": None, "note": "stopped"},
            {"card": "c", "units": 1, "alternative_units": 0, "total": None, "note": "below constraints.min_units (1)"}]
    assert decisions.counts_left_out(rows) == ("one card more or fewer: 3 of 4 not shown: at least 3 a, at least 1 b: "
                                               "stopped; at most 0 c: below constraints.min_units (1)")
