"""Baselines solved the same way as the plan: all cloud, all on-prem, and the best single capacity type.

A baseline keeps some capacity types only, the units already owned, and the caps marked
`in_baselines` (the physical power cap); caps that express preferences of the mix (capex budget, cloud
share, min/max units) are dropped.

On a grouped profile (engine.periods, `profile_slots`) a baseline is solved on the plan's blocks, and one more
solve each bounds its cost error as the plan's is (`grouping_lower_bounds`: the rows' error_bound), with a warning
where that bound is above the plan's tolerance (`loose_bound_warnings`); baselines are not planned on more blocks.

`start_baseline_child` solves the baselines table in a forked child process while the parent solves the
plan (engine.run's `plan(..., prefetch_baselines=True)`): on two free cores the baselines then cost the
parent only the wait for what is left of them.
"""

from __future__ import annotations

import contextlib
import math
import os
import pickle
import shutil
import signal
import sys
import tempfile
import threading
import time
import warnings
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from planner.engine.constraints import baseline_caps, dropped_in_baselines, met_without_cards
from planner.engine.explain import check_compatibility, explain_infeasible, unserved, unserved_by
from planner.engine.inputs import HOURS_ONE_BY_ONE, Inputs
from planner.engine.model import ExtraConstraints, Model, build_model
from planner.engine.readback import fleet_unit_ids, read_fleet, read_plan, servable_pairs
from planner.engine.reductions import cost_per_work, reduce
from planner.engine.solve import Solution, TimeBudget, highs_started, solve
from planner.errors import InfeasibleError, SolverError
from planner.process import default_stop_signals, kill_process_group
from planner.scenario.model import CLOUD_KIND_LABEL
from planner.scratch import ScratchFolder
from planner.text import counted


def solve_inputs(inp: Inputs, solver: str, time_limit: float | TimeBudget | None, explain: bool = True,
                 extra_constraints: ExtraConstraints | None = None) -> tuple[Model, Solution]:
    """(model, solution) of `inp`; InfeasibleError with the reason when no fleet exists. `time_limit`: seconds
    for the solve and the explanation of no fleet together, or a TimeBudget shared with the solves before — and
    after: the LPs that settle the model's work when it is read (engine.dispatch) get what is left of it then."""
    check_compatibility(inp)
    if not explain:
        missing = unserved(inp)
        if missing:  # a baseline whose capacity type cannot hold some workload: no solve needed
            raise InfeasibleError(f"{inp.label}: no capacity of this type can serve {', '.join(missing)}")
    budget = TimeBudget.of(time_limit)
    model = build_model(inp, extra_constraints)
    # only a shared budget: one of this solve's own would count the time from its solve to its read (a baseline's
    # model is read after the other baselines' solves), and its settling LPs keep the solve's seconds
    model.budget = time_limit if isinstance(time_limit, TimeBudget) else None
    solution = solve(model, solver, budget.left())
    if solution.status == "not_solved":
        limit = f" within the time limit of {budget.seconds:g} s" if budget.seconds else ""
        # a model planned hour by hour is tens of times larger: its warning, lost with the plan, says why
        slow = next((w for w in inp.warnings if HOURS_ONE_BY_ONE in w), None)
        why = f"; the model has {len(inp.periods):,} periods because {slow}" if slow else ""
        other = "highs" if solver == "cbc" else "cbc"   # named as plan() takes it and as the CLI does
        raise SolverError(f"{inp.label}: solver {solver} found no fleet{limit} ({solution.seconds:.1f} s) and did not "
                          f"prove that none exists; allow more time or try the other solver: solver={other!r} "
                          f"(--solver {other}){why}")
    if solution.status not in ("optimal", "feasible"):
        # the explanation re-solves up to three times per cap, within what this solve left of the time limit
        # (engine.explain; without one, a multiple of this solve's seconds); baselines only say that the caps cannot be met
        why = (explain_infeasible(inp, solver, extra_constraints, budget, solution.seconds) if explain
               else _baseline_reason(inp))
        raise InfeasibleError(f"{inp.label}: {why}")
    return model, solution


def _baseline_reason(inp: Inputs) -> str:
    """Why a baseline has no fleet: a workload nothing of this type may serve, else the caps it keeps."""
    missing = unserved(inp)
    if missing:
        return f"no capacity of this type can serve {', '.join(missing)}"
    if inp.caps.get("power_kw") is not None:
        return f"the power cap of {inp.caps['power_kw']:g} kW cannot be met with this capacity type"
    return "no fleet of this capacity type meets the scenario"


@dataclass(frozen=True)
class Variant:
    """A baseline: the cloud kinds it keeps, and which cards it may buy (all, one, or none)."""

    group: str                  # all_cloud | all_onprem | single
    label: str                  # in the table
    name: str                   # in messages ("all cloud: …")
    keep_kinds: frozenset
    only_card: str | None = None
    buy_cards: bool = True

    def masks(self, base: Inputs) -> tuple[np.ndarray, np.ndarray]:
        """(units kept, units buyable) over the base's units; owned cards are always kept."""
        kind, sku = base.col("kind"), base.col("sku")
        is_card = kind == "card"
        if not self.buy_cards:
            no_new = is_card
        elif self.only_card:
            no_new = is_card & (sku != self.only_card)
        else:
            no_new = np.zeros(len(kind), dtype=bool)
        return np.isin(kind, list(self.keep_kinds)) | is_card, base.col("buyable").astype(bool) & ~no_new

    def cards(self, base: Inputs) -> frozenset:
        """The cards this baseline may buy (what can explain why it costs less than the plan: constraints.
        dropped_in_baselines)."""
        keep, buyable = self.masks(base)
        return frozenset(map(str, base.col("sku")[keep & buyable & (base.col("kind") == "card")]))

    def inputs(self, base: Inputs) -> Inputs:
        """The baseline's inputs: its units, owned cards kept, only the caps baselines keep."""
        keep, buyable = self.masks(base)
        units = base.units.copy()
        # min/max units are dropped with the other preferences; "no new hardware" is a card not buyable
        is_card = units["kind"] == "card"
        units.loc[is_card, "min_units"] = 0
        units.loc[is_card, "max_units"] = math.nan
        units.loc[~buyable, "buyable"] = False
        exclusions = base.exclusions[base.exclusions["kind"].isin(self.keep_kinds | {"card"})]
        inp = replace(base, units=units, label=self.name, caps=baseline_caps(base.caps),
                      exclusions=exclusions)
        return inp.keep(keep)


ALL_CLOUD_LABEL = "all cloud (no new hardware)"
OWNED_TOO = " (and owned cards)"   # after "only <card>" where other cards are owned, which that baseline keeps
# the best single type's label when the cheapest single-type plan buys and rents nothing (every type ties at
# the cards owned): "only cloud on-demand" told a budget holder of a type the plan does not use
OWNED_ONLY_LABEL = "owned cards alone (nothing bought or rented)"
NOTHING_NEW_LABEL = "nothing bought or rented"   # the same without owned cards (no demand to serve)
# totals closer than this (half a cent of the scenario's currency), or than RESOLVE_AGREEMENT of their size,
# are equal: an exact tie solved to -9e-13 printed "-0" (engine.decisions), and two single types that tie
# are told apart by what they use (baseline_rows)
MONEY_ROUNDING = 0.005
# a re-solve with one more restriction may come out below the plan by this share of its total (solver
# tolerances: HiGHS's absolute MIP gap is 1e-6) before it is taken as a sign of constraints the plan had
RESOLVE_AGREEMENT = 1e-6


def round_off(total: float) -> float:
    """How far apart two totals near `total` may be and still be equal: MONEY_ROUNDING, or RESOLVE_AGREEMENT of
    the total where that is more (the solvers' tolerances grow with it)."""
    return max(MONEY_ROUNDING, RESOLVE_AGREEMENT * abs(total))


def baseline_variants(base: Inputs) -> list[Variant]:
    """All-cloud, all-on-prem and every single capacity type."""
    kinds = [k for k in ("on_demand", "spot", "reserved") if (base.col("kind") == k).any()]
    cards = list(base.col("sku")[base.col("kind") == "card"])
    out = [Variant("all_cloud", ALL_CLOUD_LABEL, "all cloud", frozenset(kinds), buy_cards=False),
           Variant("all_onprem", "all on-prem (no cloud)", "all on-prem", frozenset())]
    # a card's baseline keeps the owned cards of other types (masks), which its label says: "only rtx-4090" beside
    # two owned RTX 3060s read as a plan of RTX 4090s alone
    owned = set(map(str, base.col("sku")[(base.col("kind") == "card") & (base.col("existing") > 0)]))
    out += [Variant("single", f"only {card}" + (OWNED_TOO if owned - {str(card)} else ""), f"only {card}", frozenset(),
                    only_card=card) for card in cards]
    # a cloud kind's baseline keeps every owned card too (masks): "only cloud spot" beside owned cards read as none kept
    out += [Variant("single", f"only {CLOUD_KIND_LABEL[kind]}" + (OWNED_TOO if owned else ""),
                    f"only {CLOUD_KIND_LABEL[kind]}", frozenset({kind}), buy_cards=False) for kind in kinds]
    return out


def _unserved(base: Inputs, keep: np.ndarray, buyable: np.ndarray) -> list[str]:
    """The workloads that nothing a baseline with these masks (Variant.masks) may hold or rent can serve."""
    return unserved_by(base, keep & ((base.col("kind") != "card") | (base.col("existing") > 0) | buyable))


def _solve_variant(base: Inputs, variant: Variant, solver: str,
                   time_limit: float | None) -> tuple[Inputs, Model, Solution] | InfeasibleError | SolverError:
    """(reduced inputs, model, solution) of a baseline, or the InfeasibleError that says why it has none, or
    the SolverError of a solve that found no fleet (the time limit reached first, CBC failed): a baseline
    is a comparison, so its row says so and the plan stands. A workload that nothing of the baseline's
    type may serve is found from the masks alone, before its inputs are made: no inputs, no reduction, no solve."""
    keep, buyable = variant.masks(base)
    missing = _unserved(base, keep, buyable)
    try:
        if missing:
            if unserved_by(base, keep):   # no unit at all: the explanation names the offers left out
                check_compatibility(variant.inputs(base))
            raise InfeasibleError(f"{variant.name}: no capacity of this type can serve {', '.join(missing)}")
        inp = variant.inputs(base)
        inp = reduce(inp) if inp.reduced else inp
        return (inp, *solve_inputs(inp, solver, time_limit, explain=False))
    except (InfeasibleError, SolverError) as exc:   # InfeasibleError is no SolverError: both are kept
        # the reason for the row's note: without the variant's name where the message begins with it (the
        # checks of compatibility begin with the workload: "workload B (≥ 40 GB …) has no compatible offer …")
        text = str(exc)
        exc.reason = text.removeprefix(f"{variant.name}: ")
        return exc


def solve_baselines(base: Inputs, total: float, solver: str, time_limit: float | None,
                    scenario=None, plans: bool = True, plan_status: str = "optimal") -> tuple[pd.DataFrame, dict]:
    """Baselines table (baseline, label, status, total, savings, savings_pct, error_bound, error_bound_pct, note) and
    their Plans
    (all_cloud, all_onprem, best_single; none with `plans=False`, for callers that show the table only).
    `total` and `plan_status`: the recommended plan's, which the savings are against."""
    rows, plans_out = baseline_rows(base, solver, time_limit, scenario, plans)
    return baseline_table(rows, total, base, plan_status), plans_out


def baseline_rows(base: Inputs, solver: str, time_limit: float | None, scenario=None, plans: bool = True,
                  all_cloud: tuple | None = None, defer_all_cloud: bool = False,
                  bounds: bool = True) -> tuple[list[dict], dict]:
    """The baselines' rows (baseline, label, status, total, note; `cards`, those it may buy; `pairs`, where it
    has a fleet: the (workload, gpu) pairs a unit of it can serve, `fleet_pairs`; `lower_bound`, on a grouped
    profile the lower bound on its exact optimum, `grouping_lower_bounds`, else None) and their Plans (see
    `solve_baselines`). The rows carry all the table and the speeds table need: a forked child sends them.
    `bounds=False`: no lower bounds are solved (lower_bound None: unknown), for a caller that reads a baseline's
    total alone (a sweep's savings against all cloud): on a grouped profile up to one solve fewer per model.

    Baselines that are the same model (one cloud kind only: all cloud is the best cloud kind; one card
    only: all on-prem is that card) are solved once. Without Plans, the all-cloud model is not solved
    when the plan's own solve settles it (see below): `all_cloud` is then that solve's proven (status,
    total, pairs) (run.all_cloud_run; without pairs, the row has none), or, with `defer_all_cloud` (the
    forked child, which runs before the plan's solve ends), its row is left PENDING for `settle_all_cloud` —
    unless another baseline is the same model (its total is needed here for the best single type)."""
    if plans and (all_cloud is not None or defer_all_cloud):
        raise ValueError("the all-cloud Plan cannot come from the plan's solve: all_cloud and defer_all_cloud "
                         "need plans=False")
    rows, singles = [], []
    best = None   # the single type of the best single type's row
    solved: dict = {}
    outcomes = []
    variants = baseline_variants(base)
    keys = [_model_key(base, variant) for variant in variants]
    for variant, key in zip(variants, keys):
        if key not in solved:
            if variant.group == "all_cloud" and all_cloud is not None:
                solved[key] = (None, None, Solution(all_cloud[0], all_cloud[1], solver, 0.0, 0.0))
            elif (variant.group == "all_cloud" and defer_all_cloud and keys.count(key) == 1
                  and not _unserved(base, *variant.masks(base))):
                solved[key] = PENDING
            else:
                solved[key] = _solve_variant(base, variant, solver, time_limit)
        outcomes.append((variant, solved[key], variant.cards(base)))
    used: dict = {}   # a model's fleet read once, however many baselines it is

    def use_of(outcome) -> frozenset | None:
        """What a solved baseline's fleet uses (fleet_use); None where not known (the all-cloud row taken from
        the plan's run)."""
        inp, model, _ = outcome
        if model is None:
            return None
        if id(model) not in used:
            used[id(model)] = fleet_use(read_fleet(inp, model)[1])
        return used[id(model)]

    readable = {}
    for variant, outcome, cards in outcomes:
        group, label = variant.group, variant.label
        row = _row(group, label, outcome) | {"cards": cards}
        if isinstance(outcome, tuple):
            if group == "single":  # only the best single type is read back into a Plan
                singles.append((row["total"], label, outcome, cards, variant))
            else:
                readable[group] = outcome
        if group != "single":
            rows.append(row)
    # single types whose solve found no fleet (time limit): one of them may be the best, so the best of the others
    # is a fleet of a single type, not proven the best one: status feasible, as a solve stopped with a fleet is
    unsolved = [(variant.label, outcome) for variant, outcome, _ in outcomes
                if variant.group == "single" and isinstance(outcome, SolverError)]
    if singles:
        # of the types that tie for the least total (within the money's round-off), one whose plan buys its card or
        # rents its cloud kind: where the cards owned serve all, every type ties at their cost, buying and renting
        # nothing, and the first label ("only cloud on-demand") named a type that plan does not use
        least = min(t[0] for t in singles)
        tied = [t for t in singles if t[0] - least <= round_off(least)]
        own = [t for t in tied if _uses_own_type(t[4], use_of(t[2]))]
        objective, label, outcome, cards, best = min(own or tied, key=lambda t: (t[0], t[1]))
        use = use_of(outcome)
        if not own and use is not None and not any(new for *_, new in use):
            # no type's own capacity: say so, and explain a lower total than the plan's as a fleet that buys no card
            label, cards = (OWNED_ONLY_LABEL if (base.col("existing") > 0).any() else NOTHING_NEW_LABEL), frozenset()
        readable["best_single"] = outcome
        rows.append({"baseline": "best_single", "label": label,
                     "status": "feasible" if unsolved else outcome[2].status, "total": objective, "note": "",
                     "cards": cards})
    elif unsolved:
        rows.append({"baseline": "best_single", "label": "", "status": "not_solved", "total": math.nan,
                     "note": _unsolved_note(unsolved)})
    else:
        rows.append({"baseline": "best_single", "label": "", "status": "infeasible", "total": math.nan,
                     "note": "no single capacity type can serve every workload"})
    # a grouped profile: each baseline's bound on its cost error, as the plan's (one solve each); none when exact
    lows = grouping_lower_bounds(base, variants, keys, solved, best, solver, time_limit) if bounds else {}
    for row in rows:
        row["lower_bound"] = lows.get(row["baseline"])
    read = {}   # a model read back once, however many baselines it is
    plans_out = {}
    if plans:
        for group, (inp, model, solution) in readable.items():
            if id(model) not in read:
                read[id(model)] = read_plan(inp, model, solution, scenario)
            plans_out[group] = read[id(model)]
    pairs: dict = {}   # a model's pairs found once, however many baselines it is
    variant_of = {variant.group: variant for variant in variants if variant.group != "single"} | {"best_single": best}
    for row in rows:
        outcome = readable.get(row["baseline"])
        if outcome is None:
            continue
        inp, model, _ = outcome
        if model is None:   # the all-cloud row from the plan's run
            if len(all_cloud) > 2:
                row["pairs"] = all_cloud[2]
            continue
        if id(model) not in pairs:
            ids = read[id(model)].fleet["unit_id"] if id(model) in read else fleet_unit_ids(inp, model)
            pairs[id(model)] = fleet_pairs(inp, ids, variant_of[row["baseline"]].inputs(base))
        row["pairs"] = pairs[id(model)]
    return rows, plans_out


def fleet_pairs(inp: Inputs, unit_ids, offers: Inputs | None = None) -> frozenset:
    """The (workload, gpu) pairs the units `unit_ids` of a baseline's fleet can serve, from the baseline's own
    inputs (readback.servable_pairs): the speeds its total rests on (engine.run.speeds_table). With `offers`,
    the baseline's unreduced inputs, also those of each cloud offer that ties with one the fleet fills a
    workload with (`tied_fills`): which of them the fleet holds is the solver's pick, or the reductions'."""
    pairs = servable_pairs(inp, unit_ids)
    if offers is not None:
        pairs |= servable_pairs(offers, tied_fills(offers, unit_ids))
    return frozenset(pairs)


# two cloud offers whose costs per work for a workload differ by less than this share of it tie: 0.24 USD/h at
# 0.8 of the reference's speed is 0.3 per reference hour less 6e-17, which no price list means
TIE_SHARE = 1e-9


def tied_fills(offers: Inputs, unit_ids) -> np.ndarray:
    """unit_id of each on-demand or spot offer of `offers` that costs as little per work as the cheapest for a
    workload (not a serving one) that one of `unit_ids` fills at that least cost: the offers that could fill it
    in that one's stead for the same total. Which of them a fleet holds is the solver's pick (HiGHS may split the
    hours, CBC take one) or, reduced, the lowest unit_id's (engine.reductions): listed all, the speeds table's
    used_by says the same on either path and solver. Whole instances (serving workloads) and reservations tie
    otherwise, and are not looked for here."""
    cost, ids = cost_per_work(offers), offers.col("unit_id")
    used = np.isin(ids, np.asarray(unit_ids))
    tied = np.zeros(len(ids), dtype=bool)
    for j in np.flatnonzero(~offers.workloads["serving"].to_numpy(dtype=bool)):
        least = cost[:, j].min(initial=np.inf)
        if not np.isfinite(least):
            continue
        cheapest = cost[:, j] <= least + TIE_SHARE * abs(least)
        if (cheapest & used).any():
            tied |= cheapest
    return ids[tied]


def baseline_pairs(rows: list[dict]) -> dict[str, frozenset]:
    """baseline (all_cloud, all_onprem, best_single) -> the pairs of its fleet (`baseline_rows`), of each row
    that has a fleet and knows its pairs, in the rows' order."""
    return {row["baseline"]: row["pairs"] for row in rows
            if row.get("pairs") is not None and row["status"] in ("optimal", "feasible")}


def fleet_use(fleet: pd.DataFrame) -> frozenset:
    """What a fleet (readback's) uses: (kind, sku, gpu, new) of each row, `new` where it buys cards or rents or
    holds cloud capacity: tells a single type's plan that uses its type from one that keeps the cards owned
    only."""
    return frozenset((str(kind), str(sku), str(gpu), bool(kind != "card" or new > 0))
                     for kind, sku, gpu, new in zip(fleet["kind"], fleet["sku"], fleet["gpu"], fleet["new_units"]))


def _uses_own_type(variant: Variant, use: frozenset | None) -> bool:
    """Whether a single type's plan buys its card or rents (holds) its cloud kind (False where not known)."""
    if not use:
        return False
    if variant.only_card is not None:
        return any(new and kind == "card" and sku == variant.only_card for kind, sku, _, new in use)
    return any(new and kind in variant.keep_kinds for kind, _, _, new in use)


def _model_key(base: Inputs, variant: Variant) -> tuple[bytes, bytes]:
    """The units a baseline keeps and the cards it may buy: baselines with the same key are the same model."""
    keep, buyable = variant.masks(base)
    return keep.tobytes(), (buyable & keep).tobytes()


def _unsolved_note(unsolved: list[tuple[str, SolverError]]) -> str:
    """What the best-single row says when no single type's solve found a fleet and some stopped without one: which,
    and why the first stopped."""
    return f"{', '.join(label for label, _ in unsolved)}: {_reason(unsolved[0][1])}"


def _reason(exc: Exception) -> str:
    """An InfeasibleError's or SolverError's message without the baseline's name it may begin with
    (`_solve_variant`): split at the first ": " instead, "workload B (≥ 40 GB, 1 GPU per job) has no
    compatible offer …: 24 GB per GPU < 40 GB needed" lost the workload."""
    return getattr(exc, "reason", str(exc))


def _row(group: str, label: str, outcome) -> dict:
    """A baselines row from a `_solve_variant` outcome (or PENDING)."""
    if outcome is PENDING:
        return {"baseline": group, "label": label, "status": PENDING, "total": math.nan, "note": ""}
    if isinstance(outcome, (InfeasibleError, SolverError)):
        return {"baseline": group, "label": label,
                "status": "infeasible" if isinstance(outcome, InfeasibleError) else "not_solved",
                "total": math.nan, "note": _reason(outcome)}
    solution = outcome[2]
    return {"baseline": group, "label": label, "status": solution.status, "total": solution.objective, "note": ""}


# --- the bound on the cost error of a grouped profile, for each baseline ---
#
# A baseline solved on the plan's profile blocks is, as the plan is, a real plan of the exact hours (its total an
# upper bound on its exact optimum), and its blocks at their mean weights a relaxation (engine.profile_slots): one
# solve more each bounds how far its total may lie above its exact optimum, and so how uncertain the plan's savings
# against it are. Baselines are not planned on more blocks where that bound is loose: that would cost each up to
# two more plans; a warning says so instead (loose_bound_warnings).

NO_FLEET = "no fleet"   # a relaxation without a fleet: the exact hours have none either (the relaxation holds them)


def grouping_lower_bounds(base: Inputs, variants: list[Variant], keys: list, solved: dict, best: Variant | None,
                          solver: str, time_limit: float | None) -> dict[str, float | None]:
    """baseline (all_cloud, all_onprem, best_single) -> the lower bound on its exact optimum (T_low, as the plan's:
    engine.profile_slots), for each baseline with a fleet on the grouped profile of `base` (or PENDING: the
    all-cloud row left to the plan's run); None where its solve gave none (the time limit, or its solver failed).
    `solved`: model key (`keys`, of `variants`) -> `_solve_variant` outcome; `best`: the best single type's
    variant. One solve of the blocks at their mean weights per model, each within `time_limit` of its own, as a
    baseline's solve; empty for an exact profile (no solve).

    The best single type's exact optimum is the least of every single type's, which need not be that of the type
    cheapest on the blocks: its bound is the least T_low of them all. A type's own solve is skipped where a baseline
    that holds it (all cloud holds each cloud kind, all on-prem each card: a relaxation of it) proves no less than
    the best type's T_low, or no fleet; a type that cannot serve some workload has no exact fleet either."""
    if base.grouping is None:
        return {}
    lows: dict = {}   # model key -> T_low, NO_FLEET or None: a model solved once, however many baselines it is

    def low(i: int) -> float | str | None:
        if keys[i] not in lows:
            lows[keys[i]] = _mean_weight_bound(_variant_inputs(base, variants[i], solved[keys[i]]), solver, time_limit)
        return lows[keys[i]]

    out: dict[str, float | None] = {}
    holder: dict[str, bytes] = {}   # all_cloud, all_onprem -> their model keys
    for i, variant in enumerate(variants):
        if variant.group != "single":
            holder[variant.group] = keys[i]
            if solved[keys[i]] is PENDING or isinstance(solved[keys[i]], tuple):
                out[variant.group] = _known(low(i))
    if best is None:
        return out
    b = variants.index(best)
    least = _known(low(b))
    for i, variant in enumerate(variants):
        if least is None or variant.group != "single" or keys[i] == keys[b] or _unserved(base, *variant.masks(base)):
            continue
        held_by = lows.get(holder["all_onprem" if variant.only_card else "all_cloud"])
        if held_by is NO_FLEET or (_known(held_by) is not None and held_by >= least):
            continue
        other = low(i)
        if other is not NO_FLEET:
            least = None if other is None else min(least, other)
    out["best_single"] = least
    return out


def _known(low: float | str | None) -> float | None:
    """A T_low of `grouping_lower_bounds`, None where there is none (NO_FLEET, unknown)."""
    return low if isinstance(low, float) else None


def _variant_inputs(base: Inputs, variant: Variant, outcome) -> Inputs:
    """The reduced inputs a baseline was solved from (`_solve_variant`), made again where its outcome holds none
    (the all-cloud row from the plan's run or PENDING, a solve without a fleet)."""
    if isinstance(outcome, tuple) and outcome[0] is not None:
        return outcome[0]
    inp = variant.inputs(base)
    return reduce(inp) if inp.reduced else inp


def _mean_weight_bound(inp: Inputs, solver: str, time_limit: float | None) -> float | str | None:
    """T_low of a baseline's grouped inputs `inp`, solved as profile_slots.grouping_lower_bound solves the plan's:
    the least objective proved for its blocks at their mean weights; NO_FLEET where those have no fleet, None where
    the solve gives no bound (two cases grouping_lower_bound does not tell apart), or its solver failed (a CBC crash,
    SolverFailed, which grouping_lower_bound raises for the plan's warnings to name): the row's bound is then
    "unknown" in every report, which names no cause, a time limit no more than a crash."""
    # here, not at the top: engine.profile_slots imports this module
    from planner.engine.profile_slots import lower_bound, mean_weight_inputs

    try:
        _, solution = solve_inputs(mean_weight_inputs(inp), solver, time_limit, explain=False)
    except InfeasibleError:
        return NO_FLEET
    except SolverError:   # stopped without a fleet (the time limit), or its solver failed
        return None
    return lower_bound(solution)


# the first words of the warning on baselines whose bounds are above the tolerance: a table solved again replaces it
LOOSE_BASELINES = "baselines: on the plan's profile blocks"


def loose_bound_warnings(table: pd.DataFrame, grouping: dict | None, currency: str) -> list[str]:
    """The warning naming each baseline of `table` (baseline_table) whose bound on the cost error of the grouped
    profile (`grouping`: Inputs.grouping) is above the tolerance the plan's own is held to: its exact optimum may
    be that much lower, and what the plan saves against it that much less. Empty where none is."""
    from planner.engine.profile_slots import BOUND_TOLERANCE_PCT

    if grouping is None or "error_bound_pct" not in table:
        return []
    loose = table[table["error_bound_pct"] > BOUND_TOLERANCE_PCT]
    if not len(loose):
        return []
    names = [f"the best single type ({label})" if baseline == "best_single" else label
             for baseline, label in zip(loose["baseline"], loose["label"])]
    each = "; ".join(f"{name}: {error:,.0f} {currency} ({pct:.2f} % of its total)"
                     for name, error, pct in zip(names, loose["error_bound"], loose["error_bound_pct"]))
    return [f"{LOOSE_BASELINES} ({grouping['weight_classes']} distinct weekly weights in {counted(grouping['slots'], 'block')}), "
            f"these baselines bound their cost error above the {BOUND_TOLERANCE_PCT:g} % tolerance — {each}: their "
            "exact optima may be that much lower, and the plan's savings against them that much less. Baselines are "
            "not planned on more blocks; plan exactly with profile_slots: 168 (fleetplan plan --profile-slots 168) "
            "for exact savings"]


def with_loose_bound_warnings(warnings: list[str], table: pd.DataFrame, grouping: dict | None,
                              currency: str) -> list[str]:
    """`warnings` with the loose-bound warning of the baselines `table` (loose_bound_warnings) in place of one
    of baselines solved before: every path that adds baselines (plan, add_baselines, the dashboard) says it once."""
    kept = [w for w in warnings if not w.startswith(LOOSE_BASELINES)]
    return kept + loose_bound_warnings(table, grouping, currency)


# --- the all-cloud baseline from the plan's own solve ---
#
# HiGHS solves a plan with a fixed site cost twice, without any card in service and with (engine.solve splits
# on the fixed-cost binary z). The run without cards is the all-cloud baseline's model when the two differ in
# nothing a fleet without cards meets differently: no owned cards (the baseline may keep them working, the run
# may only switch them off or sell them), no card minimum and no cap on the cloud's share (the baseline drops
# them, the run keeps them — the capex budgets, card maxima and power cap hold for any fleet without cards,
# constraints.met_without_cards), no extra constraints of the caller (baselines never get them). Both models are
# reduced exactly, so their optima agree; that run's proven optimum then fills the all-cloud row and one
# baseline solve is saved (industrial.yaml: about 30 ms of CPU alone, 65 ms in the baselines' forked
# child beside the plan's solve, 2026-12-03).

PENDING = "pending"   # status of an all-cloud row left for `settle_all_cloud` (baseline_rows' defer_all_cloud)


def all_cloud_is_plan_run(base: Inputs, extra_constraints: ExtraConstraints | None = None) -> bool:
    """Whether the plan's run without cards (model.fixed_cost_runs[0.0]) is the all-cloud baseline."""
    card = base.col("kind") == "card"
    return (extra_constraints is None and not (base.col("existing")[card] > 0).any()
            and not (np.nan_to_num(base.col("min_units")[card].astype(float)) > 0).any()
            and met_without_cards(base.caps))


def plan_splits(base: Inputs, solver: str) -> bool:
    """Whether the plan's solve will likely have a run without cards (HiGHS, some card may be bought and a
    fixed site cost applies: model.define_fixed_onprem_switch). Only a guess made before the model exists,
    for the forked child: where it is wrong, `settle_all_cloud` solves the all-cloud baseline itself."""
    card = base.col("kind") == "card"
    return (solver == "highs" and bool((card & base.col("buyable").astype(bool)).any())
            and base.schedule.n_site_epochs > 0)


def settle_all_cloud(rows: list[dict], run: tuple | None, base: Inputs, solver: str,
                     time_limit: float | None) -> list[dict]:
    """`rows` with a PENDING all-cloud row filled in: from `run`, the plan's (status, total, pairs) without
    cards (run.all_cloud_run), where it proved an optimum; else solved here (the plan's model had no such run,
    or it stopped early)."""
    for row in rows:
        if row["status"] != PENDING:
            continue
        if run is not None and run[0] == "optimal":
            row.update(status="optimal", total=run[1])
            if len(run) > 2:
                row["pairs"] = run[2]
        else:
            variant = next(v for v in baseline_variants(base) if v.group == "all_cloud")
            outcome = _solve_variant(base, variant, solver, time_limit)
            row.update(_row(row["baseline"], row["label"], outcome))
            if isinstance(outcome, tuple):
                row["pairs"] = fleet_pairs(outcome[0], fleet_unit_ids(outcome[0], outcome[1]), variant.inputs(base))
    return rows


def baseline_table(rows: list[dict], total: float, base: Inputs | None = None, plan_status: str = "optimal",
                   extra_constraints: bool = False) -> pd.DataFrame:
    """The baselines table of `baseline_rows`, with the savings of a plan costing `total` against each.

    A baseline that costs less than the plan gets a note saying why (a negative saving read alone looks like
    a plan that missed a cheaper fleet): where the plan's solve stopped before proving its optimum
    (`plan_status` not optimal), that; else what the plan keeps and the baseline drops that can explain it —
    the caps set in `base` (constraints.dropped_in_baselines; a baseline that buys no cards meets every capex
    budget and card maximum) and the caller's extra constraints (`extra_constraints`). On a grouped profile, each
    row says how far its total may lie above its exact optimum (error_bound, error_bound_pct: `_error_bounds`)."""
    table = pd.DataFrame(rows)
    table["savings"] = money_differences(table["total"], total)
    table["savings_pct"] = np.where(table["total"] > 0, table["savings"] / table["total"] * 100, np.nan)
    # a millionth of the larger total: the two solves' round-off, no saving either way
    cheaper = _cheaper(table, total) & (table["note"] == "")
    cards = table["cards"].tolist() if "cards" in table else [None] * len(table)   # None: any card
    for i in np.flatnonzero(cheaper.to_numpy()):
        table.loc[table.index[i], "note"] = _cheaper_note(base, cards[i], plan_status, extra_constraints)
    table["error_bound"], table["error_bound_pct"] = _error_bounds(table)
    return table[["baseline", "label", "status", "total", "savings", "savings_pct", "error_bound", "error_bound_pct",
                  "note"]]


def _error_bounds(table: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    """(error_bound, error_bound_pct) of each baseline row: on a grouped profile, how far its total may lie above its
    exact optimum, total − lower_bound (at least 0), and that in % of the total (0 for a total of 0), as the plan's
    profile_grouping has them (profile_slots.bounded_grouping); NaN where the profile is exact, the bound unknown,
    or the baseline has no total."""
    lower = (table["lower_bound"] if "lower_bound" in table else pd.Series(None, index=table.index)).astype(float)
    error = (table["total"] - lower).clip(lower=0.0)
    pct = (100.0 * error / table["total"].abs()).where(table["total"] != 0, error * 0.0)
    return error, pct


def money_differences(totals: pd.Series, total: float) -> pd.Series:
    """`totals` − `total`, exactly 0 where within MONEY_ROUNDING (NaN stays NaN): the same cost reached by two
    solves differs by round-off, and 1.1e-13 read as a saving (engine.decisions.money_difference, per row)."""
    difference = totals - total
    return difference.where(~(difference.abs() < MONEY_ROUNDING), 0.0)


def _cheaper(table: pd.DataFrame, total: float) -> pd.Series:
    """The baselines that cost less than a plan costing `total`: by more than the two solves' round-off (`round_off`
    of the larger total: a millionth of it, and at least MONEY_ROUNDING, within which the savings read 0 —
    `money_differences` — so no baseline of savings 0 is said to cost less)."""
    larger = np.maximum(table["total"].abs(), abs(total))
    return table["total"] - total < -np.maximum(MONEY_ROUNDING, RESOLVE_AGREEMENT * larger)


def _cheaper_note(base: Inputs | None, cards: frozenset | None, plan_status: str, extra_constraints: bool) -> str:
    """Why a baseline that may buy `cards` costs less than the plan ("" where nothing is known to explain it)."""
    if plan_status != "optimal":
        return (f"costs less than the plan, whose solve stopped before it proved the least cost (status "
                f"{plan_status}): plan with more time")
    dropped = dropped_in_baselines(base, cards) if base is not None else []
    dropped += ["your extra constraints"] if extra_constraints else []
    return f"{CHEAPER_BY_CAPS}{', '.join(dropped)}, which the plan keeps" if dropped else ""


CHEAPER_BY_CAPS = "costs less than the plan: it drops "   # how _cheaper_note begins when caps can explain it


def name_binding_caps(table: pd.DataFrame, cap_costs: pd.DataFrame, total: float, currency: str, agreement: float,
                      extra_constraints: bool = False) -> pd.DataFrame:
    """`table` (baseline_table, of a proven optimal plan costing `total`) with the note of each baseline that
    costs less than the plan, by more than `agreement` (money the solves may differ by), told from `cap_costs`
    (engine.decisions: the plan solved again without each limit; `dropped_in`, the baselines each limit can
    explain), instead of naming every limit that can explain it:

    - a limit binds alone by at least the difference: the limits that bind, with what each costs;
    - some bind, none by the difference, each proved (the re-solve optimal), and more than one limit (or
      the caller's extra constraints) is dropped: those, with their costs, and the others — together;
    - none binds alone, each of two or more proved not to, no extra constraints: they bind only together;
    - else (a re-solve that did not prove its answer, the caller's extra constraints, which are not
      re-solved without): every limit that can explain it, and that which of them binds is not known.

    Built from the tables alone, so the same tables give the same notes however often it runs."""
    table = table.copy()
    rows = cap_costs.to_dict("records")
    extra = ["your extra constraints"] if extra_constraints else []
    for i in np.flatnonzero(_cheaper(table, total).to_numpy()):
        label = table["label"].iloc[i]
        # a best single type that buys and rents nothing is explained as a baseline that buys no card: all cloud
        label = ALL_CLOUD_LABEL if label in (OWNED_ONLY_LABEL, NOTHING_NEW_LABEL) else label
        dropped = [row for row in rows if label in (row.get("dropped_in") or ())]
        gap = total - float(table["total"].iloc[i])
        if not dropped or gap <= agreement:
            continue
        bound = [row for row in dropped if row["binds"] is True]
        rest = [row for row in dropped if row["binds"] is not True]
        items = len(dropped) + len(extra)
        proved = all(row["status"] == "optimal" for row in bound)
        if bound and max(row["saving"] for row in bound) >= gap - agreement:
            why = "; ".join(_cost_words(row, currency) for row in bound)
        elif bound and proved and items > 1:
            others = [_limit_words(row) for row in rest] + extra
            why = ("; ".join(_cost_words(row, currency) for row in bound)
                   + (f"; and {', '.join(others)}, which the plan keeps" if others else "")
                   + ": together they cost it more than any one alone")
        elif not bound and not extra and items > 1 and all(row["binds"] is False for row in rest):
            why = (", ".join(_limit_words(row) for row in rest) + ", which the plan keeps; none of the limits alone "
                   "costs the plan anything (cap costs), so they bind together")
        else:
            if any(row["binds"] is None or row["status"] != "optimal" for row in dropped):
                reason = "a re-solve without one stopped before proving its answer"
            elif extra:
                reason = "your extra constraints are not re-solved without"
            else:
                reason = "dropped alone, none saves the plan the whole difference"
            why = (", ".join([_limit_words(row) for row in dropped] + extra)
                   + f", which the plan keeps; which of them binds is not known ({reason})")
        table.iloc[i, table.columns.get_loc("note")] = CHEAPER_BY_CAPS + why
    return table


def _cost_words(row: dict, currency: str) -> str:
    """A binding limit with what it costs the plan: at least that, where its re-solve stopped unproved."""
    least = "" if row["status"] == "optimal" else "at least "
    return f"{_limit_words(row)}, which alone costs the plan {least}{row['saving']:,.0f} {currency}"


def _limit_words(row: dict) -> str:
    """A limit as the scenario sets it (a cap_costs row): onprem.capex_budget = 60,000 USD."""
    if row["unit"] == "kW":
        return f"{row['cap']} = {row['limit']:,.10g} kW"
    if row["unit"] in ("share", "cards"):
        return f"{row['cap']} = {row['limit']:,.10g}"
    return f"{row['cap']} = {row['limit']:,.10g} {row['unit']}"


# --- the baselines table solved in a forked child process, while the parent solves the plan ---

def usable_cores() -> int:
    """CPU cores this process may run on (its affinity where the platform tells it, else the CPU count)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):   # not on Linux
        return os.cpu_count() or 1


def can_fork(solver: str) -> bool:
    """Whether a child can solve baselines beside this process: fork exists, two cores are usable, no other
    Python thread runs (it could hold a lock the child would wait on forever), and, for HiGHS, HiGHS has
    not run here yet (the child's copy of its scheduler would count on worker threads it lacks)."""
    return (hasattr(os, "fork") and usable_cores() >= 2 and threading.active_count() == 1
            and not (solver == "highs" and highs_started()))


class BaselineChild:
    """A forked child process solving a baselines table (`start_baseline_child`).

    `rows()` waits for its rows, `stop()` ends it; either reaps it, so none is left a zombie. On Linux
    the child dies with the process that forked it (PR_SET_PDEATHSIG), so none is left an orphan; a CBC
    child then ends its CBC and removes its folder first (`_end_with_parent`).

    The child leads its own process group, so that ending it ends the CBC processes it runs too (pulp's
    subprocesses; killed with the child alone they would solve on, for minutes on a large model), and with
    CBC it writes its temporary files into a folder of its own, removed when it ends (killed mid-solve,
    the child cannot delete them itself)."""

    def __init__(self, pid: int, fd: int, solver: str, time_limit: float | None, folder: ScratchFolder | None = None,
                 grouped: bool = False):
        self.pid: int | None = pid
        self.fd = fd
        self.solver, self.time_limit = solver, time_limit
        self.grouped = grouped        # a grouped profile: each baseline's bound is solved too
        self.folder = folder          # the child's temporary folder (CBC only)
        self.owner = os.getpid()   # a copy of this object in another forked process must not end the child

    def rows(self) -> list[dict] | None:
        """The child's `baseline_rows` (without Plans), or None when it failed: the caller then solves
        them itself. Raises a SolverError the child's `baseline_rows` raised, as it would have here."""
        if self.pid is None or os.getpid() != self.owner:
            return None
        data = None
        try:
            data = _read_to_end(self.fd, child_wait_seconds(self.time_limit, self.grouped))
        except (OSError, TimeoutError):   # TimeoutError: a child stuck (a lock held at the fork) is killed
            pass
        finally:   # an interrupt while waiting ends the child too
            exited_ok = self._end(kill=data is None)
        if not (exited_ok and data):
            return None
        try:
            kind, payload = pickle.loads(data)   # from our own child, through a pipe only the two hold
        except Exception:
            return None
        if kind == "solver_error":
            raise SolverError(payload)
        return payload

    def stop(self) -> None:
        """End the child if it still runs, and reap it."""
        if self.pid is not None and os.getpid() == self.owner:
            self._end(kill=True)

    def _end(self, kill: bool) -> bool:
        """Reap the child (killed first with `kill`, with the processes it started); whether it exited with
        status 0. Its temporary folder is removed either way."""
        pid, self.pid = self.pid, None
        os.close(self.fd)
        try:
            if kill and not kill_process_group(pid):   # the child leads no group yet: it alone
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            try:
                _, status = os.waitpid(pid, 0)
            except ChildProcessError:   # reaped elsewhere (SIGCHLD ignored): its outcome is unknown
                return False
            return os.waitstatus_to_exitcode(status) == 0
        finally:
            if self.folder is not None:
                self.folder.remove()


def start_baseline_child(base: Inputs, solver: str, time_limit: float | None,
                         defer_all_cloud: bool = False) -> BaselineChild | None:
    """A child process solving the baselines table of `base` (no Plans; with `defer_all_cloud`, as
    baseline_rows has it), or None when `can_fork` says no or the fork fails (the caller solves them itself)."""
    if not can_fork(solver):
        return None
    read_fd, write_fd = os.pipe()
    parent = os.getpid()
    # CBC's files (pulp's MPS and solution) go to a folder the parent removes when the child ends; the child
    # shares its lock (planner.scratch), so a later planner removes it once both were killed outright
    folder = ScratchFolder("baselines") if solver == "cbc" else None
    try:
        with warnings.catch_warnings():
            # Python ≥ 3.12 warns on fork with any thread: the others here are native pools (OpenBLAS,
            # jemalloc) that re-initialise in the child through their own fork handlers
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
    except OSError:
        os.close(read_fd)
        os.close(write_fd)
        if folder is not None:
            folder.remove()
        return None
    if pid == 0:   # the child: it never returns into the parent's code, and runs none of its exit handlers
        code = 1
        try:
            os.close(read_fd)
            _become_child(parent, None if folder is None else folder.path)
            payload = pickle.dumps(_child_payload(base, solver, time_limit, defer_all_cloud))
            if folder is not None:   # its CBC runs are over: a parent killed outright could not remove it
                shutil.rmtree(folder.path, ignore_errors=True)
            _write_all(write_fd, payload)
            code = 0
        finally:
            os._exit(code)
    os.close(write_fd)
    # set here too, so that the group exists before the parent may kill it, whichever process runs first
    with contextlib.suppress(OSError):
        os.setpgid(pid, pid)
    return BaselineChild(pid, read_fd, solver, time_limit, folder, grouped=base.grouping is not None)


def _become_child(parent: int, folder: str | None) -> None:
    """Lead a process group of its own, write nothing to stdout or stderr, write temporary files into
    `folder`, and die with the parent. Ctrl-C at a terminal reaches the parent only, which ends the
    child's group (`BaselineChild`); a Ctrl-C sent to the child itself ends it at once."""
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)
    # stdout carries the parent's JSON; on stderr, a background process group may be stopped by the
    # terminal (SIGTTOU under `stty tostop`), and what failed here the parent solves again itself
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.close(devnull)
    if folder is not None:
        os.environ["TMPDIR"] = tempfile.tempdir = folder   # pulp reads TMPDIR, Python's tempfile its tempdir
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    default_stop_signals()   # SIGTERM ends the child at once, not through the parent's handler
    # The parent's solve is what the user waits for, the baselines have time until it ends: a little lower
    # priority lets the parent's solve run first where the two share a core. Not more:
    # at nice 10 the child starved behind two busy processes and the plan took 1.76 s instead of 1.11
    with contextlib.suppress(OSError):
        os.nice(3)
    if sys.platform.startswith("linux"):
        import ctypes

        PR_SET_PDEATHSIG = 1
        death = signal.SIGKILL
        if folder is not None and os.getpgrp() == os.getpid():
            # CBC: killed outright, the child would leave its CBC solving on and its files behind
            signal.signal(signal.SIGTERM, lambda signum, frame: _end_with_parent(folder))
            death = signal.SIGTERM
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, death)
    if os.getppid() != parent:   # the parent died before the death signal was set
        os._exit(1)


def _end_with_parent(folder: str) -> None:
    """The parent died without ending the child (killed outright: SIGKILL), or someone sent the child
    SIGTERM: end the CBC process it runs (its process group's other member), remove its temporary folder —
    the parent, which would, is gone — and exit. Only a CBC child: it waits on CBC in Python, where this
    handler runs at once; a HiGHS child may stay in HiGHS for long, so it dies by SIGKILL instead."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)   # the group's SIGTERM is for CBC
    with contextlib.suppress(OSError):
        os.killpg(0, signal.SIGTERM)   # this child leads the group (checked before this handler was set)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:   # reap CBC, so that it writes nothing more into the folder
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:   # none left
            break
        if pid == 0:
            time.sleep(0.01)
    shutil.rmtree(folder, ignore_errors=True)
    os._exit(1)


def _child_payload(base: Inputs, solver: str, time_limit: float | None, defer_all_cloud: bool) -> tuple[str, object]:
    try:
        return "rows", baseline_rows(base, solver, time_limit, plans=False, defer_all_cloud=defer_all_cloud)[0]
    except SolverError as exc:
        return "solver_error", str(exc)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


# How long the parent waits for the child's table before it kills the child and solves the baselines
# itself: far beyond any baseline solve of the shipped scenarios (0.1-10 s), so only a stuck child hits it.
CHILD_WAIT_S = 600.0


def child_wait_seconds(time_limit: float | None, grouped: bool = False) -> float:
    """The wait for a child's table: CHILD_WAIT_S, or more when a time limit allows each of the (at most
    six) baseline solves longer — and each bound solve of a `grouped` profile (grouping_lower_bounds)."""
    solves = 12 if grouped else 6
    return max(CHILD_WAIT_S, solves * time_limit + 60) if time_limit else CHILD_WAIT_S


def _read_to_end(fd: int, seconds: float) -> bytes:
    """Everything written to `fd` until the writer closes it; TimeoutError after `seconds` in all."""
    import select

    deadline = time.monotonic() + seconds
    chunks = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise TimeoutError(f"no baselines from the child process within {seconds:g} s")
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
