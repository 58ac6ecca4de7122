"""A Plan's tables are its own (an audit, a finance analyst in a notebook): what a notebook does to `p.costs`,
`p.fleet`, `p.monthly` … — a column converted for a slide, a row set to 0, a column added, rows dropped in place —
changes none of the plan's exports (JSON, CSV, workbook, FOCUS, Markdown), nor `compare`, `p.cost()`, `p.total`, as
its frozen scenario cannot be changed in place. A copied or pickled plan keeps its numbers too.

Oracles: the README's worked example — startup-hybrid.yaml is planned at 36,498.54 USD (`round(p.total, 2)`), an
undiscounted total (`discount_rate: 0.0`) with no site fixed cost, so its cost categories and its fleet rows each
sum to it (README: the fleet rows fall short of the total only by `fixed_onprem`) — and, for everything else, the
plan's own exports taken before any edit."""

from __future__ import annotations

import copy
import dataclasses
import io
import json
import pickle
import warnings
from pathlib import Path

import pandas as pd
import pytest
from openpyxl import load_workbook

from planner import compare, plan, to_csv, to_excel, to_focus, to_json, to_markdown
from planner.engine.result import Plan

ROOT = Path(__file__).resolve().parents[2]
# README: round(plan("scenarios/startup-hybrid.yaml").total, 2); 36,401.33 at 0.14 USD/CNY, and the two owned RTX 3060s
# it sells in month 1 fetch 2 × 0.5 × (2,500 + 5,400) CNY × (0.14 − 0.13749) = 19.829 USD less at the file's 0.13749:
# 36,421.16; the rtx-4090 at 1,669.99 USD (not 1,599) adds 70.99 × (1 + 3 years × 3 % maintenance) = 77.38
TOTAL = 36_498.54
# every DataFrame of a Plan (planner/engine/result.py's fields; the README's library section names them)
TABLES = ("costs", "fleet", "monthly", "utilisation", "break_even", "exclusions", "flows", "offers", "schedule",
          "installed", "owned", "speeds", "baselines", "serving", "busy_by_workload", "decisions", "flip_points",
          "cap_costs")


def test_the_tables_are_every_dataframe_of_a_plan():
    frames = {f.name for f in dataclasses.fields(Plan) if "DataFrame" in str(f.type)}
    assert frames == set(TABLES)


@pytest.fixture(scope="module")
def solved() -> Plan:
    p = plan(ROOT / "scenarios" / "startup-hybrid.yaml", baselines=False)
    to_json(p)   # its generated_at stamped, so that every copy below carries the same one
    return p


@pytest.fixture(scope="module")
def before(solved) -> dict:
    """The plan's exports and figures before any edit."""
    return {"json": json.loads(to_json(solved)), "markdown": to_markdown(solved), "focus": to_focus(solved).to_csv(index=False),
            "csv": {t: to_csv(solved, table=t) for t in ("fleet", "monthly", "costs", "schedule", "owned")},
            "workbook": _cells(to_excel(solved)), "energy": solved.cost("energy")}


@pytest.fixture
def p(solved) -> Plan:
    """A plan of its own for each test, as the sweep's worker processes get theirs: pickled."""
    return pickle.loads(pickle.dumps(solved))


def _cells(data: bytes) -> dict:
    """Every sheet's cells as written (formulas as their text), by sheet."""
    book = load_workbook(io.BytesIO(data))
    return {ws.title: [list(r) for r in ws.iter_rows(values_only=True)] for ws in book.worksheets}


def _edit_like_a_notebook(p: Plan) -> None:
    """The auditor's edits, then the same four kinds on every table a plan has."""
    with warnings.catch_warnings():
        # pandas 3 warns that an edit through `p.costs[...] = …` changes a copy (ChainedAssignmentError), and of
        # `inplace=` (deprecated): both edits are what a notebook does, made here on purpose
        warnings.simplefilter("ignore")
        p.costs["cost"] = p.costs["cost"] * 0.92      # converting for a slide
        p.fleet.loc[0, "cost"] = 0
        p.monthly["extra"] = 1
        p.flows.drop(index=p.flows.index[:10], inplace=True)
        for name in TABLES:
            table = getattr(p, name)                 # a name held: no chained assignment, no warning
            if table is None or not len(table):
                continue
            for column in table.select_dtypes("number").columns:
                table[column] = table[column] * 0.92        # assign a column
            table.loc[table.index[0], table.columns[0]] = None   # .loc set
            table["note_for_slide"] = "edited"               # add a column
            table.drop(index=table.index[-1], inplace=True)  # drop rows in place
            table.attrs["currency"] = "EUR"
            table.attrs.get("money_columns", {}).clear()


def test_the_readme_total_is_what_the_plan_solved(solved, before):
    assert solved.total == pytest.approx(TOTAL, abs=0.005)
    assert sum(before["json"]["costs"].values()) == pytest.approx(TOTAL, abs=0.005)
    assert sum(r["cost"] for r in before["json"]["fleet"]) == pytest.approx(TOTAL, abs=0.005)


def test_the_auditors_edits_leave_the_json_as_solved(p, before):
    _edit_like_a_notebook(p)
    j = json.loads(to_json(p))
    assert j["total"] == pytest.approx(TOTAL, abs=0.005) and j["currency"] == "USD"
    assert sum(j["costs"].values()) == pytest.approx(TOTAL, abs=0.005)          # was 33,489.23 (× 0.92)
    assert sum(r["cost"] for r in j["fleet"]) == pytest.approx(TOTAL, abs=0.005)  # was 37,507.33 (a row at 0)
    assert "extra" not in j["monthly"][0] and "note_for_slide" not in j["fleet"][0]
    assert j == before["json"]


def test_the_getters_give_the_solved_numbers_after_edits(p, solved, before):
    _edit_like_a_notebook(p)
    assert p.cost("energy") == before["energy"]
    assert p.total == pytest.approx(TOTAL, abs=0.005)
    assert p.costs["cost"].sum() == pytest.approx(TOTAL, abs=0.005)
    assert p.fleet["cost"].sum() == pytest.approx(TOTAL, abs=0.005)
    assert "extra" not in p.monthly and "note_for_slide" not in p.fleet
    assert len(p.flows) == len(solved.flows) and len(p.fleet) == len(before["json"]["fleet"])
    assert p.costs.attrs["currency"] == "USD"
    assert p.costs.attrs["money_columns"] == {"cost": "present value at 0%/year, undiscounted"}
    assert p.energy_kwh == pytest.approx(sum(r["energy_kwh"] for r in before["json"]["utilisation"]))


def test_the_summary_csvs_and_focus_after_edits_are_those_before(p, before):
    _edit_like_a_notebook(p)
    assert to_markdown(p) == before["markdown"]
    assert {t: to_csv(p, table=t) for t in before["csv"]} == before["csv"]
    focus = to_focus(p)
    assert focus.to_csv(index=False) == before["focus"]
    assert focus["x_PresentValue"].sum() == pytest.approx(TOTAL, abs=0.005)   # docs/focus.md: Σ = plan.total


def test_the_workbook_read_back_after_edits_is_the_one_before(p, before):
    _edit_like_a_notebook(p)
    cells = _cells(to_excel(p))
    assert cells == before["workbook"]
    summary = {row[0]: row[1] for row in cells["summary"][1:]}
    assert summary["total"] == pytest.approx(TOTAL, abs=0.005)
    assert sum(v for k, v in summary.items() if k.startswith("cost.")) == pytest.approx(TOTAL, abs=0.005)
    fleet = cells["fleet"]
    cost = next(i for i, h in enumerate(fleet[0]) if h.startswith("cost"))
    assert sum(r[cost] for r in fleet[1:] if isinstance(r[cost], (int, float))) == pytest.approx(TOTAL, abs=0.005)


def test_compare_after_edits_compares_the_solved_plans(p, solved, before):
    _edit_like_a_notebook(p)
    c = compare(p, solved)
    assert c.costs["cost_a"].sum() == pytest.approx(TOTAL, abs=0.005)
    assert dict(zip(c.costs["category"], c.costs["cost_a"])) == pytest.approx(before["json"]["costs"])
    assert (c.costs["cost_delta"] == 0).all() and (c.fleet["cost_delta"] == 0).all()
    assert c.fleet["cost_a"].sum() == pytest.approx(TOTAL, abs=0.005)


def test_each_read_of_a_table_is_a_copy_with_the_plans_attrs(solved):
    for name in TABLES:
        table = getattr(solved, name)
        if isinstance(table, pd.DataFrame):
            assert table is not getattr(solved, name), name
    assert solved.costs.attrs["money_basis"] == "present value at 0%/year, undiscounted"


def test_a_table_set_on_a_plan_is_copied_so_its_makers_later_edit_changes_nothing(solved):
    made = solved.costs
    q = dataclasses.replace(solved, costs=made)
    made.loc[made["category"] == "energy", "cost"] = 1e9
    assert q.cost("energy") == solved.cost("energy") != 1e9
    assert json.loads(to_json(q))["costs"]["energy"] == solved.cost("energy")


def test_relabelling_a_copy_leaves_the_original_labelled(solved):
    # dataclasses.replace shared the tables: the copy's scenario set to None relabelled the original's
    q = dataclasses.replace(solved)
    q.scenario = None
    assert q.costs.attrs["money_basis"] == "present value"
    assert solved.costs.attrs["money_basis"] == "present value at 0%/year, undiscounted"


@pytest.mark.parametrize("how", ["pickle", "copy", "deepcopy", "replace"])
def test_a_copied_plan_exports_the_same_and_is_not_the_original(solved, before, how):
    made = {"pickle": lambda x: pickle.loads(pickle.dumps(x)), "copy": copy.copy, "deepcopy": copy.deepcopy,
            "replace": dataclasses.replace}[how](solved)
    solved_json = _unstamped(before["json"])   # a replace copy is stamped when first exported: no field of the Plan
    assert _unstamped(json.loads(to_json(made))) == solved_json
    _edit_like_a_notebook(made)
    assert _unstamped(json.loads(to_json(made))) == solved_json == _unstamped(json.loads(to_json(solved)))


def _unstamped(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k != "generated_at"}


def test_a_plan_pickled_before_it_kept_its_tables_to_itself_reads_back(solved, before):
    # such a plan's state holds each table under its own name (costs, not _costs)
    state = {k.removeprefix("_") if k.removeprefix("_") in TABLES else k: v for k, v in vars(solved).items()}
    state.pop("busy_by_workload")   # one pickled before busy_by_workload existed has none
    old = Plan.__new__(Plan)
    old.__setstate__(state)
    assert old.total == pytest.approx(TOTAL, abs=0.005) and old.cost("energy") == before["energy"]
    assert json.loads(to_json(old)) == before["json"]
    assert getattr(old, "busy_by_workload", "none") == "none"


def test_with_deep_copies_as_under_pandas_2_the_edits_leave_the_json_as_solved(solved, before, monkeypatch):
    # pandas 2 without copy on write shares a shallow copy's data both ways: the Plan hands out deep copies there
    from planner.engine import result

    monkeypatch.setattr(result, "COPY_ON_WRITE", False)
    q = pickle.loads(pickle.dumps(solved))
    _edit_like_a_notebook(q)
    assert json.loads(to_json(q)) == before["json"] and q.cost("energy") == before["energy"]


def test_the_readme_edits_a_copy_kept_in_a_name_and_pandas_3_warns_of_one_through_the_attribute(p, before):
    costs = p.costs
    with warnings.catch_warnings():
        warnings.simplefilter("error")              # no warning: the edit the README shows
        costs["cost"] *= 0.92
    assert costs["cost"].sum() == pytest.approx(TOTAL * 0.92, abs=0.01)
    if int(pd.__version__.split(".")[0]) >= 3:
        with pytest.warns(pd.errors.ChainedAssignmentError):
            p.costs["cost"] = 0.0
    assert p.costs["cost"].sum() == pytest.approx(TOTAL, abs=0.005) and p.cost("energy") == before["energy"]
