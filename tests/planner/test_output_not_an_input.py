"""`fleetplan plan -o FILE` and `--out DIR` refuse, before solving, to write over a file the plan reads: a
review (2026-12-05) replaced its own scenario with the Markdown summary by `plan s.yaml --format md -o s.yaml`,
exit 0. Now: exit 2 naming both, and the file as it was."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from planner.cli import app

ROOT = Path(__file__).resolve().parents[2]
ENTRY = (ROOT / "scenarios" / "entry.yaml").read_text(encoding="utf-8")


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def test_minus_o_onto_the_scenario_itself_is_refused_and_the_file_kept(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text(ENTRY, encoding="utf-8")
    for output in (scenario, tmp_path / "." / ".." / tmp_path.name / "s.yaml"):
        result = run("plan", scenario, "--format", "md", "-o", output, "--no-decisions")
        assert result.exit_code == 2, result.output
        assert f"-o {output}: is {scenario}, which this plan reads" in result.output
        assert scenario.read_text(encoding="utf-8") == ENTRY


def test_a_link_to_the_scenario_is_the_same_file(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text(ENTRY, encoding="utf-8")
    (tmp_path / "link.json").symlink_to(scenario)
    result = run("plan", scenario, "--format", "json", "-o", tmp_path / "link.json", "--no-decisions")
    assert result.exit_code == 2 and "which this plan reads" in result.output
    assert scenario.read_text(encoding="utf-8") == ENTRY


def test_out_onto_a_folder_holding_a_profile_named_like_one_of_its_files_is_refused(tmp_path):
    # a weekly profile saved as fleet.csv, in the folder --out writes fleet.csv into
    profile = tmp_path / "fleet.csv"
    profile.write_text("hour,weight\n" + "".join(f"{h},{1 + h % 2}\n" for h in range(168)), encoding="utf-8")
    text = ENTRY.replace("profile: business_hours", "profile: fleet.csv", 1)
    assert text != ENTRY
    scenario = tmp_path / "s.yaml"
    scenario.write_text(text, encoding="utf-8")
    before = profile.read_text(encoding="utf-8")
    result = run("plan", scenario, "--out", tmp_path, "--no-decisions")
    assert result.exit_code == 2, result.output
    assert f"--out {tmp_path / 'fleet.csv'}: is " in result.output and "which this plan reads" in result.output
    assert profile.read_text(encoding="utf-8") == before


def test_another_file_is_written(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text(ENTRY, encoding="utf-8")
    result = run("plan", scenario, "--format", "md", "-o", tmp_path / "summary.md", "--no-decisions")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "summary.md").read_text(encoding="utf-8").startswith("#")


def test_minus_o_onto_the_price_store_the_scenario_reads_is_refused(tmp_path, monkeypatch):
    # the store found by $FLEETPLAN_STORE, with no --store given: a review replaced it with the Markdown summary
    store = tmp_path / "prices.sqlite"
    store.write_bytes(b"stand-in for a store: checked before it is read")
    monkeypatch.setenv("FLEETPLAN_STORE", str(store))
    scenario = tmp_path / "s.yaml"
    scenario.write_text((ROOT / "tests" / "fixtures" / "scenarios" / "store-a100-eastus.yaml").read_text(encoding="utf-8"),
                        encoding="utf-8")
    result = run("plan", scenario, "--format", "md", "-o", store, "--no-decisions")
    assert result.exit_code == 2 and f"-o {store}: is {store}, which this plan reads" in result.output, result.output
    assert store.read_bytes() == b"stand-in for a store: checked before it is read"


def test_minus_o_dash_is_refused_before_solving_and_writes_no_file_named_dash(tmp_path, monkeypatch):
    # `-o -` wrote a file named "-" ("wrote -"), where `-` reads as stdout elsewhere
    scenario = tmp_path / "s.yaml"
    scenario.write_text(ENTRY, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for fmt, said in (("json", "the output goes to stdout without -o, so leave -o out (a file named - needs its full "
                                "path)"),
                      ("xlsx", "a workbook is not written to stdout; give a file, e.g. -o plan.xlsx")):
        result = run("plan", scenario, "--format", fmt, "-o", "-", "--no-decisions")
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr.strip() == f"error: -o -: {said}"
    result = run("plan", scenario, "--format", "json", "-o", tmp_path / "-", "--no-decisions", "--no-baselines")
    assert result.exit_code == 0, result.output   # the advice works: a full path is a file named -
    assert sorted(p.name for p in tmp_path.iterdir()) == ["-", "s.yaml"]
