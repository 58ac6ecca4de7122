"""Findings of a review of the offers view, the price store merge, the scenario schema and the CSV export:
--max-price dropped offers with no USD rate without a word, on-prem cards with no sourced price were
absent without a word, a stored offer id also in the packaged snapshot failed every store read, the
schema let any key into `fx`, and a plan without baselines exported a header-only baselines CSV.

Oracles: the catalog's own CSV (which cards are priced, and in which currency), costs worked by hand,
the rows the tests store themselves."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from typer.testing import CliRunner

from planner.catalog import price_table
from planner.cli import app
from planner.engine import add_baselines, plan
from planner.errors import PlannerError, ScenarioError
from planner.reports import plan_to_csv
from planner.scenario import load_scenario
from pricing_adapters.snapshot import load_snapshot
from pricing_adapters.store import PriceStore

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "scenarios" / "entry.yaml"
runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def catalog_card(card_id: str) -> dict:
    with (ROOT / "planner" / "data" / "onprem_cards.csv").open(newline="") as f:
        return next(row for row in csv.DictReader(f) if row["card_id"] == card_id)


# --- 1. --max-price and offers with no USD rate ----------------------------------------------------

# rtx-3060-12gb: (2500 + 5400 CNY) × 0.14 = 1106 USD over 3 years, 3 %/y, 306 W busy × PUE 1.58 × 0.12 USD/kWh (the
# defaults of --pue and --electricity): 0.0420852 + 0.0037877 + 0.0580176 = 0.1038905
RTX_3060_USD_PER_HOUR = 1106 / (3 * 8760) + 1106 * 0.03 / 8760 + 0.306 * 1.58 * 0.12   # 0.1039


def test_max_price_names_the_cny_card_it_leaves_out_and_the_fx_that_brings_it_back():
    assert catalog_card("rtx-3060-12gb")["currency"] == "CNY"
    result = run("offers", "--provider", "onprem", "--max-price", "100", "--format", "json")
    assert result.exit_code == 0, result.output
    assert "rtx-3060-12gb" not in {r["sku"] for r in json.loads(result.stdout)}
    assert "rtx-3060-12gb priced in CNY left out" in result.stderr
    assert "--max-price" in result.stderr and "--fx CNY=<USD per 1 CNY>" in result.stderr


@pytest.mark.parametrize("cap,shown", [(0.2, True), (0.09, False)])
def test_with_a_rate_the_cny_card_is_capped_by_its_usd_price_like_any_other(cap, shown):
    result = run("offers", "--provider", "onprem", "--fx", "CNY=0.14", "--max-price", cap, "--format", "json")
    assert result.exit_code == 0, result.output
    rows = {r["sku"]: r for r in json.loads(result.stdout)}
    assert ("rtx-3060-12gb" in rows) is shown     # 0.1039 USD per GPU-hour: under 0.2, over 0.09
    if shown:
        assert rows["rtx-3060-12gb"]["usd_per_gpu_hour"] == pytest.approx(RTX_3060_USD_PER_HOUR)
    assert "CNY" not in result.stderr


def test_max_price_with_a_region_the_other_filters_leave_no_row_in_is_not_an_unknown_region():
    # us-east-1 is an AWS region: with --provider azure none of its rows is left, yet it is a region the
    # offers have, as it was before --max-price was applied in two passes
    snapshot = load_snapshot()
    assert "us-east-1" in set(snapshot["region"]) and "eastus" in set(snapshot["region"])
    result = run("offers", "--provider", "azure", "--region", "eastus", "--region", "us-east-1",
                 "--max-price", "2", "--format", "json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert rows and {r["region"] for r in rows} == {"eastus"} and max(r["usd_per_gpu_hour"] for r in rows) <= 2
    assert run("offers", "--provider", "aws", "--region", "eastus", "--max-price", "2").exit_code == 0


# --- 2. on-prem cards with no sourced price ---------------------------------------------------------

def test_an_unpriced_card_the_filter_asks_for_is_named_once_with_how_to_price_it():
    assert catalog_card("l40s")["price"] == ""    # the catalog has no sourced price for it
    result = run("offers", "--gpu", "L40S", "--format", "json")
    assert result.exit_code == 0, result.output
    assert "l40s" not in {r["sku"] for r in json.loads(result.stdout)}
    said = [line for line in result.stderr.splitlines() if "no sourced price" in line]
    assert len(said) == 1 and "l40s" in said[0] and "card_overrides" in said[0], result.stderr


def test_every_unpriced_card_is_named_in_one_warning_and_priced_ones_are_not():
    unpriced = sorted(r["card_id"] for r in csv.DictReader((ROOT / "planner" / "data" / "onprem_cards.csv").open())
                      if not r["price"] or not r["host_cost_per_card"])
    assert unpriced   # the catalog's cards without a sourced price
    result = run("offers", "--provider", "onprem", "--fx", "CNY=0.14", "--format", "json")
    said = [line for line in result.stderr.splitlines() if "no sourced price" in line]
    assert len(said) == 1
    assert all(card in said[0] for card in unpriced) and "a100-80gb-pcie" not in said[0]


@pytest.mark.parametrize("args", [("--gpu", "L40S", "--provider", "aws"), ("--gpu", "L40S", "--option", "spot"),
                                  ("--gpu", "A100-80GB-PCIE", "--provider", "onprem")])
def test_no_unpriced_card_warning_where_the_filter_shows_no_unpriced_card(args):
    result = run("offers", *args, "--format", "json")
    assert result.exit_code == 0, result.output
    assert "no sourced price" not in result.stderr


# --- 3. a stored offer id that the packaged snapshot also has ---------------------------------------

PACKAGED_ID = "azure:australiacentral:Standard_NC16as_T4_v3:on_demand"


def test_a_stored_row_replaces_the_packaged_row_with_its_offer_id(tmp_path):
    packaged = load_snapshot()
    row = packaged[packaged["offer_id"] == PACKAGED_ID].copy()
    assert len(row) == 1 and "newzealandnorth" not in set(packaged["region"])
    row["region"], row["hourly_price"] = "newzealandnorth", 2.0   # a region the snapshot has no offers in
    path = tmp_path / "prices.sqlite"
    PriceStore(path).save("azure", ["newzealandnorth"], "a test", row)
    table, _ = price_table("store", path)
    same = table[table["offer_id"] == PACKAGED_ID]
    assert len(same) == 1
    assert same.iloc[0]["region"] == "newzealandnorth" and same.iloc[0]["hourly_price"] == 2.0
    assert len(table) == len(packaged)   # one packaged row replaced, none added


# --- 4. the schema of fx says what the model accepts -----------------------------------------------

@pytest.mark.parametrize("fx,valid", [({"CNY": 0.14}, True), ({"cny": 0.14}, False), ({"CNY ": 0.14}, False),
                                      ({"yuan": 0.14}, False)])
def test_the_schema_and_the_model_agree_on_the_keys_of_fx(fx, valid):
    schema = json.loads((ROOT / "schema" / "scenario.schema.json").read_text())
    doc = {**yaml.safe_load(ENTRY.read_text()), "fx": fx}
    schema_errors = list(jsonschema.Draft202012Validator(schema).iter_errors(doc))
    assert (not schema_errors) is valid, [e.message for e in schema_errors]
    if valid:
        assert load_scenario(doc).fx == fx
    else:
        with pytest.raises(ScenarioError):
            load_scenario(doc)


# --- 5. the baselines CSV of a plan without baselines -----------------------------------------------

@pytest.fixture(scope="module")
def entry_without_baselines():
    return plan(ENTRY, baselines=False)


def test_the_baselines_csv_of_a_plan_without_them_is_a_clear_error(entry_without_baselines, tmp_path):
    out = tmp_path / "b.csv"
    with pytest.raises(PlannerError, match="no baselines.*add_baselines"):
        plan_to_csv(entry_without_baselines, out, table="baselines")
    assert not out.exists()


def test_a_table_name_given_as_the_path_is_named(entry_without_baselines, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(PlannerError, match="table='baselines'"):
        plan_to_csv(entry_without_baselines, "baselines")
    assert not (tmp_path / "baselines").exists()
    # a file named like a table is written when the table is given
    text = plan_to_csv(entry_without_baselines, "fleet", table="fleet")
    assert (tmp_path / "fleet").read_text(encoding="utf-8") == text and text.startswith(plan_to_csv(
        entry_without_baselines).splitlines()[0])


def test_with_baselines_added_the_csv_has_a_row_per_baseline(entry_without_baselines):
    p = add_baselines(plan(ENTRY, baselines=False))
    rows = list(csv.DictReader(plan_to_csv(p, table="baselines").splitlines()))
    assert {"all_cloud", "all_onprem"} <= {r["baseline"] for r in rows}
    cloud = next(r for r in rows if r["baseline"] == "all_cloud")
    # a plan that holds no card is an all-cloud plan: the all-cloud baseline costs what it costs
    assert set(p.fleet["kind"]) <= {"on_demand", "spot", "reserved"}
    assert float(cloud["total"]) == pytest.approx(p.total, rel=1e-6)


def test_the_cli_csv_of_a_plan_without_baselines_still_writes_the_fleet(tmp_path):
    out = tmp_path / "fleet.csv"
    result = run("plan", ENTRY, "--no-baselines", "--format", "csv", "-o", out)
    assert result.exit_code == 0, result.output
    assert out.read_text().startswith("provider,region,sku,")


@pytest.mark.parametrize("command", [["offers"], ["prices", "show", "--store", "none.sqlite"]])
@pytest.mark.parametrize(("gpu", "said"), [
    # the family (both A100 80 GB boards), not one board as before (ids and aliases alone: A100-80GB-SXM)
    ("A100-80G", "--gpu 'A100-80G': no such GPU, alias or family; did you mean 'A100-80GB'?"),
    # an empty value listed every offer
    ("", "--gpu: empty; expected a GPU id, alias or family, e.g. A100-80GB"),
    # a pasted 100,000 characters came back whole
    ("x" * 100_000, "--gpu 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'… (100,000 characters): no such GPU, "
                    "alias or family"),
])
def test_a_gpu_filter_that_names_nothing_says_so_with_the_nearest_name(tmp_path, monkeypatch, command, gpu, said):
    from typer.testing import CliRunner

    from planner.cli import app
    monkeypatch.chdir(tmp_path)   # no price store there: prices show reads the packaged snapshot
    result = CliRunner().invoke(app, [*command, "--gpu", gpu])
    assert result.exit_code == 2
    assert " ".join(result.stderr.split()).endswith(f"error: {said}")
