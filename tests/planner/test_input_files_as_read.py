"""A review of the plan's files (2026-12-06): a plan names the files its scenario names (an offers CSV, profile CSVs)
one way in every report — as the scenario file wrote them, relative to its folder — and records the hash of the
content it read from them, not of what they hold when a report is written.

The worked example (examples/worked-example.yaml) names its offers CSV `offers-g5-us-east-1.csv`, beside it: g5.xlarge
on demand at 1.006 USD/h, whose first 12 hex digits of sha256 are 7605fc691fe7 (as `sha256sum` prints them). Its plan
rents 4,290 hours of it (README, "Cost model"): 1.006 USD/h more on each when the price is doubled in place.
"""

import hashlib
import io
import json
import re
import shutil
from pathlib import Path

import pytest
from cli_run import run

from planner import load_scenario, plan
from planner.reports import plan_to_markdown
from planner.reports.compare import compare
from planner.reports.excel import plan_to_excel
from planner.reports.tables import plan_to_dict

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
OFFERS = "offers-g5-us-east-1.csv"
OFFERS_SHA = "7605fc691fe7"
RENTED_HOURS = 4290


def sha12(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


def worked_copy(folder: Path, profile: str | None = None) -> Path:
    """The worked example and its offers CSV copied into `folder`, its workload's profile the CSV `profile` (168
    weights of 1, as the flat profile: the same plan) when given; the scenario's path."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(EXAMPLES / OFFERS, folder / OFFERS)
    text = (EXAMPLES / "worked-example.yaml").read_text(encoding="utf-8")
    if profile is not None:
        (folder / profile).parent.mkdir(parents=True, exist_ok=True)
        (folder / profile).write_text("weight\n" + "1\n" * 168, encoding="utf-8")
        text = text.replace("profile: flat", f"profile: {profile}")
    scenario = folder / "worked-example.yaml"
    scenario.write_text(text, encoding="utf-8")
    return scenario


def doubled_in_place(csv: Path) -> None:
    csv.write_text(csv.read_text(encoding="utf-8").replace(",1.006,", ",2.012,"), encoding="utf-8")


# --- the content the plan read, not the file's content now ---------------------------------------------------

def test_the_offers_csvs_hash_is_that_of_sha256sum():
    assert sha12((EXAMPLES / OFFERS).read_bytes()) == OFFERS_SHA


def test_a_plans_json_hashes_the_offers_csv_it_was_priced_from_after_the_csv_is_edited(tmp_path):
    scenario = worked_copy(tmp_path)
    p = plan(scenario, baselines=False)
    total = p.total
    doubled_in_place(tmp_path / OFFERS)
    # the JSON written after the edit: the total of 1.006 USD/h beside the hash of the file that said 1.006
    doc = plan_to_dict(p)
    assert doc["total"] == total and doc["input_files"] == {"prices.source": {"path": OFFERS, "sha256": OFFERS_SHA}}
    assert plan_to_dict(plan(scenario, baselines=False))["input_files"]["prices.source"]["sha256"] == sha12(
        (tmp_path / OFFERS).read_bytes())


def test_compare_of_a_plan_made_before_the_edit_says_the_offers_csv_changed(tmp_path):
    scenario = worked_copy(tmp_path)
    before = plan(scenario, baselines=False)
    doubled_in_place(tmp_path / OFFERS)
    c = compare(before, scenario)
    after = sha12((tmp_path / OFFERS).read_bytes())
    assert c.inputs_shown.to_dict("records") == [{"path": "prices.source", "a": f"{OFFERS} (sha256 {OFFERS_SHA})",
                                                  "b": f"{OFFERS} (content changed: sha256 {OFFERS_SHA} → {after})"}]
    assert c.total_b - c.total_a == pytest.approx(RENTED_HOURS * 1.006, abs=0.01)


def test_a_plans_json_hashes_the_profile_csv_it_read(tmp_path):
    scenario = worked_copy(tmp_path, profile="weights/w.csv")
    read = (tmp_path / "weights" / "w.csv").read_bytes()
    p = plan(scenario, baselines=False)
    (tmp_path / "weights" / "w.csv").write_text("weight\n" + "2\n" * 84 + "1\n" * 84, encoding="utf-8")
    assert plan_to_dict(p)["input_files"]["workloads.training.profile"] == {"path": "weights/w.csv",
                                                                            "sha256": sha12(read)}


# --- named as the scenario file wrote them, wherever and however the plan was made ----------------------------

def test_a_plan_names_its_files_as_written_after_the_working_folder_changes(tmp_path, monkeypatch):
    worked_copy(tmp_path / "a", profile="w.csv")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path)
    p = plan("a/worked-example.yaml", baselines=False)
    monkeypatch.chdir(tmp_path / "elsewhere")
    doc = plan_to_dict(p)
    assert p.scenario_file == tmp_path / "a" / "worked-example.yaml"
    assert doc["prices"]["source"] == doc["scenario_inputs"]["prices"]["source"] == OFFERS
    assert {field: entry["path"] for field, entry in doc["input_files"].items()} == {
        "workloads.training.profile": "w.csv", "prices.source": OFFERS}


def test_a_file_the_scenario_names_by_its_absolute_path_is_named_so_in_every_report(tmp_path):
    # a scenario naming its profile and offers CSVs by absolute paths into its own folder was shown `w.csv` and
    # `offers-g5-us-east-1.csv`, as if it named them relative: resolved, the two read alike
    scenario = worked_copy(tmp_path / "scenarios", profile="w.csv")
    profile, offers = str(tmp_path / "scenarios" / "w.csv"), str(tmp_path / "scenarios" / OFFERS)
    scenario.write_text(scenario.read_text(encoding="utf-8").replace("profile: w.csv", f"profile: {profile}")
                        .replace(f"source: {OFFERS}", f"source: {offers}"), encoding="utf-8")
    from openpyxl import load_workbook

    # plan(path), plan(load_scenario(path)), and with an override (a new scenario of the loaded one's dump)
    for p in (plan(scenario, baselines=False), plan(load_scenario(scenario), baselines=False),
              plan(scenario, baselines=False, overrides={"horizon_months": 12})):
        doc = plan_to_dict(p)
        assert doc["prices"]["source"] == doc["scenario_inputs"]["prices"]["source"] == offers
        assert doc["scenario_inputs"]["workloads"][0]["profile"] == profile
        assert {field: entry["path"] for field, entry in doc["input_files"].items()} == {
            "workloads.training.profile": profile, "prices.source": offers}
        text = plan_to_markdown(p)
        assert f"prices from the offers CSV {offers}." in text and f"| prices.source | {offers} |" in text
        assert f"| {profile} |" in text
        book = load_workbook(io.BytesIO(plan_to_excel(p)), data_only=True)
        assumptions = {r[0]: r[1] for r in book["assumptions"].iter_rows(values_only=True)}
        assert (assumptions["prices.source"], assumptions["workloads.training.profile"]) == (offers, profile)


def test_a_file_named_relative_and_one_named_absolute_are_each_named_as_written(tmp_path):
    # the offers CSV relative (beside the scenario), the profile absolute: each as the file wrote it
    scenario = worked_copy(tmp_path, profile="weights/w.csv")
    profile = str(tmp_path / "weights" / "w.csv")
    scenario.write_text(scenario.read_text(encoding="utf-8").replace("profile: weights/w.csv", f"profile: {profile}"),
                        encoding="utf-8")
    doc = plan_to_dict(plan(scenario, baselines=False))
    assert {field: entry["path"] for field, entry in doc["input_files"].items()} == {
        "workloads.training.profile": profile, "prices.source": OFFERS}


def test_compare_names_a_scenario_sides_file_absolute(tmp_path, monkeypatch):
    worked_copy(tmp_path / "a")
    worked_copy(tmp_path / "b")
    monkeypatch.chdir(tmp_path)
    c = compare("a/worked-example.yaml", "b/worked-example.yaml", files=("a/worked-example.yaml", None))
    assert c.plan_a.scenario_file == tmp_path / "a" / "worked-example.yaml"
    assert c.inputs.empty   # two copies of one folder: the same inputs


def test_a_plan_of_a_loaded_scenario_names_its_files_as_a_plan_of_its_path_does(tmp_path):
    # the notebook's pattern, plan(load_scenario(path)), named them by their absolute paths
    scenario = worked_copy(tmp_path, profile="weights/w.csv")
    of_path, of_loaded = (plan_to_dict(plan(x, baselines=False)) for x in (scenario, load_scenario(scenario)))
    for key in ("prices", "scenario_inputs", "input_files"):
        assert of_loaded[key] == of_path[key], key
    assert of_loaded["prices"]["source"] == OFFERS
    assert of_loaded["scenario_inputs"]["workloads"][0]["profile"] == "weights/w.csv"


def test_every_report_names_the_files_as_the_json_does(tmp_path):
    # the JSON gave offers-g5-us-east-1.csv while the CLI's first line, the summary and the workbook gave /tmp/…
    scenario = worked_copy(tmp_path, profile="weights/w.csv")
    p = plan(load_scenario(scenario), baselines=False)
    text = plan_to_markdown(p)
    assert f"prices from the offers CSV {OFFERS}." in text and f"Prices: {OFFERS}, dated" in text
    assert f"| prices.source | {OFFERS} |" in text and "| weights/w.csv |" in text
    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(plan_to_excel(p)), data_only=True)
    summary = {r[0]: r[1] for r in book["summary"].iter_rows(values_only=True)}
    assumptions = {r[0]: r[1] for r in book["assumptions"].iter_rows(values_only=True)}
    assert summary["prices.source"] == assumptions["prices.source"] == OFFERS
    assert assumptions["workloads.training.profile"] == "weights/w.csv"
    shown = run("plan", scenario, "--no-baselines", "--no-decisions")
    assert shown.exit_code == 0, shown.output
    assert f"prices: {OFFERS}, dated" in shown.stdout.splitlines()[0]
    for report in (text, shown.stdout, json.dumps(plan_to_dict(p))):
        assert str(tmp_path) not in report


def test_warnings_name_the_offers_csv_as_written(tmp_path):
    # the warnings named it by the path it was resolved to (/tmp/…/offers-g5-us-east-1.csv) where the JSON's
    # prices.source and input_files say offers-g5-us-east-1.csv: a plan's JSON differed from one clone to another
    scenario = worked_copy(tmp_path / "scenarios")
    scenario.write_text(scenario.read_text(encoding="utf-8").replace(
        "purchase_options: [on_demand]", "purchase_options: [on_demand, reserved_1y]"), encoding="utf-8")
    gap = (f"reserved_1y: no reserved_1y prices for aws (any region) in the {OFFERS} prices; plans use on_demand "
           "only")
    unused = (f"prices: the price store {tmp_path / 'none.sqlite'} was given, but the scenario's prices come from the "
              f"offers CSV {OFFERS} (prices.source): the store is not read")
    for p in (plan(scenario, baselines=False, store=tmp_path / "none.sqlite"),
              plan(load_scenario(scenario), baselines=False, store=tmp_path / "none.sqlite", horizon_months=12)):
        assert gap in p.warnings
        assert [w for w in p.warnings if w.startswith(unused)]
    checked = run("validate", scenario)
    assert checked.exit_code == 0, checked.output
    line = next(text for text in checked.stderr.splitlines() if text.endswith(gap))
    # at its prices.purchase_options item, a line and column of the file as written
    assert re.fullmatch(rf"warning: {re.escape(str(scenario))}:\d+:\d+: prices\.purchase_options\[1\]: {re.escape(gap)}", line)
    assert str(tmp_path) not in " ".join(checked.stderr.split()).replace(f"{scenario}:", "")
