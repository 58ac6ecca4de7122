"""A row of an offers CSV marked gpu_known whose gpu is not spelt as a GPU id of planner/data/gpus.csv is refused,
by row, in `validate` and `plan` alike, with the id meant. Before, it passed validation and plans left the offer out
as an unknown accelerator (only the JSON's excluded_offers said so): a hostile-input review (2026-12) rented an
A100 80GB SXM at 0.9 USD an hour spelt 'a100-80gb-sxm', and the plan bought two RTX A5000 for 7,029 USD where the
offer spelt right gives 5,099.32 USD."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner import catalog
from planner.cli import app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# the review's row, in the header's column order: one A100 80GB SXM (80 GB) on demand at 0.9 USD an hour
A100_ROW = ("neo:us:x:on_demand,aws,us-east-1,p4x,on_demand,{gpu},{known},{gpu},1.0,80.0,8.0,64.0,0.9,0.0,USD,0,,"
            "2026-07-20,quote,")


def scenario(tmp_path: Path, gpu: str, known: str = "True", budget: int = 100000) -> Path:
    """examples/worked-example.yaml on its one g5 row and the A100 row spelt `gpu`, with an A100 doing 3 times an
    RTX A5000's work and a budget of `budget` USD."""
    offers = (EXAMPLES / "offers-g5-us-east-1.csv").read_text().rstrip("\n") + "\n"
    (tmp_path / "offers.csv").write_text(offers + A100_ROW.format(gpu=gpu, known=known) + "\n")
    text = (EXAMPLES / "worked-example.yaml").read_text()
    text = text.replace("source: offers-g5-us-east-1.csv", "source: offers.csv")
    text = text.replace("capex_budget: 2500", f"capex_budget: {budget}").replace("A10G: 0.8}", "A10G: 0.8, A100-80GB-SXM: 3}")
    path = tmp_path / "s.yaml"
    path.write_text(text)
    return path


def said(result) -> str:
    return " ".join(result.stderr.split())


def plan_json(path: Path) -> dict:
    result = CliRunner().invoke(app, ["plan", str(path), "--format", "json", "--no-decisions", "--no-baselines"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("budget", [100000, 0])
@pytest.mark.parametrize("command", [["validate"], ["plan", "--format", "json", "--no-decisions"]])
def test_a_gpu_in_small_letters_is_refused_naming_its_row_and_the_id(tmp_path, command, budget):
    path = scenario(tmp_path, "a100-80gb-sxm", budget=budget)
    result = CliRunner().invoke(app, [*command, str(path)])
    text = said(result)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    # line 11 of the worked example names the CSV (column 11); the g5 row is on line 2 (under the header), the A100 row on line 3
    assert f"{path}:11:11: prices.source: " in text
    assert ("line 3 (offer neo:us:x:on_demand): gpu 'a100-80gb-sxm' is no GPU id of planner/data/gpus.csv "
            "(did you mean 'A100-80GB-SXM'?)") in text
    assert "set gpu_known to False" in text
    assert "budget" not in text   # with capex_budget 0 the offer is the cause, not the budget


@pytest.mark.parametrize(("gpu", "shown", "hint"), [
    ("A100-80GB", "'A100-80GB'", ": it names a family (A100-80GB-PCIE and A100-80GB-SXM); give the one this offer rents"),
    ("H100", "'H100'", ": it names a family (H100-NVL, H100-PCIE and H100-SXM); give the one this offer rents"),
    ("NVIDIA A100 80GB", "'NVIDIA A100 80GB'",
     ": it names a family (A100-80GB-PCIE and A100-80GB-SXM); give the one this offer rents"),
    ("a10g", "'a10g'", " (did you mean 'A10G'?)"),   # a case-only difference is refused too (catalog.offers)
    ("A1\x000G", "'A1\\x000G'", " (did you mean 'A10G'?)"),   # a NUL inside A10G, shown escaped
    ("Acme Zeta 9", "'Acme Zeta 9'", ""),   # nothing like it in the catalog: no guess
])
def test_each_misspelt_gpu_is_refused_with_what_it_meant(tmp_path, gpu, shown, hint):
    result = CliRunner().invoke(app, ["validate", str(scenario(tmp_path, gpu))])
    assert result.exit_code == 2, result.output
    assert f"line 3 (offer neo:us:x:on_demand): gpu {shown} is no GPU id of planner/data/gpus.csv{hint}: " in said(result)


def test_the_offer_spelt_right_is_planned_hybrid_at_5099_32_usd(tmp_path):
    """By hand (24 months of 730 h, the worked example's RTX A5000 at 2,000 + 500 USD, 400 W busy, 100 W idle, PUE
    1.5, 0.20 USD/kWh, availability 0.9; an A100 does 3 reference hours an hour at 0.9 USD, 0.30 USD each):
    demand 800 × 24 = 19,200 reference hours. One A5000 serves 0.9 × 730 × 24 = 15,768 of them for capex 2,500, less
    resale 0.5 × half its 4-year book = 625, plus maintenance 0.05 × 2,500 × 2 = 250 and energy (15,768 h × 0.4 kW
    + 1,752 h × 0.1 kW) × 1.5 × 0.20 = 1,944.72: 4,069.72. The A100 serves the other 3,432 in 1,144 h: 1,029.60.
    Total 5,099.32, below all cloud (6,400 A100 hours, 5,760) and the two A5000 of the misspelt offer (7,029)."""
    plan = plan_json(scenario(tmp_path, "A100-80GB-SXM"))
    assert plan["total"] == pytest.approx(5099.32, abs=0.005)
    fleet = {row["unit_id"]: row for row in plan["fleet"]}
    assert fleet["onprem:onprem:rtx-a5000:purchase"]["units"] == 1
    assert fleet["neo:us:x:on_demand"]["instance_hours"] == pytest.approx(1144)
    assert fleet["neo:us:x:on_demand"]["cost"] == pytest.approx(1029.60)
    assert plan["costs"]["energy"] == pytest.approx(1944.72)


def test_an_accelerator_marked_unknown_is_still_kept_and_left_out_of_the_plan(tmp_path):
    # gpu_known False is the contract's way to keep an accelerator the catalog lacks (docs/offers-contract.md)
    plan = plan_json(scenario(tmp_path, "Acme Zeta 9", known="False"))
    assert [(o["gpu"], o["reason"], o["offers"]) for o in plan["excluded_offers"]] == [
        ("Acme Zeta 9", "unknown accelerator Acme Zeta 9", 1)]


def test_the_packaged_snapshot_marks_every_accelerator_it_does_not_know():
    # why only an offers CSV is checked: the snapshot's rows marked gpu_known all name catalog ids
    offers, _ = catalog.price_table("snapshot")
    assert set(offers.loc[offers["gpu_known"], "gpu"]) <= set(catalog.gpu_rows())
    assert (~offers["gpu_known"]).sum() == 6   # Standard_ND40s_v2 in 6 regions (docs/offers-contract.md)
