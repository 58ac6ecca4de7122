"""A plan that finds no fleet says where its prices came from, as a plan that finds one does: an audit's store had its
only 80 GB offer skipped as bad (a price of -1), and `fleetplan plan` said only "no compatible offer … too little
memory", as if none existed; `validate` and a feasible plan named the skipped row (2026-12-07).

The store holds one snapshot of aws us-east-1 on demand: g4dn.xlarge (T4, 16 GB, 0.526 USD/h) and g5.xlarge (A10G,
24 GB), the latter's price then set to -1, so the store skips it. The workload needs 20 GB: only the A10G could serve.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from planner.engine import plan
from planner.errors import InfeasibleError
from pricing_adapters.snapshot import load_snapshot
from pricing_adapters.store import PriceStore
from tests.planner.cli_run import run

SCENARIO = """name: skipped
currency: USD
horizon_months: 1
prices: {{source: store, providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}}
onprem: {{electricity_per_kwh: 0.12, pue: 1.4, availability: 0.97, cards: []}}
workloads:
  - name: ft
    gpu_hours_per_month: 730
    reference_gpu: A10G
    min_gpu_memory_gb: 20
"""


@pytest.fixture
def store(tmp_path):
    offers = load_snapshot(["aws"])
    ids = ["aws:us-east-1:g4dn.xlarge:on_demand", "aws:us-east-1:g5.xlarge:on_demand"]
    path = tmp_path / "prices.sqlite"
    PriceStore(path).save("aws", ["us-east-1"], "test", offers[offers["offer_id"].isin(ids)].reset_index(drop=True))
    con = sqlite3.connect(path)
    con.execute("UPDATE offers SET hourly_price = -1 WHERE offer_id = ?", (ids[1],))
    con.commit()
    con.close()
    return path


def test_the_library_error_carries_the_stores_warning(tmp_path, store):
    with pytest.raises(InfeasibleError) as info:
        plan(SCENARIO.format(), store=store, baselines=False)
    assert "ft" in str(info.value)   # the premise: no offer serves the workload
    [said] = info.value.warnings
    assert said.startswith("prices: ") and "1 bad offer row" in said
    assert "g5.xlarge:on_demand): negative hourly_price -1.0" in said   # the cell named by its column and value


def test_the_cli_prints_it_before_the_reason_and_puts_it_in_the_json(tmp_path, store):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(), encoding="utf-8")
    result = run("plan", path, "--store", store, "--no-decisions", "--format", "json")
    assert result.exit_code == 1
    warned = [line for line in result.stderr.splitlines() if line.startswith("warning: prices: ")]
    assert len(warned) == 1 and "1 bad offer row" in warned[0]
    assert result.stderr.index("warning: prices: ") < result.stderr.index("infeasible:")
    assert any("1 bad offer row" in w for w in json.loads(result.stdout)["warnings"])
