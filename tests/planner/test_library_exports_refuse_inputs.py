"""The library's exports refuse, as `fleetplan plan -o` does, to write over a file the plan was made from (its scenario
file, a profile or offers CSV, the price store it read) and a file name whose suffix names another export's format
(`to_excel(p, "x.csv")`). An audit (2026-12) found `to_json(p, "we2.yaml")` replacing the scenario with JSON and
`to_csv(p, "offers-g5-us-east-1.csv")` the offers the plan was priced from, without a word. Now: a PlannerError in
the CLI's words, the file named as given, and nothing written."""

from __future__ import annotations

import dataclasses
import json
import pickle
import shutil
from pathlib import Path

import pytest

import planner.reports.excel as excel
from planner import apply_overrides, load_scenario, plan, to_csv, to_excel, to_focus, to_json, to_markdown, write_files
from planner.errors import PlannerError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
OFFERS = "offers-g5-us-east-1.csv"
REFUSED = "which this plan reads; give another file name"


@pytest.fixture(scope="module")
def we2(tmp_path_factory) -> tuple[Path, object]:
    """(its folder, the plan) of the README's worked example copied as we2.yaml beside its offers CSV."""
    folder = tmp_path_factory.mktemp("we2").resolve()
    shutil.copy(EXAMPLES / "worked-example.yaml", folder / "we2.yaml")
    shutil.copy(EXAMPLES / OFFERS, folder / OFFERS)
    return folder, plan(folder / "we2.yaml", baselines=False)


def contents(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_to_json_onto_its_own_scenario_file_is_refused_and_the_file_kept(we2, monkeypatch):
    folder, p = we2
    monkeypatch.chdir(folder)
    before = contents(folder)
    with pytest.raises(PlannerError) as info:
        to_json(p, "we2.yaml")
    assert str(info.value) == f"we2.yaml: is {folder / 'we2.yaml'}, {REFUSED}"
    assert contents(folder) == before


def test_to_csv_onto_the_offers_csv_it_was_priced_from_is_refused(we2, monkeypatch):
    folder, p = we2
    monkeypatch.chdir(folder)
    before = contents(folder)
    with pytest.raises(PlannerError) as info:
        to_csv(p, OFFERS)
    assert str(info.value) == f"{OFFERS}: is {folder / OFFERS}, {REFUSED}"
    # by another name of the same file: a path through the folder, a symbolic link
    (folder.parent / "link.csv").symlink_to(folder / OFFERS)
    for given in (folder / "." / OFFERS, folder.parent / "link.csv"):
        with pytest.raises(PlannerError, match=f"^{given}: is {folder / OFFERS}, {REFUSED}$"):
            to_focus(p, given)
    assert contents(folder) == before


def test_markdown_and_the_workbook_refuse_the_scenario_file_too(we2):
    folder, p = we2
    before = contents(folder)
    scenario = folder / "we2.yaml"
    for export in (to_markdown, to_excel):
        with pytest.raises(PlannerError, match=f"^{scenario}: is {scenario}, {REFUSED}$"):
            export(p, scenario)
    assert contents(folder) == before


@pytest.mark.parametrize("export, given, said", [
    (to_excel, "x.csv", "a .csv file name for plan_to_excel (to_excel), which writes an Excel workbook; "
                        "did you mean x.xlsx?"),
    (to_csv, "fleet.json", "a .json file name for plan_to_csv (to_csv), which writes CSV; did you mean fleet.csv?"),
    (to_json, "plan.csv", "a .csv file name for plan_to_json (to_json), which writes JSON; did you mean plan.json?"),
    (to_focus, "rows.MD", "a .md file name for plan_to_focus (to_focus), which writes CSV; did you mean rows.csv?"),
    (to_markdown, "summary.xlsx", "a .xlsx file name for plan_to_markdown (to_markdown), which writes Markdown; "
                                  "did you mean summary.md?"),
])
def test_a_file_name_ending_in_another_formats_suffix_is_refused(we2, tmp_path, monkeypatch, export, given, said):
    _, p = we2
    monkeypatch.chdir(tmp_path)
    with pytest.raises(PlannerError) as info:
        export(p, given)
    assert str(info.value) == f"{given}: {said}"
    assert list(tmp_path.iterdir()) == []


def test_a_suffix_of_no_export_or_none_is_the_users_choice(we2, tmp_path):
    _, p = we2
    to_json(p, tmp_path / "plan.out")
    to_csv(p, tmp_path / "fleet")
    assert (tmp_path / "plan.out").read_text().startswith("{")
    assert (tmp_path / "fleet").read_text().startswith("provider,region,sku,")


def test_write_files_refuses_a_folder_holding_a_profile_named_like_one_of_its_files(tmp_path):
    # a weekly profile saved as review/fleet.csv (weights 1 and 2 by turns): write_files(p, "review") replaced it
    review = tmp_path / "review"
    review.mkdir()
    profile = review / "fleet.csv"
    profile.write_text("hour,weight\n" + "".join(f"{h},{1 + h % 2}\n" for h in range(168)), encoding="utf-8")
    text = (EXAMPLES / "worked-example.yaml").read_text(encoding="utf-8")
    (tmp_path / "s.yaml").write_text(text.replace("profile: flat", "profile: review/fleet.csv"), encoding="utf-8")
    shutil.copy(EXAMPLES / OFFERS, tmp_path / OFFERS)
    p = plan(tmp_path / "s.yaml", baselines=False)
    before = contents(review)
    with pytest.raises(PlannerError) as info:
        write_files(p, review)
    assert str(info.value) == f"{review / 'fleet.csv'}: is {profile.resolve()}, {REFUSED}"
    with pytest.raises(PlannerError) as info:
        write_files(p, review, option="--out")   # the CLI's words
    assert str(info.value) == f"--out {review / 'fleet.csv'}: is {profile.resolve()}, {REFUSED}"
    assert contents(review) == before
    written = write_files(p, tmp_path / "other")   # a new folder: nothing it holds is read
    assert [f.name for f in written] == ["plan.json", "fleet.csv", "monthly.csv", "excluded_offers.csv", "plan.xlsx",
                                         "focus.csv", "summary.md"]


def test_the_price_store_the_plan_read_is_refused(azure_eastus_store, store_a100_scenario, tmp_path):
    p = plan(store_a100_scenario, store=azure_eastus_store, baselines=False)
    before = azure_eastus_store.read_bytes()
    with pytest.raises(PlannerError) as info:
        to_markdown(p, azure_eastus_store)
    assert str(info.value) == f"{azure_eastus_store}: is {azure_eastus_store}, {REFUSED}"
    assert azure_eastus_store.read_bytes() == before
    # its total, 730 h × 3.673 USD/h (the fixture's only 80 GB offer), as any other file would say it
    to_json(p, tmp_path / "plan.json")
    assert json.loads((tmp_path / "plan.json").read_text())["total"] == pytest.approx(2681.29, abs=0.005)


# The README's and the finance notebook's own pattern: load the scenario, then plan it. plan() was given no path, so the
# plan did not know its file, and `to_json(p, path)` replaced the YAML with JSON (review, 2026-12); the loader now keeps
# the file a scenario was read from, and overrides' copies keep it too


def test_a_plan_of_a_loaded_scenario_refuses_its_file(we2):
    folder, _ = we2
    scenario = folder / "we2.yaml"
    before = contents(folder)
    p = plan(load_scenario(scenario), baselines=False)
    assert p.scenario_file == scenario
    with pytest.raises(PlannerError) as info:
        to_json(p, scenario)
    assert str(info.value) == f"{scenario}: is {scenario}, {REFUSED}"
    assert contents(folder) == before


def test_a_plan_of_a_loaded_scenario_with_overrides_refuses_its_file(we2):
    folder, _ = we2
    scenario = folder / "we2.yaml"
    before = contents(folder)
    changed = apply_overrides(load_scenario(scenario), {"horizon_months": 12})
    for p in (plan(changed, baselines=False), plan(load_scenario(scenario), baselines=False, horizon_months=12)):
        assert p.horizon_months == 12
        for export in (to_json, to_markdown):
            with pytest.raises(PlannerError, match=f"^{scenario}: is {scenario}, {REFUSED}$"):
                export(p, scenario)
    assert contents(folder) == before


def test_a_copy_of_a_plan_refuses_what_the_plan_refuses(we2, azure_eastus_store, store_a100_scenario):
    folder, p = we2
    scenario = folder / "we2.yaml"
    before = contents(folder)
    with pytest.raises(PlannerError, match=f"^{scenario}: is {scenario}, {REFUSED}$"):
        to_json(dataclasses.replace(p), scenario)
    with pytest.raises(PlannerError, match=f"^{folder / OFFERS}: is {folder / OFFERS}, {REFUSED}$"):
        to_csv(dataclasses.replace(p), folder / OFFERS)
    assert contents(folder) == before
    # the price store, kept by the copy and by a pickled plan (not looked up by the plan's id)
    stored = plan(store_a100_scenario, store=azure_eastus_store, baselines=False)
    store_bytes = azure_eastus_store.read_bytes()
    for copy in (dataclasses.replace(stored), pickle.loads(pickle.dumps(stored))):
        with pytest.raises(PlannerError, match=f"^{azure_eastus_store}: is {azure_eastus_store}, {REFUSED}$"):
            to_json(copy, azure_eastus_store)
    assert azure_eastus_store.read_bytes() == store_bytes


class _MovingPath:
    """A path-like that names `first` until `moved` is set, then `then`: a file name held by something that may change
    while the workbook is built."""

    def __init__(self, first: Path, then: Path):
        self.first, self.then, self.moved = first, then, False

    def __fspath__(self) -> str:
        return str(self.then if self.moved else self.first)


def test_the_workbook_is_written_to_the_file_checked(we2, tmp_path, monkeypatch):
    # to_excel checked `path` and then wrote to `path` read again: the file written need not be the one checked (here
    # the scenario file, which it refuses); focus, markdown and csv write to the target they checked
    folder, p = we2
    target = _MovingPath(tmp_path / "plan.xlsx", folder / "we2.yaml")
    summary = excel.summary_sheet

    def summary_then_move(*args, **kwargs):
        target.moved = True
        return summary(*args, **kwargs)

    monkeypatch.setattr(excel, "summary_sheet", summary_then_move)
    before = contents(folder)
    to_excel(p, target)
    assert contents(folder) == before
    assert (tmp_path / "plan.xlsx").read_bytes()[:2] == b"PK"   # a workbook is a zip file
