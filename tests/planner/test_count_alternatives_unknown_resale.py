"""One card more or fewer names why a plan cannot hold fewer of an owned card of unknown resale value (a review,
2026-12-06): such a card (no sourced price in the catalog, none in onprem.card_overrides) is never sold
(docs/cost-model.md: its owned units are kept or switched off), so "at most one fewer" held is infeasible by that
rule. The line said "no plan meets the scenario's demand and caps with that many", as if demand or a cap forbade it.

The scenario is test_site_cost_switched_off.py's: one A100 40GB PCIe owned new, which the catalog has no price for
(docs/data-sources.md: its price cell is empty), beside a rented g5.xlarge. The plan holds it (switched off, or
kept working with `onprem.switch_off_owned: false`): held counts cards bought or owned and not sold
(docs/decisions.md, *One card more or fewer*), so one fewer is "at most 0" — a sale. It cannot be bought (no
price, not in onprem.cards), so "one more" is not asked: the plan's one row is that "at most 0"."""

from __future__ import annotations

import json

import pytest
import yaml
from typer.testing import CliRunner

from fleetplan_dashboard import tables
from planner import add_decisions, plan
from planner.cli import app
from tests.planner.test_site_cost_switched_off import scenario

CARD = "a100-40gb-pcie"
WHY = (f"below the 1 owned, which cannot be sold: its resale value is unknown (give onprem.card_overrides.{CARD}.price "
       "to weigh a sale)")
LINE = f"one card more or fewer: 1 of 1 not shown: at most 0 {CARD}: {WHY}"


@pytest.mark.parametrize("onprem, kept, switched_off", [({}, 0, 1), ({"switch_off_owned": False}, 1, 0)],
                         ids=["switched off", "kept working"])
def test_one_fewer_of_an_owned_card_of_unknown_resale_value_is_ruled_out_by_that(tmp_path, onprem, kept, switched_off):
    p = add_decisions(plan(scenario(tmp_path, **onprem)))
    (owned,) = p.owned.to_dict("records")
    assert (owned["kept"], owned["switched_off"], owned["sold"]) == (kept, switched_off, 0)
    (row,) = p.runner_up["count_alternatives"]
    assert (row["card"], row["units"], row["alternative_units"]) == (CARD, 1, 0)
    assert (row["status"], row["total"], row["held_units"], row["fleet"]) == ("infeasible", None, None, None)
    assert row["note"] == WHY
    assert tables.count_alternatives(p.runner_up).empty                  # the dashboard's table: rows with a total
    assert tables.count_alternatives_left_out(p.runner_up) == tables.plain(LINE[0].upper() + LINE[1:] + ".")


@pytest.mark.parametrize("onprem", [{}, {"switch_off_owned": False}], ids=["switched off", "kept working"])
def test_the_cli_line_and_json_say_the_owned_card_cannot_be_sold(tmp_path, onprem):
    path = scenario(tmp_path, **onprem)
    result = CliRunner().invoke(app, ["plan", path, "--no-baselines"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert LINE in text
    assert "no plan meets" not in text
    result = CliRunner().invoke(app, ["plan", path, "--no-baselines", "--format", "json"])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)["runner_up"]["count_alternatives"]
    assert (row["alternative_units"], row["total"], row["note"]) == (0, None, WHY)


def test_with_a_price_given_no_count_is_ruled_out_by_an_unknown_resale_value(tmp_path):
    # a test price (not a quote): with it the card may be sold, so every count asked has a plan
    path = scenario(tmp_path)
    doc = yaml.safe_load(open(path, encoding="utf-8"))
    doc["onprem"]["card_overrides"][CARD].update(price=5000, currency="USD")
    with open(path, "w", encoding="utf-8") as f:
        yaml.safe_dump(doc, f, sort_keys=False)
    p = add_decisions(plan(path))
    rows = p.runner_up["count_alternatives"]
    assert rows and all(a["total"] is not None and a["note"] is None for a in rows)


def test_the_workbook_sheet_says_why_the_count_has_no_plan(tmp_path):
    # the CLI says why under its table and the JSON in `note`; the count alternatives sheet had the row's blank
    # total and `infeasible` only, which reads as "demand or a cap forbids it"
    import io

    from openpyxl import load_workbook

    from planner.reports import plan_to_excel

    p = add_decisions(plan(scenario(tmp_path)))
    sheet = load_workbook(io.BytesIO(plan_to_excel(p)))["count alternatives"]
    header, *rows = [[c.value for c in r] for r in sheet.iter_rows()]
    (row,) = [dict(zip(header, r)) for r in rows]
    assert (row["card"], row["units"], row["alternative_units"], row["status"]) == (CARD, 1, 0, "infeasible")
    assert row["note"] == WHY
