"""The FOCUS export: the FinOps Foundation's `focus-validator` 1.0.0 passes the export of every shipped
scenario with zero failed rules, and the rows hold figures worked out by hand from the README's worked
example and from a reservation priced in this file (docs/focus.md)."""

from __future__ import annotations

import os
import subprocess
from datetime import datetime
from pathlib import Path

import pytest

from planner import load_scenario, plan
from planner.reports import plan_to_focus

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
# `make test` sets it (a missing validator then fails); elsewhere the test skips without .venv-focus
FOCUS_VENV = Path(os.environ.get("FLEETPLAN_FOCUS_VENV", ROOT / ".venv-focus"))


def focus_validator(csv: Path) -> str:
    """The console report of `focus-validator --validate-version 1.0` on `csv`."""
    exe = FOCUS_VENV / "bin" / "focus-validator"
    if not exe.exists():
        if "FLEETPLAN_FOCUS_VENV" in os.environ:
            pytest.fail(f"{exe} is missing: `make test` installs focus-validator into {FOCUS_VENV}")
        pytest.skip("focus-validator is not installed (`make test` installs it into .venv-focus)")
    # It reads its list of currency codes from `focus_validator/utils/…` relative to the working directory.
    site_packages = next(FOCUS_VENV.glob("lib/python*/site-packages"))
    result = subprocess.run([str(exe), "--data-file", str(csv.resolve()), "--validate-version", "1.0"],
                            cwd=site_packages, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return result.stdout


def assert_validates(csv: Path) -> None:
    report = focus_validator(csv)
    failed = [line for line in report.splitlines() if line.endswith("failed:")]
    # its exit code is 0 even when rules fail: read the report
    assert failed == [] and "Validation succeeded." in report, report


def one_month_apart(start: str, end: str) -> bool:
    a, b = (datetime.strptime(x, "%Y-%m-%dT%H:%M:%SZ") for x in (start, end))
    return a.day == b.day == 1 and (b.year * 12 + b.month) - (a.year * 12 + a.month) == 1


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.stem)
def test_focus_validator_1_0_passes_every_shipped_scenario(scenario, tmp_path):
    p = plan(load_scenario(scenario), baselines=False)
    f = plan_to_focus(p, path=tmp_path / "focus.csv", start="2027-01")
    assert all(one_month_apart(s, e) for s, e in zip(f["ChargePeriodStart"], f["ChargePeriodEnd"]))
    assert (f["BillingPeriodStart"] == f["ChargePeriodStart"]).all()
    assert f["x_PresentValue"].sum() == pytest.approx(p.total, rel=1e-9)
    assert f["EffectiveCost"].sum() == pytest.approx(f["BilledCost"].sum(), rel=1e-9)
    assert_validates(tmp_path / "focus.csv")   # last: it skips where the validator is not installed (above)


def test_focus_of_the_worked_example_by_hand():
    p = plan(load_scenario(WORKED), baselines=False)
    f = plan_to_focus(p, start="2026-03")
    # README: 8,385.46 USD; nothing is discounted or committed, so every column agrees
    assert f["x_PresentValue"].sum() == pytest.approx(8385.46, rel=1e-6)
    assert (f["EffectiveCost"] == f["BilledCost"]).all() and f["CommitmentDiscountId"].isna().all()
    card = f[f["SkuId"] == "rtx-a5000"]
    capex = card[card["x_CostCategory"] == "capex"]
    # one card bought in month 1: 2,000 + 500 host; a Purchase
    assert len(capex) == 1 and capex["BilledCost"].iloc[0] == pytest.approx(2500)
    assert capex[["ChargeCategory", "ChargeFrequency", "PricingUnit"]].iloc[0].tolist() == ["Purchase", "One-Time", "Units"]
    assert capex["ChargePeriodStart"].iloc[0] == "2026-03-01T00:00:00Z"
    assert capex["ChargePeriodEnd"].iloc[0] == "2026-04-01T00:00:00Z"
    # resale credit −0.5 × 2,500 × (1 − 24/48) in month 25 (2028-03): a Credit, effective as billed
    residual = card[card["x_CostCategory"] == "residual_value"]
    assert residual[["BilledCost", "EffectiveCost", "ListCost"]].iloc[0].tolist() == pytest.approx([-625] * 3)
    assert residual["ChargeCategory"].iloc[0] == "Credit" and residual["x_PlanMonth"].iloc[0] == 25
    assert residual["ChargePeriodStart"].iloc[0] == "2028-03-01T00:00:00Z"
    # maintenance 2,500 × 0.05 / 12 a month for one unit; energy (0.1 × 730 + 0.3 × 657) × 1.5 = 405.15 kWh
    maint = card[card["x_CostCategory"] == "maintenance"]
    assert len(maint) == 24 and maint["BilledCost"].tolist() == pytest.approx([2500 * 0.05 / 12] * 24)
    assert set(maint["PricingUnit"]) == {"Unit-Months"} and maint["PricingQuantity"].tolist() == [1.0] * 24
    energy = card[card["x_CostCategory"] == "energy"]
    assert energy["PricingUnit"].unique().tolist() == ["kWh"]
    assert energy["PricingQuantity"].tolist() == pytest.approx([405.15] * 24)
    assert energy["BilledCost"].tolist() == pytest.approx([405.15 * 0.20] * 24)
    assert energy["ListUnitPrice"].tolist() == pytest.approx([0.20] * 24)
    assert set(card["ProviderName"]) == {"On-premises"} and card["RegionId"].isna().all()
    # cloud: 178.75 g5.xlarge hours a month at the on-demand list price 1.006 (examples/offers-g5-us-east-1.csv)
    cloud = f[f["SkuId"] == "g5.xlarge"]
    assert cloud["PricingQuantity"].tolist() == pytest.approx([178.75] * 24)
    assert cloud["ConsumedQuantity"].tolist() == pytest.approx([178.75] * 24)
    assert cloud["BilledCost"].tolist() == pytest.approx([178.75 * 1.006] * 24)
    assert cloud["ListCost"].tolist() == pytest.approx([178.75 * 1.006] * 24)
    assert set(cloud["ListUnitPrice"]) == {1.006} and set(cloud["PricingUnit"]) == {"Hours"}
    assert set(cloud["ProviderName"]) == {"AWS"} and set(cloud["PricingCategory"]) == {"Standard"}
    assert set(cloud["ServiceName"]) == {"Amazon Elastic Compute Cloud"}
    assert set(cloud["ChargeCategory"]) == {"Usage"} and set(cloud["RegionId"]) == {"us-east-1"}
    assert set(f["x_PriceAsOf"].dropna()) >= {"2026-07-20"} and set(f["ServiceCategory"]) == {"Compute"}
    # the names focus-validator 1.0.0 checks carry the same values as the published 1.0 names
    assert (f["ChargeType"] == f["ChargeCategory"]).all() and (f["Provider"] == f["ProviderName"]).all()


def test_focus_with_discounting_keeps_billed_money_nominal_and_present_value_apart():
    r = 0.10
    p = plan(load_scenario(WORKED), overrides={"discount_rate": r}, baselines=False)
    f = plan_to_focus(p, start="2026-01")
    d = [(1 + r) ** (-(m - 1) / 12) for m in range(1, 26)]
    monthly = 2500 * 0.05 / 12 + 405.15 * 0.20 + 178.75 * 1.006
    by_hand = 2500 + monthly * sum(d[:24]) - 625 * d[24]
    assert p.total == pytest.approx(by_hand, rel=1e-6)
    assert f["x_PresentValue"].sum() == pytest.approx(by_hand, rel=1e-6)
    # billed and effective money are nominal: Σ = 2,500 + 24 × monthly − 625
    assert f["BilledCost"].sum() == pytest.approx(2500 + 24 * monthly - 625, rel=1e-6)
    assert f["EffectiveCost"].sum() == pytest.approx(2500 + 24 * monthly - 625, rel=1e-6)
    m25 = f[f["x_PlanMonth"] == 25]
    assert m25["x_PresentValue"].sum() == pytest.approx(-625 * d[24], rel=1e-6)
    assert m25["x_DiscountFactor"].tolist() == pytest.approx([d[24]])


def _offers_csv(tmp_path: Path) -> Path:
    """The worked example's g5.xlarge on-demand offer (1.006 USD/h), plus spot at 0.45 and a one-year
    reservation at 1,200 upfront + 0.55 an hour."""
    base = (ROOT / "examples" / "offers-g5-us-east-1.csv").read_text().splitlines()
    header, od = base[0], base[1]
    spot = (od.replace("g5.xlarge:on_demand", "g5.xlarge:spot").replace(",on_demand,", ",spot,")
              .replace(",1.006,", ",0.45,"))
    res = (od.replace("g5.xlarge:on_demand", "g5.xlarge:reserved_1y").replace(",on_demand,", ",reserved_1y,")
             .replace(",1.006,0.0,USD,0,", ",0.55,1200.0,USD,12,"))
    path = tmp_path / "offers.csv"
    path.write_text("\n".join([header, od, spot, res]) + "\n")
    return path


@pytest.fixture(scope="module")
def reserved_plan(tmp_path_factory):
    """18 months with a one-year reservation: its second term runs six months past the horizon."""
    offers = _offers_csv(tmp_path_factory.mktemp("offers"))
    return plan(load_scenario(WORKED), baselines=False, overrides={
        "prices.source": str(offers), "prices.purchase_options": ["on_demand", "spot", "reserved_1y"],
        "horizon_months": 18, "discount_rate": 0.08,
        "onprem.fixed_onprem_per_month": 50, "onprem.colocation_per_kw_month": 20,
        "workloads.training.gpu_hours_per_month": 3000})


def test_reservation_is_purchases_plus_committed_usage_amortised_over_each_term(reserved_plan, tmp_path):
    p = reserved_plan
    cats = set(p.costs.loc[p.costs["cost"] != 0, "category"])
    assert {"cloud_reserved", "fixed_onprem", "colocation", "capex", "residual_value"} <= cats, p.costs
    f = plan_to_focus(p, start="2026-01", path=tmp_path / "focus.csv")
    assert_validates(tmp_path / "focus.csv")
    units = float(p.fleet.loc[p.fleet["purchase_option"] == "reserved_1y", "units"].iloc[0])
    res = f[f["x_PurchaseOption"] == "reserved_1y"]
    buy = res[res["ChargeCategory"] == "Purchase"]
    use = res[res["ChargeCategory"] == "Usage"]
    # purchases: 1,200 upfront per instance at the start of each term (months 1 and 13), 0.55 × 730 =
    # 401.5 a month in every month of both terms (1..24); none of it is effective cost when paid
    upfront = buy[buy["ChargeFrequency"] == "One-Time"]
    assert upfront["x_PlanMonth"].tolist() == [1, 13] and upfront["BilledCost"].tolist() == pytest.approx([units * 1200] * 2)
    fee = buy[buy["ChargeFrequency"] == "Recurring"]
    assert fee["x_PlanMonth"].tolist() == list(range(1, 25))
    assert fee["BilledCost"].tolist() == pytest.approx([units * 401.5] * 24)
    assert (buy["EffectiveCost"] == 0).all() and set(buy["PricingCategory"]) == {"Standard"}
    assert buy["CommitmentDiscountStatus"].isna().all()
    # committed usage: 730 h per instance a month, effective (1,200 + 12 × 401.5) / 12 = 501.5 per
    # instance, billed 0, listed at the on-demand 1.006 USD/h; Used in the horizon, Unused after it
    by_month = use.groupby("x_PlanMonth")
    assert list(by_month.groups) == list(range(1, 25))
    assert by_month["PricingQuantity"].sum().tolist() == pytest.approx([units * 730] * 24)
    assert by_month["EffectiveCost"].sum().tolist() == pytest.approx([units * 501.5] * 24)
    assert by_month["ListCost"].sum().tolist() == pytest.approx([units * 730 * 1.006] * 24)
    assert (use["BilledCost"] == 0).all() and set(use["PricingCategory"]) == {"Committed"}
    assert set(use.loc[use["x_PlanMonth"] > 18, "CommitmentDiscountStatus"]) == {"Unused"}
    assert set(use["CommitmentDiscountType"]) == {"Reservation"} and set(use["CommitmentDiscountCategory"]) == {"Usage"}
    # each term's payments equal its effective cost: units × (1,200 + 12 × 401.5) = units × 6,018
    for term, months in (("term1", range(1, 13)), ("term2", range(13, 25))):
        rows = res[res["CommitmentDiscountId"] == f"aws:us-east-1:g5.xlarge:reserved_1y:{term}"]
        assert set(rows["x_PlanMonth"]) == set(months)
        assert rows["BilledCost"].sum() == pytest.approx(units * 6018)
        assert rows["EffectiveCost"].sum() == pytest.approx(units * 6018)
    # the six months after the horizon: one row each, discounted in its own month
    late = fee[fee["x_PlanMonth"] > 18]
    d = [1.08 ** (-(m - 1) / 12) for m in range(19, 25)]
    assert late["x_PresentValue"].tolist() == pytest.approx([units * 401.5 * x for x in d])
    assert late["ChargePeriodStart"].tolist() == [f"2027-{m:02d}-01T00:00:00Z" for m in range(7, 13)]
    # totals: present value is the plan's, per category too; billed equals effective
    assert f["x_PresentValue"].sum() == pytest.approx(p.total, rel=1e-9)
    assert f["EffectiveCost"].sum() == pytest.approx(f["BilledCost"].sum(), rel=1e-9)
    by_cat = f.groupby("x_CostCategory")["x_PresentValue"].sum()
    for c, v in zip(p.costs["category"], p.costs["cost"]):
        assert by_cat.get(c, 0.0) == pytest.approx(v, rel=1e-9, abs=1e-6)
    site = f[f["SkuId"] == "site"]
    assert len(site) == 18 and site["BilledCost"].tolist() == pytest.approx([50] * 18)
    assert set(f.loc[f["x_CostCategory"] == "colocation", "PricingUnit"]) == {"kW-Months"}
    assert all(one_month_apart(s, e) for s, e in zip(f["ChargePeriodStart"], f["ChargePeriodEnd"]))


def test_credits_are_effective_as_billed(reserved_plan):
    f = plan_to_focus(reserved_plan, start="2026-01")
    credits = f[f["ChargeCategory"] == "Credit"]
    assert len(credits) and (credits["BilledCost"] < 0).all()
    assert (credits["EffectiveCost"] == credits["BilledCost"]).all()


def test_spot_hours_are_listed_at_the_on_demand_price_so_the_saving_shows(tmp_path):
    _offers_csv(tmp_path)
    # the worked example plus an interruptible workload of 400 A5000-hours a month, which spot serves
    text = (WORKED.read_text().replace("source: offers-g5-us-east-1.csv", "source: offers.csv")
            .replace("purchase_options: [on_demand]", "purchase_options: [on_demand, spot]"))
    text += ("  - {name: sweeps, gpu_hours_per_month: 400, reference_gpu: RTX-A5000, min_gpu_memory_gb: 16,\n"
             "     profile: flat, interruptible: true, throughput: {RTX-A5000: 1.0, A10G: 0.8}}\n")
    (tmp_path / "spot.yaml").write_text(text)
    p = plan(load_scenario(tmp_path / "spot.yaml"), baselines=False)
    f = plan_to_focus(p, start="2026-01", path=tmp_path / "focus.csv")
    spot = f[f["x_PurchaseOption"] == "spot"]
    # 400 / 0.8 = 500 A10G-hours a month: billed at 0.45, listed at the on-demand 1.006
    assert spot["PricingQuantity"].tolist() == pytest.approx([500] * 24)
    assert spot["BilledCost"].tolist() == pytest.approx([225] * 24)
    assert spot["EffectiveCost"].tolist() == pytest.approx([225] * 24)
    assert spot["ListCost"].tolist() == pytest.approx([503] * 24)
    assert set(spot["ListUnitPrice"]) == {1.006} and set(spot["ContractedUnitPrice"]) == {0.45}
    assert set(spot["PricingCategory"]) == {"Dynamic"}
    assert_validates(tmp_path / "focus.csv")


def test_spot_is_listed_at_on_demand_even_when_the_scenario_allows_spot_only(tmp_path):
    # entry.yaml allows spot alone: the plan used to carry no on-demand offer, so ListCost was the price
    # paid and no saving showed. The packaged snapshot's own row gives the list price:
    # azure:eastus:Standard_NC4as_T4_v3:on_demand, 0.526 USD/h (spot 0.062699)
    import csv

    rows = csv.DictReader((ROOT / "pricing_adapters" / "snapshots" / "azure.csv").open(encoding="utf-8"))
    price = {r["offer_id"]: float(r["hourly_price"]) for r in rows
             if r["offer_id"].startswith("azure:eastus:Standard_NC4as_T4_v3:")}
    p = plan(ROOT / "scenarios" / "entry.yaml", baselines=False)
    assert set(p.fleet["purchase_option"]) == {"spot"}
    f = plan_to_focus(p, start="2027-01", path=tmp_path / "focus.csv")
    spot = f[f["x_PurchaseOption"] == "spot"]
    assert set(spot["ListUnitPrice"]) == {price["azure:eastus:Standard_NC4as_T4_v3:on_demand"]}
    assert set(spot["ContractedUnitPrice"]) == {price["azure:eastus:Standard_NC4as_T4_v3:spot"]}
    assert spot["ListCost"].tolist() == pytest.approx((spot["PricingQuantity"] * 0.526).tolist(), rel=1e-12)
    assert spot["BilledCost"].tolist() == pytest.approx((spot["PricingQuantity"] * 0.062699).tolist(), rel=1e-12)
    assert f["x_PresentValue"].sum() == pytest.approx(p.total, rel=1e-9)   # what is paid is unchanged
    assert_validates(tmp_path / "focus.csv")


def test_no_row_for_solver_noise_on_an_offer_the_fleet_does_not_use(tmp_path):
    # made-up prices (not shipped data): g5.xlarge on demand 1.0, spot 0.3, 1-year reservation 0.4 an hour +
    # 2,000 upfront (USD; 0.5 EUR per USD). 1,400 steady GPU-hours a month fill two reservations (2 × 730 h);
    # 300 interruptible ones a month run on spot. The solve left 1.7e-8 on-demand hours, a FOCUS row of
    # 8.5e-9 EUR for an offer the fleet leaves out
    header = ("offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,"
              "vcpus,memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note")
    rows = [f"aws:us-east-1:g5.xlarge:{option},aws,us-east-1,g5.xlarge,{option},A10G,True,A10G,1,24,4,16,{hourly},"
            f"{upfront},USD,{term},,2026-07-01,made up for this test," for option, hourly, upfront, term in
            (("on_demand", 1.0, 0, 0), ("spot", 0.3, 0, 0), ("reserved_1y", 0.4, 2000, 12))]
    (tmp_path / "offers.csv").write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    (tmp_path / "eur.yaml").write_text(
        "name: eur\ncurrency: EUR\nfx: {USD: 0.5}\nhorizon_months: 12\ndiscount_rate: 0.0\n"
        "prices: {source: offers.csv, providers: [aws], regions: [us-east-1],"
        " purchase_options: [spot, reserved_1y, on_demand]}\n"
        "onprem: {cards: []}\n"
        "workloads:\n  - {name: steady, gpu_hours_per_month: 1400, reference_gpu: A10G}\n"
        "  - {name: batch, gpu_hours_per_month: 300, reference_gpu: A10G, interruptible: true}\n", encoding="utf-8")
    p = plan(tmp_path / "eur.yaml", baselines=False)
    focus = plan_to_focus(p)
    by_offer = focus.assign(offer=focus["SkuPriceId"].str.rsplit(":", n=1).str[0]).groupby("offer")["BilledCost"].sum()
    assert set(by_offer.index) == set(p.fleet["unit_id"])
    # each offer's billed money priced by hand: spot at the plan's own spot hours, two reservations whole
    spot_hours = float(p.fleet.set_index("unit_id").loc["aws:us-east-1:g5.xlarge:spot", "instance_hours"])
    assert by_offer["aws:us-east-1:g5.xlarge:spot"] == pytest.approx(spot_hours * 0.3 * 0.5)
    assert by_offer["aws:us-east-1:g5.xlarge:reserved_1y"] == pytest.approx(2 * (2000 + 0.4 * 8760) * 0.5)
    assert focus["x_PresentValue"].sum() == pytest.approx(p.total, abs=1e-6)


def test_price_as_of_is_the_date_of_the_price_used_and_empty_when_that_price_is_undated(tmp_path):
    # startup-hybrid: the a100 is priced by a card_override with no as_of, the two owned rtx-3060s by the
    # catalog's undated seed-guide price, the rtx-4090 by the catalog's 2023-11-23 price (onprem_cards.csv),
    # p5.48xlarge on demand by the snapshot's 2026-07-20 row (pricing_adapters/snapshots/aws.csv). The site's
    # fixed costs, colocation and energy are priced by scenario inputs alone: no date. The newest date of the
    # plan's prices (2026-07-20) used to fill every undated row
    p = plan(ROOT / "scenarios" / "startup-hybrid.yaml", baselines=False,
             overrides={"onprem.fixed_onprem_per_month": 100, "onprem.colocation_per_kw_month": 10})
    assert p.prices["as_of"] == "2026-07-20"
    f = plan_to_focus(p, start="2027-01", path=tmp_path / "focus.csv")
    dates = f.groupby(["SkuId", "x_CostCategory"])["x_PriceAsOf"].agg(lambda d: set(d.fillna("")))
    assert dates.to_dict() == {
        ("a100-80gb-pcie", "capex"): {""}, ("a100-80gb-pcie", "maintenance"): {""},
        ("a100-80gb-pcie", "residual_value"): {""}, ("a100-80gb-pcie", "energy"): {""},
        ("a100-80gb-pcie", "colocation"): {""},
        ("rtx-3060-12gb", "residual_value"): {""},
        ("rtx-4090", "capex"): {"2023-11-23"}, ("rtx-4090", "maintenance"): {"2023-11-23"},
        ("rtx-4090", "energy"): {""}, ("rtx-4090", "colocation"): {""},
        ("p5.48xlarge", "cloud_on_demand"): {"2026-07-20"},
        ("site", "fixed_onprem"): {""}}
    # an undated price is an empty CSV field (FOCUS's null), not a date and not a placeholder
    import csv
    written = list(csv.DictReader((tmp_path / "focus.csv").open(encoding="utf-8")))
    assert {r["x_PriceAsOf"] for r in written if r["SkuId"] == "site"} == {""}
    # mid-research: the T4 spot offer in westus2 has no as_of in the snapshot (azure.csv), its on-demand row does
    f = plan_to_focus(plan(ROOT / "scenarios" / "mid-research.yaml", baselines=False))
    spot = f[f["x_PurchaseOption"] == "spot"]
    assert len(spot) and spot["x_PriceAsOf"].isna().all()
