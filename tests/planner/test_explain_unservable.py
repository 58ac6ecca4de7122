"""Why no fleet meets a scenario (engine.explain): the real cause first. An audit's t9.yaml (its team3.yaml with
`regions: [eu-north-1]`, min_gpu_memory_gb 48 on both workloads and max_units {a100-80gb-pcie: 0}) was explained as
"no fleet meets all caps together (power_kw 8, capex_budget 80000, max_cloud_share 0.3; …); relax one or more of them",
though relaxing any cap does not help: no unit the scenario allows has 48 GB. Without the caps it read "no fleet meets
the demand with the units allowed …", naming neither the workload, the 48 GB nor the max_units 0. Caps were named by
internal names (power_kw) with {:g} numbers (1.25e+06).

Oracles, read by hand from the packaged data:
- planner/data/gpus.csv: RTX-5090 32 GB, RTX-4090 and RTX-3090 24 GB, A100-80GB-PCIE 80 GB;
- pricing_adapters/snapshots/aws.csv: eu-north-1's offers are T4 (16 GB), A10G (24 GB: g5.*, the cheapest g5.xlarge at
  1.067 USD/h) and Inferentia (no memory given); aws lists ≥ 48 GB per GPU in eu-central-1 (g6e.12xlarge, L40S 48 GB);
  azure has no region eu-north-1;
- planner/data/onprem_cards.csv: rtx-5090 1,999 USD + 750 USD host share = 2,749 USD capex, 1,035 W busy.
"""

from __future__ import annotations

import pytest

from planner import load_scenario, plan
from planner.errors import InfeasibleError

# the audit's t9.yaml; {caps}: its power cap and capex budget (t11.yaml has none), {cards}: its onprem.cards
T9 = """\
name: Berlin ML team fleet
currency: EUR
horizon_months: 36
discount_rate: 0.08
fx: {{USD: 0.92}}
prices:
  source: snapshot
  providers: [aws, azure]
  regions: [eu-north-1]
  purchase_options: [on_demand]
onprem:
  electricity_per_kwh: 0.28
  pue: 1.5
  availability: 1.0
  cards: [{cards}]
  existing: {{rtx-3090: {{count: 4, age_months: 24}}}}
{caps}workloads:
  - name: finetune-7b
    gpu_hours_per_month: 1200
    reference_gpu: A100-80GB-PCIE
    min_gpu_memory_gb: 48
    growth_per_month: 0.03
    profile: flat
    interruptible: true
    interruption_overhead: 0.1
  - name: inference
    requests_per_second: 20
    reference_gpu: L4
    throughput_unit: requests_per_second
    throughput: {{L4: 6, A10G: 5, "RTX 4090": 9, A100-80GB-PCIE: 14, RTX-3090: 7}}
    min_gpu_memory_gb: 48
    profile: business_hours
    serving: true
constraints:
  max_units: {{a100-80gb-pcie: 0}}
{share}"""

T9_CAPS = "  power_cap_kw: 8\n  capex_budget: 80000\n"


def _why(text: str) -> str:
    with pytest.raises(InfeasibleError) as info:
        plan(load_scenario(text), baselines=False)
    return str(info.value)


@pytest.mark.parametrize("capped", [True, False], ids=["t9-with-caps", "t11-without-caps"])
def test_a_workload_no_allowed_unit_can_serve_is_named_with_its_need_and_what_blocks_the_units_that_fit(capped):
    why = _why(T9.format(cards="rtx-4090, rtx-5090, a100-80gb-pcie", caps=T9_CAPS if capped else "",
                         share="  max_cloud_share: 0.3\n" if capped else ""))
    assert "relax one or more" not in why and "power_kw" not in why and "check unit limits" not in why, why
    for workload in ("finetune-7b", "inference"):
        assert f"workload {workload} (≥ 48 GB, 1 GPU per job) has no compatible offer" in why, why
        # the most memory the allowed units have below the workload's need
        assert (f"too little GPU memory for workloads.{workload}.min_gpu_memory_gb 48: at most rtx-5090 32 GB on-prem, "
                "aws g5.xlarge (A10G) 24 GB in eu-north-1 (and 7 more instance types of 24 GB)") in why, why
    # the card that would fit, and what holds it at 0
    assert "a100-80gb-pcie (A100-80GB-PCIE, 80 GB) could serve it, but constraints.max_units.a100-80gb-pcie = 0" in why
    # where offers with the memory are: not in the regions allowed
    assert ("offers with ≥ 48 GB per GPU are listed outside the providers, regions and purchase options allowed "
            "(prices.providers, prices.regions, prices.purchase_options): aws in eu-central-1, ") in why, why


def test_with_no_compatible_unit_at_all_the_most_memory_allowed_and_where_it_is_are_said():
    # no A100 listed: the check before any solve (engine.explain.check_compatibility) says the same facts
    why = _why(T9.format(cards="rtx-4090, rtx-5090", caps=T9_CAPS, share=""))
    assert why.startswith("workload finetune-7b (≥ 48 GB, 1 GPU per job) has no compatible offer among "
                          "the 22 allowed offers and cards: "), why   # 3 cards + 19 aws eu-north-1 on-demand offers
    assert ("too little GPU memory for workloads.finetune-7b.min_gpu_memory_gb 48: at most rtx-5090 32 GB on-prem, "
            "aws g5.xlarge (A10G) 24 GB in eu-north-1 (and 7 more instance types of 24 GB)") in why, why
    assert "aws in eu-central-1, " in why and "could serve it" not in why, why


# one workload only rtx-5090 (32 GB) can serve among the allowed units: the aws eu-north-1 offers have 24 GB at most.
# 1,000 reference-GPU-hours a month; a card works 730 h a month (availability 1): two cards are needed.
CARDS_ONLY = """\
name: caps only
currency: USD
horizon_months: 12
prices: {{source: snapshot, providers: [aws], regions: [eu-north-1], purchase_options: [on_demand]}}
onprem:
  availability: 1.0
  cards: [rtx-5090]
{onprem}
workloads:
  - {{name: w, gpu_hours_per_month: 1000, reference_gpu: RTX-5090, min_gpu_memory_gb: 30, profile: flat}}
{constraints}"""


def test_caps_that_only_together_leave_no_fleet_are_named_by_their_fields_with_thousands_separators():
    # 0.5 kW < one rtx-5090's 1,035 W; 1,500 USD < its 2,749 USD: relaxing either cap leaves the other unmet
    why = _why(CARDS_ONLY.format(onprem="  power_cap_kw: 0.5\n  capex_budget: 1500", constraints=""))
    assert why == ("recommended: no fleet meets all caps together (onprem.power_cap_kw 0.5 kW, onprem.capex_budget "
                   "1,500 USD; units owned or required: no on-prem units); relax one or more of them"), why


def test_caps_are_not_blamed_where_the_unit_limits_leave_no_fleet_without_them():
    # max_units 1 rtx-5090 where two are needed: the caps (10 kW, 100,000 USD) are far above two cards' 2.07 kW and
    # 5,498 USD, and no fleet exists without them either
    why = _why(CARDS_ONLY.format(onprem="  power_cap_kw: 10\n  capex_budget: 100000",
                                 constraints="constraints:\n  max_units: {rtx-5090: 1}\n"))
    assert why == ("recommended: no fleet meets the demand with the units allowed (units owned or required: no on-prem units; "
                   "unit limits: max_units.rtx-5090 = 1), even without any of onprem.power_cap_kw 10 kW and "
                   "onprem.capex_budget 100,000 USD; check unit limits and offers"), why


def test_a_compatible_card_with_no_sourced_price_is_named_with_the_override_that_would_price_it():
    # rtx-a6000 (48 GB, planner/data/onprem_cards.csv: price left empty) fits 40 GB; rtx-4090 and the eu-north-1
    # offers have 24 GB at most
    why = _why("""\
name: unpriced
currency: USD
horizon_months: 12
prices: {source: snapshot, providers: [aws], regions: [eu-north-1], purchase_options: [on_demand]}
onprem: {availability: 1.0, cards: [rtx-4090, rtx-a6000]}
workloads:
  - {name: w, gpu_hours_per_month: 100, reference_gpu: A100-80GB-PCIE, min_gpu_memory_gb: 40, profile: flat}
""")
    assert ("too little GPU memory for workloads.w.min_gpu_memory_gb 40: at most rtx-4090 24 GB on-prem, aws g5.xlarge "
            "(A10G) 24 GB in eu-north-1 (and 7 more instance types of 24 GB)") in why, why
    assert ("rtx-a6000 (RTX-A6000, 48 GB) could serve it, but it has no sourced price and none is owned (give "
            "onprem.card_overrides.rtx-a6000.price)") in why, why


def test_a_limit_is_written_with_thousands_separators_not_in_exponent_form():
    # {:g} wrote a capex budget of 1,250,000 as 1.25e+06
    from planner.engine.explain import figure

    assert [figure(x) for x in (1250000, 80000, 8, 0.3, 7.5, 0.125)] == ["1,250,000", "80,000", "8", "0.3", "7.5", "0.125"]
