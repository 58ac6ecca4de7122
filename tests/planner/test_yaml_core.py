"""Scenario files are read by YAML 1.2's core schema (planner.scenario.yaml_core), as the editors that check
them against the JSON Schema read them, not by PyYAML's YAML 1.1, which read numbers a person did not mean
and said nothing (a review, 2026-12-05): `horizon_months: 036` planned 30 months (octal), `0100` GPU-hours
were 64, `1:00` was sixty (base 60), and `sweep --vary horizon_months=010,012` planned 8 and 10 months."""

from __future__ import annotations

import pytest
import yaml
from typer.testing import CliRunner

from planner.cli import app
from planner.errors import ScenarioError
from planner.scenario import load_scenario_text, parse_value, read_yaml_value
from planner.scenario.yaml_core import dump_yaml

HEAD = ("name: t\nhorizon_months: 12\n"
        "prices: {providers: [aws], regions: [us-east-1], purchase_options: [on_demand]}\n")
WORKLOAD = "workloads:\n  - {name: a, gpu_hours_per_month: 100, reference_gpu: T4}\n"


@pytest.mark.parametrize(("written", "read"), [
    ("036", 36), ("0100", 100), ("08", 8), ("+12", 12), ("0o17", 15), ("0x1F", 31),
    ("1e5", 100000.0), ("12.", 12.0), (".5", 0.5), ("-.inf", float("-inf")),
    ("true", True), ("FALSE", False), ("~", None),
    ("1:00", "1:00"), ("yes", "yes"), ("no", "no"), ("on", "on"), ("0b101", "0b101"), ("=", "="),
    # the core schema has no dates: YAML 1.1 read the first two as dates, and the third was no date at all
    ("2026-11-20", "2026-11-20"), ("2026-11-20 10:00:00", "2026-11-20 10:00:00"), ("2026-11-31", "2026-11-31"),
])
def test_plain_scalars_read_as_yaml_1_2_core_writes_them(written, read):
    value = read_yaml_value(written)
    assert value == read and type(value) is type(read)


def test_a_leading_zero_is_decimal():
    s = load_scenario_text(HEAD.replace("horizon_months: 12", "horizon_months: 036")
                           + WORKLOAD.replace("gpu_hours_per_month: 100", "gpu_hours_per_month: 0100"))
    assert s.horizon_months == 36 and s.workloads[0].gpu_hours_per_month == 100


def test_a_base_60_number_is_an_error_at_its_line():
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(HEAD + WORKLOAD.replace("gpu_hours_per_month: 100", "gpu_hours_per_month: 1:00"),
                           origin="s.yaml")
    [problem] = caught.value.problems
    # "  - {name: a, " is 14 characters and "gpu_hours_per_month: " 21: the value starts in column 36
    assert problem == "s.yaml:5:36: workloads[0].gpu_hours_per_month: expected a number, got '1:00'"


def test_yes_and_no_are_names_and_still_booleans_where_one_is_expected():
    s = load_scenario_text(HEAD + "workloads:\n  - {name: no, gpu_hours_per_month: 100, reference_gpu: T4,"
                                  " interruptible: yes}\n")
    assert s.workloads[0].name == "no" and s.workloads[0].interruptible is True


def test_a_swept_value_with_a_leading_zero_is_decimal(tmp_path):
    assert parse_value("010") == 10
    path = tmp_path / "s.yaml"
    path.write_text(HEAD + WORKLOAD)
    result = CliRunner().invoke(app, ["sweep", str(path), "--vary", "horizon_months=010,012", "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert [line.split(",")[0] for line in result.stdout.splitlines()[1:3]] == ["10", "12"]


@pytest.mark.parametrize("text", ["1e5", "0o17", "036", "true", "yes", "no", "1:00", ".inf", "0x1F", "0b101", "1_000",
                                  "=", "2026-01-01", "null"])
def test_text_is_written_so_that_it_reads_back_as_text_here_and_in_yaml_1_1(text):
    # YAML 1.1 readers (PyYAML's safe_load, older versions of this tool) read `no` as False, `0b101` as 5
    written = dump_yaml({"name": text})
    assert read_yaml_value(written) == {"name": text}
    assert yaml.safe_load(written) == {"name": text}


def test_an_integer_too_long_to_be_a_figure_is_refused_at_its_line():
    # 0x and 5,000 Fs: an integer Python cannot even show (repr refuses over 4,300 digits)
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(HEAD.replace("horizon_months: 12", "horizon_months: 0x" + "F" * 5000) + WORKLOAD,
                           origin="s.yaml")
    [problem] = caught.value.problems
    assert problem.startswith("s.yaml:2:17: '0xFFFF") and problem.endswith("(5,002 characters) is not a number a scenario "
                                                               "can hold (too many digits)")
