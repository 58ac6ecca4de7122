"""A scenario names its offers CSV and profile CSVs by paths relative to its own folder, or absolute: every message
and report names each file as the scenario wrote it (`offers/q3.csv`), never by the path it was resolved to
(`/home/u/plans/offers/q3.csv`), which differs from one checkout to the next; a path given as an override, as given.

The scenarios are examples/worked-example.yaml copied into a folder `plans` with its offers CSV at `offers/q3.csv`
(one row: g5.xlarge, 1 × A10G, on demand at 1.006 USD/h in us-east-1) and, where a test needs one, a flat profile
CSV (168 weights of 1) at `weights/w.csv`.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from cli_run import run

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
OFFERS = "offers/q3.csv"
PROFILE = "weights/w.csv"


def plans_folder(tmp_path: Path, profile: str | None = None, second_profile: str | None = None) -> Path:
    """The worked example as `plans/s.yaml` under `tmp_path`, its offers CSV at plans/offers/q3.csv, its workload's
    profile `profile` (the flat CSV plans/weights/w.csv, however named) and, with `second_profile`, a second workload
    `inference` like it whose profile is named `second_profile`; the scenario's path."""
    folder = tmp_path / "plans"
    (folder / "offers").mkdir(parents=True)
    shutil.copy(EXAMPLES / "offers-g5-us-east-1.csv", folder / OFFERS)
    (folder / "weights").mkdir()
    (folder / PROFILE).write_text("weight\n" + "1\n" * 168, encoding="utf-8")
    text = (EXAMPLES / "worked-example.yaml").read_text(encoding="utf-8")
    text = text.replace("source: offers-g5-us-east-1.csv", f"source: {OFFERS}")
    workload = text[text.index("  - name: training"):]
    if profile is not None:
        text = text.replace("profile: flat", f"profile: {profile}")
    if second_profile is not None:
        text += workload.replace("name: training", "name: inference").replace("profile: flat",
                                                                               f"profile: {second_profile}")
    scenario = folder / "s.yaml"
    scenario.write_text(text, encoding="utf-8")
    return scenario


def plan_json(scenario: Path, *options: str) -> dict:
    shown = run("plan", scenario, "--format", "json", "--no-baselines", "--no-decisions", *options)
    assert shown.exit_code == 0, shown.output
    return json.loads(shown.stdout)


# --- one file named relative by one field and absolute by another ---------------------------------------------------

def test_a_profile_named_relative_and_absolute_is_named_each_way_as_written(tmp_path):
    # training names weights/w.csv, inference the same file by its absolute path: both were named absolute
    absolute = str(tmp_path / "plans" / PROFILE)
    scenario = plans_folder(tmp_path, profile=PROFILE, second_profile=absolute)
    doc = plan_json(scenario)
    assert {field: entry["path"] for field, entry in doc["input_files"].items()} == {
        "workloads.training.profile": PROFILE, "workloads.inference.profile": absolute, "prices.source": OFFERS}
    assert [w["profile"] for w in doc["scenario_inputs"]["workloads"]] == [PROFILE, absolute]
    shown = run("plan", scenario, "--format", "md", "--no-baselines", "--no-decisions")
    assert shown.exit_code == 0, shown.output
    # the summary's workloads table: name, demand, growth, reference GPU, memory, GPUs per job, profile, …
    rows = {line.split(" | ")[0]: line.split(" | ")[6] for line in shown.stdout.splitlines()
            if " reference-GPU-hours a month | " in line}
    assert rows == {"| training": PROFILE, "| inference": absolute}


# --- errors about the offers CSV -------------------------------------------------------------------------------------

def misspelt_gpu(folder: Path) -> None:
    """The g5 row's gpu spelt a10g, no GPU id of planner/data/gpus.csv (A10G is)."""
    csv = folder / OFFERS
    csv.write_text(csv.read_text(encoding="utf-8").replace(",A10G,True,", ",a10g,True,"), encoding="utf-8")


def priced_in_eur(folder: Path) -> None:
    """The g5 row priced in EUR, which the scenario (USD, no fx) has no rate for."""
    csv = folder / OFFERS
    csv.write_text(csv.read_text(encoding="utf-8").replace(",USD,", ",EUR,"), encoding="utf-8")


def an_onprem_row(folder: Path) -> None:
    """A quote of 100 USD for an RTX 3090 as its second row (line 3): the planner prices cards from its catalog and the
    scenario."""
    csv = folder / OFFERS
    csv.write_text(csv.read_text(encoding="utf-8") + "onprem:onprem:rtx-3090:purchase,onprem,onprem,rtx-3090,purchase,"
                   "RTX-3090,True,RTX-3090,1,24.0,,,0,100,USD,0,,2026-11-01,my quote,\n", encoding="utf-8")


def a_region_it_lacks(folder: Path) -> None:
    """The scenario allows us-east-2 alone, where the CSV has no offer (its one row is in us-east-1)."""
    scenario = folder / "s.yaml"
    scenario.write_text(scenario.read_text(encoding="utf-8").replace("  providers: [aws]\n",
                                                                     "  providers: [aws]\n  regions: [us-east-2]\n"),
                        encoding="utf-8")


def a_price_that_is_no_number(folder: Path) -> None:
    """The g5 row's hourly price written 1,006 (a thousands comma inside a CSV cell: quoted, so one cell that is no
    number): refused while the file is read, before any check of the scenario's."""
    csv = folder / OFFERS
    csv.write_text(csv.read_text(encoding="utf-8").replace(",1.006,", ',"1,006",'), encoding="utf-8")


OFFERS_CSV_ERRORS = [
    (misspelt_gpu, f"prices.source: {OFFERS}: line 2 (offer aws:us-east-1:g5.xlarge:on_demand): gpu 'a10g' is no GPU id "
                   f"of planner/data/gpus.csv (did you mean 'A10G'?)"),
    (priced_in_eur, f"fx: offers in the {OFFERS} prices are priced in EUR, which fx has no rate for"),
    (an_onprem_row, f"prices.source: {OFFERS}: line 3 (offer onprem:onprem:rtx-3090:purchase): an on-prem card"),
    (a_region_it_lacks, f"prices.regions: no offers in 'us-east-2' (did you mean 'us-east-1'?) in the {OFFERS} prices"),
    (a_price_that_is_no_number, f"{OFFERS}: line 2 (offer aws:us-east-1:g5.xlarge:on_demand): hourly_price '1,006'"),
]


@pytest.mark.parametrize("command", [["validate"], ["plan", "--format", "json", "--no-baselines", "--no-decisions"]])
@pytest.mark.parametrize(("edit", "expected"), OFFERS_CSV_ERRORS, ids=[e.__name__ for e, _ in OFFERS_CSV_ERRORS])
def test_an_error_about_the_offers_csv_names_it_as_the_scenario_wrote_it(tmp_path, monkeypatch, command, edit, expected):
    # each named /…/plans/offers/q3.csv, the path it was resolved to
    edit(plans_folder(tmp_path).parent)
    monkeypatch.chdir(tmp_path)
    shown = run(*command, "plans/s.yaml")
    assert shown.exit_code == 2 and "Traceback" not in shown.output, shown.output
    assert expected in " ".join(shown.stderr.split())
    assert str(tmp_path) not in shown.stderr


def test_an_error_about_the_offers_csv_names_it_as_written_in_a_sweep_too(tmp_path, monkeypatch):
    # a sweep plans the scenario changed by its --vary values: that copy names the file as the scenario did
    priced_in_eur(plans_folder(tmp_path).parent)
    monkeypatch.chdir(tmp_path)
    shown = run("sweep", "plans/s.yaml", "--vary", "horizon_months=12,24", "--format", "json", "--processes", "1")
    assert shown.exit_code == 2, shown.output
    notes = [row["note"] for row in json.loads(shown.stdout)]
    assert notes == [f"fx: offers in the {OFFERS} prices are priced in EUR, which fx has no rate for; "
                     "add fx: {EUR: <USD per 1 EUR>}"] * 2


# --- errors about a profile CSV --------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [["validate"], ["plan", "--format", "json", "--no-baselines", "--no-decisions"]])
def test_an_error_about_a_profile_csv_names_it_as_the_scenario_wrote_it(tmp_path, monkeypatch, command):
    # named plans/weights/w.csv, the scenario's folder as given on the command line joined to it (and /…/plans/… when
    # that was given absolute); line 169 is the 168th weight, after the header
    scenario = plans_folder(tmp_path, profile=PROFILE)
    (scenario.parent / PROFILE).write_text("weight\n" + "1\n" * 167 + "x\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    shown = run(*command, "plans/s.yaml")
    assert shown.exit_code == 2 and "Traceback" not in shown.output, shown.output
    assert f"plans/s.yaml:28:14: workloads[0].profile: {PROFILE}:169: expected a number, got 'x'" in shown.stderr
    assert str(tmp_path) not in shown.stderr


# --- a path given as an override ----------------------------------------------------------------------------------

def with_reserved_1y(scenario: Path) -> None:
    """The scenario allows reserved_1y too, which its offers CSVs do not price: each plan warns, naming the CSV."""
    scenario.write_text(scenario.read_text(encoding="utf-8").replace("purchase_options: [on_demand]",
                                                                     "purchase_options: [on_demand, reserved_1y]"),
                        encoding="utf-8")


def no_reserved_1y_in(csv: str) -> str:
    return f"reserved_1y: no reserved_1y prices for aws (any region) in the {csv} prices; plans use on_demand only"


def test_an_offers_csv_given_absolute_to_sweep_is_named_as_given(tmp_path, monkeypatch):
    # the scenario's own offers/q3.csv given by its absolute path was named offers/q3.csv, as the file names it, while
    # a copy of it beside it, offers/q4.csv, given alike, was named by the path given
    scenario = plans_folder(tmp_path)
    with_reserved_1y(scenario)
    shutil.copy(scenario.parent / OFFERS, scenario.parent / "offers" / "q4.csv")
    q3, q4 = str(scenario.parent / OFFERS), str(scenario.parent / "offers" / "q4.csv")
    monkeypatch.chdir(tmp_path)
    shown = run("sweep", "plans/s.yaml", "--vary", f"prices.source={q3},{q4}", "--format", "json", "--processes", "1")
    assert shown.exit_code == 0, shown.output
    said = " ".join(shown.stderr.split())
    # one line for the two wordings of the one warning (commands.sweep_warning_lines), each with its point
    q4_words = no_reserved_1y_in(q4).split(": ", 1)[1]
    assert f"{no_reserved_1y_in(q3)} (1 of 2 points); {q4_words} (1 of 2 points)" in said
    assert no_reserved_1y_in(OFFERS) not in said


def test_an_offers_csv_given_absolute_as_an_override_is_named_as_given_in_the_plan(tmp_path):
    # the notebook's and the dashboard's plan(…, overrides=…): named offers/q4.csv, relative to the scenario's folder,
    # as if the scenario had named it so
    from planner import plan
    from planner.reports.tables import plan_to_dict

    scenario = plans_folder(tmp_path)
    with_reserved_1y(scenario)
    shutil.copy(scenario.parent / OFFERS, scenario.parent / "offers" / "q4.csv")
    q4 = str(scenario.parent / "offers" / "q4.csv")
    p = plan(scenario, baselines=False, overrides={"prices.source": q4})
    doc = plan_to_dict(p)
    assert doc["input_files"]["prices.source"]["path"] == doc["prices"]["source"] == q4
    assert doc["scenario_inputs"]["prices"]["source"] == q4
    assert no_reserved_1y_in(q4) in p.warnings
    # the file's own name where no override gives the field
    assert plan_to_dict(plan(scenario, baselines=False, overrides={"horizon_months": 12}))["prices"]["source"] == OFFERS


def with_a_bad_horizon(folder: Path) -> None:
    """horizon_months: abc, no number: the scenario does not load, and validate checks its prices as written."""
    scenario = folder / "s.yaml"
    text = scenario.read_text(encoding="utf-8")
    scenario.write_text(re.sub(r"(?m)^horizon_months: .*$", "horizon_months: abc", text), encoding="utf-8")


# what validate checks of the prices of a file that does not load: the CSV's cells as read, and the regions in it
READ_WITHOUT_THE_SCENARIO = [(edit, expected) for edit, expected in OFFERS_CSV_ERRORS
                             if edit in (a_region_it_lacks, a_price_that_is_no_number)]


@pytest.mark.parametrize(("edit", "expected"), READ_WITHOUT_THE_SCENARIO,
                         ids=[e.__name__ for e, _ in READ_WITHOUT_THE_SCENARIO])
def test_validate_names_the_offers_csv_as_written_beside_another_error_too(tmp_path, monkeypatch, edit, expected):
    # with horizon_months refused, the CSV was named /…/plans/offers/q3.csv, its path resolved
    folder = plans_folder(tmp_path).parent
    edit(folder)
    with_a_bad_horizon(folder)
    monkeypatch.chdir(tmp_path)
    shown = run("validate", "plans/s.yaml")
    assert shown.exit_code == 2 and "Traceback" not in shown.output, shown.output
    said = " ".join(shown.stderr.split())
    assert expected in said and "horizon_months: expected a whole number, got 'abc'" in said
    assert str(tmp_path) not in shown.stderr


def test_validate_names_an_offers_csv_written_absolute_as_written_beside_another_error(tmp_path, monkeypatch):
    # an absolute path as the scenario wrote it, as a scenario that loads names it; not made relative to its folder
    scenario = plans_folder(tmp_path)
    a_price_that_is_no_number(scenario.parent)
    with_a_bad_horizon(scenario.parent)
    absolute = str(scenario.parent / OFFERS)
    scenario.write_text(scenario.read_text(encoding="utf-8").replace(f"source: {OFFERS}", f"source: {absolute}"),
                        encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    shown = run("validate", "plans/s.yaml")
    assert shown.exit_code == 2 and "Traceback" not in shown.output, shown.output
    said = " ".join(shown.stderr.split())
    assert f"prices.source: {absolute}: line 2 (offer aws:us-east-1:g5.xlarge:on_demand): hourly_price '1,006'" in said
