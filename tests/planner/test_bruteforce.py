"""The planner against a brute-force oracle written from the cost rules alone (docs/cost-model.md and
issue 10: decisions over time).

The rules the oracle implements (H = horizon_months, months 1 … H, and H+1 for what leaves at the end):

- Cards can be bought at the start of months 1, 1+k, 1+2k, … ≤ H (k = `onprem.purchase_every_months`,
  default 3). Each purchase month is a vintage. A card's life is L = max(1, ⌊12 × life_years + ½⌋)
  months; a card bought in month s serves months s … min(s+L−1, H) and leaves in r = min(s+L, H+1).
- A bought card pays its capex K (price + host_cost_per_card) in month s; in each month in service:
  maintenance K × rate / 12, idle energy idle_W/1000 × 730 × PUE × electricity and colocation
  busy_W/1000 × colocation_per_kw_month; in month r it is credited −K × share × book(r − s).
  book(age) is 1 − age/(12 life) (straight_line, floored at 0), (1 − 2/life)^(age/12) with the base
  floored at 0 (declining_balance), or 0 (none); share = `onprem.resale.share_of_book`.
- An owned batch (`existing`, count and age a < L) serves months 1 … min(L − a, H). Each unit is kept
  (running costs as above, credit −K × share × book(a + r − 1) in r = min(L − a + 1, H + 1)), switched
  off (no energy or colocation, maintenance only when `maintenance_when_off`, the same end credit, no
  work) or sold in month 1 (credit −K × share × book(a) in month 1), as `sell_owned` and
  `switch_off_owned` allow.
- In month m a card type offers (units in service) × availability × 730 card-hours; each card-hour
  worked costs (busy_W − idle_W)/1000 × PUE × electricity. Cloud offers are rented by the hour.
- Caps: Σ capex of purchases ≤ capex_budget; the capex of each plan year's purchases (months
  12(y−1)+1 … 12y) ≤ capex_budget_per_year; in every month Σ units in service × busy_W ≤ 1000 ×
  power_cap_kw and min_units ≤ units in service ≤ max_units per card (switched-off and sold cards
  are not in service).
- Month m's money is multiplied by (1 + r)^(−(m−1)/12); the total is the sum over months 1 … H+1.

How the oracle searches. A plan is, per card, a purchase count for every purchase month and a
(kept, off, sold) split of every owned batch. Its cost is fixed flows (the per-unit amounts above,
summed) plus, for every month, the cheapest dispatch of the month's demand over the card-hours in
service and cloud instance-hours: an LP solved with scipy.optimize.linprog. With the flat profile,
demand is uniform within a month and months do not interact (no reservations, no cloud share), so
the dispatch cost of a plan is Σ_m D_m(units in service in month m), and D_m is solved once per
distinct (month demand, units in service) and cached.

The enumeration is exact but bounded and pruned:
- a vintage of card c never needs more units than ceil(most card-hours c could work in any month it
  serves / (availability × 730)), nor fewer than min_units: beyond that, one unit fewer keeps every
  served month's capacity above what c can usefully work (dispatch unchanged), keeps every cap, and
  saves that unit's fixed cost (capex − a credit below capex, plus running costs ≥ 0);
- per card, plans with the same in-service profile (and capex per plan year, when a budget reads it)
  keep only the cheapest fixed cost; the cards are then combined, and caps on sums (budgets, power)
  drop partial combinations early;
- dispatch cost only falls as capacity grows, so fixed + Σ_m D_m(most units any plan has in service
  in m) is a lower bound; plans are priced in order of fixed cost and the search stops when the bound
  reaches the best total found.
The random cases keep this small (≤ 2 cards, H ≤ 6, or 13 ≤ H ≤ 24 with purchases every 6 or 12
months for the per-year budget): when the bounds would give more than MAX_PLANS plans, the case gets
a tighter max_units. A quarter of the cases are discounted (8 %/year). The oracle is checked on 200
mixed cases, 100 where buying later pays (growing demand, purchases every month or two, short lives)
and 80 long horizons.

The oracle reads the same scenario dict and offers CSV rows the planner reads, and imports nothing
from the planner's model, cost or workload code.

More properties: the reduced model (merged periods, pruned offers) has the same optimum as the
unreduced one (every month × weekly hour, every offer); HiGHS agrees with CBC; no card serves past
its life (the purchase schedule and the units in service agree with the vintages bought); every
plan's cost categories sum to its total.
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
                 "accelerator_name", "gpu_count", "gpu_memory_gb", "gpu_memory_mib", "vcpus", "memory_gb",
                 "hourly_price", "upfront_price", "currency", "term_months", "zone", "as_of", "source", "note"]

COMMON = dict(deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                     HealthCheck.data_too_large])
MAX_PLANS = 60_000   # most plans (product over cards of per-card purchase × owned choices) in one case


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
# The rules, written out (see the module docstring)


def life_months(life_years: float) -> int:
    return max(1, math.floor(life_years * 12 + 0.5))   # halves up


def book(age_months: float, life_years: float, method: str) -> float:
    """Share of capex a card of this age is worth on the books."""
    if method == "none":
        return 0.0
    if method == "straight_line":
        return max(0.0, 1.0 - age_months / (12.0 * life_years))
    assert method == "declining_balance", method
    return max(0.0, 1.0 - 2.0 / life_years) ** (age_months / 12.0)


def purchase_months(scenario: dict) -> list[int]:
    H = scenario["horizon_months"]
    return list(range(1, H + 1, scenario["onprem"].get("purchase_every_months", 3)))


def owned_batches(scenario: dict) -> dict[str, tuple[int, int]]:
    """card -> (count, age in months at month 1), from the short or the long form."""
    out = {}
    for card, v in scenario["onprem"].get("existing", {}).items():
        out[card] = (int(v), 0) if isinstance(v, (int, float)) else (int(v["count"]), int(v.get("age_months", 0)))
    return out


def perf(w: dict, gpu: str) -> float:
    return w["throughput"][gpu] / w["throughput"][w["reference_gpu"]]


def demand_by_month(scenario: dict) -> np.ndarray:
    """[H × W] reference-GPU hours per month and workload."""
    W = scenario["workloads"]
    return np.array([[w["gpu_hours_per_month"] * (1 + w["growth_per_month"]) ** m for w in W]
                     for m in range(scenario["horizon_months"])])


def vintage_bounds(scenario: dict) -> dict[str, list[tuple[int, int]]]:
    """card -> [(purchase month, most units worth buying then)] (see the module docstring)."""
    H, op = scenario["horizon_months"], scenario["onprem"]
    cons = scenario.get("constraints", {})
    demand = demand_by_month(scenario)
    out = {}
    for card in op["cards"]:
        gpu, mem = CARDS[card]
        need = np.array([sum(demand[m, j] / perf(w, gpu) for j, w in enumerate(scenario["workloads"])
                             if mem >= w["min_gpu_memory_gb"]) for m in range(H)])
        L = life_months(op["card_overrides"][card]["life_years"])
        bounds = []
        for s in purchase_months(scenario):
            b = math.ceil(need[s - 1:min(s + L - 1, H)].max() / (op["availability"] * HOURS))
            b = max(b, cons.get("min_units", {}).get(card, 0))
            if card in cons.get("max_units", {}):
                b = min(b, cons["max_units"][card])
            bounds.append((s, b))
        out[card] = bounds
    return out


def owned_splits(scenario: dict, count: int) -> list[tuple[int, int, int]]:
    """Every allowed (kept, switched off, sold) split of `count` owned units."""
    op = scenario["onprem"]
    can_off, can_sell = op.get("switch_off_owned", True), op.get("sell_owned", True)
    return [(k, f, count - k - f) for k in range(count + 1) for f in range(count - k + 1)
            if (can_off or f == 0) and (can_sell or count - k - f == 0)]


def plan_count(scenario: dict) -> int:
    """How many plans the oracle enumerates before any cap: Π over cards of purchase × owned choices."""
    owned = owned_batches(scenario)
    n = 1
    for card, bounds in vintage_bounds(scenario).items():
        n *= math.prod(b + 1 for _, b in bounds) * len(owned_splits(scenario, owned.get(card, (0, 0))[0]))
    return n


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
            "gpu_memory_gb": CLOUD_GPUS[gpu], "gpu_memory_mib": "", "vcpus": 8 * count, "memory_gb": 32 * count,
            "hourly_price": hourly, "upfront_price": upfront, "currency": "USD", "term_months": term,
            "zone": "", "as_of": "2026-01-01", "source": "test", "note": ""}


def _maybe(draw, strategy, odds: int = 2):
    """A value from `strategy` one time in `odds`, else None (the field is left out)."""
    return draw(strategy) if draw(st.integers(1, odds)) == 1 else None


@st.composite
def cases(draw, extended: bool = False, staged: bool = False, long: bool | None = None, serving: bool = False):
    """(scenario dict without prices.source, offer rows). Every case has staged purchases, lives that may
    end inside the horizon, resale terms and owned cards of some age now and then. `extended` adds the
    features the oracle does not model (weekly profiles, site fixed cost, cloud share, reservations);
    otherwise a case is small enough to enumerate (plan_count ≤ MAX_PLANS, max_units tightened if not).
    `staged` leans on buying later: growing demand, purchases every month or two, short lives. `long`
    (now and then when None) is a horizon of 13-24 months with coarse purchase periods, where the
    per-year budget bites. `serving` (with `extended`) makes each workload a serving one or not, and
    single_type or split, at random, over 1-2 months."""
    if long is None:
        long = not extended and not staged and draw(st.integers(0, 4)) == 0
    if extended:
        horizon = draw(st.integers(1, 2 if serving else 4))
    else:
        horizon = draw(st.sampled_from(range(13, 25) if long else range(2, 7)))
    if staged:
        horizon = draw(st.sampled_from(range(3, 7)))
    every = draw(st.sampled_from([6, 12, horizon] if long else [1, 2] if staged else [1, 2, 3, horizon, None]))
    lives = [0.5, 1, 1.5, 3] if long else [0.25, 0.5, 3] if staged else [0.25, 0.5, 1, 3, 5]
    card_ids = draw(st.lists(st.sampled_from(sorted(CARDS)), min_size=2 if extended else 1,
                             max_size=3 if extended else 2, unique=True))
    if not extended and len(card_ids) == 1 and draw(st.booleans()):
        card_ids.append(draw(st.sampled_from(sorted(set(CARDS) - set(card_ids)))))
    overrides = {}
    for c in card_ids:
        idle = draw(st.integers(20, 150))
        overrides[c] = {"price": draw(st.integers(300, 9000 if extended else 4000)), "currency": "USD",
                        "host_cost_per_card": draw(st.integers(0, 3000 if extended else 1000)),
                        "busy_watts": idle + draw(st.integers(50, 600)), "idle_watts": idle,
                        "life_years": draw(st.sampled_from(lives)),
                        "maintenance_rate_per_year": draw(st.sampled_from([0, 0.03, 0.05, 0.1]))}
    existing = {}
    for c in card_ids:
        if draw(st.integers(0, 2)) == 0:
            count = draw(st.integers(1, 3))
            if draw(st.booleans()):
                existing[c] = count     # the short form: new cards
            else:
                L = life_months(overrides[c]["life_years"])
                existing[c] = {"count": count, "age_months": draw(st.integers(0, min(L - 1, 48)))}
    n_work = draw(st.integers(1, 2))
    mems = [draw(st.sampled_from([0, 12, 24, 48])) for _ in range(n_work)]

    # Offers: the first is on-demand and fits every workload, so cloud can always serve all demand.
    options = ["spot", "reserved_1y", "on_demand"] if extended else ["spot", "on_demand"]
    offers = []
    first_gpu = draw(st.sampled_from([g for g, m in CLOUD_GPUS.items() if m >= max(mems)]))
    count = draw(st.sampled_from([1, 2, 4]))
    offers.append(_offer(0, draw(st.sampled_from(["aws", "azure"])), first_gpu, count, "on_demand",
                         round(count * _money(draw, 30 if extended else 80, 300 if extended else 400), 2)))
    for i in range(1, 1 + draw(st.integers(1, 3) if extended else st.sampled_from([1, 0]))):
        gpu = draw(st.sampled_from(sorted(CLOUD_GPUS)))
        count = draw(st.sampled_from([1, 2, 4]))
        option = draw(st.sampled_from(options))
        hourly = round(count * _money(draw, 20 if extended else 50, 300), 2)
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
            "gpu_hours_per_month": draw(st.integers(50, 2000)),
            "reference_gpu": ref,
            "min_gpu_memory_gb": mems[j],
            "profile": draw(st.sampled_from(["flat", "business_hours"])) if extended else "flat",
            "growth_per_month": draw(st.sampled_from([0.0, 0.03, 0.08] if long else [0.2, 0.4] if staged
                                                     else [0.0, 0.05, 0.2, 0.4, 0.4])),
            "interruptible": interruptible,
            "interruption_overhead": draw(st.sampled_from([0.0, 0.1])) if interruptible else 0.0,
            "throughput": {g: 1.0 if g == ref else draw(st.integers(50, 300)) / 100.0 for g in gpus_involved},
        })
        if serving:
            workloads[-1].update(serving=draw(st.booleans()), placement=draw(st.sampled_from(["split", "single_type"])))

    onprem = {"electricity_per_kwh": _money(draw, 5, 40), "pue": draw(st.integers(100, 200)) / 100.0,
              "availability": draw(st.integers(80, 100)) / 100.0, "cards": card_ids,
              "card_overrides": overrides, "existing": existing}
    if every is not None:
        onprem["purchase_every_months"] = every
    resale = {}
    if draw(st.integers(0, 4)):
        resale["method"] = draw(st.sampled_from(["straight_line", "declining_balance", "none"]))
    if draw(st.integers(0, 4)):
        resale["share_of_book"] = draw(st.sampled_from([0, 0.5, 1]))
    if resale:
        onprem["resale"] = resale
    for flag in ("sell_owned", "switch_off_owned", "maintenance_when_off"):
        value = _maybe(draw, st.booleans(), 2)
        if value is not None:
            onprem[flag] = value
    if draw(st.integers(0, 2)) == 0:
        onprem["colocation_per_kw_month"] = draw(st.sampled_from([5.0, 15.0]))
    if draw(st.integers(0, 3)) == 0:
        onprem["capex_budget"] = draw(st.sampled_from([0, 1500, 4000, 9000, 25000]))
    if long and draw(st.integers(0, 2)):   # room for a few cards a year, so buying in two years matters
        c = overrides[draw(st.sampled_from(card_ids))]
        onprem["capex_budget_per_year"] = draw(st.integers(1, 4)) * (c["price"] + c["host_cost_per_card"])
    elif draw(st.integers(0, 3)) == 0:
        onprem["capex_budget_per_year"] = draw(st.sampled_from([0, 1000, 3000, 6000, 15000]))
    if draw(st.integers(0, 3)) == 0:
        onprem["power_cap_kw"] = draw(st.sampled_from([0.3, 0.8, 1.5, 3.1, 6.0]))
    constraints: dict = {}
    if draw(st.integers(0, 3)) == 0:
        limited = draw(st.lists(st.sampled_from(card_ids), min_size=1, unique=True))
        # below the owned units now and then: they must be sold or switched off, or it is infeasible
        constraints["max_units"] = {c: draw(st.integers(0, 4)) if draw(st.integers(0, 3)) == 0
                                    else owned_batches({"onprem": onprem}).get(c, (0, 0))[0] + draw(st.integers(0, 3))
                                    for c in limited}
    if draw(st.integers(0, 4)) == 0:   # every month: short lives need replacements, or it is infeasible
        constraints["min_units"] = {draw(st.sampled_from(card_ids)): draw(st.integers(1, 2))}
        for c, lo in constraints["min_units"].items():   # keep min ≤ max (a validation error otherwise)
            if c in constraints.get("max_units", {}):
                constraints["max_units"][c] = max(constraints["max_units"][c], lo)
    scenario = {"name": "bruteforce", "currency": "USD", "horizon_months": horizon,
                "discount_rate": draw(st.sampled_from([0.0, 0.0, 0.0, 0.08])),
                "prices": {"providers": ["aws", "azure"], "purchase_options": options},
                "onprem": onprem, "workloads": workloads, "constraints": constraints}
    if extended:
        onprem["fixed_onprem_per_month"] = draw(st.sampled_from([0.0, 200.0]))
        if draw(st.integers(0, 3)) == 0:
            constraints["max_cloud_share"] = draw(st.sampled_from([0.3, 0.8]))
    else:   # small enough to enumerate: tighten the card with the most purchase choices until it is
        while plan_count(scenario) > MAX_PLANS:
            bounds = vintage_bounds(scenario)
            card = max(bounds, key=lambda c: (math.prod(b + 1 for _, b in bounds[c]), c))
            most = max(b for _, b in bounds[card])
            lo = constraints.get("min_units", {}).get(card, 0)
            constraints.setdefault("max_units", {})[card] = max(lo, most - 1)
            if most - 1 < lo:   # cannot tighten below min_units: drop the floor instead
                del constraints["min_units"][card]
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


def planner_plan(scenario: dict, **kw):
    """plan(...), or None when the planner finds the scenario infeasible."""
    try:
        return plan(load_scenario(scenario), baselines=False, **kw)
    except InfeasibleError:
        return None


def planner_total(scenario: dict, **kw) -> float | None:
    """plan(...).total, or None when the planner finds the scenario infeasible."""
    p = planner_plan(scenario, **kw)
    return None if p is None else p.total


# ---------------------------------------------------------------------------------------------------
# The oracle (the rules above; flat profile, no reservations, no cloud share, no site fixed cost)


class Dispatch:
    """D_m(units in service per card): the cheapest dispatch of one month's demand, nominal, cached."""

    def __init__(self, scenario: dict, offers: list[dict]):
        op, W = scenario["onprem"], scenario["workloads"]
        pue, kwh = op["pue"], op["electricity_per_kwh"]
        self.cards, self.avail = list(op["cards"]), op["availability"]
        self.demand = demand_by_month(scenario)
        allowed = [o for o in offers if o["provider"] in scenario["prices"]["providers"]
                   and o["purchase_option"] in scenario["prices"]["purchase_options"]]
        assert all(o["purchase_option"] in ("on_demand", "spot") for o in allowed)
        cols = []   # (card index or None, workload, work per hour, cost per hour)
        for c, card in enumerate(self.cards):
            ov = op["card_overrides"][card]
            gpu, mem = CARDS[card]
            busy_cost = (ov["busy_watts"] - ov["idle_watts"]) / 1000.0 * pue * kwh
            for j, w in enumerate(W):
                if mem >= w["min_gpu_memory_gb"]:
                    cols.append((c, j, perf(w, gpu), busy_cost))
        for o in allowed:
            spot = o["purchase_option"] == "spot"
            for j, w in enumerate(W):
                if o["gpu_memory_gb"] >= w["min_gpu_memory_gb"] and (w["interruptible"] or not spot):
                    delivered = 1.0 - w["interruption_overhead"] if spot else 1.0
                    cols.append((None, j, perf(w, o["gpu"]) * o["gpu_count"] * delivered, o["hourly_price"]))
        C, J = len(self.cards), len(W)
        self.A = np.zeros((C + J, len(cols)))   # rows: card capacity, then demand (as −work ≤ −demand)
        self.cost = np.array([price for *_, price in cols])
        for k, (c, j, work, _) in enumerate(cols):
            if c is not None:
                self.A[c, k] = 1.0
            self.A[C + j, k] = -work
        self.memo: dict = {}

    def __call__(self, month: int, units: tuple) -> float:
        key = (tuple(self.demand[month - 1]), units)
        if key not in self.memo:
            b = np.concatenate([self.avail * HOURS * np.asarray(units, dtype=float), -self.demand[month - 1]])
            res = linprog(self.cost, A_ub=self.A, b_ub=b, bounds=(0, None), method="highs")
            assert res.status == 0, res.message   # the first offer always covers every workload
            self.memo[key] = float(res.fun)
        return self.memo[key]


def card_options(scenario: dict, card: str, bounds: list[tuple[int, int]], disc: np.ndarray,
                 years: int) -> dict[str, np.ndarray]:
    """Every plan for one card type, as arrays over plans: fixed cost (discounted), units in service
    [× H], capex per plan year [× years]; plans breaking min/max units dropped."""
    H, op = scenario["horizon_months"], scenario["onprem"]
    cons = scenario.get("constraints", {})
    ov = op["card_overrides"][card]
    resale = op.get("resale", {})
    method, share = resale.get("method", "straight_line"), resale.get("share_of_book", 0.5)
    life = ov["life_years"]
    L = life_months(life)
    capex = ov["price"] + ov["host_cost_per_card"]
    maintenance = capex * ov["maintenance_rate_per_year"] / 12.0
    idle = ov["idle_watts"] / 1000.0 * HOURS * op["pue"] * op["electricity_per_kwh"]
    colocation = ov["busy_watts"] / 1000.0 * op.get("colocation_per_kw_month", 0.0)
    running = maintenance + idle + colocation

    def pv(amount: float, first: int, last: int) -> float:   # `amount` in each month first … last
        return amount * disc[first - 1:last].sum()

    # bought vintages: one column per purchase month
    serve = np.zeros((len(bounds), H))
    unit_fixed = np.zeros(len(bounds))
    unit_capex = np.zeros((len(bounds), years))
    for v, (s, _) in enumerate(bounds):
        last, leave = min(s + L - 1, H), min(s + L, H + 1)
        serve[v, s - 1:last] = 1
        unit_fixed[v] = (pv(capex, s, s) + pv(running, s, last)
                         - pv(capex * share * book(leave - s, life, method), leave, leave))
        unit_capex[v, (s - 1) // 12] = capex
    buys = np.array(list(itertools.product(*(range(b + 1) for _, b in bounds))), dtype=float)
    buys = buys.reshape(-1, len(bounds))

    # the owned batch: (kept, off, sold) splits
    count, age = owned_batches(scenario).get(card, (0, 0))
    owned_serve = np.zeros(H)
    last, leave = min(L - age, H), min(L - age + 1, H + 1)
    owned_serve[:last] = 1
    credit = pv(capex * share * book(age + leave - 1, life, method), leave, leave)
    kept_cost = pv(running, 1, last) - credit
    off_cost = pv(maintenance if op.get("maintenance_when_off", True) else 0.0, 1, last) - credit
    sold_cost = -pv(capex * share * book(age, life, method), 1, 1)
    splits = np.array(owned_splits(scenario, count), dtype=float)

    nb, ns = len(buys), len(splits)
    buys, splits = np.repeat(buys, ns, axis=0), np.tile(splits, (nb, 1))
    units = buys @ serve + splits[:, :1] * owned_serve
    fixed = buys @ unit_fixed + splits @ np.array([kept_cost, off_cost, sold_cost])
    capex_by_year = buys @ unit_capex
    ok = units.min(axis=1) >= cons.get("min_units", {}).get(card, 0)
    if card in cons.get("max_units", {}):
        ok &= units.max(axis=1) <= cons["max_units"][card]
    units, fixed, capex_by_year = units[ok], fixed[ok], capex_by_year[ok]
    # plans alike in all the rest keep only the cheapest fixed cost
    budgets = op.get("capex_budget") is not None or op.get("capex_budget_per_year") is not None
    key = np.hstack([units, capex_by_year]) if budgets else units
    order = np.argsort(fixed, kind="stable")
    _, first = np.unique(key[order], axis=0, return_index=True)
    keep = order[first]
    return {"fixed": fixed[keep], "units": units[keep][:, None, :], "capex": capex_by_year[keep],
            "watts": units[keep] * ov["busy_watts"], "pick": np.arange(len(keep))[:, None],
            "choice": np.hstack([buys, splits])[ok][keep]}


def oracle(scenario: dict, offers: list[dict]) -> tuple[float | None, dict]:
    """(least total cost, stats) over every plan; (None, stats) when no plan meets the caps."""
    H, op = scenario["horizon_months"], scenario["onprem"]
    W = scenario["workloads"]
    assert all(w["profile"] == "flat" for w in W)
    assert not op.get("fixed_onprem_per_month") and "max_cloud_share" not in scenario.get("constraints", {})
    r = scenario.get("discount_rate", 0.0)
    disc = np.array([(1.0 + r) ** (-(m - 1) / 12.0) for m in range(1, H + 2)])   # months 1 … H+1
    years = (H - 1) // 12 + 1
    budget, per_year = op.get("capex_budget"), op.get("capex_budget_per_year")
    power = round(op["power_cap_kw"] * 1000) if op.get("power_cap_kw") is not None else None
    stats = {"plans": 0, "lps": 0}

    combined, choices = None, {}
    for card, bounds in vintage_bounds(scenario).items():
        opt = card_options(scenario, card, bounds, disc, years)
        choices[card] = opt.pop("choice")
        if combined is None:
            combined = opt
        else:   # every pair of (plans so far, plans of this card)
            a, b = len(combined["fixed"]), len(opt["fixed"])
            ia, ib = np.repeat(np.arange(a), b), np.tile(np.arange(b), a)
            combined = {"fixed": combined["fixed"][ia] + opt["fixed"][ib],
                        "units": np.concatenate([combined["units"][ia], opt["units"][ib]], axis=1),
                        "capex": combined["capex"][ia] + opt["capex"][ib],
                        "watts": combined["watts"][ia] + opt["watts"][ib],
                        "pick": np.hstack([combined["pick"][ia], opt["pick"][ib]])}
        ok = np.ones(len(combined["fixed"]), dtype=bool)   # sums only grow: drop what breaks a cap now
        if budget is not None:
            ok &= combined["capex"].sum(axis=1) <= budget + 1e-9
        if per_year is not None:
            ok &= (combined["capex"] <= per_year + 1e-9).all(axis=1)
        if power is not None:
            ok &= (combined["watts"] <= power + 1e-9).all(axis=1)
        combined = {k: v[ok] for k, v in combined.items()}
    fixed, units = combined["fixed"], combined["units"]   # units: [plans × cards × H]
    stats["plans"] = len(fixed)
    if not len(fixed):
        return None, stats

    dispatch = Dispatch(scenario, offers)

    def dispatch_cost(idx: np.ndarray) -> np.ndarray:
        total = np.zeros(len(idx))
        for m in range(1, H + 1):
            vecs, inverse = np.unique(units[idx, :, m - 1], axis=0, return_inverse=True)
            costs = np.array([dispatch(m, tuple(v)) for v in vecs])
            total += disc[m - 1] * costs[np.asarray(inverse).reshape(-1)]
        return total

    # dispatch cost only falls as capacity grows: the most units in service in each month bound it below
    floor = sum(disc[m - 1] * dispatch(m, tuple(units[:, :, m - 1].max(axis=0))) for m in range(1, H + 1))
    order = np.argsort(fixed, kind="stable")
    best, chunk = math.inf, 64
    for start in range(0, len(order), chunk):
        idx = order[start:start + chunk]
        if best < math.inf:
            idx = idx[fixed[idx] + floor < best - 1e-9 * max(1.0, abs(best))]
        if not len(idx):
            break
        totals = fixed[idx] + dispatch_cost(idx)
        if totals.min() < best:
            best, at = float(totals.min()), idx[int(np.argmin(totals))]
        chunk = min(4 * chunk, 4096)
    stats["lps"] = len(dispatch.memo)
    # the best plan, to show in a failure: per card, units bought per purchase month and the owned split
    stats["best"] = {card: {"buy": dict(zip(purchase_months(scenario), map(int, ch[:-3]))),
                            "kept_off_sold": tuple(map(int, ch[-3:])), "in_service": combined["units"][at, c].tolist()}
                     for c, (card, opts) in enumerate(choices.items())
                     for ch in [opts[combined["pick"][at, c]]]}
    stats["fixed"] = float(fixed[at])
    return best, stats


# ---------------------------------------------------------------------------------------------------
# Properties


def assert_oracle_agrees(case, offers_dir) -> None:
    """The planner finds a plan exactly when the oracle does, with the oracle's total to 1e-6."""
    scenario, offers = case
    scenario = with_source(scenario, write_offers(offers_dir, offers))
    expected, stats = oracle(scenario, offers)
    p = planner_plan(scenario)
    got = None if p is None else p.total
    if expected is None:
        assert got is None, f"planner found a plan ({got}) but no plan meets the caps"
    else:
        assert got is not None, f"planner says infeasible; the oracle found {expected}: {stats['best']}"
        assert got == pytest.approx(expected, rel=1e-6, abs=1e-6), (
            f"the oracle's plan {stats['best']} (fixed flows {stats['fixed']:.6f}) costs {expected:.6f}; "
            f"the planner's ({got:.6f}):\n{p.schedule.to_string()}")


@settings(max_examples=200, **COMMON)
@given(case=cases())
def test_plan_total_equals_brute_force_optimum(case, offers_dir):
    assert_oracle_agrees(case, offers_dir)


@settings(max_examples=100, **COMMON)
@given(case=cases(staged=True))
def test_staged_purchases_equal_brute_force_optimum(case, offers_dir):
    """The same, on cases where buying later pays: growing demand, short purchase periods and lives."""
    assert_oracle_agrees(case, offers_dir)


@settings(max_examples=80, **COMMON)
@given(case=cases(long=True))
def test_long_horizons_equal_brute_force_optimum(case, offers_dir):
    """The same, over 13-24 months with purchases every 6 or 12 months: a budget per plan year, and
    lives of 6-36 months, so replacements."""
    assert_oracle_agrees(case, offers_dir)


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


@settings(max_examples=30, **COMMON)
@given(case=cases(extended=True, serving=True))
def test_reduced_model_has_the_unreduced_optimum_with_serving_and_placement(case, offers_dir):
    """The same with serving workloads (whole instances per slot) and single_type placement: the fill
    reduction keeps the offers that serve a serving workload and the cheapest per GPU type for single_type
    ones, and reservations that serve a serving workload are never pruned for their value."""
    assert_same_total(case, offers_dir, {"reduced": True}, {"reduced": False})


@settings(max_examples=10, **COMMON)
@given(case=cases(extended=True))
def test_highs_agrees_with_cbc(case, offers_dir):
    assert_same_total(case, offers_dir, {"solver": "cbc"}, {"solver": "highs"})


@settings(max_examples=10, **COMMON)
@given(case=cases(extended=True, serving=True))
def test_highs_agrees_with_cbc_with_serving_and_placement(case, offers_dir):
    assert_same_total(case, offers_dir, {"solver": "cbc"}, {"solver": "highs"})


def _units(frame, **where) -> float:
    rows = frame
    for col, value in where.items():
        rows = rows[rows[col] == value]
    return float(rows["units"].sum())


@settings(max_examples=100, **COMMON)
@given(case=st.one_of(cases(), cases(extended=True)))
def test_no_card_serves_past_its_life(case, offers_dir):
    """Every card bought in month s retires in s + L when that is inside the horizon; the units in
    service each month are exactly the units bought in the last L months plus the owned cards kept
    and still within their life (so never more than bought in the last L months plus owned in life);
    the cost categories sum to the total."""
    scenario, offers = case
    scenario = with_source(scenario, write_offers(offers_dir, offers))
    p = planner_plan(scenario)
    if p is None:
        return
    assert p.costs["cost"].sum() == pytest.approx(p.total, rel=1e-9, abs=1e-6)
    H, op = scenario["horizon_months"], scenario["onprem"]
    sched, inst = p.schedule, p.installed
    assert set(sched["action"]) <= {"buy", "sell", "switch off", "retire", "end value"}
    at_end = sched["action"] == "end value"   # the cards still in service, credited in month H+1
    assert sched.loc[~at_end, "month"].between(1, H).all() and (sched.loc[at_end, "month"] == H + 1).all()
    assert (sched["units"] > 0).all()
    # the schedule's amounts are the plan's capex plus its residual value (nominal), as the monthly table sums them
    assert sched["amount"].sum() == pytest.approx(p.monthly["capex"].sum() + p.monthly["residual_value"].sum(),
                                                  rel=1e-9, abs=1e-6)
    buy_months = set(purchase_months(scenario))
    owned = owned_batches(scenario)
    for card in op["cards"]:
        L = life_months(op["card_overrides"][card]["life_years"])
        count, age = owned.get(card, (0, 0))
        sold, off = _units(sched, card=card, action="sell"), _units(sched, card=card, action="switch off")
        assert sold + off <= count + 1e-6
        assert sold == 0 or op.get("sell_owned", True)
        assert off == 0 or op.get("switch_off_owned", True)
        owned_leave = L - age + 1   # the month owned cards (kept or off) leave service
        bought = {s: _units(sched, card=card, action="buy", month=s) for s in range(1, H + 1)}
        for s, u in bought.items():
            assert u == 0 or s in buy_months, f"{card} bought in month {s}, not a purchase month"
            assert u == pytest.approx(round(u), abs=1e-6)
        for m in range(1, H + 1):
            retired = _units(sched, card=card, action="retire", month=m)
            expected = bought.get(m - L, 0.0) + ((count - sold) if m == owned_leave else 0.0)
            assert retired == pytest.approx(expected, abs=1e-6), (card, m, retired, expected)
            in_service = _units(inst, card=card, month=m)
            recent = sum(bought[s] for s in range(max(1, m - L + 1), m + 1))
            owned_in_life = count if m <= L - age else 0
            assert in_service <= recent + owned_in_life + 1e-6
            kept = (count - sold - off) if m <= L - age else 0.0
            assert in_service == pytest.approx(recent + kept, abs=1e-6), (card, m)
        # every card bought or owned leaves in one row: sold, retired, or valued at the end (in service in month H)
        left = sold + _units(sched, card=card, action="retire") + _units(sched, card=card, action="end value")
        assert left == pytest.approx(sum(bought.values()) + count, abs=1e-6), card
        assert _units(sched, card=card, action="end value") == pytest.approx(_units(inst, card=card, month=H)
                                                                           + (off if owned_leave > H else 0), abs=1e-6)
