"""`fleetplan compare` refuses a saved plan whose fleet rows are not the planner's: a row that is no object, or one
without its units, hours or cost (a row without `cost` was shown costing 0 beside the other side's 4,315.74, a
delta of a cost the file never said), in the tool's words: file, row, field, what was expected; exit 2.

The worked example (examples/worked-example.yaml, README) plans two fleet rows: the owned RTX A5000 (1 card,
4,069.72 USD = capex 2,500 − residual 625 + maintenance 250 + energy 1,944.72) and 4,290 h of g5.xlarge on demand
at 1.006 USD (4,315.74 USD), whose units are null (hours rented, not units held).
"""

import copy
import json
from pathlib import Path

import pytest
from cli_run import one_line_error, run

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> tuple[dict, Path]:
    result = run("plan", WORKED, "--format", "json", "--no-baselines", "--no-decisions")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert [(r["sku"], r["units"]) for r in doc["fleet"]] == [("rtx-a5000", 1), ("g5.xlarge", None)]
    path = tmp_path_factory.mktemp("saved") / "plan.json"
    path.write_text(result.stdout, encoding="utf-8")
    return doc, path


def compared(saved, tmp_path, edit):
    doc, good = saved
    doc = copy.deepcopy(doc)
    edit(doc)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    return run("compare", bad, good)


OBJECT_OF = ("expected an object of provider, region, sku, gpu, purchase_option, units, instance_hours and cost "
             "(as `fleetplan plan --format json` writes it)")


@pytest.mark.parametrize(("row", "shown"), [("not a row", '"not a row"'), (3, "3"), ([], "[]"), (None, "null")])
def test_a_fleet_row_that_is_not_an_object_is_refused_naming_the_row(saved, tmp_path, row, shown):
    result = compared(saved, tmp_path, lambda d: d["fleet"].append(row))
    assert result.exit_code == 2 and result.stdout == ""
    assert one_line_error(result) == f"error: {tmp_path / 'bad.json'}: fleet row 3 is {shown}; {OBJECT_OF}"


@pytest.mark.parametrize(("row", "col", "expected"), [
    (2, "cost", "a number"),   # was shown as 0 USD beside the other side's 4,315.74
    (1, "units", "a number or null"),
    (2, "instance_hours", "a number or null"),
])
def test_a_fleet_row_without_its_units_hours_or_cost_is_refused_naming_row_and_field(saved, tmp_path, row, col,
                                                                                     expected):
    result = compared(saved, tmp_path, lambda d: d["fleet"][row - 1].pop(col))
    assert result.exit_code == 2 and result.stdout == ""
    assert one_line_error(result) == (f"error: {tmp_path / 'bad.json'}: fleet row {row}: {col} is missing; expected "
                                      f"{expected} (as `fleetplan plan --format json` writes it)")


def test_a_fleet_row_that_is_an_empty_object_is_refused_at_its_first_key(saved, tmp_path):
    result = compared(saved, tmp_path, lambda d: d.update(fleet=[{}]))
    assert result.exit_code == 2 and result.stdout == ""
    assert one_line_error(result).endswith("bad.json: fleet row 1: provider is missing; expected text "
                                           '(e.g. provider: "aws")')


def test_a_fleet_that_is_not_a_list_is_still_refused_as_one(saved, tmp_path):
    result = compared(saved, tmp_path, lambda d: d.update(fleet={"provider": "aws"}))
    assert result.exit_code == 2
    assert "bad.json: fleet: expected a list of objects" in one_line_error(result)


def test_the_saved_plan_as_written_still_compares_with_its_null_units(saved):
    _, good = saved
    result = run("compare", good, WORKED, "--format", "json")
    assert result.exit_code == 0, result.output
    fleet = {r["sku"]: r for r in json.loads(result.stdout)["fleet"]}
    assert fleet["g5.xlarge"]["cost_a"] == pytest.approx(4315.74, abs=0.005)
    assert fleet["rtx-a5000"]["cost_a"] == pytest.approx(4069.72, abs=0.005)


# --- prices_used: the unit prices behind each fleet row; a row that was no object made compare read no prices at all
# (every price unlisted, "Prices that differ" empty) and say nothing of it

PRICES_OBJECT_OF = ("expected an object of provider, region, sku, gpu, purchase_option and its unit prices "
                    "(as `fleetplan plan --format json` writes it)")


@pytest.mark.parametrize(("row", "shown"), [("not a row", '"not a row"'), (["aws"], '["aws"]'), (None, "null")])
def test_a_prices_used_row_that_is_not_an_object_is_refused_naming_the_row(saved, tmp_path, row, shown):
    rows = len(saved[0]["prices_used"])
    result = compared(saved, tmp_path, lambda d: d["prices_used"].append(row))
    assert result.exit_code == 2 and result.stdout == ""
    assert one_line_error(result) == (f"error: {tmp_path / 'bad.json'}: prices_used row {rows + 1} is {shown}; "
                                      f"{PRICES_OBJECT_OF}")


@pytest.mark.parametrize(("edit", "needle"), [
    (lambda d: d.update(prices_used=[{}]), 'prices_used row 1: provider is missing; expected text (e.g. provider: "aws")'),
    (lambda d: d["prices_used"][1].pop("sku"), 'prices_used row 2: sku is missing; expected text (e.g. sku: "g5.xlarge")'),
    (lambda d: d["prices_used"][0].update(region=None), "prices_used row 1: region is null; expected text"),
    (lambda d: d.update(prices_used={"aws": 1.006}), "prices_used: expected a list of objects, one per offer the fleet "
                                                     "uses (as `fleetplan plan --format json` writes it)"),
    (lambda d: d.update(prices_used=None), "prices_used: expected a list of objects"),
])
def test_prices_used_rows_without_their_offer_are_refused_naming_row_and_field(saved, tmp_path, edit, needle):
    result = compared(saved, tmp_path, edit)
    assert result.exit_code == 2 and result.stdout == ""
    assert f"bad.json: {needle}" in one_line_error(result)


def test_a_plan_without_prices_used_still_compares_saying_prices_were_not_compared(saved, tmp_path):
    result = compared(saved, tmp_path, lambda d: d.pop("prices_used"))
    assert result.exit_code == 0, result.output
    assert "a was saved without unit prices: prices not compared" in result.stdout
