"""A baseline that costs less than the plan says why: the baselines drop the caps that express preferences
of the mix (capex budgets, the cloud share cap, min/max units) and the caller's extra constraints. Alone, a
"saving" of -16 % read as a plan that missed a cheaper fleet (a review, 2026-12-04).

The README's worked example, worked out by hand (docs/cost-model.md §16): within its 2,500 USD capex budget
the plan holds one RTX A5000 and rents the rest, 8,385.46 USD. Two A5000s do all 800 hours a month (one
does 0.9 × 730 = 657): capex 2 × 2,500 − resale 2 × 625 + maintenance 2 × 250 + idle energy 2 × 525.60 +
busy energy 0.3 kW × 800 h × 1.5 × 0.20 × 24 = 1,728 → 7,029.20 USD, which only the budget keeps out of
the plan. All cloud: 800 / 0.8 = 1,000 g5.xlarge hours a month × 1.006 × 24 = 24,144 USD."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest
import yaml
from typer.testing import CliRunner

from planner import apply_overrides, load_scenario, plan
from planner.cli import app
from planner.engine.baselines import baseline_table
from planner.reports.markdown import plan_to_markdown

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
ONE_CARD, TWO_CARDS, ALL_CLOUD = 8385.46, 7029.20, 24144.0
BUDGET_NOTE = "costs less than the plan: it drops the capex budget of 2,500 USD, which the plan keeps"


def _by_baseline(p) -> pd.DataFrame:
    return p.baselines.set_index("baseline")


def test_a_baseline_cheaper_than_the_plan_names_the_budget_it_drops():
    p = plan(WORKED)
    assert p.total == pytest.approx(ONE_CARD, abs=0.01)
    b = _by_baseline(p)
    assert b.loc["all_onprem", "total"] == pytest.approx(TWO_CARDS, abs=0.01)
    assert b.loc["all_onprem", "savings"] == pytest.approx(TWO_CARDS - ONE_CARD, abs=0.01)
    assert b.loc["all_onprem", "note"] == BUDGET_NOTE
    assert (b.loc["best_single", "label"], b.loc["best_single", "note"]) == ("only rtx-a5000", BUDGET_NOTE)
    # the all-cloud baseline costs more: its saving needs no explaining
    assert b.loc["all_cloud", "total"] == pytest.approx(ALL_CLOUD, abs=0.01)
    assert b.loc["all_cloud", "note"] == ""


def test_without_the_budget_the_plan_is_the_two_cards_and_no_baseline_is_noted():
    # all on-prem is then the plan itself: a saving of zero (to the solves' round-off) is no cheaper baseline
    p = plan(WORKED, overrides={"onprem.capex_budget": None})
    assert p.total == pytest.approx(TWO_CARDS, abs=0.01)
    b = _by_baseline(p)
    assert b.loc["all_onprem", "savings"] == pytest.approx(0, abs=0.01)
    assert b["note"].tolist() == ["", "", ""]


def test_the_callers_extra_constraints_are_named_too():
    def one_card_at_most(m):
        m.prob += (m.card("rtx-a5000") <= 1, "one_card_at_most")

    p = plan(WORKED, overrides={"onprem.capex_budget": None}, extra_constraints=one_card_at_most)
    assert p.total == pytest.approx(ONE_CARD, abs=0.01)   # the budget's fleet, by another rule
    assert _by_baseline(p).loc["all_onprem", "note"] == ("costs less than the plan: it drops your extra constraints, "
                                                         "which the plan keeps")


def test_each_dropped_cap_is_named_with_its_limit():
    s = apply_overrides(load_scenario(WORKED), {"constraints.max_cloud_share": 0.25,
                                                "constraints.max_units": {"rtx-a5000": 1},
                                                "onprem.capex_budget_per_year": 3000})
    note = _by_baseline(plan(s)).loc["all_onprem", "note"]
    assert note == ("costs less than the plan: it drops the capex budget of 2,500 USD, the capex budget per year of "
                    "3,000 USD, the cloud share cap of 25 %, max_units.rtx-a5000 = 1, which the plan keeps")


ROWS = [{"baseline": "a", "label": "", "status": "optimal", "total": 99.0, "note": ""},
        {"baseline": "b", "label": "", "status": "optimal", "total": 100.0 - 1e-9, "note": ""},
        {"baseline": "c", "label": "", "status": "optimal", "total": 120.0, "note": ""},
        {"baseline": "d", "label": "", "status": "infeasible", "total": math.nan, "note": "no fleet"},
        {"baseline": "e", "label": "", "status": "optimal", "total": 50.0, "note": "said already"}]


def test_the_table_notes_only_rows_below_the_plan_beyond_round_off():
    table = baseline_table(ROWS, 100.0, extra_constraints=True)
    cheaper = "costs less than the plan: it drops your extra constraints, which the plan keeps"
    assert table["note"].tolist() == [cheaper, "", "", "no fleet", "said already"]
    assert table["savings"].tolist()[0] == -1.0
    # nothing dropped: nothing to say
    assert baseline_table(ROWS, 100.0)["note"].tolist() == ["", "", "", "no fleet", "said already"]


def test_a_baseline_whose_savings_read_0_is_not_said_to_cost_less():
    # 0.004 below a plan of 100: within MONEY_ROUNDING (0.005), its savings read 0; a millionth of 100 (0.0001) had
    # called it cheaper, beside a saving of 0
    rows = [{"baseline": "a", "label": "", "status": "optimal", "total": 100.0 - 0.004, "note": ""},
            {"baseline": "b", "label": "", "status": "optimal", "total": 100.0 - 0.006, "note": ""}]
    table = baseline_table(rows, 100.0, extra_constraints=True)
    assert table["savings"].tolist()[0] == 0.0 and table["note"].tolist()[0] == ""
    assert table["savings"].tolist()[1] == pytest.approx(-0.006) and table["note"].tolist()[1].startswith("costs less")


def test_a_plan_stopped_before_its_optimum_blames_the_stop_not_the_caps():
    # a time limit: the plan may cost more than a baseline only because its solve did not finish
    table = baseline_table(ROWS, 100.0, extra_constraints=True, plan_status="feasible")
    assert table["note"].tolist()[0] == ("costs less than the plan, whose solve stopped before it proved the least "
                                         "cost (status feasible): plan with more time")
    assert table["note"].tolist()[1:] == ["", "", "no fleet", "said already"]


def test_a_baseline_that_buys_no_cards_is_not_said_to_drop_the_budget_or_card_maxima():
    # 20 cards required: the plan holds them (capex 20 × 2,500 = 50,000, within the 100,000 budget). All cloud
    # (24,144) buys no cards, so only the minimum explains its lower cost; all on-prem (two cards, 7,029.20)
    # may buy cards, so the budget is named too (it does not bind here, but a baseline cannot tell)
    p = plan(WORKED, overrides={"onprem.capex_budget": 100000, "constraints.min_units": {"rtx-a5000": 20},
                                "constraints.max_units": {"rtx-a5000": 30}})
    b = _by_baseline(p)
    assert p.total > b.loc["all_onprem", "total"] == pytest.approx(TWO_CARDS, abs=0.01)
    assert b.loc["all_cloud", "total"] == pytest.approx(ALL_CLOUD, abs=0.01) and p.total > ALL_CLOUD
    assert b.loc["all_cloud", "note"] == "costs less than the plan: it drops min_units.rtx-a5000 = 20, which the plan keeps"
    assert b.loc["all_onprem", "note"] == ("costs less than the plan: it drops the capex budget of 100,000 USD, "
                                           "min_units.rtx-a5000 = 20, max_units.rtx-a5000 = 30, which the plan keeps")


def test_the_cli_table_and_the_summary_show_the_note():
    result = CliRunner().invoke(app, ["plan", str(WORKED), "--no-decisions"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    baselines = result.stdout[result.stdout.index("Baselines (USD, present value"):]
    # one line per noted baseline under the table, whole at 80 columns; no note column squeezing the table
    assert f"\n  all_onprem: {BUDGET_NOTE}\n" in baselines and f"\n  best_single: {BUDGET_NOTE}\n" in baselines
    assert "all_cloud:" not in baselines and "│ note" not in baselines
    md = plan_to_markdown(plan(WORKED))
    assert f"all on-prem (no cloud): 7,029 USD ({BUDGET_NOTE})" in md
    # savings_pct as the JSON and the CLI carry it: -1,356.26 / 7,029.20 = -19.3 %
    assert f"| all_onprem | all on-prem (no cloud) | optimal | 7,029 | -1,356 | -19.3 | {BUDGET_NOTE} |" in md


def test_the_cli_prints_no_note_when_no_row_has_one(tmp_path):
    doc = yaml.safe_load(WORKED.read_text(encoding="utf-8"))
    doc["prices"]["source"] = str(WORKED.parent / doc["prices"]["source"])
    del doc["onprem"]["capex_budget"]
    scenario = tmp_path / "no-budget.yaml"
    scenario.write_text(yaml.safe_dump(doc), encoding="utf-8")
    result = CliRunner().invoke(app, ["plan", str(scenario), "--no-decisions"], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    baselines = result.stdout[result.stdout.index("Baselines (USD, present value"):]
    assert "savings_pct" in baselines and "costs less" not in baselines
    assert baselines.rstrip().endswith("┘")   # nothing under the table
