"""Second review of `fleetplan compare`: a change of total that no scenario input explains is said so; a
saved plan is compared after the files its scenario names have moved, and when it arrives through a pipe;
`--store` prices the scenarios compared as `plan --store` would; tampered saved plans are refused.

The worked example (examples/worked-example.yaml, README): total 8,385.46 USD, of which 4,315.74 is
on-demand, 4,290 h of g5.xlarge at 1.006 USD/h. With that price doubled (2.012) the fleet cannot change
(the 2,500 USD budget buys one card, already bought), so the total rises by 4,290 × 1.006 = 4,315.74.
"""

import copy
import csv
import io
import json
import os
import shutil
import threading
from pathlib import Path

import pytest
from cli_run import one_line_error, run

from planner.reports.compare import compare

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
WORKED = EXAMPLES / "worked-example.yaml"
WORKED_TOTAL = 8385.46
ON_DEMAND_HOURS = 4290
SAME_INPUTS = "no scenario input differs: the prices, the card catalog or the planner differ between a and b"


def worked_copy(folder: Path) -> Path:
    """The worked example and its offers CSV copied into `folder`; the scenario's path."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("worked-example.yaml", "offers-g5-us-east-1.csv"):
        shutil.copy(EXAMPLES / name, folder / name)
    return folder / "worked-example.yaml"


def save_plan(scenario: Path, out: Path) -> Path:
    result = run("plan", scenario, "--format", "json", "--no-decisions", "--no-baselines")
    assert result.exit_code == 0, result.output
    out.write_text(result.stdout, encoding="utf-8")
    return out


def edit_offers(folder: Path, old: str, new: str) -> None:
    path = folder / "offers-g5-us-east-1.csv"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture(scope="module")
def repriced(tmp_path_factory) -> tuple[Path, Path]:
    """(before.json, the scenario): the worked example saved, then its g5.xlarge price doubled in its CSV."""
    folder = tmp_path_factory.mktemp("repriced")
    scenario = worked_copy(folder)
    before = save_plan(scenario, folder / "before.json")
    assert json.loads(before.read_text())["total"] == pytest.approx(WORKED_TOTAL, abs=0.005)
    edit_offers(folder, ",1.006,", ",2.012,")
    return before, scenario


def saved_before_input_files(saved: Path, out: Path) -> Path:
    """`saved` as a planner before `input_files` wrote it: no hashes, the offers CSV named by its absolute path."""
    doc = json.loads(saved.read_text(encoding="utf-8"))
    offers = str((saved.parent / doc["scenario_inputs"]["prices"]["source"]).resolve())
    doc["scenario_inputs"]["prices"]["source"] = doc["prices"]["source"] = offers
    del doc["input_files"]
    out.write_text(json.dumps(doc), encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def repriced_old(repriced) -> tuple[Path, Path]:
    """(before-old.json, the scenario): `repriced` with before.json as saved by a planner before `input_files`, which
    cannot tell that its offers CSV changed: the change of total is then one that no scenario input explains."""
    before, scenario = repriced
    return saved_before_input_files(before, before.parent / "before-old.json"), scenario


# --- 1. a total that changes with no input ------------------------------------------------------------

def test_a_price_change_alone_is_said_to_change_the_total_with_no_input_differing(repriced_old):
    before, scenario = repriced_old
    result = run("compare", before, scenario)
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())   # rich wraps a title to its table's width, a line to the terminal's
    assert SAME_INPUTS in text and "Inputs that differ" not in text   # the line says it: no empty table under it
    assert "total: 8,385 → 12,701 USD (+4,316, +51.5%)" in result.stdout


def test_json_flags_a_total_that_changes_with_no_input_differing(repriced_old):
    before, scenario = repriced_old
    result = run("compare", before, scenario, "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["inputs"] == [] and doc["total_differs_with_same_inputs"] is True
    assert doc["totals"]["delta"] == pytest.approx(doc["totals"]["b"] - doc["totals"]["a"], abs=1e-9)
    assert doc["totals"]["delta"] == pytest.approx(ON_DEMAND_HOURS * 1.006, abs=0.01)
    assert doc["provenance"] == []   # the same CSV, the same dates: only its price moved


def test_csv_flags_a_total_that_changes_with_no_input_differing_on_every_row(repriced_old):
    before, scenario = repriced_old
    result = run("compare", before, scenario, "--format", "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert rows and {r["total_differs_with_same_inputs"] for r in rows} == {"True"}
    total = next(r for r in rows if r["category"] == "total")
    assert float(total["cost_delta"]) == pytest.approx(float(total["cost_b"]) - float(total["cost_a"]), abs=1e-6)


def test_a_plan_compared_with_its_own_scenario_is_not_flagged():
    c = compare(WORKED, WORKED)
    assert c.total_delta == 0 and not c.total_differs_with_same_inputs
    result = run("compare", WORKED, WORKED)
    assert result.exit_code == 0 and SAME_INPUTS not in " ".join(result.stdout.split())
    assert json.loads(run("compare", WORKED, WORKED, "--format", "json").stdout)[
        "total_differs_with_same_inputs"] is False


def test_the_dates_of_the_prices_used_are_listed_when_they_differ(tmp_path):
    scenario = worked_copy(tmp_path)
    before = save_plan(scenario, tmp_path / "before.json")
    edit_offers(tmp_path, ",1.006,0.0,USD,0,,2026-07-20,", ",2.012,0.0,USD,0,,2026-11-01,")
    doc = json.loads(run("compare", before, scenario, "--format", "json").stdout)
    assert [r["path"] for r in doc["inputs"]] == ["prices.source"]   # its content changed
    rows = {r["path"]: (r["a"], r["b"]) for r in doc["provenance"]}
    assert rows["prices used.as_of"] == ("2026-07-20", "2026-11-01")
    assert rows["prices used.as_of_oldest"] == ("2026-07-20", "2026-11-01")
    table = run("compare", before, scenario)
    assert "Provenance that differs (2)" in table.stdout and "2026-11-01" in table.stdout


# --- 2. a saved plan whose files have moved ---------------------------------------------------------

def test_a_saved_plan_is_compared_after_the_files_of_its_scenario_moved(tmp_path):
    scenario = worked_copy(tmp_path / "first")
    weights = ["weight", *["1"] * 168]   # flat: the plan costs what the worked example costs
    (tmp_path / "first" / "w.csv").write_text("\n".join(weights) + "\n", encoding="utf-8")
    scenario.write_text(scenario.read_text().replace("profile: flat", "profile: w.csv"), encoding="utf-8")
    save_plan(scenario, tmp_path / "first" / "plan.json")
    (tmp_path / "first").rename(tmp_path / "moved")
    moved = tmp_path / "moved" / "plan.json"
    result = run("compare", moved, moved, "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["totals"]["a"] == doc["totals"]["b"] == pytest.approx(WORKED_TOTAL, abs=0.005)
    assert doc["totals"]["delta"] == 0 and doc["inputs"] == []


def test_a_scenario_side_still_needs_its_files(tmp_path):
    scenario = worked_copy(tmp_path)
    (tmp_path / "offers-g5-us-east-1.csv").unlink()
    result = run("compare", WORKED, scenario)
    assert result.exit_code == 2
    assert "prices.source" in result.stderr and "file not found" in result.stderr


# --- 3. a saved plan through a pipe -----------------------------------------------------------------

def through_fifo(path: Path, text: str) -> threading.Thread:
    """A FIFO at `path` that a thread writes `text` to once (as bash's `<(cat file)`)."""
    os.mkfifo(path)

    def write() -> None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    return writer


def compare_through_fifo(fifo: Path, text: str, other: Path) -> dict:
    """The JSON of `fleetplan compare FIFO OTHER`, `text` written into the FIFO as it is read."""
    writer = through_fifo(fifo, text)
    result = run("compare", fifo, other, "--format", "json")
    writer.join(5)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_saved_plan_through_a_pipe_is_read_as_a_plan(repriced, tmp_path):
    before, _ = repriced
    doc = compare_through_fifo(tmp_path / "pipe", before.read_text(encoding="utf-8"), before)
    assert doc["totals"]["a"] == doc["totals"]["b"] == pytest.approx(WORKED_TOTAL, abs=0.005)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_scenario_through_a_pipe_is_still_read_as_a_scenario(tmp_path):
    worked_copy(tmp_path)   # the pipe sits by the offers CSV its scenario names
    doc = compare_through_fifo(tmp_path / "pipe", WORKED.read_text(encoding="utf-8"), WORKED)
    assert doc["totals"]["a"] == doc["totals"]["b"] == pytest.approx(WORKED_TOTAL, abs=0.005)


# --- 4. --store --------------------------------------------------------------------------------------

# The store and scenario (tests/planner/conftest.py): one A100 80 GB workload on Azure eastus on-demand for a
# month, priced from the store made from the recorded Retail Prices pages (tests/fixtures/azure/): 730 h ×
# 3.673 USD/h of Standard_NC24ads_A100_v4.

@pytest.fixture
def store(azure_eastus_store) -> Path:
    return azure_eastus_store


@pytest.fixture
def store_scenario(store_a100_scenario, tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("FLEETPLAN_STORE", str(tmp_path / "nothing-here.sqlite"))   # no default store
    return store_a100_scenario


def test_cli_compare_store_prices_the_scenarios_from_that_store(store, store_scenario):
    result = run("compare", store_scenario, store_scenario, "--store", store, "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["totals"]["a"] == doc["totals"]["b"] == pytest.approx(730 * 3.673, rel=1e-9)
    assert [f["sku"] for f in doc["fleet"]] == ["Standard_NC24ads_A100_v4"]


def test_library_compare_store_prices_the_scenarios_from_that_store(store, store_scenario):
    c = compare(store_scenario, store_scenario, store=store)
    assert c.total_a == c.total_b == pytest.approx(730 * 3.673, rel=1e-9)


def test_cli_compare_store_that_is_a_folder_is_bad_input(tmp_path):
    result = run("compare", WORKED, WORKED, "--store", tmp_path)
    assert result.exit_code == 2 and "is a folder" in result.stderr and result.stdout == ""


# --- 5. tampered saved plans ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def saved(repriced) -> dict:
    return json.loads(repriced[0].read_text(encoding="utf-8"))


@pytest.mark.parametrize(("edit", "needle"), [
    (lambda d: d["fleet"][1].pop("sku"), "fleet row 2: sku is missing; expected text"),
    (lambda d: d.update(horizon_months=12),
     "horizon_months 12 is not the horizon of its scenario_inputs (24)"),
    (lambda d: d["costs"].update(bonus=0.0), "costs.bonus: not a cost category"),
])
def test_a_tampered_saved_plan_exits_2_naming_file_and_field(saved, tmp_path, edit, needle):
    doc = copy.deepcopy(saved)
    edit(doc)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = run("compare", path, WORKED)
    assert result.exit_code == 2 and result.stdout == ""
    assert f"bad.json: {needle}" in one_line_error(result)


# --- per-offer prices: what changed, not only that something did --------------------------------------

def test_the_price_that_changed_is_named_with_both_values(repriced):
    # the worked example's one offer, aws us-east-1 g5.xlarge on demand, costs 1.006 USD an hour in its CSV,
    # then 2.012: the only unit price of the two plans that differs
    before, scenario = repriced
    result = run("compare", before, scenario, "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["prices"] == [
        {"provider": "aws", "region": "us-east-1", "sku": "g5.xlarge", "gpu": "A10G", "purchase_option": "on_demand",
         "price": "hourly_price", "a": 1.006, "b": 2.012}]
    table = " ".join(run("compare", before, scenario).stdout.split())
    assert "Prices that differ (1, USD)" in table


def test_a_total_no_input_explains_points_to_the_prices_that_differ(repriced_old):
    before, scenario = repriced_old
    table = " ".join(run("compare", before, scenario).stdout.split())
    assert "(what the plans record of them: Prices that differ, below)" in table


def test_a_saved_plan_whose_prices_used_were_tampered_shows_them_blank_not_a_traceback(repriced, tmp_path):
    # a row that is not an object is refused, naming it (test_compare_saved_rows); a cell that is no price is blank
    before, scenario = repriced
    doc = json.loads(before.read_text(encoding="utf-8"))
    for row in doc["prices_used"]:
        row["hourly_price"] = "free"
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(doc), encoding="utf-8")
    prices = json.loads(run("compare", tampered, scenario, "--format", "json").stdout)["prices"]
    assert [(p["sku"], p["price"], p["a"], p["b"]) for p in prices] == [("g5.xlarge", "hourly_price", None, 2.012)]


def test_a_plan_saved_before_prices_used_compares_without_them(repriced, tmp_path):
    before, scenario = repriced
    doc = json.loads(before.read_text(encoding="utf-8"))
    del doc["prices_used"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(doc), encoding="utf-8")
    result = run("compare", old, scenario, "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["prices"] == []


def test_two_plans_made_here_name_a_card_price_that_differs():
    # the worked example's RTX A5000 costs 2,000 + 500 host = 2,500 USD a card; at a price of 3,000, 3,500.
    # The capex budget (2,500) would then buy none: raised to 5,000 on both sides, so only the price differs
    from planner import plan

    more = {"onprem.capex_budget": 5000}
    pa = plan(WORKED, baselines=False, overrides=more)
    pb = plan(WORKED, baselines=False, overrides={**more, "onprem.card_overrides.rtx-a5000.price": 3000})
    cmp = compare(pa, pb)
    assert cmp.inputs["path"].tolist() == ["onprem.card_overrides.rtx-a5000.price"]
    assert cmp.prices[["sku", "price", "a", "b"]].values.tolist() == [["rtx-a5000", "capex_per_unit", 2500.0, 3500.0]]


def test_plans_on_different_packaged_data_or_a_pinned_snapshot_say_so_in_the_provenance(tmp_path):
    # prices.packaged_data (the packaged snapshot's build and each packaged file's sha256) and prices.pinned_snapshot
    # are in a plan's JSON to tell two plans' data apart: compare did not look at them. A plan saved before they
    # were recorded has none: not a difference (nothing is known of it)
    scenario = ROOT / "scenarios" / "entry.yaml"
    saved = json.loads(save_plan(scenario, tmp_path / "a.json").read_text(encoding="utf-8"))
    data = saved["prices"]["packaged_data"]
    assert set(data) == {"built_at", "sha256"}
    rebuilt = copy.deepcopy(saved)
    rebuilt["prices"]["packaged_data"]["built_at"] = "2020-01-01T00:00:00Z"
    rebuilt["prices"]["pinned_snapshot"] = 3
    older = copy.deepcopy(saved)
    del older["prices"]["packaged_data"]
    for name, doc in (("b.json", rebuilt), ("c.json", older)):
        (tmp_path / name).write_text(json.dumps(doc), encoding="utf-8")
    rows = {r["path"]: (r["a"], r["b"]) for r in
            json.loads(run("compare", tmp_path / "a.json", tmp_path / "b.json", "--format", "json").stdout)["provenance"]}
    a, b = rows["prices used.packaged_data"]
    assert a.startswith(f"built {data['built_at']}; sha256 ") and b.startswith("built 2020-01-01T00:00:00Z; sha256 ")
    assert f"aws.csv {data['sha256']['pricing_adapters/snapshots/aws.csv']}" in a
    # the side not pinned says what it was priced with in the pin's place (it said "(not recorded)")
    unpinned, pin = rows["prices used.pinned_snapshot"]
    assert pin == 3 and unpinned.startswith(f"not pinned: the packaged snapshot built {data['built_at']}")
    same = json.loads(run("compare", tmp_path / "a.json", tmp_path / "c.json", "--format", "json").stdout)["provenance"]
    assert [r["path"] for r in same] == []
