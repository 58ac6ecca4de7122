"""Serving groups (workloads[].serving_group): serving workloads of different groups — different models — never
share a whole instance, card or reservation in a slot; those of one group (request-size buckets of one model, as
Mélange's) do.

The facts checked, each worked out without the planner's model:
- an audit's case (2026-12-07): two 8B models, 1 request/s each, on A10G instances that sustain 2.5 requests/s
  at 1.00 USD/h: each model needs ceil(1 / 2.5) = 1 instance of its own, 2 × 730 = 1,460 USD a month (the
  plan rented one instance for both, 730 USD); in one serving_group they share it, 730 USD;
- two models on an owned-or-bought card type beside a cloud offer of the same GPU: the plan's total is the least
  of an enumeration of small integer fleets (cards bought, each group's share of them, its whole instances),
  priced by the hand rules in `card_fleet_oracle` — for three card prices, and for random demands of 2-3
  workloads put in two groups at random;
- two models on reservations: each group holds a reservation of its own (the reservations' bound counts
  whole units per group);
- beside a group of 8 cards held by 8-GPU training jobs, two models of 1.5 cards each need 2 cards each of their
  own: 8 + 2 + 2 cards (one model's two buckets: 8 + 2); two models of 2-GPU replicas, a quarter of a replica's
  throughput each, need a 2-card group each: 4 cards (one model's two buckets: 2);
- Mélange's toy example keeps its total, 6.70 USD/h × 730 h, with its four buckets in one group; each bucket a
  group of its own would rent 3 A10G per bucket, 4 × 3 × 1.01 × 730 USD.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner import load_scenario
from planner.engine import plan
from tests.planner.test_serving import COMMON, offer_row, write_offers
from tests.planner.test_serving_beside_whole_jobs import TRAIN, cards_and_total

ROOT = Path(__file__).resolve().parents[2]
HOURS = 730.0

# the audit's offers (offers2.csv): A10G instances of 1 and 4 GPUs, A100 ones its workloads' tables leave out
AUDIT_OFFERS = [offer_row("A10G", 1, 1.0, 24.0), offer_row("A10G", 4, 5.0, 24.0),
                offer_row("A100-80GB-PCIE", 1, 3.6, 80.0), offer_row("A100-80GB-PCIE", 2, 7.0, 80.0)]


@pytest.fixture(scope="module")
def offers_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("serving-groups-offers")


def llm(name: str, **extra) -> dict:
    return {"name": name, "serving": True, "throughput_unit": "requests_per_second", "requests_per_second": 1,
            "min_gpu_memory_gb": 20, "reference_gpu": "A10G", "throughput": {"A10G": 2.5}, **extra}


def audit_scenario(offers_dir: Path, workloads: list[dict]) -> dict:
    return {"name": "two models", "horizon_months": 1, "discount_rate": 0.0,
            "prices": {"source": write_offers(offers_dir, AUDIT_OFFERS), "providers": ["aws"],
                       "purchase_options": ["on_demand"]},
            "workloads": workloads}


def test_two_different_models_rent_an_instance_each_1460_usd(offers_dir):
    p = plan(load_scenario(audit_scenario(offers_dir, [llm("llama-8b"), llm("mistral-7b")])), baselines=False)
    assert p.total == pytest.approx(2 * 1.0 * HOURS)
    (row,) = p.fleet.itertuples()
    assert row.sku == "serve.a10g.1x" and row.units == 2
    assert sorted(p.serving["workload"]) == ["llama-8b", "mistral-7b"]
    assert p.serving["instances"].tolist() == [1, 1]              # each its own instance …
    assert p.serving["capacity"].tolist() == pytest.approx([2.5, 2.5])   # … and its capacity


def test_two_workloads_of_one_serving_group_share_one_instance_730_usd(offers_dir):
    workloads = [llm("short-prompts", serving_group="llama-8b"), llm("long-prompts", serving_group="llama-8b")]
    p = plan(load_scenario(audit_scenario(offers_dir, workloads)), baselines=False)
    assert p.total == pytest.approx(1.0 * HOURS)
    (row,) = p.fleet.itertuples()
    assert row.units == 1


# Cards: RTX 4090s bought in month 1 at K each (no resale, no maintenance, no idle power), busy energy E per card-hour
# worked, availability A; or whole on-demand RTX-4090 instances at C per hour. Flat demand of the two models in
# reference GPUs (the reference GPU is the card's, so one unit of either kind does 1 reference GPU an hour).
A, C, WATTS, PUE, KWH_PRICE = 0.95, 1.0, 400, 1.0, 0.10
E = WATTS / 1000 * PUE * KWH_PRICE
MONTHS = 3


def card_scenario(offers_dir: Path, demand: dict[str, float], price: float, group: str | dict | None) -> dict:
    """`group`: every workload's serving_group, or workload -> its group, or None (each its own)."""
    groups = group if isinstance(group, dict) else dict.fromkeys(demand, group)
    workloads = [{"name": name, "serving": True, "reference_gpus": need, "reference_gpu": "RTX-4090",
                  **({"serving_group": groups[name]} if groups[name] else {})} for name, need in demand.items()]
    return {"name": "cards and cloud", "horizon_months": MONTHS, "discount_rate": 0.0,
            "prices": {"source": write_offers(offers_dir, [offer_row("RTX-4090", 1, C, 24.0)]), "providers": ["aws"],
                       "purchase_options": ["on_demand"]},
            "onprem": {"cards": ["rtx-4090"], "availability": A, "pue": PUE, "electricity_per_kwh": KWH_PRICE,
                       "resale": {"method": "none"},
                       "card_overrides": {"rtx-4090": {"price": price, "currency": "USD", "host_cost_per_card": 0,
                                                       "busy_watts": WATTS, "idle_watts": 0, "life_years": 5,
                                                       "maintenance_rate_per_year": 0}}},
            "workloads": workloads}


def card_fleet_oracle(needs: list[float], price: float) -> float:
    """The least cost over N cards bought (held all horizon: demand is flat, so buying later only loses months),
    split into whole shares s_g per group (Σ s_g ≤ N), and q_g whole instances per group: group g's cards work
    max(0, need_g − q_g) (its instances are paid whole, so they work first), at most A × s_g. Cost: K × N +
    hours × Σ_g (C × q_g + E × max(0, need_g − q_g))."""
    hours = MONTHS * HOURS
    most = [math.ceil(n / A - 1e-9) for n in needs]
    best = math.inf
    for shares in itertools.product(*(range(m + 1) for m in most)):
        for instances in itertools.product(*(range(math.ceil(n - 1e-9) + 1) for n in needs)):
            on_cards = [max(0.0, n - q) for n, q in zip(needs, instances)]
            if any(w > A * s + 1e-9 for w, s in zip(on_cards, shares)):
                continue
            cost = price * sum(shares) + hours * sum(C * q + E * w for q, w in zip(instances, on_cards))
            best = min(best, cost)
    return best


DEMAND = {"chat-13b": 1.3, "embed-1b": 0.5}


@pytest.mark.parametrize("price", [1500.0, 2150.0, 3000.0])
def test_two_models_on_cards_and_cloud_cost_the_least_integer_fleet(offers_dir, price):
    # 1,500: 3 cards (2 for 1.3, 1 for 0.5), 4,657.68; 2,150: 1 card + 1 instance for 1.3 and 1 instance for
    # 0.5, 6,556.28; 3,000: all cloud, 2 + 1 instances, 6,570 — pooled, 2 cards would hold the 1.8 together
    p = plan(load_scenario(card_scenario(offers_dir, DEMAND, price, None)), baselines=False)
    assert p.total == pytest.approx(card_fleet_oracle(list(DEMAND.values()), price), rel=1e-9)


@pytest.mark.parametrize("price", [1500.0, 2150.0])
def test_one_models_two_buckets_on_cards_share_them(offers_dir, price):
    # one group: one pooled need of 1.8 (2 cards hold it: 1.8 ≤ 2 × 0.95)
    p = plan(load_scenario(card_scenario(offers_dir, DEMAND, price, "one-model")), baselines=False)
    assert p.total == pytest.approx(card_fleet_oracle([sum(DEMAND.values())], price), rel=1e-9)


@settings(max_examples=25, **COMMON)
@given(needs=st.lists(st.integers(1, 8), min_size=2, max_size=3), groups=st.lists(st.sampled_from("xy"), min_size=3,
       max_size=3), price=st.integers(8, 30))
def test_random_groupings_on_cards_and_cloud_cost_the_least_integer_fleet(offers_dir, needs, groups, price):
    # 2-3 workloads of 0.25-2 reference GPUs in groups x and y, a card at 800-3,000 USD
    demand = {f"w{n}": need / 4.0 for n, need in enumerate(needs)}
    group_of = dict(zip(demand, groups))
    per_group = [sum(d for w, d in demand.items() if group_of[w] == g) for g in sorted(set(group_of.values()))]
    p = plan(load_scenario(card_scenario(offers_dir, demand, price * 100.0, group_of)), baselines=False)
    assert p.total == pytest.approx(card_fleet_oracle(per_group, price * 100.0), rel=1e-9)


def test_card_fleet_oracle_hand_values():
    # the oracle itself against the hand sums above
    hours = MONTHS * HOURS
    assert card_fleet_oracle([1.3, 0.5], 1500.0) == pytest.approx(3 * 1500 + E * 1.8 * hours)
    assert card_fleet_oracle([1.3, 0.5], 2150.0) == pytest.approx(2150 + 2 * C * hours + E * 0.3 * hours)
    assert card_fleet_oracle([1.3, 0.5], 3000.0) == pytest.approx(3 * C * hours)
    assert card_fleet_oracle([1.8], 1500.0) == pytest.approx(2 * 1500 + E * 1.8 * hours)


def test_two_models_hold_a_reservation_each(offers_dir):
    # 0.4 reference T4s each, flat, 12 months: a 1-year reservation at 0.50 USD/h (365 USD a month) or on-demand at
    # 1.00 USD/h (730). Each model needs a whole T4 of its own: 2 reservations, 12 × 730 = 8,760 USD (one shared
    # reservation would be 4,380; one reservation and one on-demand instance 13,140)
    offers = [offer_row("T4", 1, 1.0, 16.0), offer_row("T4", 1, 0.5, 16.0, "reserved_1y", term=12)]
    workloads = [{"name": name, "serving": True, "reference_gpus": 0.4, "reference_gpu": "T4"} for name in ("a", "b")]
    s = {"name": "reservations", "horizon_months": 12, "discount_rate": 0.0,
         "prices": {"source": write_offers(offers_dir, offers), "providers": ["aws"],
                    "purchase_options": ["on_demand", "reserved_1y"]},
         "workloads": workloads}
    p = plan(load_scenario(s), baselines=False)
    assert p.total == pytest.approx(12 * 2 * 0.5 * HOURS)
    (row,) = p.fleet.itertuples()
    assert row.kind == "reserved" and row.units == 2
    assert p.serving["instances"].tolist() == [1] * len(p.serving)


def api(name: str, group: str | None = None) -> str:
    """A one-GPU serving workload of 15 requests/s at 10 a card: 1.5 cards busy all the time."""
    grouped = f", serving_group: {group}" if group else ""
    return (f"  - {{name: {name}, serving: true, throughput_unit: requests_per_second, requests_per_second: 15, "
            f"throughput: {{A100-80GB-PCIE: 10}}, reference_gpu: A100-80GB-PCIE, profile: flat{grouped}}}\n")


@pytest.mark.parametrize("workloads, cards", [
    ((TRAIN, api("chat"), api("code")), 12),                        # 8 for the jobs, 2 + 2 beside them
    ((TRAIN, api("short", "chat"), api("long", "chat")), 11),       # one model: 3 cards beside the jobs
])
def test_two_models_beside_whole_jobs_take_whole_cards_each(tmp_path, workloads, cards):
    # test_serving_beside_whole_jobs's cards at 3,000 USD, no running cost: the total is 3,000 a card
    assert cards_and_total(tmp_path, *workloads) == (cards, pytest.approx(3000 * cards, rel=1e-9))


def replicas(name: str, group: str | None = None) -> str:
    """A serving workload of 2-GPU replicas, 20 requests/s each (10 a GPU), asked for 5: a quarter of a 2-card group."""
    grouped = f", serving_group: {group}" if group else ""
    return (f"  - {{name: {name}, serving: true, gpus_per_job: 2, throughput_unit: requests_per_second, "
            f"requests_per_second: 5, throughput: {{A100-80GB-PCIE: 10}}, reference_gpu: A100-80GB-PCIE, "
            f"profile: flat{grouped}}}\n")


@pytest.mark.parametrize("workloads, cards", [
    ((replicas("chat"), replicas("code")), 4),                 # a 2-card group each
    ((replicas("short", "chat"), replicas("long", "chat")), 2),   # one model: one group of 2 cards, half busy
])
def test_two_models_of_2_gpu_replicas_take_a_job_group_each(tmp_path, workloads, cards):
    assert cards_and_total(tmp_path, *workloads) == (cards, pytest.approx(3000 * cards, rel=1e-9))


def test_melange_toy_total_is_unchanged_with_its_buckets_in_one_group():
    s = load_scenario(ROOT / "examples" / "melange-toy.yaml")
    assert {w.serving_group for w in s.workloads} == {"toy-model"}
    assert plan(s, baselines=False).total == pytest.approx((3 * 1.01 + 3.67) * HOURS)
    # each bucket a group of its own: 3 whole A10G each (3.03 USD/h, below one A100 at 3.67)
    apart = plan(s, baselines=False, overrides={f"workloads.{w.name}.serving_group": w.name for w in s.workloads})
    assert apart.total == pytest.approx(4 * 3 * 1.01 * HOURS)


# Two models on separate GPUs of one multi-GPU instance share no GPU (a review, 2026-12-07: each group held whole
# instances of its own, so two models of 1.6 reference A10Gs each rented four 1-GPU instances at 1.50 USD/h, 6.00 USD/h,
# where one 4-GPU instance at 4.00 USD/h gives each model 2 GPUs of its own)
TWO_OF_FOUR = [offer_row("A10G", 4, 4.0, 24.0), offer_row("A10G", 1, 1.5, 24.0)]


def two_models(offers_dir: Path, offers: list[dict], options: list[str], months: int, groups=(None, None)) -> dict:
    workloads = [{"name": name, "serving": True, "reference_gpus": 1.6, "reference_gpu": "A10G", "profile": "flat",
                  **({"serving_group": g} if g else {})} for name, g in zip(("a", "b"), groups)]
    return {"name": "two models, one instance", "horizon_months": months, "discount_rate": 0.0,
            "prices": {"source": write_offers(offers_dir, offers), "providers": ["aws"], "purchase_options": options},
            "workloads": workloads}


@pytest.mark.parametrize("groups", [(None, None), ("m", "m")])
def test_two_models_share_a_four_gpu_instance_on_gpus_of_their_own(offers_dir, groups):
    # each needs ⌈1.6⌉ = 2 GPUs: 2 + 2 = 4 GPUs of one 4-GPU instance, 4.00 × 730 = 2,920 USD, in two groups as in one
    p = plan(load_scenario(two_models(offers_dir, TWO_OF_FOUR, ["on_demand"], 1, groups)), baselines=False)
    assert p.total == pytest.approx(4.0 * HOURS)
    assert p.fleet[["sku", "units"]].values.tolist() == [["serve.a10g.4x", 1.0]]
    # each model's row: the one instance, and what its GPUs give it (2 GPUs of 4 in two groups, all 4 in one)
    assert p.serving["instances"].tolist() == [1, 1]
    assert p.serving["capacity"].tolist() == ([2.0, 2.0] if groups[0] is None else [4.0, 4.0])


def test_a_third_model_needs_a_second_instance_when_the_gpus_run_out(offers_dir):
    # three models of 1.6 need 2 GPUs each: 6 GPUs, more than one 4-GPU instance holds. Two 4-GPU instances (8.00/h)
    # or one with two 1-GPU instances (4.00 + 2 × 1.50 = 7.00/h): 7 × 730 = 5,110 USD
    s = two_models(offers_dir, TWO_OF_FOUR, ["on_demand"], 1)
    s["workloads"].append({**s["workloads"][0], "name": "c"})
    p = plan(load_scenario(s), baselines=False)
    assert p.total == pytest.approx(7.0 * HOURS)


def test_two_models_share_a_four_gpu_reservation_on_gpus_of_their_own(offers_dir):
    # 12 months: a 1-year reservation of the 4-GPU instance at 2.50 USD/h holds both models' 2 + 2 GPUs:
    # 2.50 × 730 × 12 = 21,900 USD (two reservations would be 43,800; on-demand 4.00/h 35,040)
    offers = [*TWO_OF_FOUR, offer_row("A10G", 4, 2.5, 24.0, "reserved_1y", term=12)]
    p = plan(load_scenario(two_models(offers_dir, offers, ["on_demand", "reserved_1y"], 12)), baselines=False)
    assert p.total == pytest.approx(2.5 * HOURS * 12)
    (row,) = p.fleet.itertuples()
    assert row.kind == "reserved" and row.units == 1
