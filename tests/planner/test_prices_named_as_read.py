"""A message that names the prices names those read: with `prices.source: store` and no store (or a store that
holds none of the scenario's providers and regions) the packaged snapshot's prices are used, and `plan` and
`validate` said "… in the store prices" of them after "no price store at …; using the packaged snapshot".

Facts used: the packaged snapshot has no reserved_1y or reserved_3y prices for aws in us-east-1 nor for azure
in eastus (README, "loud gaps"), and its aws us-east-1 offers include on-demand ones; `fleetplan prices refresh`
with the fake AWS source of test_cli_prices stores aws us-east-1 on-demand offers only.
"""

from __future__ import annotations

from pathlib import Path

from cli_run import run

ROOT = Path(__file__).resolve().parents[2]
HYBRID = (ROOT / "scenarios" / "startup-hybrid.yaml").read_text(encoding="utf-8")
GAPS = [f"{opt}: no {opt} prices for aws in us-east-1 or azure in eastus in the snapshot prices; plans use "
        "on_demand/spot only" for opt in ("reserved_1y", "reserved_3y")]


def on_store(tmp_path: Path, text: str = HYBRID) -> Path:
    """`text` with `prices.source: store`, written to a file."""
    assert "  source: snapshot " in text
    path = tmp_path / "on-store.yaml"
    path.write_text(text.replace("  source: snapshot ", "  source: store ", 1), encoding="utf-8")
    return path


def said(result) -> str:
    return " ".join(result.stderr.split())


def test_plan_and_validate_on_a_missing_store_name_the_packaged_snapshot_they_fell_back_to(tmp_path):
    scenario, store = on_store(tmp_path), tmp_path / "none.sqlite"
    for command in (["validate"], ["plan", "--no-decisions", "--no-baselines", "--format", "json"]):
        result = run(*command, scenario, "--store", store)
        assert result.exit_code == 0, result.output
        assert f"no price store at {store}" in said(result) and "using the packaged snapshot" in said(result)
        assert all(gap in said(result) for gap in GAPS), result.stderr
        assert "store prices" not in result.stderr


def test_a_region_typo_on_a_missing_store_names_the_snapshot_searched(tmp_path):
    scenario = on_store(tmp_path, HYBRID.replace("regions: [us-east-1, eastus]", "regions: [us-eats-1, eastus]", 1))
    typo = "prices.regions: no offers in 'us-eats-1' (did you mean 'us-east-1'?) in the snapshot prices"
    for command in (["validate"], ["plan", "--no-decisions", "--no-baselines"]):
        result = run(*command, scenario, "--store", tmp_path / "none.sqlite")
        assert result.exit_code == 2 and typo in said(result), result.output


def test_a_store_holding_none_of_the_scenarios_regions_names_the_snapshot_its_prices_come_from(tmp_path, monkeypatch):
    from test_cli_prices import FakeSource, refresh, use

    store = tmp_path / "s.sqlite"
    use(monkeypatch, FakeSource())
    assert refresh(store).exit_code == 0   # aws us-east-1 only
    azure_only = HYBRID.replace("providers: [aws, azure]", "providers: [azure]", 1)
    scenario = on_store(tmp_path, azure_only.replace("regions: [us-east-1, eastus]", "regions: [eastus]", 1))
    gap = "reserved_1y: no reserved_1y prices for azure in eastus in the snapshot prices"
    for command in (["validate"], ["plan", "--no-decisions", "--no-baselines", "--format", "json"]):
        result = run(*command, scenario, "--store", store)
        assert result.exit_code == 0 and gap in said(result), result.output
        assert "store prices" not in result.stderr


def test_a_store_holding_the_scenarios_prices_is_still_named(tmp_path, monkeypatch):
    from test_cli_prices import FakeSource, refresh, use

    store = tmp_path / "s.sqlite"
    use(monkeypatch, FakeSource())
    assert refresh(store).exit_code == 0
    aws_only = HYBRID.replace("providers: [aws, azure]", "providers: [aws]", 1)
    scenario = on_store(tmp_path, aws_only.replace("regions: [us-east-1, eastus]", "regions: [us-east-1]", 1))
    gap = "reserved_1y: no reserved_1y prices for aws in us-east-1 in the store prices"
    for command in (["validate"], ["plan", "--no-decisions", "--no-baselines", "--format", "json"]):
        result = run(*command, scenario, "--store", store)
        assert result.exit_code == 0 and gap in said(result), result.output
