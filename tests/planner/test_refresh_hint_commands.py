"""The hint of `plan` and `validate` for a scenario on `prices.source: store` with no store, or an empty one, named
`fleetplan prices refresh` bare, which exits 2 without its required --provider and --region (its --help: `--provider
PROVIDER` aws or azure, one a run; `--region REGION` repeatable). It now names the commands to paste: one per provider
of the scenario, with the scenario's regions of that provider (a provider with none of them is left out: the scenario
uses none of its offers), `--store` where the store is not the one the refresh finds by itself."""

from __future__ import annotations

import re
import shlex

from cli_run import run
from test_cli_prices import FakeSource, use

from pricing_adapters.store import PriceStore

# aws in two regions; azure allowed, but none of the regions is an Azure region: no refresh of azure is needed
SCENARIO = """name: on the store
prices:
  source: store
  providers: [aws, azure]
  regions: [us-east-1, us-east-2]
  purchase_options: [on_demand]
workloads:
  - {name: w, gpu_hours_per_month: 100, reference_gpu: T4}
"""


def written(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    return path


def commands(text: str) -> list[str]:
    return re.findall(r"`(fleetplan prices refresh[^`]*)`", text)


def test_validate_and_plan_name_the_refresh_of_the_scenarios_provider_and_regions_into_the_store_given(tmp_path):
    store = tmp_path / "team prices.sqlite"   # a space: quoted as a shell reads it
    said = (f"no price store at {store}: `fleetplan prices refresh --provider aws --region us-east-1 --region us-east-2 "
            f"--store '{store}'` makes one; using the packaged snapshot")
    validated = run("validate", written(tmp_path), "--store", store)
    assert validated.exit_code == 0, validated.output
    assert validated.stderr.splitlines()[0] == f"warning: {tmp_path / 's.yaml'}: prices: {said}"
    planned = run("plan", written(tmp_path), "--store", store, "--no-decisions", "--no-baselines")
    assert planned.exit_code == 0, planned.output
    assert f"warning: prices: {said}" in " ".join(planned.stderr.split())


def test_the_command_said_is_one_the_cli_takes_and_fills_the_store(tmp_path, monkeypatch):
    store = tmp_path / "team prices.sqlite"
    [command] = commands(run("validate", written(tmp_path), "--store", store).stderr)
    use(monkeypatch, FakeSource())   # the packaged AWS offers of the regions asked for, in place of the live API
    refreshed = run(*shlex.split(command)[1:])   # pasted: `fleetplan` is the app
    assert refreshed.exit_code == 0, refreshed.output
    again = run("validate", written(tmp_path), "--store", store)
    assert again.exit_code == 0 and "no price store" not in again.stderr and "fleetplan prices refresh" not in again.stderr


def test_an_empty_store_names_the_same_commands(tmp_path):
    store = tmp_path / "prices.sqlite"
    PriceStore(store)   # made, no snapshot in it
    result = run("validate", written(tmp_path), "--store", store)
    assert result.exit_code == 0, result.output
    assert (f"prices: the price store {store} has no snapshot yet (run `fleetplan prices refresh --provider aws "
            f"--region us-east-1 --region us-east-2 --store {store}`); using the packaged snapshot") in result.stderr


def test_no_store_option_where_the_refresh_finds_the_store_by_itself(tmp_path, monkeypatch):
    store = tmp_path / "prices.sqlite"
    monkeypatch.setenv("FLEETPLAN_STORE", str(store))   # read by the refresh as by the plan
    result = run("validate", written(tmp_path))
    assert commands(result.stderr) == ["fleetplan prices refresh --provider aws --region us-east-1 --region us-east-2"]
