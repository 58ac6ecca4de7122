"""How a sweep reads its values (a review, 2026-12-04): the library's `sweep` takes a list per path, never a
text's characters, and counts a huge range before reading it; `--vary` splits on commas outside YAML quotes."""

from __future__ import annotations

import itertools
import json
import tracemalloc
from pathlib import Path

import pytest

from planner import load_scenario
from planner.errors import PlannerError, ScenarioError
from planner.reports.sweep import sweep
from planner.scenario import split_values

ENTRY = Path(__file__).resolve().parents[2] / "scenarios" / "entry.yaml"


@pytest.mark.parametrize(("values", "said"), [
    ("12", "horizon_months: expected a list of values to vary over, got '12'; for one value, ['12']"),
    (12, "horizon_months: expected a list of values to vary over, got 12; for one value, [12]"),
    ({"a": 1}, "horizon_months: expected a list of values to vary over, got {'a': 1}"),
])
def test_a_text_or_a_single_value_is_no_list_of_values(values, said):
    # "12" was swept as horizons 1 and 2; 12 was a TypeError traceback
    with pytest.raises(ScenarioError) as caught:
        sweep(load_scenario(ENTRY), vary={"horizon_months": values}, processes=1)
    assert caught.value.problems == [said]


@pytest.mark.parametrize(("values", "points"), [
    (range(1, 2 * 10**7), "19,999,999"),   # its length, not read
    (itertools.count(1), "10,001"),         # read up to one past the limit, never to its end
])
def test_a_huge_range_or_an_endless_iterator_is_refused_before_it_is_read(values, points):
    tracemalloc.start()
    try:
        with pytest.raises(PlannerError, match=f"sweep: {points} points .*at most 10,000 per sweep"):
            sweep(load_scenario(ENTRY), vary={"horizon_months": values}, processes=1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # listing 20 million values first took 900 MB; 10,001 small ints are well under 8 MB
    assert peak < 8 * 2**20


@pytest.mark.parametrize(("text", "values"), [
    ('"a,b",c', ['"a,b"', "c"]),
    ("'a,b',c", ["'a,b'", "c"]),
    ("'it''s, ok',z", ["'it''s, ok'", "z"]),          # '' inside single quotes is a quote, not the end
    ('"say \\"x,y\\"",d', ['"say \\"x,y\\""', "d"]),  # \" inside double quotes too
    ("it's,x", ["it's", "x"]),                        # a quote inside a plain value opens nothing
    ("[aws, azure],[aws]", ["[aws, azure]", "[aws]"]),
    ('{a: "x,]"},2', ['{a: "x,]"}', "2"]),             # a bracket inside quotes closes nothing
    ("0.1,0.2,0.3", ["0.1", "0.2", "0.3"]),
])
def test_vary_values_split_on_commas_outside_brackets_and_quotes(text, values):
    assert split_values(text) == values


def test_the_cli_counts_the_points_before_it_reads_any_value(monkeypatch):
    # four --vary of 65,000 values each were each read as YAML before the size was checked (22.6 s to refuse)
    from typer.testing import CliRunner

    import planner.scenario
    from planner.cli import app

    read = []
    real = planner.scenario.parse_value
    monkeypatch.setattr(planner.scenario, "parse_value", lambda text: read.append(text) or real(text))
    values = ",".join(["1"] * 65_000)
    result = CliRunner().invoke(app, ["sweep", str(ENTRY), "--vary", f"horizon_months={values}",
                                      "--vary", f"onprem.pue={values}"])
    assert result.exit_code == 2
    assert "sweep: 4,225,000,000 points (65,000 × 65,000); at most 10,000 per sweep" in result.output
    assert read == []


def test_a_quoted_comma_in_a_vary_value_is_one_value():
    from typer.testing import CliRunner

    from planner.cli import app

    result = CliRunner().invoke(app, ["sweep", str(ENTRY), "--vary", 'description="a,b",c', "--format", "json",
                                      "--processes", "1"])
    assert result.exit_code == 0, result.output
    assert [row["description"] for row in json.loads(result.stdout)] == ["a,b", "c"]


def test_a_warnings_share_is_of_the_points_that_were_planned():
    # mid-research at a power cap of 0 kW and no cloud has no plan, so gives no warnings; at 100 kW it plans
    # and warns that purchases every 5 months leave a 1-month last period of 36. "(1 of 2 points)" read as
    # if the other point had planned without the warning
    from typer.testing import CliRunner

    from planner.cli import app

    mid = ENTRY.parent / "mid-research.yaml"
    result = CliRunner().invoke(app, ["sweep", str(mid), "--vary", "onprem.purchase_every_months=5",
                                      "--vary", "constraints.max_cloud_share=0", "--vary", "onprem.power_cap_kw=0,100",
                                      "--processes", "1", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert [row["status"] for row in json.loads(result.stdout)] == ["infeasible", "optimal"]
    said = " ".join(result.stderr.split())
    assert ("warning: purchase_every_months 5 does not divide horizon_months 36: the last purchase period is 1 "
            "month long (every planned point)") in said
    assert "of 2 points)" not in said


def test_a_refused_inf_or_nan_value_is_named_as_given(nothing_solved):
    # YAML reads 1.0e+400 as inf and .nan as nan; they were error rows whose column showed an empty cell (CSV) or
    # null (JSON). No point can plan them: refused before anything is solved, each named as --vary wrote it
    from typer.testing import CliRunner

    from planner.cli import app

    result = CliRunner().invoke(app, ["sweep", str(ENTRY), "--vary", "onprem.pue=1.2,1.0e+400,.nan", "--format", "csv",
                                      "--processes", "1"])
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert " ".join(result.stderr.split()) == ("error: --vary: 2 problems onprem.pue=1.0e+400: expected a finite "
                                               "number, got .inf onprem.pue=.nan: expected a finite number, got .nan")
