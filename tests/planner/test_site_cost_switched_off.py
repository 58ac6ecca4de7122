"""The fixed monthly site cost (`onprem.fixed_onprem_per_month`) is owed in the months some on-prem card is in
service — bought, or owned and kept working —, not in months whose only cards are owned ones switched off: those
draw no power, pay no colocation and do no work. An owned card of unknown resale value (no sourced price) is never
sold, so under the old rule ("any card held, working or switched off") a plan could never leave on-prem without
paying the site for the rest of the horizon, and kept the card working since the site was paid anyway.

Worked by hand (docs/cost-model.md §6-§7), 12 months undiscounted:
- work: 100 reference-GPU-hours a month (flat), on an A100 40GB PCIe or on AWS g5.xlarge (one A10G, as fast
  here, by the scenario's throughput table) on demand at 1.00 USD an hour (a test price, not a quote);
- one A100 40GB PCIe owned new: the catalog has no sourced price for it, so its capex K is unknown (0), its
  maintenance K × 5 %/12 is 0 and it is never sold; 100 W idle, 300 W busy at 0.10 USD/kWh and PUE 1;
- site: 100 USD a month in the months the site cost is owed.
Plans:
- switch the card off, rent every hour: 100 h × 1.00 × 12 = 1,200.00, no site cost (no card in service) → 1,200.00;
- keep it working (it does all the work: 0.9 × 730 = 657 h a month ≥ 100): idle 0.1 kW × 730 h × 0.10 = 7.30 a
  month, busy (0.3 − 0.1) kW × 100 h × 0.10 = 2.00 a month, site 100 a month: 12 × 109.30 = 1,311.60;
  renting some of its hours instead only adds cloud hours at 1.00 against 0.02 of busy energy.
The optimum switches the card off: 1,200.00. (The old rule charged the switched-off plan the site too,
1,200 + 1,200 = 2,400.00, and kept the card working at 1,311.60.)
With a dear buyable card beside it (an RTX A5000 at 10,000 USD, no resale credit, bought every 6 months: two
fleet epochs, so one site binary per epoch), buying costs 10,000 or more, never less than 1,200.00: same optimum.
"""

from __future__ import annotations

import pytest
import yaml

from planner import plan

CLOUD_ONLY, KEPT_WORKING = 1200.0, 12 * (7.30 + 2.00 + 100)   # 1,311.60
# totals within rel=1e-6: CBC's solution is read back from its file to about 8 digits (1199.999988)
OFFERS = (
    "offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,vcpus,"
    "memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note\n"
    "aws:us-east-1:g5.xlarge:on_demand,aws,us-east-1,g5.xlarge,on_demand,A10G,True,A10G,1.0,24.0,4.0,16.0,1.0,0.0,"
    "USD,0,,2026-07-20,test,\n")


def scenario(tmp_path, dear_card: bool = False, **onprem) -> str:
    """The case above as a scenario file (with `dear_card`, the RTX A5000 at 10,000 USD beside it)."""
    (tmp_path / "offers.csv").write_text(OFFERS, encoding="utf-8")
    overrides = {"a100-40gb-pcie": {"busy_watts": 300, "idle_watts": 100}}
    section = {"electricity_per_kwh": 0.1, "pue": 1.0, "availability": 0.9, "fixed_onprem_per_month": 100,
               "cards": [], "existing": {"a100-40gb-pcie": 1}, "card_overrides": overrides, **onprem}
    if dear_card:
        overrides["rtx-a5000"] = {"price": 10000, "currency": "USD", "host_cost_per_card": 0}
        section.update(cards=["rtx-a5000"], purchase_every_months=6, resale={"method": "none"})
    doc = {"name": "switched off", "currency": "USD", "horizon_months": 12, "discount_rate": 0.0,
           "prices": {"source": "offers.csv", "providers": ["aws"], "purchase_options": ["on_demand"]},
           "onprem": section,
           "workloads": [{"name": "w", "gpu_hours_per_month": 100, "reference_gpu": "A100-40GB-PCIE",
                          "min_gpu_memory_gb": 16, "profile": "flat",
                          "throughput": {"A100-40GB-PCIE": 1.0, "A10G": 1.0, "RTX-A5000": 1.0}}]}
    path = tmp_path / "switched_off.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return str(path)


def test_the_hand_worked_totals():
    assert KEPT_WORKING == pytest.approx(1311.60)
    assert CLOUD_ONLY < KEPT_WORKING < CLOUD_ONLY + 12 * 100   # the old rule kept the card working


@pytest.mark.parametrize("dear_card", [False, True], ids=["one site epoch", "two site epochs"])
@pytest.mark.parametrize("solver", ["highs", "cbc"])
def test_a_switched_off_card_of_unknown_resale_value_owes_no_site_cost(tmp_path, solver, dear_card):
    p = plan(scenario(tmp_path, dear_card), solver=solver)
    assert p.total == pytest.approx(CLOUD_ONLY, rel=1e-6)
    (owned,) = p.owned.to_dict("records")
    assert (owned["kept"], owned["switched_off"], owned["sold"]) == (0, 1, 0)
    assert p.cost("fixed_onprem") == 0
    assert (p.monthly["fixed_onprem"] == 0).all()
    assert (p.flows["unit_id"] != "site").all()
    assert (p.installed["units"] == 0).all()   # held, but in service in no month
    assert "buy" not in p.schedule["action"].tolist()
    (off,) = p.schedule[p.schedule["action"] == "switch off"].to_dict("records")
    assert (off["month"], off["card"], off["units"]) == (1, "a100-40gb-pcie", 1)
    assert off["note"] == ("owned, 0 months old at month 1; held switched off (no power, no work): the site's fixed "
                           "cost is owed only in months a card is in service")
    baselines = p.baselines.set_index("baseline")["total"]
    assert baselines["all_cloud"] == pytest.approx(CLOUD_ONLY, rel=1e-6)    # the owned card switched off there too
    assert baselines["all_onprem"] == pytest.approx(KEPT_WORKING, rel=1e-6)


@pytest.mark.parametrize("solver", ["highs", "cbc"])
def test_the_site_cost_is_still_owed_while_the_card_works(tmp_path, solver):
    """Not allowed to switch it off (nor to sell it), the card works and the site is paid every month."""
    p = plan(scenario(tmp_path, switch_off_owned=False), solver=solver, baselines=False)
    assert p.total == pytest.approx(KEPT_WORKING, rel=1e-6)
    assert p.cost("fixed_onprem") == pytest.approx(1200)
    assert p.monthly["fixed_onprem"].tolist() == [100.0] * 12 + [0.0]   # row 13: after the horizon


@pytest.mark.parametrize("dear_card", [False, True], ids=["one site epoch", "two site epochs"])
def test_the_unreduced_model_agrees(tmp_path, dear_card):
    p = plan(scenario(tmp_path, dear_card), reduced=False, baselines=False)
    assert p.total == pytest.approx(CLOUD_ONLY, rel=1e-6)
    assert p.cost("fixed_onprem") == 0
