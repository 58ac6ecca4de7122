"""Profiles with many distinct hourly weights, grouped into `profile_slots` load-duration blocks
(planner.engine.periods, planner.engine.profile_slots; issue 11 item 4).

Facts checked: the blocks and their corners for a hand-worked profile; the default (exact up to 24
distinct weights, grouped beyond); the scenario field and its override; the profile's total demand is
kept for the cloud-share cap; and, on small random cases, the grouped plan against the exact plan —
lower bound ≤ exact optimum ≤ grouped total, and total − exact ≤ the reported error bound.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner import load_scenario
from planner.engine import inputs_for, plan, reduce
from planner.engine.periods import DEFAULT_PROFILE_SLOTS, week_blocks
from planner.engine.profile_slots import profile_grouping
from planner.errors import ScenarioError
from planner.scenario import apply_overrides

ROOT = Path(__file__).resolve().parents[2]
HOURS_PER_MONTH = 730.0


def worked(**overrides):
    s = load_scenario(ROOT / "examples" / "worked-example.yaml")
    return apply_overrides(s, overrides) if overrides else s


def write_profile(path: Path, weights) -> str:
    path.write_text("weight\n" + "\n".join(f"{w!r}" for w in weights) + "\n")
    return str(path)


# 72 h at 0.5, 48 h at 1.0, 24 h at 1.5, 24 h at 2.0: mean (36 + 48 + 36 + 48) / 168 = 1, four levels
FOUR_LEVELS = [0.5] * 72 + [1.0] * 48 + [1.5] * 24 + [2.0] * 24


def test_four_levels_in_two_blocks_by_hand(tmp_path):
    s = worked(**{"workloads.training.profile": write_profile(tmp_path / "w.csv", FOUR_LEVELS)})
    week = week_blocks(s, 2)
    # Cutting at 1.0 leaves 1.5 (24 h) between the corners 1.0 and 2.0, half-way: a distance of 0.5 from
    # the nearer corner for 24 h; cutting at 1.5 leaves 1.0 (48 h) half-way between 0.5 and 1.5 — twice
    # the hours. So the blocks are {0.5} | {1.0, 1.5, 2.0}, and 1.5 is served as ½ × 1.0 + ½ × 2.0.
    assert week.classes == 4
    assert week.plan.weights[:, 0].tolist() == [0.5, 1.0, 2.0]
    assert week.plan.hours.tolist() == pytest.approx([72, 48 + 12, 24 + 12])
    # the relaxation: each block at its mean, (48 × 1 + 24 × 1.5 + 24 × 2) / 96 = 1.375
    assert week.means.weights[:, 0].tolist() == pytest.approx([0.5, 1.375])
    assert week.means.hours.tolist() == pytest.approx([72, 96])


def test_the_grouped_plan_serves_the_four_levels_as_inputs(tmp_path):
    s = worked(**{"workloads.training.profile": write_profile(tmp_path / "w.csv", FOUR_LEVELS),
                  "profile_slots": 2, "horizon_months": 2})
    inp = inputs_for(s)
    rate = 800 / HOURS_PER_MONTH                       # reference-GPU-hours per hour in a flat month
    assert inp.grouping == {"slots": 2, "weight_classes": 4}
    # one month group (no growth) × three corners; hours per month = weekly hours × 730 / 168
    assert inp.periods["slot_hours"].tolist() == pytest.approx([h * HOURS_PER_MONTH / 168 for h in (72, 60, 36)])
    assert inp.demand[:, 0].tolist() == pytest.approx([rate * w for w in (0.5, 1.0, 2.0)])
    # the corners over-serve (60 × 1 + 36 × 2 = 132 weekly units, not 48 + 36 + 48 = 132: equal here, since
    # 1.5 lies on the chord), and the cloud-share cap reads the profile's own demand, 800 h × 2 months
    assert inp.total_demand() == pytest.approx(1600.0)


def test_few_distinct_weights_stay_exact_by_default(tmp_path):
    # business_hours has two weights: no grouping, whatever the default K
    s = worked(**{"workloads.training.profile": "business_hours"})
    assert inputs_for(s).grouping is None
    assert DEFAULT_PROFILE_SLOTS >= 2


def test_a_168_weight_profile_is_grouped_to_the_default_unless_168_slots(tmp_path):
    weights = np.linspace(0.5, 1.5, 168)               # 168 distinct weights, mean 1
    s = worked(**{"workloads.training.profile": write_profile(tmp_path / "w.csv", weights.tolist())})
    assert inputs_for(s).grouping == {"slots": DEFAULT_PROFILE_SLOTS, "weight_classes": 168}
    assert inputs_for(apply_overrides(s, {"profile_slots": 168})).grouping is None
    assert inputs_for(apply_overrides(s, {"profile_slots": 6})).grouping == {"slots": 6, "weight_classes": 168}


def test_one_block_of_a_straight_profile_is_its_two_ends_half_each(tmp_path):
    # weights on a straight line from 0.5 to 1.5: one block's corners are the ends, and hour h is served
    # as λ × 1.5 + (1 − λ) × 0.5 with λ = (w − 0.5) / 1, whose mean over the week is ½ — 84 h each
    weights = np.linspace(0.5, 1.5, 168)
    s = worked(**{"workloads.training.profile": write_profile(tmp_path / "w.csv", weights.tolist()),
                  "horizon_months": 3, "profile_slots": 1})
    week = week_blocks(s, 1)
    assert week.plan.weights[:, 0].tolist() == pytest.approx([0.5, 1.5])
    assert week.plan.hours.tolist() == pytest.approx([84, 84])
    assert week.means.weights[:, 0].tolist() == pytest.approx([1.0])
    # the chord over-states a convex cost curve (the card fills up at 0.9 × 730 h a month, inside the
    # range): the grouped plan costs more than the exact one, and the bound covers the difference
    exact = plan(s, baselines=False, overrides={"profile_slots": 168}).total
    total = plan(s, baselines=False).total
    g = profile_grouping(reduce(inputs_for(s)), total, "highs")
    assert g["lower_bound"] <= exact <= total <= g["lower_bound"] + g["error_bound"] + 1e-9


@pytest.mark.parametrize("slots", [0, 169, 2.5, "many"])
def test_profile_slots_out_of_range_is_a_clear_error(slots):
    with pytest.raises(ScenarioError, match="profile_slots"):
        worked(profile_slots=slots)


def test_profile_slots_is_read_from_a_file(tmp_path):
    text = (ROOT / "examples" / "worked-example.yaml").read_text() + "profile_slots: 8\n"
    (tmp_path / "offers-g5-us-east-1.csv").write_text((ROOT / "examples" / "offers-g5-us-east-1.csv").read_text())
    path = tmp_path / "s.yaml"
    path.write_text(text)
    assert load_scenario(path).profile_slots == 8


# --- the bound against the exact plan ----------------------------------------------------------------


def _case(tmp_path: Path, seed: int, distinct: int, slots: int, horizon: int, second: bool, share: float | None):
    """The worked example on a random profile of `distinct` weights (and a second, differently shaped
    workload), optionally without its budget and with a cloud-share cap."""
    rng = np.random.default_rng(seed)
    levels = rng.uniform(0.1, 3.0, distinct)
    weights = levels[rng.permutation(np.arange(168) % distinct)]
    s = worked(**{"workloads.training.profile": write_profile(tmp_path / f"a{seed}.csv", weights.tolist()),
                  "horizon_months": horizon, "profile_slots": slots,
                  "workloads.training.growth_per_month": float(rng.choice([0.0, 0.05]))})
    if second:
        other = rng.uniform(0.2, 2.0, 168).round(1)                              # up to 19 levels
        w2 = s.workloads[0].model_copy(update={"name": "inference", "gpu_hours_per_month": float(rng.uniform(100, 900)),
                                               "profile": write_profile(tmp_path / f"b{seed}.csv", other.tolist()),
                                               "growth_per_month": 0.0})
        s = s.model_copy(update={"workloads": (s.workloads[0], w2)})
    if share is not None:
        s = apply_overrides(s, {"onprem.capex_budget": None, "constraints.max_cloud_share": share})
    return s


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), distinct=st.integers(3, 12), slots=st.integers(1, 4),
       horizon=st.integers(1, 4), second=st.booleans(), share=st.sampled_from([None, None, 0.3, 0.7]))
def test_the_exact_optimum_lies_within_the_reported_bounds(tmp_path, seed, distinct, slots, horizon, second, share):
    s = _case(tmp_path, seed, distinct, slots, horizon, second, share)
    exact = plan(apply_overrides(s, {"profile_slots": 168}), baselines=False).total
    grouped = plan(s, baselines=False)
    inp = reduce(inputs_for(s))
    g = profile_grouping(inp, grouped.total, "highs")
    if g is None:                                        # the two profiles had ≤ slots weight vectors
        assert grouped.total == pytest.approx(exact, rel=1e-7)
        return
    tol = 1e-7 * max(1.0, abs(exact))
    assert g["lower_bound"] <= exact + tol
    assert exact <= grouped.total + tol
    assert abs(grouped.total - exact) <= g["error_bound"] + tol
    assert g["upper_bound"] == grouped.total


def test_the_grouped_plan_is_checked_by_cbc_too(tmp_path):
    s = _case(tmp_path, seed=3, distinct=9, slots=2, horizon=2, second=True, share=0.7)
    highs, cbc = plan(s, baselines=False), plan(s, "cbc", baselines=False)
    assert highs.total == pytest.approx(cbc.total, rel=1e-6)


def test_the_cli_prints_the_bound_and_profile_slots_overrides_the_file(tmp_path):
    """`fleetplan plan --profile-slots K`: the JSON carries the grouping, whose bounds hold the exact plan
    (`--profile-slots 168`) between them, and the table prints the bound under the total."""
    import json

    from typer.testing import CliRunner

    from planner.cli import app

    (tmp_path / "offers-g5-us-east-1.csv").write_text((ROOT / "examples" / "offers-g5-us-east-1.csv").read_text())
    profile = write_profile(tmp_path / "w.csv", FOUR_LEVELS)
    text = (ROOT / "examples" / "worked-example.yaml").read_text()
    path = tmp_path / "s.yaml"
    path.write_text(text.replace("profile: flat", f"profile: {profile}"))
    assert f"profile: {profile}" in path.read_text()

    def run(*args):
        result = CliRunner().invoke(app, ["plan", str(path), "--no-baselines", *args])
        assert result.exit_code == 0, result.output
        return result

    grouped = json.loads(run("--format", "json", "--profile-slots", "2").stdout)
    exact = json.loads(run("--format", "json", "--profile-slots", "168").stdout)
    g = grouped["profile_grouping"]
    assert exact["profile_grouping"] is None and (g["slots"], g["weight_classes"]) == (2, 4)
    assert g["lower_bound"] - 1e-6 <= exact["total"] <= grouped["total"] + 1e-6
    assert g["error_bound"] == pytest.approx(grouped["total"] - g["lower_bound"])
    table = run("--profile-slots", "2").stdout
    assert "4 distinct hourly weights in 2 load-duration blocks" in table


def test_two_workloads_whose_weights_move_against_each_other_are_grouped_along_them(tmp_path):
    # 168 distinct weights 0.5 … 1.5 for one workload, 2 − that (± 0.02 of noise) for the other: their summed
    # load is flat but for the noise, so blocks by load alone mixed hours far apart in both weights and sized
    # every block for both peaks (a review's case: 51 % dearer than exact, bound 34 %). Along the weights,
    # 24 blocks are close (1.4 %; 1.7 % when cut along their first principal component); by default, the bound
    # above the 1 % tolerance, the plan is made again on 48 (tests/planner/test_profile_bound_tolerance.py).
    rng = np.random.default_rng(0)
    shuffled = (0.5 + np.arange(168) / 167)[rng.permutation(168)]
    other = 2.0 - shuffled + rng.uniform(-0.02, 0.02, 168)
    a, b = write_profile(tmp_path / "a.csv", shuffled.tolist()), write_profile(tmp_path / "b.csv", other.tolist())
    text = (ROOT / "examples" / "worked-example.yaml").read_text().replace(
        "source: offers-g5-us-east-1.csv", f"source: {ROOT / 'examples' / 'offers-g5-us-east-1.csv'}")
    text = text.replace("horizon_months: 24", "horizon_months: 3").replace("capex_budget: 2500", "capex_budget: 100000")
    workloads = text[text.index("workloads:"):]
    twin = workloads.replace("workloads:\n", "").replace("name: training", "name: twin")
    text = text + twin
    path = tmp_path / "s.yaml"
    path.write_text(text.replace("profile: flat", f"profile: {a}", 1).replace("profile: flat", f"profile: {b}", 1))
    s = load_scenario(path)
    assert [w.profile for w in s.workloads] == [a, b]
    exact = plan(apply_overrides(s, {"profile_slots": 168}), baselines=False)
    grouped = plan(apply_overrides(s, {"profile_slots": DEFAULT_PROFILE_SLOTS}), baselines=False)
    g = grouped.profile_grouping
    assert exact.profile_grouping is None and g["slots"] == DEFAULT_PROFILE_SLOTS and g["weight_classes"] == 168
    assert g["lower_bound"] <= exact.total + 1e-6 <= grouped.total + 2e-6 <= g["lower_bound"] + g["error_bound"] + 3e-6
    assert grouped.total <= exact.total * 1.02, (grouped.total, exact.total)   # 1.4 %; by load alone 27.5 %
    assert g["error_bound_pct"] < 2.5, g


def test_a_bound_solve_without_a_fleet_leaves_the_plan_and_an_unknown_bound(tmp_path):
    # constraints of the caller's own that only the blocks at their mean weights cannot meet (a review's
    # finding: they are not on unit counts, as engine.profile_slots asks): the plan is the plan without
    # them, its bound unknown and said so — not an InfeasibleError after the plan was solved
    import pulp

    from planner.reports.tables import grouping_line

    s = worked(**{"workloads.training.profile": write_profile(tmp_path / "w.csv", FOUR_LEVELS),
                  "profile_slots": 2, "horizon_months": 2})

    def only_at_mean_weights(m):
        if "mean weights" in m.inputs.label:
            m.prob += (pulp.LpAffineExpression(constant=0) >= 1, "never_met")

    own = plan(s, baselines=False, extra_constraints=only_at_mean_weights)
    alone = plan(s, baselines=False)
    assert own.total == pytest.approx(alone.total, rel=1e-9)
    assert alone.profile_grouping["error_bound"] is not None
    assert own.profile_grouping["error_bound"] is None and own.profile_grouping["lower_bound"] is None
    assert own.profile_grouping["upper_bound"] == pytest.approx(own.total, rel=1e-12)
    assert "the bound on the cost error is unknown" in grouping_line(own)


# --- several workloads of unrelated shapes ------------------------------------------------------------

# business_hours: 45 working hours at 4 × the weight of the 123 others, mean 1: 4 × 168 / 303 and 168 / 303
WORKING, OFF = 4 * 168 / 303, 168 / 303
TOLERANCE = 0.01   # of the exact plan's total (engine.profile_slots.BOUND_TOLERANCE_PCT)


def two_workloads(tmp_path: Path, second: str) -> Path:
    """The worked example over 12 months without its budget: `training` (800 h a month) on 168 random weights
    in 0.2–3, and `inference` (600 h a month, A5000 or A10G like training) on business_hours (`second`
    "business_hours") or 168 other random weights ("random")."""
    rng = np.random.default_rng(5)
    weights = {"a.csv": rng.uniform(0.2, 3.0, 168), "b.csv": rng.uniform(0.2, 3.0, 168)}
    for name, column in weights.items():
        write_profile(tmp_path / name, [float(w) for w in column])
    text = (ROOT / "examples" / "worked-example.yaml").read_text()
    text = (text.replace("source: offers-g5-us-east-1.csv", f"source: {ROOT / 'examples' / 'offers-g5-us-east-1.csv'}")
            .replace("horizon_months: 24", "horizon_months: 12").replace("capex_budget: 2500", "capex_budget: 100000")
            .replace("profile: flat", "profile: a.csv"))
    text += f"""  - name: inference
    gpu_hours_per_month: 600
    reference_gpu: RTX-A5000
    min_gpu_memory_gb: 16
    profile: {"b.csv" if second == "random" else "business_hours"}
    throughput: {{RTX-A5000: 1.0, A10G: 0.8}}
"""
    path = tmp_path / "s.yaml"
    path.write_text(text)
    return path


def assert_within_tolerance_of(p, exact):
    """The plan's total and each baseline's within 1 % of the exact plan's (the total never below it)."""
    assert exact.total * (1 - 1e-9) <= p.total <= exact.total * (1 + TOLERANCE)
    got, want = (dict(zip(x.baselines["baseline"], x.baselines["total"])) for x in (p, exact))
    assert got.keys() == want.keys()
    for name, total in want.items():
        assert got[name] == pytest.approx(total, rel=TOLERANCE), name


def test_a_workload_of_two_weights_beside_one_of_168_is_blocked_apart(tmp_path):
    # an audit's shape (startup-hybrid.yaml, prototyping on 168 random weights beside llm-finetune's
    # business_hours: 11.6 % above exact, bound 39.8 %). Blocks cut along one order by the distance to the
    # nearer corner, which is 0 for a workload of two weights wherever it is cut, held working and night hours
    # together and were planned at both workloads' peaks (this case: 19.7 % above exact, a card too many, the
    # all-cloud baseline 18 % too dear). No block holds both now: each block's mean inference weight is one of
    # the two.
    path = two_workloads(tmp_path, "business_hours")
    s = load_scenario(path)
    inference = [w.name for w in s.workloads].index("inference")
    means = week_blocks(s, 24).means.weights[:, inference]
    assert all(m == pytest.approx(WORKING) or m == pytest.approx(OFF) for m in means), means
    exact, p = plan(path, profile_slots=168), plan(path)
    assert_within_tolerance_of(p, exact)
    assert p.profile_grouping["slots"] == 24 and p.profile_grouping["error_bound_pct"] <= 100 * TOLERANCE


def test_the_mix_costs_by_hand_and_in_chunks_of_rows():
    # three classes of two workloads, in this order: (0, 1) for 2 h, (1, 0) and (0.5, 0.5) for 1 h, shares ½ each.
    # Block 0 … 0: one class, no width: 0. Block 0 … 1: corners (0, 0) and (1, 1); each hour is worked at λ = 1,
    # serving its low workload 1 above its need (½ by share) and neither away from a corner: 2 × ½ + 1 × ½ = 1.5.
    # Block 0 … 2 adds (0.5, 0.5): λ = ½, no over-service, ½ from the nearer corner for each workload: 2.0
    from planner.engine.periods import _mix_costs

    classes, hours, share = np.array([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5]]), np.array([2.0, 1.0, 1.0]), np.full(2, 0.5)
    for elements in (1, 12, 1 << 20):   # one row a chunk (3 × 2 elements a row); two, then the last; all
        np.testing.assert_allclose(_mix_costs(classes, hours, share, chunk_elements=elements), [0.0, 1.5, 2.0],
                                   rtol=0, atol=1e-12)
    # 168 weights of 500 workloads held 456 MB in [C × C × W] arrays at once: chunks of rows give the same costs
    rng = np.random.default_rng(3)
    weights = np.round(rng.uniform(0.2, 3.0, (168, 9)), 3)
    classes, counts = np.unique(weights, axis=0, return_counts=True)
    share = rng.dirichlet(np.ones(9))
    whole = _mix_costs(classes, counts.astype(float), share, chunk_elements=classes.size * len(classes))
    for elements in (1, 9 * 168 * 5 + 3):   # one row a chunk; five rows a chunk and a shorter last one
        np.testing.assert_allclose(_mix_costs(classes, counts.astype(float), share, chunk_elements=elements), whole,
                                   rtol=1e-12, atol=0)
