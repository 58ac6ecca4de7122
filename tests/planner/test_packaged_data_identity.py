"""A plan's `prices.packaged_data` identifies the packaged data it used: the packaged price snapshot's build date
(its manifest's `built_at`) and the first 12 hex digits of the sha256 of each packaged price file and catalog
CSV, computed here from the files themselves; so a reviewer can tell whether two plans used the same data."""

import hashlib
import json
from pathlib import Path

import pytest

from planner.catalog import prices
from planner.engine import plan
from tests.planner.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
PRICE_FILES = ("pricing_adapters/snapshots/aws.csv", "pricing_adapters/snapshots/azure.csv")
CATALOG_FILES = ("planner/data/gpus.csv", "planner/data/onprem_cards.csv", "planner/data/measured_speed.csv",
                 "planner/data/measured_scaling.csv", "planner/data/frameworks.csv", "planner/data/cuda_compute.csv")


def short_sha256(name: str) -> str:
    return hashlib.sha256((ROOT / name).read_bytes()).hexdigest()[:12]


def built_at() -> str:
    return json.loads((ROOT / "pricing_adapters" / "snapshots" / "manifest.json").read_text(encoding="utf-8"))["built_at"]


@pytest.mark.parametrize("source", ["snapshot", "store"])
def test_a_plan_on_packaged_prices_names_their_build_and_the_hash_of_every_file(tmp_path, source):
    scenario = tmp_path / "s.yaml"
    scenario.write_text((ROOT / "scenarios" / "entry.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    text = scenario.read_text(encoding="utf-8")
    assert "source: snapshot" in text
    scenario.write_text(text.replace("source: snapshot", f"source: {source}"), encoding="utf-8")
    result = run("plan", scenario, "--format", "json", "--no-baselines", "--no-decisions")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)["prices"]["packaged_data"]
    assert data == {"built_at": built_at(), "sha256": {name: short_sha256(name) for name in PRICE_FILES + CATALOG_FILES}}


def test_a_plan_on_an_offers_csv_names_only_the_catalog_files():
    # the worked example prices from its own offers CSV: no packaged price is used
    result = plan(ROOT / "examples" / "worked-example.yaml", baselines=False)
    assert result.prices["packaged_data"] == {"sha256": {name: short_sha256(name) for name in CATALOG_FILES}}


def test_the_hashes_are_computed_once_a_process(monkeypatch):
    prices._packaged_identity.cache_clear()
    read = []
    real = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: read.append(self.name) or real(self))
    first, again = prices.packaged_data("snapshot"), prices.packaged_data("store")
    assert first == again and sorted(read) == sorted(Path(n).name for n in PRICE_FILES + CATALOG_FILES)
