"""Counts in the adapters' messages and notes agree with their nouns: "1 zone quote", "4 zone quotes", "zone 2",
"zones 1,2,3", "unknown provider ['acme']", never "(s)" (as the planner words "1 month", "4 workloads")."""

from __future__ import annotations

import pandas as pd
import pytest

from pricing_adapters.azure import _restriction_notes
from pricing_adapters.jumps import AgainstOnDemand
from pricing_adapters.schema import OffersSchemaError, validate_offers
from pricing_adapters.shown import counted, plural
from pricing_adapters.snapshot import load_snapshot


@pytest.mark.parametrize(("zones", "said"), [(["2"], "restricted in zone 2: NotAvailableForSubscription"),
                                             (["1", "2", "3"], "restricted in zones 1,2,3: NotAvailableForSubscription"),
                                             (None, "restricted in zone ?: NotAvailableForSubscription")])
def test_an_azure_zone_restriction_counts_its_zones_in_words(zones, said):
    sku = {"restrictions": [{"type": "Zone", "reasonCode": "NotAvailableForSubscription",
                             "restrictionInfo": {"zones": zones}}]}
    assert _restriction_notes(sku, "eastus") == [said]


def test_unknown_providers_options_and_duplicate_ids_are_counted_in_words():
    offers = load_snapshot(["aws"]).head(3).copy()
    offers["provider"] = ["acme", "gcp", "gcp"]
    offers["purchase_option"] = ["lease"] + list(offers["purchase_option"][1:])
    offers["offer_id"] = ["x", "x", "y"]
    with pytest.raises(OffersSchemaError) as info:
        validate_offers(offers)
    said = str(info.value)
    assert "unknown providers ['acme', 'gcp']" in said and "unknown purchase_option ['lease']" in said
    assert "row 2 (offer x): duplicate offer_id, first at row 1" in said and "(s)" not in said


def test_a_provider_without_a_packaged_snapshot_is_named_in_the_singular():
    with pytest.raises(ValueError, match=r"^no packaged snapshot for provider \['gcp'\]; have"):
        load_snapshot(["gcp"])
    with pytest.raises(ValueError, match=r"^no packaged snapshot for providers \['acme', 'gcp'\]; have"):
        load_snapshot(["gcp", "acme"])


def test_the_packaged_spot_notes_count_their_zone_quotes_in_words():
    # scripts/build_snapshot.py: the lowest of the zones' quotes (aws us-east-1 g4dn.xlarge: one zone, g5.xlarge: five)
    notes = load_snapshot(["aws"]).set_index("offer_id")["note"]
    assert notes["aws:us-east-1:g4dn.xlarge:spot"].startswith("lowest of 1 zone quote |")
    assert notes["aws:us-east-1:g5.xlarge:spot"].startswith("lowest of 5 zone quotes |")
    assert not pd.Series(notes).str.contains("(s)", regex=False).any()


@pytest.mark.parametrize(("count", "said"), [(0, "0 regions"), (1, "1 region"), (2, "2 regions"), (999, "999 regions"),
                                             (1000, "1,000 regions"), (1_234_567, "1,234,567 regions")])
def test_counted_agrees_with_its_count_and_separates_thousands(count, said):
    assert counted(count, "region") == said


def test_counted_and_plural_take_an_irregular_plural_and_name_nouns_without_a_count():
    assert counted(1, "quantity", "quantities") == "1 quantity"
    assert counted(2, "quantity", "quantities") == "2 quantities"
    assert counted(2, "card type") == "2 card types"
    assert (plural(1, "zone"), plural(0, "zone"), plural(3, "zone")) == ("zone", "zones", "zones")


def test_the_planner_counts_with_the_adapters_helper():
    # the adapters may not import the planner: one helper, in pricing_adapters.shown, planner.text shows it
    from planner import text

    assert text.counted is counted and text.plural is plural


@pytest.mark.parametrize(("count", "said"), [(1, "1 spot offer costs"), (1200, "1,200 spot offers cost")])
def test_an_against_on_demand_line_counts_its_offers_with_separators(count, said):
    line = AgainstOnDemand("aws", "us-east-1", "spot offer", above=False, limit=0.05, count=count, example_offer="x",
                           example_per_hour=0.01, example_upfront=False, on_demand_per_hour=1.0, currency="USD")
    assert line.describe().startswith(f"aws us-east-1: {said} less an hour than 1/20 of the same instance on demand in "
                                      "this refresh, e.g. x 0.01 USD/h, against 1 on demand (")
