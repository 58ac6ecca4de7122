"""Counts in the adapters' messages and notes agree with their nouns: "1 zone quote", "4 zone quotes", "zone 2",
"zones 1,2,3", "unknown provider ['acme']", never "(s)" (as the planner words "1 month", "4 workloads")."""

from __future__ import annotations

import pandas as pd
import pytest

from pricing_adapters.azure import _restriction_notes
from pricing_adapters.schema import OffersSchemaError, validate_offers
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
    assert "duplicate offer_id, e.g. ['x']" in said and "(s)" not in said


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
