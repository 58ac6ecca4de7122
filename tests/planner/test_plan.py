"""The optimiser and cost model on hand-worked cases (numbers computed by hand in the comments)."""

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner import load_scenario
from planner.cli import app
from planner.engine import plan
from planner.errors import InfeasibleError

ROOT = Path(__file__).resolve().parents[2]
OFFERS = ROOT / "tests" / "fixtures" / "offers"


def scenario(**parts):
    base = {"name": "t", "currency": "USD", "horizon_months": 12, "discount_rate": 0.0,
            "prices": {"providers": ["aws"], "purchase_options": ["on_demand"]}}
    base.update(parts)
    return load_scenario(base)


# --- the README's worked example -----------------------------------------------------------------

def test_readme_worked_example_by_hand():
    p = plan(load_scenario(ROOT / "examples" / "worked-example.yaml"))
    costs = dict(zip(p.costs["category"], p.costs["cost"]))
    # one RTX A5000: capex 2000 + 500 host = 2500; resale at half its book value: 0.5 × 2500 × (1 − 24/48) = 625
    assert costs["capex"] == pytest.approx(2500) and costs["residual_value"] == pytest.approx(-625)
    # maintenance 2500 × 0.05 / 12 × 24 = 250
    assert costs["maintenance"] == pytest.approx(250)
    # energy: idle 0.1 kW × 730 h × 1.5 × 0.20 = 21.90 /month; busy (0.4−0.1) kW × 657 h × 1.5 × 0.20 = 59.13
    # where 657 h = 0.9 availability × 730 h;  (21.90 + 59.13) × 24 = 1944.72
    assert costs["energy"] == pytest.approx(1944.72)
    # cloud: 800 − 657 = 143 reference-hours / 0.8 = 178.75 g5.xlarge hours × 1.006 = 179.8225 /month × 24
    assert costs["cloud_on_demand"] == pytest.approx(4315.74, rel=1e-6)
    assert p.total == pytest.approx(8385.46, rel=1e-6)
    fleet = p.fleet.set_index("sku")
    assert fleet.loc["rtx-a5000", "units"] == 1 and fleet.loc["g5.xlarge", "instance_hours"] == pytest.approx(178.75 * 24)


# --- the seed guide's mixed fleet ------------------------------------------------------------------

def mixed_fleet_scenario():
    same_speed = {"A100-80GB-PCIE": 1, "RTX-A5000": 1, "RTX-4090": 1, "A100-80GB-SXM": 1, "A10G": 1}
    card = {"currency": "USD", "host_cost_per_card": 0, "idle_watts": 0, "life_years": 1,
            "maintenance_rate_per_year": 0}
    return scenario(
        prices={"source": str(OFFERS / "mixed_fleet.csv"), "providers": ["aws"], "purchase_options": ["on_demand"]},
        onprem={"electricity_per_kwh": 0.10, "pue": 1.0, "availability": 1.0,
                "cards": ["a100-80gb-pcie", "rtx-a5000", "rtx-4090"],
                "card_overrides": {"a100-80gb-pcie": {**card, "price": 10000, "busy_watts": 300},
                                   "rtx-a5000": {**card, "price": 2000, "busy_watts": 200},
                                   "rtx-4090": {**card, "price": 3000, "busy_watts": 400}}},
        workloads=[{"name": "big80", "gpu_hours_per_month": 700, "reference_gpu": "A100-80GB-PCIE",
                    "min_gpu_memory_gb": 80, "throughput": same_speed},
                   {"name": "small12", "gpu_hours_per_month": 3000, "reference_gpu": "RTX-A5000",
                    "min_gpu_memory_gb": 12, "throughput": same_speed}])


def test_one_flagship_plus_several_mid_range_cards():
    p = plan(mixed_fleet_scenario(), baselines=False)
    units = dict(zip(p.fleet["sku"], p.fleet["units"]))
    # By hand: the 80 GB work (700 h) fits one A100 (730 h); 3000 h of 12 GB work needs 5 A5000s (3650 h).
    # 4 A5000s + cloud for the 80 h short: 8000 + 2920 h × 0.02 × 12 + 80 h × 6 × 12 = 14460.8 > 5 cards.
    assert units == {"a100-80gb-pcie": 1, "rtx-a5000": 5}
    # capex 10000 + 5 × 2000; energy (700 × 0.3 + 3000 × 0.2) kW·h × 0.10 × 12 = 972; life 1 y → no residual
    assert p.total == pytest.approx(20972, rel=1e-9)


def test_categories_sum_to_total_and_months_discount_to_total():
    s = load_scenario(ROOT / "scenarios" / "mid-research.yaml")  # 5 % discount rate
    p = plan(s, baselines=False)
    assert p.costs["cost"].sum() == pytest.approx(p.total, rel=1e-9)
    assert p.monthly["total_discounted"].sum() == pytest.approx(p.total, rel=1e-7)
    assert len(p.monthly) == s.horizon_months + 1


def test_residual_is_credited_at_month_h_plus_1_discounted():
    s = load_scenario(ROOT / "examples" / "worked-example.yaml")
    s = s.model_copy(update={"discount_rate": 0.12})
    p = plan(s, baselines=False)
    # resale credit 625 discounted 24 months at 12 %/year: 625 / 1.12^2
    assert p.cost("residual_value") == pytest.approx(-625 / 1.12 ** 2)
    assert p.cost("capex") == pytest.approx(2500)  # month 1 is not discounted


def test_existing_cards_carry_no_capex_but_cost_power_and_maintenance():
    s = mixed_fleet_scenario()
    s = s.model_copy(update={"onprem": s.onprem.model_copy(update={"existing": {"rtx-a5000": 2}})})
    p = plan(s, baselines=False)
    # the optimum is unchanged (1 A100 + 5 A5000s) but only 3 A5000s are bought: 4000 less capex
    assert p.cost("capex") == pytest.approx(10000 + 3 * 2000)
    assert p.total == pytest.approx(20972 - 4000, rel=1e-9)


def test_reduced_and_unreduced_models_agree_on_business_hours():
    s = load_scenario(ROOT / "examples" / "worked-example.yaml")
    w = s.workloads[0].model_copy(update={"profile": "business_hours", "growth_per_month": 0.05})
    s = s.model_copy(update={"workloads": (w,), "horizon_months": 3})
    reduced, full = plan(s, baselines=False), plan(s, reduced=False, baselines=False)
    assert reduced.total == pytest.approx(full.total, rel=1e-6)
    assert reduced.solver["periods"] < full.solver["periods"] == 3 * 168


def test_highs_and_cbc_agree():
    s = mixed_fleet_scenario()
    for solver in ("highs", "cbc"):   # the total worked by hand in test_one_flagship_plus_several_mid_range_cards
        assert plan(s, solver=solver, baselines=False).total == pytest.approx(20972, rel=1e-7), solver


# --- compatibility and infeasibility ---------------------------------------------------------------

def test_tensorflow_2_15_excludes_the_k80_and_says_why():
    # TF 2.15 is built with CUDA 12.2, which dropped Kepler (K80 = compute capability 3.7)
    s = scenario(prices={"source": str(OFFERS / "k80_and_t4.csv"), "providers": ["aws"],
                         "purchase_options": ["on_demand"]},
                 workloads=[{"name": "w", "gpu_hours_per_month": 100, "reference_gpu": "T4",
                             "framework": "tensorflow==2.15", "throughput_metric": "fp32_tflops"}])
    p = plan(s, baselines=False)
    assert list(p.fleet["sku"]) == ["g4dn.xlarge"]
    (reason,) = p.exclusions.loc[p.exclusions["gpu"] == "K80", "reason"]
    assert "CUDA 12.2" in reason and "3.7" in reason
    # TF 2.12 (CUDA 11.8) still runs on a K80, so the K80 is no longer excluded for that reason
    s12 = s.model_copy(update={"workloads": (s.workloads[0].model_copy(update={"framework": "tensorflow==2.12"}),)})
    assert not (plan(s12, baselines=False).exclusions["gpu"] == "K80").any()


def test_workload_without_compatible_offer_is_explained():
    s = scenario(prices={"source": str(OFFERS / "k80_and_t4.csv"), "providers": ["aws"],
                         "purchase_options": ["on_demand"]},
                 workloads=[{"name": "huge", "gpu_hours_per_month": 100, "reference_gpu": "T4",
                             "min_gpu_memory_gb": 80}])
    with pytest.raises(InfeasibleError, match=r"workload huge \(≥ 80 GB.*16 GB per GPU < 80 GB needed"):
        plan(s)


def test_power_cap_that_cannot_be_met_names_the_numbers():
    s = mixed_fleet_scenario()
    # no cloud allowed for the 80 GB work: one A100 (300 W) is the least, and the cap is 0.2 kW; min_units holds that
    # A100, which alone passes the cap: said before solving, in validate's words (catalog.unit_floors)
    s = s.model_copy(update={
        "onprem": s.onprem.model_copy(update={"power_cap_kw": 0.2}),
        "constraints": s.constraints.model_copy(update={"min_units": {"a100-80gb-pcie": 1}})})
    with pytest.raises(InfeasibleError) as info:
        plan(s, baselines=False)
    assert ("constraints.min_units.a100-80gb-pcie: 1 card needs at least 0.30 kW in service (1 × 300 W busy), more "
            "than onprem.power_cap_kw 0.2 kW") in str(info.value)


def test_cloud_share_cap_that_cannot_be_met_names_the_share():
    s = mixed_fleet_scenario()
    # no cards may be bought (budget 0): all 3700 h must come from the cloud, but at most 50 % may
    s = s.model_copy(update={"onprem": s.onprem.model_copy(update={"capex_budget": 0}),
                             "constraints": s.constraints.model_copy(update={"max_cloud_share": 0.5})})
    with pytest.raises(InfeasibleError) as info:
        plan(s, baselines=False)
    text = str(info.value)
    assert "max_cloud_share 0.5 < 1.000 needed" in text and "capex budget 0 USD <" in text


def cloud_only_scenario(tmp_path: Path, training_hours: float, share: float, max_cards: int | None = None) -> Path:
    """One RTX 4060 Ti (16 GB, 657 h a month at 0.9 availability) may serve `training`; `big-memory`
    (200 h a month, 24 GB) fits only the cloud's A10G (g5.xlarge)."""
    limit = f", max_units: {{rtx-4060-ti-16gb: {max_cards}}}" if max_cards is not None else ""
    path = tmp_path / "cloud-only.yaml"
    path.write_text(f"""name: cloud-only work
currency: USD
horizon_months: 12
prices: {{source: {ROOT / "examples" / "offers-g5-us-east-1.csv"}, providers: [aws], purchase_options: [on_demand]}}
onprem:
  availability: 0.9
  cards: [rtx-4060-ti-16gb]
  card_overrides:
    rtx-4060-ti-16gb: {{price: 1000, currency: USD, busy_watts: 200, idle_watts: 50, life_years: 4}}
workloads:
  - {{name: training, gpu_hours_per_month: {training_hours}, reference_gpu: A10G, min_gpu_memory_gb: 16,
     throughput: {{A10G: 1.0, RTX-4060-TI-16GB: 1.0}}}}
  - {{name: big-memory, gpu_hours_per_month: 200, reference_gpu: A10G, min_gpu_memory_gb: 24}}
constraints: {{max_cloud_share: {share}{limit}}}
""")
    return path


def test_cloud_share_cap_below_the_work_only_the_cloud_can_serve_names_that_work(tmp_path):
    # 200 of 150 + 200 hours only the cloud serves: 57.1 % whatever the fleet, above the cap of 50 %; the
    # fleet found at the least share (one card of the many that tie) is not named as a capacity limit
    with pytest.raises(InfeasibleError) as info:
        plan(cloud_only_scenario(tmp_path, 150, 0.5), baselines=False)
    text = str(info.value)
    assert "max_cloud_share 0.5 < 0.571 needed at the least" in text
    assert "big-memory (≥ 24 GB, 1 GPU per job) no on-prem card can serve: 57.1 % of the work" in text
    assert "on-prem capacity is limited" not in text and "training" not in text


def test_cloud_share_cap_names_the_cloud_only_work_and_the_fleet_limit_beyond_it(tmp_path):
    # 1,000 training hours a month, but at most one card (657 hours): the cloud serves 200 + 343 of 1,200
    # hours at the least (45.25 %), of which big-memory's 200 (16.7 %) whatever the fleet
    with pytest.raises(InfeasibleError) as info:
        plan(cloud_only_scenario(tmp_path, 1000, 0.3, max_cards=1), baselines=False)
    text = str(info.value)
    need = float(re.search(r"max_cloud_share 0.3 < ([\d.]+) needed at the least", text).group(1))
    assert need == pytest.approx((200 + 1000 - 0.9 * 730) / 1200, abs=6e-4)   # printed to 3 decimals
    assert "no on-prem card can serve: 16.7 % of the work runs in the cloud whatever the fleet" in text
    assert "; beyond that, on-prem capacity is limited to 1 × RTX-4060-TI-16GB (" in text
    assert " W" not in text   # the cards' watts say nothing of a cloud share (only a power cap's fleet names them)


def test_cloud_share_cap_counts_a_card_that_only_min_units_lets_the_plan_buy(tmp_path):
    # The RTX 4090 (24 GB) is not in onprem.cards, but min_units 1 (max_units 1) makes the plan buy one; it
    # serves big-memory too (as fast as an A10G, both workloads' tables say), so no work is the cloud's
    # alone: the limit is the one card's 657 hours, and the cloud serves 1,200 − 657 of 1,200 hours at the
    # least (45.25 %) against a cap of 10 %
    path = cloud_only_scenario(tmp_path, 1000, 0.1)
    text = path.read_text().replace(
        "constraints: {max_cloud_share: 0.1}",
        "constraints: {max_cloud_share: 0.1, min_units: {rtx-4090: 1}, max_units: {rtx-4090: 1, rtx-4060-ti-16gb: 0}}")
    text = text.replace("throughput: {A10G: 1.0, RTX-4060-TI-16GB: 1.0}",
                        "throughput: {A10G: 1.0, RTX-4060-TI-16GB: 1.0, RTX-4090: 1.0}")
    path.write_text(text.replace("min_gpu_memory_gb: 24}", "min_gpu_memory_gb: 24, throughput: {A10G: 1.0, RTX-4090: 1.0}}"))
    with pytest.raises(InfeasibleError) as info:
        plan(path, baselines=False)
    text = str(info.value)
    need = float(re.search(r"max_cloud_share 0.1 < ([\d.]+) needed at the least", text).group(1))
    assert need == pytest.approx((1200 - 0.9 * 730) / 1200, abs=6e-4)
    assert "no on-prem card can serve" not in text
    assert "on-prem capacity is limited to 1 × RTX-4090" in text


# --- the example scenarios and the CLI -----------------------------------------------------------

@pytest.mark.parametrize("path", sorted((ROOT / "scenarios").glob("*.yaml")), ids=lambda p: p.name)
def test_every_example_scenario_plans_to_optimal(path):
    p = plan(load_scenario(path))
    assert p.status == "optimal"
    assert p.costs["cost"].sum() == pytest.approx(p.total, rel=1e-9)
    assert set(p.baselines["baseline"]) == {"all_cloud", "all_onprem", "best_single"}
    feasible = p.baselines[p.baselines["status"] == "optimal"]
    # the recommended plan is never worse than a baseline solved the same way
    assert (feasible["total"] >= p.total * (1 - 1e-7)).all()


def test_plan_json_has_the_design_keys_and_exit_0():
    result = CliRunner().invoke(app, ["plan", str(ROOT / "examples" / "worked-example.yaml"), "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    for key in ["status", "currency", "horizon_months", "costs", "fleet", "monthly", "baselines",
                "break_even", "solver", "prices"]:
        assert key in doc
    assert sum(doc["costs"].values()) == pytest.approx(doc["total"])
    assert {"provider", "sku", "gpu", "purchase_option", "units", "instance_hours", "cost"} <= set(doc["fleet"][0])
    assert {"name", "seconds", "gap"} <= set(doc["solver"])
    prices = {k: doc["prices"][k] for k in ("source", "as_of", "as_of_oldest", "as_of_text", "undated_prices")}
    # the g5.xlarge row is dated 2026-07-20; the RTX A5000 is priced by the scenario's override (2,000 USD),
    # an undated quote: neither the catalog's row (no sourced price) nor an undated price
    # the offers CSV as the scenario names it, beside the scenario (input_files holds its content's hash)
    assert prices == {"source": "offers-g5-us-east-1.csv",
                      "as_of": "2026-07-20", "as_of_oldest": "2026-07-20",
                      "as_of_text": "2026-07-20, 1 quoted in the scenario", "undated_prices": 0}


def test_plan_infeasible_exits_1_and_bad_input_exits_2(tmp_path):
    bad = tmp_path / "s.yaml"
    bad.write_text("name: x\nworkloads:\n  - {name: w, gpu_hours_per_month: 1, reference_gpu: T4,"
                   " min_compute_capability: 15}\n")   # no GPU has it (the most: 12.0)
    result = CliRunner().invoke(app, ["plan", str(bad), "--format", "json"])
    assert result.exit_code == 1 and json.loads(result.stdout)["status"] == "infeasible"
    assert "workload w" in result.stderr
    result = CliRunner().invoke(app, ["plan", str(ROOT / "tests" / "fixtures" / "scenarios" / "bad.yaml")])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_break_even_utilisation_by_hand():
    p = plan(load_scenario(ROOT / "examples" / "worked-example.yaml"), baselines=False)
    row = p.break_even.iloc[0]
    # fixed per month: (2500 − 625)/24 + 10.4167 maintenance + 21.90 idle energy = 110.44
    fixed = 1875 / 24 + 2500 * 0.05 / 12 + 0.1 * 730 * 1.5 * 0.2
    # cloud: 1.006 / 0.8 per reference-hour; busy energy 0.3 kW × 1.5 × 0.20 = 0.09 per hour
    expected = fixed / (730 * (1.006 / 0.8 - 0.09))
    assert row["break_even_utilisation"] == pytest.approx(expected)


def test_a_rewritten_offers_csv_is_read_again(tmp_path):
    import os
    src = (OFFERS / "k80_and_t4.csv").read_text()
    csv = tmp_path / "offers.csv"
    csv.write_text(src)
    s = scenario(prices={"source": str(csv), "providers": ["aws"], "purchase_options": ["on_demand"]},
                 horizon_months=1,
                 workloads=[{"name": "w", "gpu_hours_per_month": 100, "reference_gpu": "T4", "min_gpu_memory_gb": 16}])
    # 100 T4-hours on g4dn.xlarge at 0.526 USD/h
    assert plan(s, baselines=False).total == pytest.approx(52.6, rel=1e-6)
    csv.write_text(src.replace(",0.526,", ",1.052,"))
    os.utime(csv, ns=(1, 1))  # a different mtime even on coarse clocks
    assert plan(s, baselines=False).total == pytest.approx(105.2, rel=1e-6)


def worked():
    return load_scenario(ROOT / "examples" / "worked-example.yaml")


def test_site_costs_by_hand():
    s = worked()
    s = s.model_copy(update={"onprem": s.onprem.model_copy(update={"fixed_onprem_per_month": 100,
                                                                   "colocation_per_kw_month": 10})})
    p = plan(s, baselines=False)
    # the card stays (all-cloud would cost 1000 h × 1.006 × 24 = 24,144): + 100 × 24 fixed
    # + 10 USD/kW-month × 0.4 kW installed × 24 colocation
    assert p.cost("fixed_onprem") == pytest.approx(2400) and p.cost("colocation") == pytest.approx(96)
    assert p.total == pytest.approx(8385.46 + 2400 + 96, rel=1e-6)


def test_scenario_currency_converts_every_price_once():
    s = worked()
    override = s.onprem.card_overrides["rtx-a5000"]
    s = s.model_copy(update={"currency": "EUR", "fx": {"USD": 0.5},
                             "onprem": s.onprem.model_copy(update={"electricity_per_kwh": 0.10,
                                                                   "capex_budget": 1250})})
    assert override.currency == "USD"
    # every USD amount halves, and 0.10 EUR/kWh = 0.20 USD/kWh, budget 1250 EUR = 2500 USD:
    # the whole plan is half the USD one
    assert plan(s, baselines=False).total == pytest.approx(8385.46 / 2, rel=1e-6)


def test_csv_profile_is_scaled_to_mean_one(tmp_path):
    csv = tmp_path / "weights.csv"
    csv.write_text("weight\n" + "\n".join(["3"] * 168) + "\n")  # a flat week written as 3s
    s = worked()
    s = s.model_copy(update={"workloads": (s.workloads[0].model_copy(update={"profile": str(csv)}),)})
    assert plan(s, baselines=False).total == pytest.approx(8385.46, rel=1e-6)


def test_peaky_profile_costs_more_than_flat():
    s = worked()
    # same monthly hours, but business hours carry 4× the load: the one card cannot follow the peaks
    peaky = s.model_copy(update={"workloads": (s.workloads[0].model_copy(update={"profile": "business_hours"}),)})
    assert plan(peaky, baselines=False).total > plan(s, baselines=False).total


def test_bad_csv_profile_is_reported_with_its_line(tmp_path):
    from planner.errors import ScenarioError
    csv = tmp_path / "weights.csv"
    csv.write_text("weight\n1\nlots\n")
    s = worked()
    s = s.model_copy(update={"workloads": (s.workloads[0].model_copy(update={"profile": str(csv)}),)})
    with pytest.raises(ScenarioError, match=r"weights.csv:3: expected a number, got 'lots'"):
        plan(s, baselines=False)


def test_baselines_of_the_worked_example_by_hand():
    p = plan(worked())
    b = p.baselines.set_index("baseline")
    # all cloud: 800 / 0.8 = 1000 g5.xlarge hours a month × 1.006 × 24
    assert b.loc["all_cloud", "total"] == pytest.approx(24144, rel=1e-6)
    # all on-prem (baselines drop the budget): 2 A5000s for 800 h > 657 h a month; capex 5000, residual
    # −1250 (half of book), maintenance 2 × 10.4167 × 24 = 500, idle 2 × 21.90 × 24 = 1051.2,
    # busy 0.3 × 800 × 1.5 × 0.20 × 24 = 1728
    assert b.loc["all_onprem", "total"] == pytest.approx(7029.2, rel=1e-6)
    assert b.loc["best_single", "label"] == "only rtx-a5000"
    assert b.loc["best_single", "total"] == pytest.approx(7029.2, rel=1e-6)
    # the recommended plan keeps the 2,500 USD budget, so it costs more than the budget-free baselines
    assert b.loc["all_onprem", "savings"] == pytest.approx(7029.2 - 8385.46, rel=1e-6)


# --- review findings, each pinned by a hand-checked case ------------------------------------------

RES_HEADER = (OFFERS / "k80_and_t4.csv").read_text().splitlines()[0]


def test_reservations_are_billed_for_their_own_terms_only(tmp_path):
    # one 1-year reservation of a T4 at 0.3 USD/h (no upfront) beside a 3-year one at 0.5 USD/h that is
    # never chosen; horizon 12 months, 730 T4-hours a month = one instance all the time
    csv = tmp_path / "res.csv"
    csv.write_text(RES_HEADER + "\n"
                   "t:r:g4:reserved_1y,aws,us-east-1,g4dn.xlarge,reserved_1y,T4,True,T4,1,16,4,16,0.3,0,USD,12,,2026-01-01,test,\n"
                   "t:r:g4:reserved_3y,aws,us-east-1,g4dn.xlarge,reserved_3y,T4,True,T4,1,16,4,16,0.5,0,USD,36,,2026-01-01,test,\n"
                   "t:r:g4:on_demand,aws,us-east-1,g4dn.xlarge,on_demand,T4,True,T4,1,16,4,16,0.526,0,USD,0,,2026-01-01,test,\n")
    s = scenario(prices={"source": str(csv), "providers": ["aws"],
                         "purchase_options": ["on_demand", "reserved_1y", "reserved_3y"]},
                 workloads=[{"name": "w", "gpu_hours_per_month": 730, "reference_gpu": "T4"}])
    p = plan(s, baselines=False)
    # 0.3 × 730 × 12 = 2628 for the 1-year term; nothing after month 12
    assert p.total == pytest.approx(2628, rel=1e-9)
    assert p.monthly["cloud_reserved"].iloc[-1] == 0
    assert p.monthly["total_discounted"].sum() == pytest.approx(p.total, rel=1e-9)


def test_cards_only_owned_are_never_bought():
    s = worked()
    s = s.model_copy(update={"onprem": s.onprem.model_copy(update={"cards": (), "existing": {"rtx-a5000": 1},
                                                                   "capex_budget": None})})
    p = plan(s, baselines=False)
    row = p.fleet.set_index("sku").loc["rtx-a5000"]
    assert row["units"] == 1 and row["new_units"] == 0


def test_currency_override_applies_only_to_the_amounts_it_gives():
    from planner.catalog import site_cards
    s = load_scenario({"name": "x", "fx": {"CNY": 0.14}, "workloads": [
        {"name": "w", "gpu_hours_per_month": 1, "reference_gpu": "T4"}], "onprem": {
        "cards": ["rtx-3060-12gb"], "card_overrides": {"rtx-3060-12gb": {"price": 350, "currency": "USD"}}}})
    # 350 USD card + the catalog's 5,400 CNY host share × 0.14 = 756 USD
    assert site_cards(s).set_index("card_id").loc["rtx-3060-12gb", "capex"] == pytest.approx(1106)


def test_tensorflow_2_12_cannot_run_on_blackwell():
    from planner.catalog import exclusion_reason
    why = exclusion_reason("tensorflow==2.12", "B200", 10.0)
    assert "CUDA 11.8" in why and "≤ 9" in why
    assert exclusion_reason("tensorflow==2.12", "H100-SXM", 9.0) is None


def test_asics_need_to_be_named_in_the_throughput_table():
    s = worked()
    w = s.workloads[0].model_copy(update={"throughput": None, "throughput_metric": "fp16_tensor_tflops"})
    s = s.model_copy(update={"workloads": (w,), "prices": s.prices.model_copy(update={"source": "snapshot",
                                                                                   "regions": ("us-east-1",)})})
    p = plan(s, baselines=False)
    assert not p.fleet["gpu"].isin(["INFERENTIA2", "TRAINIUM", "INFERENTIA"]).any()
    assert p.exclusions["reason"].str.contains("INFERENTIA2 is not a GPU").any()


@pytest.mark.parametrize("bad,needle", [
    ({"fx": {"CNY": -0.13}}, "fx.CNY"),
    ({"constraints": {"max_units": {"rtx-4090": -1}}}, "constraints.max_units.rtx-4090"),
    ({"workloads": [{"name": "w", "gpu_hours_per_month": 1, "reference_gpu": "T4", "throughput": {"T4": 0}}]},
     "speeds (relative, or requests/s) must be > 0"),
    ({"onprem": {"cards": []}, "constraints": {"min_units": {"rtx-3060-12gb": 1}}}, "priced in CNY"),
])
def test_bad_numbers_are_rejected_when_loading(bad, needle):
    from planner.errors import ScenarioError
    data = {"name": "x", "workloads": [{"name": "w", "gpu_hours_per_month": 1, "reference_gpu": "T4"}], **bad}
    with pytest.raises(ScenarioError) as info:
        load_scenario(data)
    assert needle in str(info.value)


def test_region_typo_is_reported_with_a_suggestion():
    from planner.errors import PriceSourceError
    s = worked()
    s = s.model_copy(update={"prices": s.prices.model_copy(update={"source": "snapshot", "regions": ("us-east1",)})})
    with pytest.raises(PriceSourceError, match="did you mean 'us-east-1'"):
        plan(s, baselines=False)


def test_a_rewritten_csv_profile_is_read_again(tmp_path):
    import os
    csv = tmp_path / "w.csv"
    csv.write_text("\n".join(["1"] * 168))
    s = worked()
    # 500 A5000-hours a month fit the card (657 h) when flat; a 50× peak hour spills into the cloud
    s = s.model_copy(update={"workloads": (s.workloads[0].model_copy(update={"profile": str(csv),
                                                                             "gpu_hours_per_month": 500}),)})
    flat = plan(s, baselines=False).total
    csv.write_text("\n".join(["50"] + ["1"] * 167))
    os.utime(csv, ns=(1, 1))
    assert plan(s, baselines=False).total > flat


def test_a_solver_that_stops_without_an_answer_is_not_called_infeasible(monkeypatch):
    """A time limit hit before any fleet is found says so (exit 3), instead of "no fleet exists" (exit 1)."""
    import math

    from planner.engine import baselines
    from planner.engine.solve import Solution
    from planner.errors import SolverError

    monkeypatch.setattr(baselines, "solve", lambda m, solver, time_limit: Solution("not_solved", math.nan, solver, 2.0, None))
    s = scenario(workloads=[{"name": "w", "gpu_hours_per_month": 100, "reference_gpu": "T4"}])
    with pytest.raises(SolverError, match="within the time limit of 2 s") as caught:
        plan(s, time_limit=2, baselines=False)
    assert not isinstance(caught.value, InfeasibleError)
    path = ROOT / "scenarios" / "mid-research.yaml"
    result = CliRunner().invoke(app, ["plan", str(path), "--no-baselines", "--time-limit", "2"])
    assert result.exit_code == 3 and "did not prove that none exists" in result.stderr, result.output


def test_an_owned_card_aged_past_its_life_in_memory_is_refused_with_the_file_rule():
    # model_copy skips the file checks of scenario.loading; plan() validates such a copy again, with the file's rule
    # and words, led by "<Scenario>" as a dict's are by "<dict>" (engine.run.checked_scenario)
    from planner.errors import ScenarioError
    from planner.scenario.model import OwnedCards

    s = load_scenario(ROOT / "scenarios" / "startup-hybrid.yaml")
    onprem = s.onprem.model_copy(update={"existing": {"rtx-3060-12gb": OwnedCards(count=2, age_months=36)}})
    with pytest.raises(ScenarioError) as caught:
        plan(s.model_copy(update={"onprem": onprem}), baselines=False)
    # an RTX 3060's catalog life is 3 years: 36 months, so a 36-month-old card has no month of service left
    assert caught.value.problems == [
        "<Scenario>: onprem.existing.rtx-3060-12gb.age_months: 36 months is not below the card's life of 36 months "
        "(life_years 3); retire it (leave it out) or set onprem.card_overrides.rtx-3060-12gb.life_years"]


def test_a_capex_shortfall_prices_only_the_cards_to_buy_not_the_ones_owned():
    # startup-hybrid owns two RTX 3060s and must hold one A100 (min_units): 14,000 + 2,500 host = 16,500
    # USD of capex at the least; the owned 3060s cost none, so they are not named (said before solving:
    # catalog.unit_floors)
    with pytest.raises(InfeasibleError) as info:
        plan(ROOT / "scenarios" / "startup-hybrid.yaml", baselines=False, onprem__capex_budget=100)
    assert str(info.value) == ("recommended: constraints.min_units.a100-80gb-pcie: 1 card needs at least 16,500 USD "
                               "of new cards (1 × 16,500 USD: 14,000 + 2,500 host share), more than "
                               "onprem.capex_budget 100 USD: raise onprem.capex_budget or lower the minimum")
