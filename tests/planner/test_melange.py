"""Mélange's toy example (examples/melange-toy.yaml) against Mélange's own ILP, worked from its inputs.

Inputs: tyler-griggs/melange-release, melange/config/example.json as of commit ebba701b (2024-04-13):
A10G at 1.01 USD/h with max throughputs [[2, 1], [5, 2]] requests/s, A100-80GB at 3.67 USD/h with
[[20, 20], [40, 20]], workload_distribution [[0.2, 0.1], [0.5, 0.2]] of total_request_rate 30,
slice_factor 1. melange/solver.py (MelangeSolver.run): each bucket's rate is share × 30 and its load on
a GPU type is rate / throughput (tputs_to_loads_2d: load = 1 / tput per request/s); each bucket goes to
exactly one GPU type, the integer GPU count of a type covers the summed load of its buckets, and the
cost Σ count × cost per hour is minimised. The repository's README prints the answer
{"A10G": 3, "A100-80GB": 1, "cost": 6.7}.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest

from planner import load_scenario
from planner.engine import plan
from planner.months import HOURS_PER_MONTH

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "melange-toy.yaml"

COST = {"A10G": 1.01, "A100-80GB": 3.67}
TPUTS = {"A10G": [[2, 1], [5, 2]], "A100-80GB": [[20, 20], [40, 20]]}
DISTRIBUTION = [[0.2, 0.1], [0.5, 0.2]]
TOTAL_RATE = 30.0
# the planner's GPU ids of Mélange's names (planner/data/gpus.csv); the scenario's buckets, in order
GPU_ID = {"A10G": "A10G", "A100-80GB": "A100-80GB-PCIE"}
BUCKETS = ["small-in-small-out", "small-in-large-out", "large-in-small-out", "large-in-large-out"]


def bucket_loads() -> dict[str, list[float]]:
    """GPU type -> the load of each bucket (rate / max throughput), buckets in row-major order."""
    rates = [share * TOTAL_RATE for row in DISTRIBUTION for share in row]
    return {gpu: [rate / tput for rate, tput in zip(rates, itertools.chain(*TPUTS[gpu]))] for gpu in TPUTS}


def whole(load: float) -> int:
    return math.ceil(load - 1e-9)   # 6/2 is 3.0, not 3.0000000001


def melange_optimum() -> tuple[float, dict[str, int]]:
    """Mélange's ILP by enumeration: every bucket → GPU type assignment, counts = ceil(summed load)."""
    loads = bucket_loads()
    best = (math.inf, {})
    for assignment in itertools.product(TPUTS, repeat=len(BUCKETS)):
        counts = {gpu: whole(sum(load for load, a in zip(loads[gpu], assignment) if a == gpu)) for gpu in TPUTS}
        cost = sum(counts[gpu] * COST[gpu] for gpu in TPUTS)
        best = min(best, (cost, counts), key=lambda t: t[0])
    return best


def split_optimum() -> tuple[float, dict[str, int]]:
    """Buckets divisible across GPU types, whole GPUs. For a fixed number n of A100s, filling their
    capacity n is a fractional knapsack: give A100 capacity to the buckets that free the most A10G load
    per unit of A100 load first (A10G load ÷ A100 load, the greedy ratio), the rest of each bucket goes
    to A10G; then ceil(remaining A10G load) A10Gs. n runs from 0 to ceil(all load on A100)."""
    loads = bucket_loads()
    a10g, a100 = loads["A10G"], loads["A100-80GB"]
    best = (math.inf, {})
    for n in range(whole(sum(a100)) + 1):
        room, left = float(n), sum(a10g)
        for b in sorted(range(len(BUCKETS)), key=lambda b: a10g[b] / a100[b], reverse=True):
            share = min(1.0, room / a100[b])
            room -= share * a100[b]
            left -= share * a10g[b]
        counts = {"A10G": whole(left), "A100-80GB": n}
        best = min(best, (sum(counts[g] * COST[g] for g in COST), counts), key=lambda t: t[0])
    return best


def test_melanges_answer_from_its_inputs_is_3_a10g_and_1_a100_at_6_70():
    cost, counts = melange_optimum()
    assert counts == {"A10G": 3, "A100-80GB": 1} and cost == pytest.approx(6.70)


def test_the_split_optimum_is_1_a10g_and_1_a100_at_4_68():
    cost, counts = split_optimum()
    assert counts == {"A10G": 1, "A100-80GB": 1} and cost == pytest.approx(4.68)


def fleet_counts(p) -> dict[str, float]:
    return p.fleet.groupby("gpu")["units"].sum().to_dict()


def test_the_scenario_states_melanges_inputs():
    s = load_scenario(EXAMPLE)
    rates = [share * TOTAL_RATE for row in DISTRIBUTION for share in row]
    assert [w.name for w in s.workloads] == BUCKETS
    for k, w in enumerate(s.workloads):
        assert w.serving and w.placement == "single_type" and w.throughput_unit == "requests_per_second"
        assert w.requests_per_second == pytest.approx(rates[k])
        assert w.throughput == {GPU_ID[g]: float(list(itertools.chain(*TPUTS[g]))[k]) for g in TPUTS}
    assert s.horizon_months == 1 and s.discount_rate == 0 and not s.onprem.cards


def test_single_type_reaches_melanges_answer():
    cost, counts = melange_optimum()
    p = plan(EXAMPLE)
    assert p.status == "optimal"
    assert p.total == pytest.approx(cost * HOURS_PER_MONTH)            # 6.70 × 730 = 4,891.00 USD
    assert fleet_counts(p) == {GPU_ID[g]: n for g, n in counts.items()}
    # every bucket on one GPU type
    assert (p.serving.groupby("workload")["gpu"].nunique() == 1).all()


def test_split_placement_reaches_the_lower_split_optimum():
    cost, counts = split_optimum()
    p = plan(EXAMPLE, overrides={f"workloads.{b}.placement": "split" for b in BUCKETS})
    assert p.total == pytest.approx(cost * HOURS_PER_MONTH)            # 4.68 × 730 = 3,416.40 USD
    assert fleet_counts(p) == {GPU_ID[g]: n for g, n in counts.items()}


def test_the_offers_name_their_source_and_the_real_instances():
    text = (ROOT / "examples" / "offers-melange-toy.csv").read_text(encoding="utf-8")
    assert "tyler-griggs/melange-release@ebba701bc71397a360d1e6f58eeb2a49b65b07d6:melange/config/example.json" in text
    assert ",1.01,0.0,USD," in text and ",3.67,0.0,USD," in text
