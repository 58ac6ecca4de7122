"""A planning review's audit of `fleetplan compare`: the files a scenario names are recorded as its file wrote them
with a hash of their content, and compared by that content; absent and unset values read apart, numbers and
booleans as a reader writes them; a plan saved without unit prices or by a newer planner says so; each side says
what it is and, saved, when and by which planner it was made.

The worked example (examples/worked-example.yaml) names its offers CSV `offers-g5-us-east-1.csv`, beside it; its
plan costs 8,385.46 USD. A hash below is the first 12 hex digits of the sha256 of a file's bytes, as `sha256sum`
prints them (7605fc691fe7 for the example's CSV, 2026-12-06).
"""

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from cli_run import one_line_error, run

from planner._version import __version__
from planner.reports.compare import compare

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
OFFERS = "offers-g5-us-east-1.csv"
SAME_INPUTS = "no scenario input differs: the prices, the card catalog or the planner differ between a and b"


def sha12(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def worked_copy(folder: Path, edit=None) -> Path:
    """The worked example and its offers CSV copied into `folder` (the YAML's text through `edit`); its path."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(EXAMPLES / OFFERS, folder / OFFERS)
    text = (EXAMPLES / "worked-example.yaml").read_text(encoding="utf-8")
    scenario = folder / "worked-example.yaml"
    scenario.write_text(edit(text) if edit else text, encoding="utf-8")
    return scenario


def save_plan(scenario: Path, out: Path) -> Path:
    result = run("plan", scenario, "--format", "json", "--no-decisions", "--no-baselines")
    assert result.exit_code == 0, result.output
    out.write_text(result.stdout, encoding="utf-8")
    return out


def compared(a, b) -> dict:
    result = run("compare", a, b, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def table_text(a, b) -> str:
    result = run("compare", a, b)
    assert result.exit_code == 0, result.output
    return result.stdout


def flat(text: str) -> str:
    return " ".join(text.split())   # rich wraps a title to its table's width, a line to the terminal's


# --- 1. the files a scenario names: as written, with their content's hash -------------------------------------

def test_the_example_csvs_hash_is_that_of_sha256sum():
    assert sha12(EXAMPLES / OFFERS) == "7605fc691fe7"


def test_a_plan_json_names_the_offers_csv_as_the_scenario_wrote_it_with_its_hash(tmp_path):
    docs = [json.loads(save_plan(worked_copy(tmp_path / name), tmp_path / f"{name}.json").read_text())
            for name in ("checkout-1", "checkout-2")]
    for doc in docs:
        assert doc["scenario_inputs"]["prices"]["source"] == OFFERS      # as the YAML writes it, not /tmp/…/…
        assert doc["prices"]["source"] == OFFERS
        assert doc["input_files"] == {"prices.source": {"path": OFFERS, "sha256": "7605fc691fe7"}}
    # the two checkouts' plans differ in nothing they record of their inputs
    assert [{k: d[k] for k in ("scenario_inputs", "prices", "input_files")} for d in docs][0] == \
           [{k: d[k] for k in ("scenario_inputs", "prices", "input_files")} for d in docs][1]


def test_a_profile_csv_is_recorded_relative_to_the_scenario_with_its_hash(tmp_path):
    scenario = worked_copy(tmp_path, lambda t: t.replace("profile: flat", "profile: weights/w.csv"))
    (tmp_path / "weights").mkdir()
    (tmp_path / "weights" / "w.csv").write_text("weight\n" + "1\n" * 168, encoding="utf-8")
    doc = json.loads(save_plan(scenario, tmp_path / "plan.json").read_text())
    assert doc["scenario_inputs"]["workloads"][0]["profile"] == "weights/w.csv"
    assert doc["input_files"]["workloads.training.profile"] == {"path": "weights/w.csv",
                                                                "sha256": sha12(tmp_path / "weights" / "w.csv")}


def test_two_copies_of_one_scenario_and_its_csv_are_the_same_inputs(tmp_path):
    a, b = worked_copy(tmp_path / "one"), worked_copy(tmp_path / "two")
    doc = compared(a, b)
    assert doc["inputs"] == [] and doc["provenance"] == [] and doc["totals"]["delta"] == 0
    saved = save_plan(a, tmp_path / "one" / "plan.json")   # a saved plan against the other copy: the same
    doc = compared(saved, b)
    assert doc["inputs"] == [] and doc["provenance"] == [] and doc["notes"] == []


def test_an_offers_csv_edited_in_place_is_a_changed_input_naming_both_hashes(tmp_path):
    scenario = worked_copy(tmp_path)
    saved = save_plan(scenario, tmp_path / "before.json")
    csv = tmp_path / OFFERS
    before = sha12(csv)
    csv.write_text(csv.read_text(encoding="utf-8").replace(",1.006,", ",2.012,"), encoding="utf-8")
    after = sha12(csv)
    doc = compared(saved, scenario)
    assert doc["inputs"] == [{"path": "prices.source", "a": f"{OFFERS} (sha256 {before})",
                              "b": f"{OFFERS} (content changed: sha256 {before} → {after})"}]
    assert doc["total_differs_with_same_inputs"] is False   # an input explains it: the CSV's content
    # 4,290 h of g5.xlarge at 1.006 USD/h more (README's worked example)
    assert doc["totals"]["delta"] == pytest.approx(4290 * 1.006, abs=0.01)
    text = flat(table_text(saved, scenario))
    assert "Inputs that differ (1)" in text and "content changed" in text and SAME_INPUTS not in text


def test_a_profile_csv_edited_in_place_is_a_changed_input(tmp_path):
    scenario = worked_copy(tmp_path, lambda t: t.replace("profile: flat", "profile: w.csv"))
    weights = tmp_path / "w.csv"
    weights.write_text("weight\n" + "1\n" * 168, encoding="utf-8")
    saved = save_plan(scenario, tmp_path / "plan.json")
    before = sha12(weights)
    weights.write_text("weight\n" + "2\n" * 84 + "1\n" * 84, encoding="utf-8")
    doc = compared(saved, scenario)
    assert doc["inputs"] == [{"path": "workloads.training.profile", "a": f"w.csv (sha256 {before})",
                              "b": f"w.csv (content changed: sha256 {before} → {sha12(weights)})"}]


def test_a_plan_saved_before_the_hashes_still_compares_and_says_its_files_content_cannot_be(tmp_path):
    scenario = worked_copy(tmp_path)
    doc = json.loads(save_plan(scenario, tmp_path / "plan.json").read_text())
    # as an older planner wrote it: the CSV by its absolute path, no input_files
    doc["scenario_inputs"]["prices"]["source"] = doc["prices"]["source"] = str((tmp_path / OFFERS).resolve())
    del doc["input_files"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(doc), encoding="utf-8")
    out = compared(old, scenario)
    assert out["inputs"] == [] and out["provenance"] == []
    assert out["notes"] == ["a was saved without the content hashes of the files its scenario names (by planner "
                            f"{__version__}): prices.source compared by its path alone; whether its content changed "
                            "cannot be told"]
    moved = worked_copy(tmp_path / "elsewhere")   # another folder: the paths differ, the content is not known
    assert [(r["path"], r["a"], r["b"]) for r in compared(old, moved)["inputs"]] == [
        ("prices.source", f"{(tmp_path / OFFERS).resolve()} (content not known)", f"{OFFERS} (sha256 7605fc691fe7)")]


def test_a_library_compare_of_two_scenario_paths_judges_their_csvs_by_content(tmp_path):
    c = compare(worked_copy(tmp_path / "one"), worked_copy(tmp_path / "two"))
    assert c.inputs.empty and c.provenance.empty


# --- 2. absent is not none; values as a reader writes them ----------------------------------------------------

EXTRA = """
  - name: extra
    gpu_hours_per_month: 100
    reference_gpu: RTX-A5000
    min_gpu_memory_gb: 16
    interruptible: true
"""


@pytest.fixture(scope="module")
def different(tmp_path_factory) -> tuple[Path, Path]:
    """(a, b): the worked example with a power cap of 6 kW, its A5000 at 1,500 USD and a second workload (100
    GPU-hours a month, interruptible), then as published (no cap, 2,000 USD, one workload)."""
    folder = tmp_path_factory.mktemp("different")
    a = worked_copy(folder / "a", lambda t: t.replace("capex_budget: 2500", "capex_budget: 2500\n  power_cap_kw: 6")
                    .replace("{price: 2000,", "{price: 1500,") + EXTRA)
    return a, worked_copy(folder / "b")


def test_a_removed_workload_is_one_row_not_one_per_field(different):
    a, b = different
    rows = {r["path"]: (r["a"], r["b"]) for r in compared(a, b)["inputs"]}
    assert rows["workloads.extra"] == ("(workload)", "(no workload)")
    assert not any(p.startswith("workloads.extra.") for p in rows)
    assert flat(table_text(a, b)).count("(no workload)") == 1


def test_an_unset_cap_reads_not_set_no_cap_and_numbers_read_as_written(different):
    a, b = different
    c = compare(a, b)
    shown = {row.path: (row.a, row.b) for row in c.inputs_shown.itertuples()}
    assert shown["onprem.power_cap_kw"] == ("6", "(not set: no cap)")
    assert shown["onprem.card_overrides.rtx-a5000.price"] == ("1,500", "2,000")
    # the raw values stay numbers for a library caller and JSON
    raw = {row.path: (row.a, row.b) for row in c.inputs.itertuples()}
    assert raw["onprem.power_cap_kw"] == (6, None) and raw["onprem.card_overrides.rtx-a5000.price"] == (1500, 2000)
    text = table_text(a, b)
    assert "(not set: no cap)" in text and "1,500" in text and "1500.0" not in text and "6.0" not in text


def test_booleans_read_true_and_false(tmp_path):
    a = worked_copy(tmp_path / "a", lambda t: t.replace("profile: flat", "profile: flat\n    interruptible: true"))
    c = compare(a, worked_copy(tmp_path / "b"))
    shown = {row.path: (row.a, row.b) for row in c.inputs_shown.itertuples()}
    assert shown["workloads.training.interruptible"] == ("true", "false")
    assert "True" not in table_text(a, worked_copy(tmp_path / "b"))


def test_a_key_one_side_does_not_set_reads_not_set(tmp_path):
    a = worked_copy(tmp_path / "a", lambda t: t.replace("currency: USD\n", "currency: USD\nfx: {EUR: 1.1}\n", 1))
    c = compare(a, worked_copy(tmp_path / "b"))
    assert [tuple(r) for r in c.inputs_shown[["path", "a", "b"]].itertuples(index=False)] == [
        ("fx.EUR", "1.1", "(not set)")]
    assert c.inputs.to_dict("records") == [{"path": "fx.EUR", "a": 1.1, "b": None}]


def test_a_side_on_the_packaged_snapshot_says_so_not_nan(azure_eastus_store, store_a100_scenario, tmp_path,
                                                         monkeypatch):
    # a: priced from the store (its azure snapshot); b: no store, so the packaged snapshot
    monkeypatch.setenv("FLEETPLAN_STORE", str(tmp_path / "nothing-here.sqlite"))
    result = run("plan", store_a100_scenario, "--store", azure_eastus_store, "--format", "json", "--no-decisions",
                 "--no-baselines")
    assert result.exit_code == 0, result.output
    saved = tmp_path / "on-the-store.json"
    saved.write_text(result.stdout, encoding="utf-8")
    rows = {r["path"]: (r["a"], r["b"]) for r in compared(saved, store_a100_scenario)["provenance"]}
    a, b = rows["prices used.snapshots"]
    assert a.startswith("azure #1 fetched ") and b == "packaged snapshot"
    text = table_text(saved, store_a100_scenario)
    assert "packaged snapshot" in text and "nan" not in text.split()


# --- 3. what a saved plan lacks, or holds from a newer planner ------------------------------------------------

def test_a_plan_saved_without_unit_prices_says_its_prices_are_not_compared(tmp_path):
    scenario = worked_copy(tmp_path)
    doc = json.loads(save_plan(scenario, tmp_path / "plan.json").read_text())
    del doc["prices_used"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(doc), encoding="utf-8")
    note = "a was saved without unit prices: prices not compared"
    assert compared(old, scenario)["notes"] == [note]
    assert note in flat(table_text(old, scenario))


@pytest.fixture(scope="module")
def saved_doc(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("saved")
    return json.loads(save_plan(worked_copy(folder), folder / "plan.json").read_text())


def test_a_plan_from_a_newer_planner_with_a_key_this_one_lacks_says_so(saved_doc, tmp_path):
    doc = dict(saved_doc, version="99.0.0", scenario_inputs=dict(saved_doc["scenario_inputs"], future_field=1))
    path = tmp_path / "newer.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = run("compare", path, EXAMPLES / "worked-example.yaml")
    assert result.exit_code == 2 and result.stdout == ""
    error = one_line_error(result)
    assert f"newer.json: looks saved by a newer planner (version 99.0.0; this one is {__version__})" in error
    assert "scenario_inputs.future_field: unknown key" in error
    assert error.endswith("Upgrade this planner (pip install -U gpu-fleet-planner) to compare it, or plan its "
                          "scenario again with this one")


def test_an_unknown_key_in_a_plan_of_this_version_is_not_blamed_on_a_newer_planner(saved_doc, tmp_path):
    doc = dict(saved_doc, scenario_inputs=dict(saved_doc["scenario_inputs"], future_field=1))
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    error = one_line_error(run("compare", path, EXAMPLES / "worked-example.yaml"))
    assert "scenario_inputs.future_field: unknown key" in error and "newer" not in error


def test_a_malformed_input_files_entry_is_refused_naming_it(saved_doc, tmp_path):
    doc = dict(saved_doc, input_files={"prices.source": {"path": OFFERS, "sha256": "not hex"}})
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = run("compare", path, EXAMPLES / "worked-example.yaml")
    assert result.exit_code == 2 and "bad.json: input_files.prices.source is " in one_line_error(result)


# --- 4. what each side is, and when it was made ---------------------------------------------------------------

def test_json_says_each_sides_file_and_a_saved_plans_date_and_version(saved_doc, tmp_path):
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(saved_doc), encoding="utf-8")
    scenario = EXAMPLES / "worked-example.yaml"
    sides = compared(path, scenario)["sides"]
    assert sides == {"a": {"file": str(path), "saved_plan": True, "generated_at": saved_doc["generated_at"],
                           "version": saved_doc["version"], "start": None},   # saved with no --start
                     "b": {"file": str(scenario), "saved_plan": False, "generated_at": None, "version": __version__,
                           "start": None}}


def test_the_table_says_under_a_saved_side_when_and_by_which_planner_it_was_made(saved_doc, tmp_path):
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(dict(saved_doc, generated_at="2026-12-01T09:30:00Z", version="0.0.9")), encoding="utf-8")
    text = table_text(path, EXAMPLES / "worked-example.yaml")
    assert "\n    saved 2026-12-01T09:30:00Z by planner 0.0.9\nb = " in text   # its own line, under a's
    assert flat(text).startswith(f"a = {path} (Worked example (a)) saved 2026-12-01T09:30:00Z by planner 0.0.9 b = ")


def test_no_empty_inputs_table_when_none_differs():
    text = table_text(EXAMPLES / "worked-example.yaml", EXAMPLES / "worked-example.yaml")
    assert "no scenario input differs" in text.splitlines() and "Inputs that differ" not in text


def test_a_library_plan_of_a_scenario_file_names_its_files_as_the_cli_does(tmp_path):
    # plan(path) from a notebook recorded /tmp/…/offers-g5-us-east-1.csv where `fleetplan plan` records the path
    # as the YAML writes it; a plan of YAML text has no folder to name it against and keeps the absolute path
    from planner import plan
    from planner.reports import plan_to_json

    scenario = worked_copy(tmp_path)
    for given in (scenario, str(scenario)):
        doc = json.loads(plan_to_json(plan(given, baselines=False)))
        assert doc["scenario_inputs"]["prices"]["source"] == OFFERS and doc["prices"]["source"] == OFFERS
        assert doc["input_files"] == {"prices.source": {"path": OFFERS, "sha256": "7605fc691fe7"}}
    text = json.loads(plan_to_json(plan(scenario.read_text().replace(f"source: {OFFERS}",
                                                                      f"source: {tmp_path / OFFERS}"), baselines=False)))
    assert text["prices"]["source"] == str(tmp_path / OFFERS)
