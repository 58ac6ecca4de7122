"""A plan's offers table carries the offers contract's types (docs/offers-contract.md, pricing_adapters/schema.py's
OFFER_COLUMNS): `term_months` is a whole number of months — int there, and came back float (12.0, 0.0) in
`p.offers` — nullable (Int64) where a unit has none (an on-prem card, whose hourly and upfront prices are blank too).

Oracles: the contract's declared dtypes, not the code's output, and its terms: 0 for an option without one (the
on-demand p5.48xlarge of startup-hybrid.yaml's fleet), none for a card."""

from __future__ import annotations

import json
from pathlib import Path

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
