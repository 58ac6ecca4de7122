"""`fleetplan validate` finds a workload that no unit the scenario allows can serve — the "no fleet" plan gives
after its wait (engine.explain.unservable) — as an error at the workload's field, in plan's words (catalog.servable),
reading the packaged prices without pandas (issue 11). Before, validate said `ok` for such a scenario.

Oracles, read by hand from the packaged data:
- pricing_adapters/snapshots/aws.csv, region eu-north-1, on_demand: 19 offers — 4 inf1.* (INFERENTIA, no memory
  given), 7 g4dn.* (T4, 16 GB), 8 g5.* (A10G, 24 GB; the cheapest g5.xlarge at 1.067 USD/h); none has 48 GB, so
  the most GPU memory an offer there has is 24 GB; azure has no region eu-north-1 (azure.csv: no row);
- aws lists ≥ 48 GB per GPU in eu-central-1 (g6e.*, L40S 48 GB) among other regions; ≥ 200 GB only p6-b300.48xlarge
  (B300, 288 GB) in us-east-1 and us-gov-east-1;
- the largest instance in eu-north-1 has 8 GPUs (g4dn.metal, g5.48xlarge): a 16-GPU job fits none;
- planner/data/gpus.csv: RTX-5090 32 GB, RTX-4090 and RTX-3090 24 GB, A100-80GB-PCIE 80 GB.
So the t9 scenario below (regions [eu-north-1], 48 GB, a100-80gb-pcie held at max_units 0) has 3 allowed cards
(rtx-4090, rtx-5090, the 4 rtx-3090 owned) and 19 offers: 22, of which 10 have 24 GB (8 g5 + rtx-4090 + rtx-3090).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from planner import load_scenario, plan
from planner.catalog import servable
from planner.catalog.offers import unpriced_card_rows
from planner.catalog.prices import OFFER_FACT_COLUMNS, offer_facts
from planner.errors import InfeasibleError
from pricing_adapters.snapshot import load_snapshot
from tests.planner.cli_run import run
from tests.planner.test_startup import SCENARIOS, run_cli

T9 = """\
name: Berlin ML team fleet
currency: EUR
horizon_months: 36
fx: {USD: 0.92}
prices:
  source: snapshot
  providers: [aws, azure]
  regions: [eu-north-1]
  purchase_options: [on_demand]
onprem:
  availability: 1.0
  cards: [rtx-4090, rtx-5090, a100-80gb-pcie]
  existing: {rtx-3090: {count: 4, age_months: 24}}
workloads:
  - name: finetune-7b
    gpu_hours_per_month: 1200
    reference_gpu: A100-80GB-PCIE
    min_gpu_memory_gb: 48
    profile: flat
    interruptible: true
constraints:
  max_units: {a100-80gb-pcie: 0}
"""

MOST_MEMORY = ("too little GPU memory for workloads.finetune-7b.min_gpu_memory_gb 48: at most rtx-5090 32 GB on-prem, "
               "aws g5.xlarge (A10G) 24 GB in eu-north-1 (and 7 more instance types of 24 GB)")


def _validate(tmp_path: Path, text: str):
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return path, run("validate", path)


def _line_of(text: str, key: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.strip().startswith(f"{key}:"))


def test_a_workload_no_allowed_unit_has_the_memory_for_is_an_error_at_its_memory_field(tmp_path):
    path, result = _validate(tmp_path, T9)
    assert result.exit_code == 2, result.output
    assert "ok " not in result.stderr and "Traceback" not in result.output
    [error] = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    line = _line_of(T9, "min_gpu_memory_gb")
    assert error.startswith(f"error: {path}:{line}:24: workloads[0].min_gpu_memory_gb: workload finetune-7b (≥ 48 GB, "
                            "1 GPU per job) has no compatible offer among the 22 allowed offers and cards: "
                            # 10 offers of 24 GB, 7 of 16 GB and the rtx-5090's 32 GB: one reason, 18 offers
                            "too little memory: 16-32 GB per GPU < 48 GB needed (18 offers); "), error
    assert MOST_MEMORY in error
    assert "a100-80gb-pcie (A100-80GB-PCIE, 80 GB) could serve it, but constraints.max_units.a100-80gb-pcie = 0" in error
    assert ("offers with ≥ 48 GB per GPU are listed outside the providers, regions and purchase options allowed "
            "(prices.providers, prices.regions, prices.purchase_options): aws in eu-central-1, ") in error
    assert error.endswith("`fleetplan plan` would find no fleet")


def test_the_json_findings_name_the_workloads_field_and_line(tmp_path):
    path, _ = _validate(tmp_path, T9)
    result = run("validate", path, "--format", "json")
    report = json.loads(result.stdout)
    [problem] = [p for p in report["files"][0]["problems"] if p["severity"] == "error"]
    assert (problem["line"], problem["field"]) == (_line_of(T9, "min_gpu_memory_gb"), "workloads[0].min_gpu_memory_gb")
    assert report["ok"] is False and MOST_MEMORY in problem["message"]


def test_validates_message_is_plans_explanation(tmp_path):
    # the same reasons, counts and places as plan's "no fleet" (engine.explain.unservable_text)
    _, result = _validate(tmp_path, T9)
    said = re.search(r"workloads\[0\]\.min_gpu_memory_gb: (.*); `fleetplan plan` would find no fleet",
                     result.stderr.replace("\n", " "))[1]
    with pytest.raises(InfeasibleError) as info:
        plan(load_scenario(T9), baselines=False)
    assert said in str(info.value)


@pytest.mark.parametrize("changes", [
    [("min_gpu_memory_gb: 48", "min_gpu_memory_gb: 200")],   # no card can serve it: plan stops before any solve
    [("min_gpu_memory_gb: 48", "min_gpu_memory_gb: 0\n    gpus_per_job: 16")],
    [("a100-80gb-pcie]", "a100-80gb-pcie, rtx-a6000]")],   # 48 GB, no sourced price: named as plan names it
    [("interruptible: true", "interruptible: false\n    min_compute_capability: 8.9")],
    # eu-central-1's 48 GB L40S offers as spot only, for a workload that is not interruptible
    [("regions: [eu-north-1]", "regions: [eu-north-1, eu-central-1]"), ("[on_demand]", "[spot]"),
     ("interruptible: true", "interruptible: false")],
], ids=["200-gb", "16-gpus-per-job", "unpriced-card", "compute-capability", "spot-only"])
def test_each_variant_plan_refuses_is_refused_by_validate_in_its_words(changes):
    text = T9
    for change in changes:
        text = text.replace(*change)
    s = load_scenario(text)
    [(j, _, said)] = servable.unservable(s, offer_facts("snapshot"), {c["card_id"] for c in unpriced_card_rows(s)})
    with pytest.raises(InfeasibleError) as info:
        plan(s, baselines=False)
    assert j == 0 and said in str(info.value), (said, str(info.value))


def test_memory_no_offer_anywhere_has_is_said_so_with_the_offers_that_have_it(tmp_path):
    text = T9.replace("min_gpu_memory_gb: 48", "min_gpu_memory_gb: 200")
    _, result = _validate(tmp_path, text)
    assert result.exit_code == 2
    # 288 GB B300s: not in eu-north-1; no card has 200 GB, so none is named as held at 0
    assert ("offers with ≥ 200 GB per GPU are listed outside the providers, regions and purchase options allowed "
            "(prices.providers, prices.regions, prices.purchase_options): aws in us-east-1, us-gov-east-1; "
            "`fleetplan plan` would find no fleet") in result.stderr.replace("\n", " ")
    assert "could serve it" not in result.stderr


def test_a_job_of_more_gpus_than_any_node_is_an_error_at_gpus_per_job(tmp_path):
    text = T9.replace("min_gpu_memory_gb: 48", "min_gpu_memory_gb: 0\n    gpus_per_job: 16")
    _, result = _validate(tmp_path, text)
    assert result.exit_code == 2
    assert (f":{_line_of(text, 'gpus_per_job')}:19: workloads[0].gpus_per_job: workload finetune-7b (≥ 0 GB, 16 GPUs "
            "per job) has no compatible offer among the 22 allowed offers and cards: ") in result.stderr
    assert "8 GPUs per node < 16 GPUs per job (2 offers)" in result.stderr   # g4dn.metal, g5.48xlarge


@pytest.mark.parametrize("change", [("min_gpu_memory_gb: 48", "min_gpu_memory_gb: 24"),
                                    ("  max_units: {a100-80gb-pcie: 0}\n", "  max_units: {a100-80gb-pcie: 2}\n"),
                                    ("  regions: [eu-north-1]\n", "  regions: [eu-north-1, eu-central-1]\n")],
                         ids=["24-gb-fits-a10g", "a100-allowed", "l40s-region-allowed"])
def test_a_workload_some_allowed_unit_can_serve_validates_ok(tmp_path, change):
    _, result = _validate(tmp_path, T9.replace(*change))
    assert result.exit_code == 0, result.output
    assert "would find no fleet" not in result.output


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_every_shipped_scenario_has_a_unit_for_each_workload(path):
    s = load_scenario(path)
    unpriced = {card["card_id"] for card in unpriced_card_rows(s)}
    assert servable.unservable(s, offer_facts("snapshot"), unpriced) == []


def test_the_check_imports_nothing_heavy(tmp_path):
    path = tmp_path / "t9.yaml"
    path.write_text(T9, encoding="utf-8")
    [report], _, err = run_cli(["validate", str(path)])
    assert report["code"] == 2 and report["heavy"] == [], report
    assert MOST_MEMORY in err.replace("\n", " ")


def test_the_snapshots_offer_facts_read_with_csv_are_those_of_the_offers_table():
    table = load_snapshot()
    facts = offer_facts("snapshot")
    assert len(facts) == len(table)
    for k, column in enumerate(OFFER_FACT_COLUMNS):
        cells = table[column].tolist()
        if column in ("gpu_count", "gpu_memory_gb", "hourly_price"):
            assert [(x != x, x if x == x else 0) for x in (f[k] for f in facts)] == \
                   [(x != x, x if x == x else 0) for x in map(float, cells)], column
        else:
            assert [f[k] for f in facts] == [bool(x) if column == "gpu_known" else str(x) for x in cells], column


def test_the_reasons_of_too_little_memory_count_as_one_with_their_range():
    from planner.catalog.servable import reasons_text

    spot = "spot capacity serves interruptible workloads only"
    assert reasons_text({"24 GB per GPU < 48 GB needed": 10, "16 GB per GPU < 48 GB needed": 7, spot: 3}) == (
        f"too little memory: 16-24 GB per GPU < 48 GB needed (17 offers); {spot} (3 offers)")
    assert reasons_text({"24 GB per GPU < 48 GB needed": 1}) == "too little memory: 24 GB per GPU < 48 GB needed (1 offer)"
    assert reasons_text({}) == ""
