"""Small things an audit found (2026-12-06): `validate` said "no price store …; using the packaged snapshot" after the
file's `ok` line, which that warning qualifies (ok on the packaged prices, not the store's); the hint for a missing
store was worded two ways ("`fleetplan prices refresh` makes one" and "… --region REGION` creates one"); compare's
different-currencies error named a Scenario side by its name and the other side by its file."""

from __future__ import annotations

import json

import pytest
from cli_run import run

from planner import compare, load_scenario
from planner.errors import PlannerError

# the refresh of the scenario's providers (the default's: aws and azure), any region, into the store given
HINT = ("`fleetplan prices refresh --provider aws --region REGION --store {store}` and `fleetplan prices refresh "
        "--provider azure --region REGION --store {store}` make one")


def scenario(tmp_path, name: str, text: str):
    path = tmp_path / f"{name}.yaml"
    path.write_text(text + "workloads:\n  - {name: w, gpu_hours_per_month: 100, reference_gpu: T4}\n", encoding="utf-8")
    return path


def test_validate_says_which_prices_it_checked_against_before_the_ok_line(tmp_path):
    path = scenario(tmp_path, "st", "name: st\nprices:\n  source: store\n")
    store = tmp_path / "none.sqlite"
    result = run("validate", path, "--store", store)
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    hint = HINT.format(store=store)
    assert lines[0] == f"warning: {path}: prices: no price store at {store}: {hint}; using the packaged snapshot"
    assert lines[1] == f"ok {path}: st — 1 workload, 36 months"
    # (no warning of the default purchase options' reservations: the scenario left them to the default)
    assert len(lines) == 2
    # the JSON keeps it among the file's warnings, first of those with no field, as before
    doc = json.loads(run("validate", path, "--store", store, "--format", "json").stdout)
    (checked,) = doc["files"]
    assert checked["problems"][0]["message"] == f"prices: no price store at {store}: {hint}; using the packaged snapshot"
    assert [p["severity"] for p in checked["problems"]] == ["warning"]


def test_the_prices_commands_hint_at_a_missing_store_in_the_words_plan_and_validate_use(tmp_path):
    store = tmp_path / "none.sqlite"
    listed = run("prices", "list", "--store", store)
    assert listed.exit_code == 0, listed.output
    # no scenario: the required options as the refresh's help names them
    assert (f"note: no price store at {store}: `fleetplan prices refresh --provider PROVIDER --region REGION --store "
            f"{store}` makes one") in listed.stderr
    assert "creates one" not in listed.stderr


@pytest.fixture
def sides(tmp_path):
    usd = scenario(tmp_path, "r1", "name: r\n")
    eur = scenario(tmp_path, "eur", "name: eur side\ncurrency: EUR\nfx: {USD: 0.9}\n")
    return usd, eur


def refused(a, b) -> str:
    with pytest.raises(PlannerError) as caught:
        compare(a, b)
    return str(caught.value)


def test_a_scenario_loaded_from_a_file_is_named_by_its_file_as_the_other_side(sides):
    usd, eur = sides
    assert refused(load_scenario(usd), eur).startswith(
        f"cannot compare plans in different currencies: a ({usd}) is in USD, b ({eur}) in EUR; ")
    assert refused(usd, load_scenario(eur)).startswith(f"cannot compare plans in different currencies: a ({usd}) is in "
                                                       f"USD, b ({eur}) in EUR; ")


def test_a_side_with_no_file_names_both_sides_by_their_scenarios_names(sides):
    usd, eur = sides
    text = usd.read_text(encoding="utf-8")   # YAML text: no file
    assert refused(text, load_scenario(eur)).startswith(
        "cannot compare plans in different currencies: a ('r') is in USD, b ('eur side') in EUR; ")
    assert refused(text, eur).startswith(
        "cannot compare plans in different currencies: a ('r') is in USD, b ('eur side') in EUR; ")
