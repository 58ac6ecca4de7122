"""The Prices page's "Rank for the work of" ranks only the offers the plan can use for that workload, as the
engine decides (engine.workloads): for startup-hybrid's llm-finetune (not interruptible, TensorFlow 2.12, 80 GB)
it put an Azure spot A100 at 0.43 USD/h first and listed B200, which the plan excludes, so the plan seemed to
overpay six times. The others are shown on request, each with the engine's reason.

Oracles: startup-hybrid.yaml's llm-finetune (throughput table: A100-80GB-PCIE 1.0, H100-SXM 2.4) and prices
written here; quotients worked by hand."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import tables
from planner import load_scenario

ROOT = Path(__file__).resolve().parents[2]
PRICES_PAGE = "fleetplan_dashboard/pages/prices.py"


@pytest.fixture(scope="module")
def startup():
    return load_scenario(ROOT / "scenarios" / "startup-hybrid.yaml")


def _view(rows) -> pd.DataFrame:
    columns = ["provider", "region", "sku", "purchase_option", "gpu", "gpu_count", "gpu_memory_gb", "usd_per_gpu_hour"]
    return pd.DataFrame(rows, columns=columns)


OFFERS = _view([
    ("azure", "eastus", "Standard_NC24ads_A100_v4", "spot", "A100-80GB-PCIE", 1, 80.0, 0.43),
    ("aws", "us-east-1", "p5.48xlarge", "on_demand", "H100-SXM", 8, 80.0, 6.88),
    ("aws", "us-east-1", "p6-b200.48xlarge", "on_demand", "B200", 8, 180.0, 7.0),
    ("aws", "us-east-1", "p4d.24xlarge", "on_demand", "A100-40GB-SXM", 8, 40.0, 2.5),
    ("onprem", "onprem", "a100-80gb-pcie", "purchase", "A100-80GB-PCIE", 1, 80.0, 0.52),
])


def test_offers_llm_finetune_cannot_use_are_ranked_last_with_the_engines_reason(startup):
    w = next(w for w in startup.workloads if w.name == "llm-finetune")
    ranked = tables.per_reference_hour(OFFERS, w, startup)
    # by hand: the owned A100 0.52 / 1.0; the H100 6.88 / 2.4 = 2.8667 per A100-hour of work
    assert list(ranked["sku"][:2]) == ["a100-80gb-pcie", "p5.48xlarge"]
    assert ranked["usd_per_reference_gpu_hour"][:2].tolist() == pytest.approx([0.52, 6.88 / 2.4])
    reasons = dict(zip(ranked["sku"], ranked["cannot_serve"]))
    assert reasons["Standard_NC24ads_A100_v4"] == "spot capacity serves interruptible workloads only"
    assert reasons["p4d.24xlarge"] == "40 GB per GPU < 80 GB needed"
    assert reasons["p6-b200.48xlarge"].startswith("tensorflow 2.12") and "B200 is 10" in reasons["p6-b200.48xlarge"]
    assert reasons["a100-80gb-pcie"] == reasons["p5.48xlarge"] == ""
    assert all(math.isnan(x) for x in ranked["usd_per_reference_gpu_hour"][2:])


def test_spot_work_of_an_interruptible_workload_is_counted_less_its_overhead(startup):
    w = next(w for w in startup.workloads if w.name == "llm-finetune")
    w = w.model_copy(update={"interruptible": True, "interruption_overhead": 0.1})
    ranked = tables.per_reference_hour(OFFERS, w, startup)
    spot = ranked[ranked["purchase_option"] == "spot"].iloc[0]
    # by hand: an hour of the spot A100 does 1.0 × (1 − 0.1) = 0.9 A100-hours of work: 0.43 / 0.9 USD each
    assert spot["cannot_serve"] == ""
    assert spot["speed_vs_reference"] == pytest.approx(0.9)
    assert spot["usd_per_reference_gpu_hour"] == pytest.approx(0.43 / 0.9)


def test_a_job_on_more_gpus_than_a_node_holds_cannot_use_it(startup):
    w = next(w for w in startup.workloads if w.name == "llm-finetune").model_copy(update={"gpus_per_job": 4})
    ranked = tables.per_reference_hour(OFFERS, w, startup)
    reasons = dict(zip(ranked["sku"], ranked["cannot_serve"]))
    assert reasons["p5.48xlarge"] == ""                                     # 8 GPUs: two 4-GPU jobs
    assert reasons["Standard_NC24ads_A100_v4"] == "spot capacity serves interruptible workloads only"


def _prices_page() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.switch_page(PRICES_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="prices_workload").value == "llm-finetune"
    return at


def test_the_prices_page_hides_what_llm_finetune_cannot_use_until_asked():
    at = _prices_page()
    table = at.dataframe[0].value
    assert not (table["purchase_option"] == "spot").any()                  # llm-finetune is not interruptible
    assert not table["gpu"].isin(["B200", "GB200", "B300"]).any()          # TensorFlow 2.12's CUDA 11.8
    assert (table["gpu_memory_gb"] >= 80).all()
    assert "cannot use left out" in next(c.value for c in at.caption if "offers" in c.value and "first" in c.value)
    at.toggle(key="prices_unusable").set_value(True).run()
    # the table keeps the offers it can use; those it cannot are listed under it, each reason once
    assert not (at.dataframe[0].value["purchase_option"] == "spot").any()
    assert "cannot use listed under the table" in next(c.value for c in at.caption if "first" in c.value)
    (listing,) = [m.value for m in at.markdown if m.value.startswith("- ")]
    assert r"- spot capacity serves interruptible workloads only — " in listing


def test_no_offer_left_by_the_filters_is_said_so():
    at = _prices_page()
    at.number_input(key="prices_memory").set_value(10_000.0).run()         # no GPU has 10 TB
    assert not at.exception, [e.value for e in at.exception]
    assert [i.value for i in at.info] == ["No offers match your filters."]
    assert not [c.value for c in at.caption if "unknown date" in c.value]
