"""A region no offer has is placed at its list item, as the scenario's other problems are (FILE:LINE:COL):
`validate` said `FILE: prices.regions: no offers in 'us-east1' …` with no line. The check is made against the
prices, after loading (catalog.check_regions), so its error carries the field (PricesRefuteScenario.field) and
the CLI finds its place in the text it validated (scenario.loading.text_places): not in the file read again,
which may have been rewritten in between (a wrong line said without a doubt) or be a pipe (read once)."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest

from planner.errors import PricesRefuteScenario
from planner.scenario.loading import read_scenario_file, text_places
from tests.planner.cli_run import run

BLOCK_LIST = """\
name: reg
prices:
  providers: [aws]
  regions:
    - us-east-1
    - us-eats-1
workloads:
  - {name: w, gpu_hours_per_month: 100, reference_gpu: T4}
"""
TWO_TYPOS = """\
name: date ok
horizon_months: 12
prices:
  regions: [us-east1, west-europe]
workloads:
  - {name: w, gpu_hours_per_month: 100, reference_gpu: T4}
"""


def said(result) -> str:
    return " ".join(result.stderr.split())


def test_validate_places_a_region_of_a_block_list_at_its_item(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(BLOCK_LIST)
    result = run("validate", path)
    # the second item: line 6, after "    - " (6 characters)
    assert result.exit_code == 2
    assert (f"error: {path}:6:7: prices.regions: no offers in 'us-eats-1' (did you mean 'us-east-1'?) in the "
            "snapshot prices") in said(result), result.stderr


def test_two_regions_no_offer_has_are_one_error_at_the_first(tmp_path):
    # the audit's m08.yaml: line 4, after "  regions: [" (12 characters)
    path = tmp_path / "m08.yaml"
    path.write_text(TWO_TYPOS)
    result = run("validate", path)
    assert result.exit_code == 2
    assert (f"error: {path}:4:13: prices.regions: no offers in 'us-east1' (did you mean 'us-east-1'?), "
            "'west-europe' (did you mean 'westeurope'?) in the snapshot prices") in said(result), result.stderr


def test_the_error_carries_the_field_also_through_a_pickle():
    exc = PricesRefuteScenario("prices.regions: no offers in 'x'", ("prices", "regions", 1))
    again = pickle.loads(pickle.dumps(exc))
    assert (str(again), again.field) == ("prices.regions: no offers in 'x'", ("prices", "regions", 1))
    assert PricesRefuteScenario("fx: …").field is None


def test_text_places_gives_the_file_alone_where_it_cannot_place_the_field(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(BLOCK_LIST)
    _, text = read_scenario_file(path)
    assert text == BLOCK_LIST
    assert text_places(text, str(path), [("prices", "regions", 1), ("prices", "regions", 0), ("onprem", "pue"), (),
                                         None]) == [
        f"{path}:6:7", f"{path}:5:7", str(path), str(path), str(path)]   # pue not in the file: a default; () no field
    assert text_places("", str(path), [("prices", "regions", 0)]) == [str(path)]
    assert text_places(text, str(path), []) == []


# The file rewritten while the command runs, after it was read and validated (an editor saving, a script
# writing the next version): two comment lines put on top move the typo to line 8. The region refuted is the
# one validated, at line 6 of the text read; the file read again placed it at 8:7, a line that holds another
# value of the new text, said without a doubt.
REWRITTEN = "# rewritten\n# while the command ran\n" + BLOCK_LIST.replace("us-eats-1", "us-west-2")


def _rewriting(path: Path, real):
    """`real`, called after writing REWRITTEN to `path`."""
    def rewritten_first(*args, **kwargs):
        path.write_text(REWRITTEN)
        return real(*args, **kwargs)
    return rewritten_first


def test_validate_places_a_refuted_region_in_the_text_it_validated_not_the_file_rewritten_since(tmp_path, monkeypatch):
    from planner.cli import commands

    path = tmp_path / "s.yaml"
    path.write_text(BLOCK_LIST)
    monkeypatch.setattr(commands, "_price_checks", _rewriting(path, commands._price_checks))
    result = run("validate", path)
    assert result.exit_code == 2
    assert f"error: {path}:6:7: prices.regions: no offers in 'us-eats-1'" in said(result), result.stderr
    assert path.read_text() == REWRITTEN   # rewritten before the place was found


def test_plan_places_a_refuted_region_in_the_text_it_planned_not_the_file_rewritten_since(tmp_path, monkeypatch):
    import planner.engine

    path = tmp_path / "s.yaml"
    path.write_text(BLOCK_LIST)
    monkeypatch.setattr(planner.engine, "plan", _rewriting(path, planner.engine.plan))
    result = run("plan", path, "--no-baselines")
    assert result.exit_code == 2
    assert f"{path}:6:7: prices.regions: no offers in 'us-eats-1'" in said(result), result.stderr
    assert path.read_text() == REWRITTEN


@pytest.mark.skipif(not Path("/dev/fd").is_dir(), reason="needs /dev/fd")
def test_validate_places_a_refuted_region_of_a_scenario_read_through_a_pipe():
    # `fleetplan validate <(cat s.yaml)`: a pipe is read once; read again, it was empty and the place the path alone
    read, write = os.pipe()
    os.write(write, BLOCK_LIST.encode())
    os.close(write)
    try:
        result = run("validate", f"/dev/fd/{read}")
    finally:
        os.close(read)
    assert result.exit_code == 2
    assert f"error: /dev/fd/{read}:6:7: prices.regions: no offers in 'us-eats-1'" in said(result), result.stderr


# a mistake elsewhere in the file (an audit, 2026-12-06): the file's other problems lost their line and column
DUPLICATE_KEY = BLOCK_LIST + "name: again\n"          # line 9: `name` a second time
POWER_IN_WATTS_AND_BAD_INDENT = """\
name: watts
onprem:
  cards: [rtx-4090]
  power_cap_kw: 8000
workloads:
  - name: w
    gpu_hours_per_month: 100
    reference_gpu: T4
     interruptible: true
"""


def test_a_duplicate_key_elsewhere_leaves_the_regions_place(tmp_path):
    path = tmp_path / "dup.yaml"
    path.write_text(DUPLICATE_KEY)
    result = run("validate", path)
    assert result.exit_code == 2
    text = said(result)
    assert f"error: {path}:9:1: duplicate key 'name' (first on line 1)" in text, result.stderr
    # still line 6, column 7, as without the duplicate (test_validate_places_a_region_of_a_block_list_at_its_item)
    assert f"error: {path}:6:7: prices.regions: no offers in 'us-eats-1'" in text, result.stderr


def test_a_syntax_error_elsewhere_leaves_a_warnings_place(tmp_path):
    path = tmp_path / "indent.yaml"
    path.write_text(POWER_IN_WATTS_AND_BAD_INDENT)
    result = run("validate", path)
    text = said(result)
    assert f"{path}:9:" in text and "YAML syntax" in text, result.stderr
    # the cap on line 4, its value after "  power_cap_kw: " (16 characters)
    assert f"warning: {path}:4:17: onprem.power_cap_kw: 8,000 kW" in text, result.stderr


def test_text_places_places_fields_of_a_text_with_a_syntax_error_on_another_line():
    (place,) = text_places(POWER_IN_WATTS_AND_BAD_INDENT, "s.yaml", [("onprem", "power_cap_kw")])
    assert place == "s.yaml:4:17"
