"""`fleetplan compare A B --format csv` writes its money (cost_a, cost_b, cost_delta) to the cent, where it wrote the
float noise of b − a (4315.739999999998) and every digit of a present value. The JSON keeps the comparison's values
whole; each CSV cell is the JSON's rounded to the cent.

Oracle: the totals of the two packaged scenarios' plans, solved here by the library (`plan`), their difference worked
out here and rounded to the cent."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from planner import plan
from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
A, B = ROOT / "scenarios" / "mid-research.yaml", ROOT / "scenarios" / "startup-hybrid.yaml"
MONEY = ("cost_a", "cost_b", "cost_delta")


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    result = run("compare", A, B, "--format", "csv")
    assert result.exit_code == 0, result.output
    return list(csv.DictReader(io.StringIO(result.stdout)))


def test_the_total_rows_delta_is_the_plans_totals_difference_to_the_cent(rows):
    total_a, total_b = plan(A, baselines=False).total, plan(B, baselines=False).total
    total = next(r for r in rows if r["category"] == "total")
    assert float(total["cost_a"]) == round(total_a, 2)
    assert float(total["cost_b"]) == round(total_b, 2)
    assert float(total["cost_delta"]) == round(total_b - total_a, 2)


def test_no_money_cell_has_digits_below_the_cent(rows):
    cells = [r[c] for r in rows for c in MONEY]
    assert len(cells) == 3 * len(rows) > 3
    assert all(re.fullmatch(r"-?\d+(\.\d{1,2})?", c) for c in cells), cells
    assert "-0.0" not in cells


def test_each_csv_cell_is_the_jsons_to_the_cent(rows):
    whole = json.loads(run("compare", A, B, "--format", "json").stdout)
    by_category = {r["category"]: r for r in whole["costs"]}
    for row in rows:
        if row["category"] != "total":
            assert all(float(row[c]) == round(by_category[row["category"]][c], 2) + 0.0 for c in MONEY), row
    total = next(r for r in rows if r["category"] == "total")
    assert float(total["cost_delta"]) == round(whole["totals"]["delta"], 2)
