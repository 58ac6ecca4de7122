"""The fixed monthly site cost (`onprem.fixed_onprem_per_month`) is owed only in the months some card is
in service — not over the whole horizon once any card is ever held (owned cards switched off owe none:
test_site_cost_switched_off.py).

The oracle prices every plan of zero to two cards bought at the purchase months, from the documented
formulas alone (README "Cost model"), and keeps the cheapest: the planner must find the same total, and
its site rows must fall in exactly the months a card is held.
"""

from __future__ import annotations

import itertools

import pytest
import yaml

from planner.engine import plan

H = 36
PRICE, LIFE_MONTHS, SHARE = 3000.0, 48, 0.5
MAINTENANCE = 0.05 * PRICE / 12                     # 12.5 a month
IDLE_ENERGY = 0.100 * 730 * 1.2 * 0.1               # 100 W idle at PUE 1.2 and 0.1 USD/kWh: 8.76 a month
BUSY_ENERGY = (0.500 - 0.100) * 1.2 * 0.1           # per card-hour worked: 0.048
CLOUD = 2.0                                          # A10G on-demand, USD an hour, as fast as the card
CARD_HOURS = 0.9 * 730                               # availability 0.9
FIXED = 50.0

OFFERS = (
    "offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,vcpus,"
    "memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note\n"
    "aws:us-east-1:g5.xlarge:on_demand,aws,us-east-1,g5.xlarge,on_demand,A10G,True,A10G,1.0,24.0,4.0,16.0,2.0,0.0,"
    "USD,0,,2026-07-20,test,\n")


def scenario(tmp_path, owned_age_months: int | None = None) -> str:
    (tmp_path / "offers.csv").write_text(OFFERS, encoding="utf-8")
    onprem = {"electricity_per_kwh": 0.1, "pue": 1.2, "availability": 0.9, "fixed_onprem_per_month": FIXED,
              "purchase_every_months": 3,
              "custom_cards": {"c1": {"gpu": "RTX-A6000", "price": PRICE, "busy_watts": 500, "idle_watts": 100,
                                      "life_years": 4, "maintenance_rate_per_year": 0.05}}}
    if owned_age_months is not None:
        onprem.update(existing={"c1": {"count": 1, "age_months": owned_age_months}}, sell_owned=False,
                      switch_off_owned=False)
    doc = {"name": "site", "currency": "USD", "horizon_months": H, "discount_rate": 0.0,
           "prices": {"source": "offers.csv", "providers": ["aws"], "purchase_options": ["on_demand"]},
           "onprem": onprem,
           "workloads": [{"name": "w", "reference_gpus": 0.01, "growth_per_month": 0.15, "reference_gpu": "RTX-A6000",
                          "min_gpu_memory_gb": 16, "profile": "flat", "throughput": {"RTX-A6000": 1.0, "A10G": 1.0}}]}
    path = tmp_path / "site.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return str(path)


def plan_cost(bought: tuple, owned_months: int = 0, site_all_horizon: bool = False) -> tuple[float, list[int]]:
    """(total, months a card is held) of buying one card at each month in `bought`, with one owned card kept
    in months 1 … `owned_months` (no capex; worn out when it leaves, so no credit), the cloud serving the
    rest. `site_all_horizon`: the old rule, the site paid in every month once any card is held."""
    demand = [0.01 * 730 * 1.15 ** (m - 1) for m in range(1, H + 1)]   # reference-GPU-hours a month
    total, held = 0.0, [0] * H
    for m in range(owned_months):
        held[m] += 1
        total += MAINTENANCE + IDLE_ENERGY
    for s in bought:
        months = H + 1 - s   # in service to the horizon: the life (48) is longer than what is left
        total += PRICE - SHARE * PRICE * max(0.0, 1 - months / LIFE_MONTHS) + (MAINTENANCE + IDLE_ENERGY) * months
        for m in range(s, H + 1):
            held[m - 1] += 1
    for m in range(H):
        on_cards = min(held[m] * CARD_HOURS, demand[m])
        total += on_cards * BUSY_ENERGY + (demand[m] - on_cards) * CLOUD
    months_held = [m + 1 for m in range(H) if held[m]]
    site_months = (H if months_held else 0) if site_all_horizon else len(months_held)
    return total + FIXED * site_months, months_held


def oracle(owned_months: int = 0, site_all_horizon: bool = False) -> tuple[float, tuple, list[int]]:
    """(least total, purchase months, months a card is held) over every plan of 0-2 cards bought at the
    purchase months (plan_cost)."""
    plans = (bought for k in range(3) for bought in itertools.combinations_with_replacement(range(1, H + 1, 3), k))
    best = min(plans, key=lambda bought: plan_cost(bought, owned_months, site_all_horizon)[0])
    total, months_held = plan_cost(best, owned_months, site_all_horizon)
    return total, best, months_held


@pytest.mark.parametrize("solver", ["highs", "cbc"])
@pytest.mark.parametrize("owned_age_months", [None, 42], ids=["no owned card", "owned card retiring after month 6"])
def test_the_site_cost_is_owed_only_while_a_card_is_held(tmp_path, solver, owned_age_months):
    owned_months = 0 if owned_age_months is None else LIFE_MONTHS - owned_age_months
    total, bought, months_held = oracle(owned_months)
    assert bought and bought[0] > 1   # the case is worth having: the best plan buys late (and leaves a gap)
    p = plan(scenario(tmp_path, owned_age_months), solver=solver, baselines=False)
    assert p.total == pytest.approx(total, rel=1e-9)
    site = p.flows[p.flows["unit_id"] == "site"]
    assert site["month"].tolist() == months_held
    assert site["cost"].tolist() == pytest.approx([FIXED] * len(months_held))
    assert p.cost("fixed_onprem") == pytest.approx(FIXED * len(months_held))
    if owned_age_months is not None:   # no site cost in the months between the owned card and the purchase
        assert 7 not in months_held and {1, 6} <= set(months_held)


def test_the_late_purchase_beats_buying_when_the_site_is_paid_anyway(tmp_path):
    """Charging the site over the whole horizon (the old rule) would buy earlier and cost more in truth."""
    total, bought, _ = oracle()
    _, old_choice, _ = oracle(site_all_horizon=True)
    p = plan(scenario(tmp_path), baselines=False)
    buys = p.schedule[p.schedule["action"] == "buy"]
    assert sorted(buys["month"].repeat(buys["units"].astype(int)).tolist()) == list(bought)
    assert old_choice != bought and plan_cost(old_choice)[0] > total + 100   # the old rule's plan costs more
