"""The planner against a brute-force oracle written from docs/cost-model.md alone.

The oracle enumerates every on-prem fleet (integer card counts from the owned units up to a bound no
optimal fleet exceeds), keeps those meeting the capex budget, the power cap and max_units, and prices
each one as fixed costs (capex of new units − residual value + maintenance + idle energy) plus, for
every month, the cheapest dispatch of card-hours and cloud instance-hours, an LP solved with
scipy.optimize.linprog. With the flat profile, demand is uniform within a month, so the monthly LP is
exact. The oracle reads the same scenario dict and offers CSV rows the planner reads, and imports
nothing from the planner's model, cost or workload code.

Enumeration is exact but pruned: the dispatch cost can only fall as cards are added, so
fixed(n) + LP(largest fleet) is a lower bound for fleet n; fleets are visited in order of that bound
and the search stops when the bound reaches the best total found.

Two more properties: the reduced model (merged periods, pruned offers) has the same optimum as the
unreduced one (every month × weekly hour, every offer), and HiGHS agrees with CBC.
"""

from __future__ import annotations

import csv
import hashlib
import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from planner import load_scenario
from planner.engine import plan
from planner.errors import InfeasibleError

ROOT = Path(__file__).resolve().parents[2]
HOURS = 730.0

# card id -> (canonical GPU, memory GB), as in planner/data/onprem_cards.csv and gpus.csv
CARDS = {
    "rtx-3060-12gb": ("RTX-3060-12GB", 12.0),
    "rtx-a5000": ("RTX-A5000", 24.0),
    "rtx-4090": ("RTX-4090", 24.0),
    "rtx-a6000": ("RTX-A6000", 48.0),
    "l40s": ("L40S", 48.0),
}
# cloud GPU -> memory GB per GPU (gpus.csv)
CLOUD_GPUS = {"T4": 16.0, "A10G": 24.0, "L4": 24.0, "RTX-A6000": 48.0, "A100-80GB-PCIE": 80.0}
REGION = {"aws": "us-east-1", "azure": "eastus"}
OFFER_COLUMNS = ["offer_id", "provider", "region", "sku", "purchase_option", "gpu", "gpu_known",
                 "accelerator_name", "gpu_count", "gpu_memory_gb", "vcpus", "memory_gb", "hourly_price",
                 "upfront_price", "currency", "term_months", "zone", "as_of", "source", "note"]

COMMON = dict(deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                     HealthCheck.data_too_large])


def test_fixture_tables_match_the_catalogs():
    """The oracle's hard-coded memory figures and the offers columns are the packaged ones."""
    with (ROOT / "planner" / "data" / "gpus.csv").open(encoding="utf-8") as fh:
        memory = {r["gpu"]: float(r["memory_gb"]) for r in csv.DictReader(fh)}
    with (ROOT / "planner" / "data" / "onprem_cards.csv").open(encoding="utf-8") as fh:
        card_gpu = {r["card_id"]: r["gpu"] for r in csv.DictReader(fh)}
    for card, (gpu, mem) in CARDS.items():
        assert card_gpu[card] == gpu and memory[gpu] == mem
    for gpu, mem in CLOUD_GPUS.items():
        assert memory[gpu] == mem
    from pricing_adapters.schema import OFFER_COLUMNS as SCHEMA_COLUMNS
    assert OFFER_COLUMNS == list(SCHEMA_COLUMNS)


# ---------------------------------------------------------------------------------------------------
# Random scenarios


def _money(draw, lo: int, hi: int) -> float:
    return draw(st.integers(lo, hi)) / 100.0


def _offer(i: int, provider: str, gpu: str, count: int, option: str, hourly: float,
           upfront: float = 0.0, term: int = 0) -> dict:
    sku = f"test{i}.{gpu.lower()}.{count}x"
    return {"offer_id": f"{provider}:{REGION[provider]}:{sku}:{option}", "provider": provider,
            "region": REGION[provider], "sku": sku, "purchase_option": option, "gpu": gpu,
            "gpu_known": True, "accelerator_name": gpu, "gpu_count": count,
            "gpu_memory_gb": CLOUD_GPUS[gpu], "vcpus": 8 * count, "memory_gb": 32 * count,
            "hourly_price": hourly, "upfront_price": upfront, "currency": "USD", "term_months": term,
            "zone": "", "as_of": "2026-01-01", "source": "test", "note": ""}


@st.composite
def cases(draw, extended: bool = False):
    """(scenario dict without prices.source, offer rows). `extended` adds the features the oracle does
    not model (weekly profiles, discounting, site costs, cloud share, min units, reservations)."""
    horizon = draw(st.integers(1, 3)) if extended else draw(st.integers(2, 6))
    card_ids = draw(st.lists(st.sampled_from(sorted(CARDS)), min_size=2, max_size=3, unique=True))
    overrides = {}
    for c in card_ids:
        idle = draw(st.integers(20, 150))
        overrides[c] = {"price": draw(st.integers(300, 9000)), "currency": "USD",
                        "host_cost_per_card": draw(st.integers(0, 3000)),
                        "busy_watts": idle + draw(st.integers(50, 600)), "idle_watts": idle,
                        "life_years": draw(st.sampled_from([0.25, 1, 2, 3, 5])),
                        "maintenance_rate_per_year": draw(st.sampled_from([0, 0.03, 0.05, 0.1]))}
    existing = {c: 1 for c in card_ids if draw(st.integers(0, 3)) == 0}
    n_work = draw(st.integers(1, 2))
    mems = [draw(st.sampled_from([0, 12, 24, 48])) for _ in range(n_work)]

    # Offers: the first is on-demand and fits every workload, so cloud can always serve all demand.
    options = ["spot", "reserved_1y", "on_demand"] if extended else ["spot", "on_demand"]
    offers = []
    first_gpu = draw(st.sampled_from([g for g, m in CLOUD_GPUS.items() if m >= max(mems)]))
    count = draw(st.sampled_from([1, 2, 4]))
    offers.append(_offer(0, draw(st.sampled_from(["aws", "azure"])), first_gpu, count, "on_demand",
                         round(count * _money(draw, 30, 300), 2)))
    for i in range(1, 1 + draw(st.integers(1, 3) if extended else st.sampled_from([1, 0]))):
        gpu = draw(st.sampled_from(sorted(CLOUD_GPUS)))
        count = draw(st.sampled_from([1, 2, 4]))
        option = draw(st.sampled_from(options))
        hourly = round(count * _money(draw, 20, 300), 2)
        if option == "reserved_1y":   # cheap enough to be worth committing to now and then
            offers.append(_offer(i, draw(st.sampled_from(["aws", "azure"])), gpu, count, option,
                                 round(count * _money(draw, 2, 25), 2), draw(st.sampled_from([0.0, 100.0])), 12))
        else:
            offers.append(_offer(i, draw(st.sampled_from(["aws", "azure"])), gpu, count, option, hourly))

    gpus_involved = sorted({CARDS[c][0] for c in card_ids} | {o["gpu"] for o in offers})
    workloads = []
    for j in range(n_work):
        ref = draw(st.sampled_from(sorted({CARDS[c][0] for c in card_ids})))
        interruptible = draw(st.booleans())
        workloads.append({
            "name": f"w{j}",
            "gpu_hours_per_month": draw(st.integers(50, 3000)),
            "reference_gpu": ref,
            "min_gpu_memory_gb": mems[j],
            "profile": draw(st.sampled_from(["flat", "business_hours"])) if extended else "flat",
            "growth_per_month": draw(st.sampled_from([0.0, 0.05])),
            "interruptible": interruptible,
            "interruption_overhead": draw(st.sampled_from([0.0, 0.1])) if interruptible else 0.0,
            "throughput": {g: 1.0 if g == ref else draw(st.integers(50, 300)) / 100.0 for g in gpus_involved},
        })

    onprem = {"electricity_per_kwh": _money(draw, 5, 40), "pue": draw(st.integers(100, 200)) / 100.0,
              "availability": draw(st.integers(80, 100)) / 100.0, "cards": card_ids,
              "card_overrides": overrides, "existing": existing}
    if draw(st.integers(0, 3)) == 0:
        onprem["capex_budget"] = draw(st.integers(0, 25000))
    if draw(st.integers(0, 3)) == 0:
        onprem["power_cap_kw"] = draw(st.integers(3, 60)) / 10.0
    constraints: dict = {}
    if draw(st.integers(0, 3)) == 0:
        limited = draw(st.lists(st.sampled_from(card_ids), min_size=1, unique=True))
        # below the owned units now and then: infeasible, which the oracle must agree with
        constraints["max_units"] = {c: draw(st.integers(0, 4)) if draw(st.integers(0, 3)) == 0
                                    else existing.get(c, 0) + draw(st.integers(0, 3)) for c in limited}
    scenario = {"name": "bruteforce", "currency": "USD", "horizon_months": horizon, "discount_rate": 0.0,
                "prices": {"providers": ["aws", "azure"], "purchase_options": options},
                "onprem": onprem, "workloads": workloads, "constraints": constraints}
    if extended:
        scenario["discount_rate"] = draw(st.sampled_from([0.0, 0.08]))
        onprem["colocation_per_kw_month"] = draw(st.sampled_from([0.0, 15.0]))
        onprem["fixed_onprem_per_month"] = draw(st.sampled_from([0.0, 200.0]))
        if draw(st.integers(0, 3)) == 0:
            constraints["max_cloud_share"] = draw(st.sampled_from([0.3, 0.8]))
        if draw(st.integers(0, 3)) == 0:
            constraints["min_units"] = {draw(st.sampled_from(card_ids)): 1}
            for c, lo in constraints["min_units"].items():   # keep min ≤ max (a validation error otherwise)
                if c in constraints.get("max_units", {}):
                    constraints["max_units"][c] = max(constraints["max_units"][c], lo)
    return scenario, offers


@pytest.fixture(scope="module")
def offers_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("offers")


def write_offers(directory: Path, offers: list[dict]) -> str:
    """The offers CSV, named by its content: the planner caches price sources by path."""
    lines = [",".join(OFFER_COLUMNS)]
    for o in offers:
        lines.append(",".join(str(o[c]) for c in OFFER_COLUMNS))
    text = "\n".join(lines) + "\n"
    path = directory / f"offers-{hashlib.sha1(text.encode()).hexdigest()[:16]}.csv"
    if not path.exists():
        path.write_text(text, encoding="utf-8")
    return str(path)


def with_source(scenario: dict, source: str) -> dict:
    return {**scenario, "prices": {**scenario["prices"], "source": source}}


def planner_total(scenario: dict, **kw) -> float | None:
    """plan(...).total, or None when the planner finds the scenario infeasible."""
    try:
        return plan(load_scenario(scenario), baselines=False, **kw).total
    except InfeasibleError:
        return None


# ---------------------------------------------------------------------------------------------------
# The oracle (docs/cost-model.md, flat profile, no discounting, no site costs, no reservations)


def oracle(scenario: dict, offers: list[dict]) -> tuple[float | None, dict]:
    """(least total cost, stats) over every fleet; (None, stats) when no fleet meets the caps."""
    H = scenario["horizon_months"]
    op = scenario["onprem"]
    avail, pue, kwh = op["availability"], op["pue"], op["electricity_per_kwh"]
    cards = list(op["cards"])
    ov = [op["card_overrides"][c] for c in cards]
    existing = np.array([op.get("existing", {}).get(c, 0) for c in cards])
    max_units = scenario.get("constraints", {}).get("max_units", {})
    W = scenario["workloads"]
    assert scenario["discount_rate"] == 0 and all(w["profile"] == "flat" for w in W)
    allowed = [o for o in offers if o["provider"] in scenario["prices"]["providers"]
               and o["purchase_option"] in scenario["prices"]["purchase_options"]]
    assert all(o["purchase_option"] in ("on_demand", "spot") for o in allowed)

    def perf(w, gpu):
        return w["throughput"][gpu] / w["throughput"][w["reference_gpu"]]

    demand = np.array([[w["gpu_hours_per_month"] * (1 + w["growth_per_month"]) ** m for w in W]
                       for m in range(H)])                                  # [H × W]

    # Dispatch columns of one month: card-hours h[c,w] and instance-hours x[o,w].
    cols = []   # (kind, index, workload, work per hour, cost per hour)
    for c, card in enumerate(cards):
        gpu, mem = CARDS[card]
        for j, w in enumerate(W):
            if mem >= w["min_gpu_memory_gb"]:
                busy_cost = (ov[c]["busy_watts"] - ov[c]["idle_watts"]) / 1000.0 * pue * kwh
                cols.append(("card", c, j, perf(w, gpu), busy_cost))
    for i, o in enumerate(allowed):
        spot = o["purchase_option"] == "spot"
        for j, w in enumerate(W):
            if o["gpu_memory_gb"] >= w["min_gpu_memory_gb"] and (w["interruptible"] or not spot):
                delivered = 1.0 - w["interruption_overhead"] if spot else 1.0
                cols.append(("cloud", i, j, perf(w, o["gpu"]) * o["gpu_count"] * delivered, o["hourly_price"]))
    K, C, J = len(cols), len(cards), len(W)
    # One LP over all months (block diagonal): rows = per month, C capacity rows then J demand rows.
    A = np.zeros((H * (C + J), H * K))
    cost = np.zeros(H * K)
    for m in range(H):
        for k, (kind, idx, j, work, price) in enumerate(cols):
            col = m * K + k
            cost[col] = price
            if kind == "card":
                A[m * (C + J) + idx, col] = 1.0
            A[m * (C + J) + C + j, col] = -work
    stats = {"fleets": 0, "lps": 0}

    def dispatch(n: np.ndarray) -> float:
        b = np.concatenate([np.concatenate([avail * HOURS * n, -demand[m]]) for m in range(H)])
        res = linprog(cost, A_ub=A, b_ub=b, bounds=(0, None), method="highs")
        stats["lps"] += 1
        assert res.status == 0, res.message   # the first offer always covers every workload
        return float(res.fun)

    # Bound per card: enough units to serve, alone, everything it can serve in the peak month.
    upper = []
    for c, card in enumerate(cards):
        gpu, mem = CARDS[card]
        need = max(sum(demand[m, j] / perf(w, gpu) for j, w in enumerate(W) if mem >= w["min_gpu_memory_gb"])
                   for m in range(H))
        ub = max(int(existing[c]), math.ceil(need / (avail * HOURS)) + 1 if need > 0 else 0)
        if card in max_units:
            ub = min(ub, max_units[card])
        upper.append(ub)
    if any(u < e for u, e in zip(upper, existing)):
        return None, stats
    fleets = np.array(list(itertools.product(*(range(int(e), u + 1) for e, u in zip(existing, upper)))),
                      dtype=float).reshape(-1, C)
    capex_unit = np.array([o["price"] + o["host_cost_per_card"] for o in ov], dtype=float)
    new = fleets - existing
    ok = np.ones(len(fleets), dtype=bool)
    if op.get("capex_budget") is not None:
        ok &= new @ capex_unit <= op["capex_budget"]
    if op.get("power_cap_kw") is not None:
        ok &= fleets @ np.array([o["busy_watts"] for o in ov], dtype=float) <= round(op["power_cap_kw"] * 1000)
    fleets, new = fleets[ok], new[ok]
    stats["fleets"] = len(fleets)
    if not len(fleets):
        return None, stats

    residual_share = np.array([max(0.0, 1.0 - H / (12.0 * o["life_years"])) for o in ov])
    maintenance = capex_unit * np.array([o["maintenance_rate_per_year"] for o in ov]) / 12.0 * H
    idle = np.array([o["idle_watts"] for o in ov]) / 1000.0 * HOURS * pue * kwh * H
    fixed = new @ capex_unit - new @ (capex_unit * residual_share) + fleets @ (maintenance + idle)

    floor = dispatch(np.array(upper, dtype=float))   # dispatch cost only falls as cards are added
    best = math.inf
    for v in np.argsort(fixed, kind="stable"):
        if fixed[v] + floor >= best - 1e-9 * max(1.0, abs(best)):
            break
        best = min(best, fixed[v] + dispatch(fleets[v]))
    return best, stats


# ---------------------------------------------------------------------------------------------------
# Properties


@settings(max_examples=200, **COMMON)
@given(case=cases())
def test_plan_total_equals_brute_force_optimum(case, offers_dir):
    scenario, offers = case
    scenario = with_source(scenario, write_offers(offers_dir, offers))
    expected, _ = oracle(scenario, offers)
    got = planner_total(scenario)
    if expected is None:
        assert got is None, f"planner found a plan ({got}) but no fleet meets the caps"
    else:
        assert got is not None, f"planner says infeasible; the oracle found {expected}"
        assert got == pytest.approx(expected, rel=1e-6, abs=1e-6)


def assert_same_total(case, offers_dir, first: dict, second: dict) -> None:
    """Both planner variants find a plan, or neither does; their totals agree to 1e-6."""
    scenario, offers = case
    scenario = with_source(scenario, write_offers(offers_dir, offers))
    a, b = planner_total(scenario, **first), planner_total(scenario, **second)
    assert (a is None) == (b is None), (a, b)
    if a is not None:
        assert b == pytest.approx(a, rel=1e-6, abs=1e-6)


@settings(max_examples=30, **COMMON)
@given(case=cases(extended=True))
def test_reduced_model_has_the_unreduced_optimum(case, offers_dir):
    assert_same_total(case, offers_dir, {"reduced": True}, {"reduced": False})


@settings(max_examples=10, **COMMON)
@given(case=cases(extended=True))
def test_highs_agrees_with_cbc(case, offers_dir):
    assert_same_total(case, offers_dir, {"solver": "cbc"}, {"solver": "highs"})
