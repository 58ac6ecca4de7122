"""A plan's offers table carries the offers contract's types (docs/offers-contract.md, pricing_adapters/schema.py's
OFFER_COLUMNS): `term_months` is a whole number of months — int there, and came back float (12.0, 0.0) in
`p.offers` — nullable (Int64) where a unit has none (an on-prem card, whose hourly and upfront prices are blank too).

Oracles: the contract's declared dtypes, not the code's output, and its terms: 0 for an option without one (the
on-demand p5.48xlarge of startup-hybrid.yaml's fleet), none for a card."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from planner import compare, plan, to_excel, to_json, to_markdown
from pricing_adapters.schema import OFFER_COLUMNS

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def p():
    return plan(ROOT / "scenarios" / "startup-hybrid.yaml", baselines=False)


def _kind(dtype) -> str:
    """A dtype's kind as the contract names it: integer, float, bool or text."""
    if pd.api.types.is_bool_dtype(dtype):
        return "bool"
    if pd.api.types.is_integer_dtype(dtype):
        return "integer"
    if pd.api.types.is_float_dtype(dtype):
        return "float"
    return "text" if pd.api.types.is_string_dtype(dtype) or pd.api.types.is_object_dtype(dtype) else str(dtype)


def test_each_contract_column_of_the_plans_offers_has_the_contracts_kind(p):
    shared = [c for c in p.offers.columns if c in OFFER_COLUMNS]
    assert "term_months" in shared and "hourly_price" in shared
    for column in shared:
        assert _kind(p.offers[column].dtype) == _kind(pd.api.types.pandas_dtype(OFFER_COLUMNS[column])), column


def test_term_months_is_whole_months_and_missing_for_cards(p):
    offers = p.offers
    assert pd.api.types.is_integer_dtype(offers["term_months"].dtype)
    cards = offers["provider"] == "onprem"
    assert cards.any() and offers.loc[cards, "term_months"].isna().all()
    on_demand = offers.loc[offers["sku"] == "p5.48xlarge", "term_months"]
    assert on_demand.tolist() == [0]   # the contract: options without a term have 0


def test_the_reports_read_the_integer_terms(p):
    doc = json.loads(to_json(p))
    terms = {r["sku"]: r["term_months"] for r in doc["prices_used"]}
    assert terms["p5.48xlarge"] == 0 and terms["rtx-4090"] is None
    assert "p5.48xlarge" in to_markdown(p) and to_excel(p)
    assert compare(p, p).prices.empty   # the same terms on both sides (NA for the cards) differ in nothing


def test_a_reservations_term_is_its_options_whole_months(tmp_path):
    # (a guard: without cards the column was int64 before too; the cards' blanks made it float)
    # one T4 type (test_reservation_dispatch's offers): 1.00 USD an hour on demand, 0.50 reserved for a year, every
    # hour paid; 2.5 T4s busy all the time hold two reservations (365 a month each against 730 by the hour)
    header = ("offer_id,provider,region,sku,purchase_option,gpu,gpu_known,accelerator_name,gpu_count,gpu_memory_gb,"
              "gpu_memory_mib,vcpus,memory_gb,hourly_price,upfront_price,currency,term_months,zone,as_of,source,note\n")
    offers = tmp_path / "offers.csv"
    offers.write_text(header + "".join(
        f"aws:us-east-1:t4x1:{option},aws,us-east-1,t4x1,{option},T4,True,T4,1,16,,8,32,{hourly},0,USD,{term},,"
        "2026-01-01,test,\n" for option, hourly, term in (("on_demand", 1.0, 0), ("reserved_1y", 0.5, 12))),
        encoding="utf-8")
    p = plan({"name": "reserved", "horizon_months": 12,
              "prices": {"source": str(offers), "providers": ["aws"], "purchase_options": ["on_demand", "reserved_1y"]},
              "workloads": [{"name": "chat", "reference_gpus": 2.5, "reference_gpu": "T4", "profile": "flat"}]},
             baselines=False)
    terms = dict(zip(p.offers["purchase_option"], p.offers["term_months"]))
    assert pd.api.types.is_integer_dtype(p.offers["term_months"].dtype)
    assert terms["reserved_1y"] == 12 and isinstance(terms["reserved_1y"], (int, np.integer))
    # the JSON's terms are whole numbers (12, not 12.0)
    assert {type(r["term_months"]) for r in json.loads(to_json(p))["prices_used"]} == {int}
