"""The finance notebook runs clean, offline, in the project's own interpreter (nbclient + ipykernel)."""

import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "finance_review.ipynb"


def test_finance_review_notebook_runs_without_errors():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    # the kernel must run this interpreter (the venv), not whatever `python` comes first on PATH
    nb.cells.append(nbformat.v4.new_code_cell("import sys; print('kernel:', sys.executable)"))
    nb.cells.append(nbformat.v4.new_code_cell("print('re-solves:', sum(p.solver['decisions']['solves'].values()))"))
    client.execute()   # raises CellExecutionError, naming the cell, on any error
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert "Start-up hybrid fleet: optimal" in text
    assert ("'summary', 'yearly', 'monthly', 'fleet', 'serving', 'purchase schedule', 'owned cards', 'baselines', "
            "'decisions', 'runner-up', 'count alternatives', 'flip points', 'cap costs', 'break-even', 'speeds', "
            "'excluded offers', 'assumptions', 'prices used'") in text
    # how firm: the runner-up holds one RTX 3060 for 1.66 % more (tests/planner/test_decisions.py, brute force): it
    # sells both owned ones, as the plan does, and buys one in month 34, plan year 3, which its differences say
    # (tests/planner/test_decisions_words_sales_caps_headers.py plans that fleet: 37,104.6 USD; 606 / 36,498.54 = 1.66 %)
    assert ("runner-up 37,105 USD (+1.66 %): rtx-3060-12gb 0 (2 owned sold) → 1 (1 bought in year 3, 2 owned sold) — "
            "CLOSE CALL at 2 %") in text
    plotly = [o for o in outputs if "application/vnd.plotly.v1+json" in o.get("data", {})
              or "text/html" in o.get("data", {})]
    assert plotly, "the charts produced no output"
    # what each of startup-hybrid's five limits costs (tests/planner/test_cap_costs.py checks the figures)
    shown = "".join(o.get("data", {}).get("text/plain", "") for o in outputs)
    assert all(f in shown for f in ("onprem.power_cap_kw", "constraints.max_units.rtx-4090",
                                     "constraints.min_units.a100-80gb-pcie"))
    assert f"kernel: {sys.executable}" in text
    assert "re-solves: 37" in text   # as the markdown says (test_the_notebooks_words_match_what_it_runs)


def test_the_notebooks_words_match_what_it_runs():
    """Its markdown says how many re-solves the decisions take and which sheets the workbook has: the figures the
    notebook's run prints (37 re-solves: the CLI's `solver.decisions.solves` of startup-hybrid.yaml, 4 + 6 + 22 + 5;
    the sheets as test_finance_review_notebook_runs_without_errors reads them)."""
    nb = nbformat.read(NOTEBOOK, as_version=4)
    words = "\n".join(cell.source for cell in nb.cells if cell.cell_type == "markdown")
    assert "These are re-solves (37 here:" in words
    assert ("The workbook (summary, yearly roll-up, monthly, fleet, serving, purchase schedule, owned cards, baselines, "
            "decisions, runner-up, count alternatives, flip points, cap costs, break-even, speeds, excluded offers, assumptions, "
            "prices used)") in words


def test_the_after_horizon_words_name_whose_credit_month_h_plus_1_carries():
    """The cumulative-cost cell says whose resale credit month H+1 (37) carries: cards still in service at the end,
    here the A100 the plan buys (half the straight-line book value of its 14,000 + 2,500 host share after 36 of its
    60 months: 0.5 × 16,500 × 24/60 = 3,300; the RTX 4090, 3 years of life, is worth nothing then), not the owned
    RTX 3060s, which the plan sells in month 1 (startup-hybrid.yaml's schedule)."""
    from planner import load_scenario, plan

    nb = nbformat.read(NOTEBOOK, as_version=4)
    words = "\n".join(cell.source for cell in nb.cells if cell.cell_type == "markdown")
    assert ("month H+1 carries the resale credit of the cards still in service at the end of the horizon: here the A100 "
            "the plan buys; the owned RTX 3060s are sold in month 1") in words
    p = plan(load_scenario(ROOT / "scenarios" / "startup-hybrid.yaml"), baselines=False)
    after = p.flows[(p.flows["month"] == p.horizon_months + 1) & (p.flows["cost"] != 0)]
    assert list(zip(after["sku"], after["category"], after["cost"])) == [("a100-80gb-pcie", "residual_value", -3300.0)]
    bought = p.schedule[p.schedule["action"] == "buy"]
    assert "a100-80gb-pcie" in set(bought["card"])
    sold = p.schedule[p.schedule["action"] == "sell"]
    assert list(zip(sold["card"], sold["month"], sold["units"])) == [("rtx-3060-12gb", 1, 2)]
