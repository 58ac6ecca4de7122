"""The warning on estimated speeds only baselines' fleets have says what it knows (a FinOps audit at 007245e).

mix.yaml (tests/planner/test_spot_zone_warning.py) said "infer: the baselines' totals rest on speeds that are
estimates … infer on MI300X (the best single type)". By hand the best single type's total is train on Azure's
MI300X VM on-demand (48 USD/h, pricing_adapters/snapshots/azure.csv) and infer on 2 × g5.xlarge all year (1.006
USD/h, aws.csv): (48000 / (2.5583 × 8 × 0.958) × 48 + 2 × 8,760 × 1.006) × 0.92 ≈ 124,325 EUR, so infer's part
does not rest on MI300X; and "(the best single type)" read as if MI300X were it, though that baseline is "only cloud
on-demand". The pairs a baseline's warning names are those a unit of its fleet can serve (baselines.fleet_pairs),
not those its dispatch gives work, which its rows do not keep: the warning now says "may rest on" and "could run
on", and names the baseline with its label."""

import pytest

import planner
from planner.engine import run
from tests.planner.test_spot_zone_warning import MIX


@pytest.fixture(scope="module")
def mix():
    return planner.plan(MIX)


def test_best_single_is_mi300x_for_train_and_g5_for_infer_by_hand(mix):
    best = mix.baselines.set_index("baseline").loc["best_single"]
    assert best["label"] == "only cloud on-demand"
    by_hand = (48000 / (2.5583 * 8 * 0.958) * 48 + 2 * 8760 * 1.006) * 0.92
    assert best["total"] == pytest.approx(124325.1, abs=0.1)
    assert best["total"] == pytest.approx(by_hand, rel=1e-5)   # 2.5583 is MI300X's speed to 4 decimals


def test_infer_warning_does_not_say_it_rests_on_mi300x(mix):
    [said] = [w for w in mix.warnings if w.startswith("infer: ") and "MI300X" in w]
    assert "infer on MI300X" not in said
    assert "totals rest on" not in said   # "may rest on": the pairs are those a fleet can serve
    assert said.startswith("infer: the baselines' totals may rest on speeds that are estimates")
    assert "infer could run on MI300X (the best single type, only cloud on-demand)" in said


def test_the_baseline_is_named_with_its_label_where_it_adds_to_the_name(mix):
    assert "(the best single type)" not in "\n".join(mix.warnings)


def test_a_label_that_repeats_the_name_is_not_said_twice():
    import pandas as pd

    speeds = pd.DataFrame({"workload": ["w"], "gpu": ["MI300X"], "source": ["estimated"], "used_by": ["all_cloud"],
                           "detail": [""]})
    table = pd.DataFrame({"baseline": ["all_cloud"], "label": ["all cloud (no new hardware)"]})
    [said] = run.baseline_estimate_warnings(speeds, None, table)
    assert "w could run on MI300X (all cloud);" in said
