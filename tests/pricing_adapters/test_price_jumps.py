"""A refresh whose prices moved by orders of magnitude against the prices in force is refused, the store
unchanged, unless accepted deliberately (hostile-input audit, 2026-12-05, item 4: a feed at 1e6 × the real
prices was saved with exit 0 and planned a fleet at 17.6 billion USD).

The prices in these tests are the packaged Azure eastus offers (3.673 USD/h for the NC24ads A100 v4 on
demand) and the reference data's repricings (tests/fixtures/reference/)."""

from __future__ import annotations

import pandas as pd
import pytest

from pricing_adapters.errors import PriceJumpError
from pricing_adapters.jumps import matched_ratios, region_jump
from pricing_adapters.refresh import refresh
from pricing_adapters.snapshot import load_snapshot
from pricing_adapters.store import PriceStore

NC24 = "azure:eastus:Standard_NC24ads_A100_v4:on_demand"


def _prices(prices: dict[str, float], currency: str = "USD", upfront: dict[str, float] | None = None) -> pd.DataFrame:
    """Offer rows with just what a comparison reads: {offer_id: hourly price}, one currency, no term but for
    an offer given an upfront (a 1-year reservation: 12 months)."""
    upfront = upfront or {}
    return pd.DataFrame({"offer_id": list(prices), "region": "r", "hourly_price": list(prices.values()),
                         "upfront_price": [upfront.get(o, 0.0) for o in prices],
                         "term_months": [12 if o in upfront else 0 for o in prices], "currency": currency})


def test_a_whole_table_at_1000_times_its_prices_is_a_jump_with_an_on_demand_example():
    old = _prices({"a:spot": 1.0, "b:on_demand": 2.0, "c:on_demand": 4.0})
    new = _prices({"a:spot": 1000.0, "b:on_demand": 2000.0, "c:on_demand": 4000.0})
    jump = region_jump(matched_ratios(old, new))
    assert jump["median_ratio"] == pytest.approx(1000.0) and (jump["matched"], jump["jumped"]) == (3, 3)
    # every offer moved by the median's 1000: the first on-demand offer is the example
    assert (jump["example_offer"], jump["example_old"], jump["example_new"]) == ("b:on_demand", 2.0, 2000.0)


def test_real_repricings_are_no_jump():
    # AWS's cut of p5.48xlarge (98.32 → 55.04 USD/h, -44 %) and p4d.24xlarge (32.77 → 21.957642), and
    # us-east-1's lowest p4d spot quote (2.4655) rising to the on-demand price, 8.9 ×
    old = _prices({"p5:on_demand": 98.32, "p4d:on_demand": 32.77, "p4d:spot": 2.4655})
    new = _prices({"p5:on_demand": 55.04, "p4d:on_demand": 21.957642, "p4d:spot": 21.957642})
    assert region_jump(matched_ratios(old, new)) is None


def test_a_quarter_of_the_offers_off_by_8760_is_a_jump_though_the_median_moved_not_at_all():
    # a reservation's yearly total read as its hourly fee: 8,760 × its price; the median of 4 offers stays at 1
    old = _prices({"a:on_demand": 4.0, "a:spot": 1.0, "a:savings_plan_1y": 3.0, "a:reserved_1y": 2.4})
    new = old.assign(hourly_price=[4.0, 1.0, 3.0, 2.4 * 8760])
    jump = region_jump(matched_ratios(old, new))
    assert jump["median_ratio"] == pytest.approx(1.0) and (jump["matched"], jump["jumped"]) == (4, 1)
    assert (jump["example_offer"], jump["example_new"]) == ("a:reserved_1y", pytest.approx(21024.0))
    # one of 5 offers (under a quarter) is not: a single price may be a mistake of the source, named elsewhere
    five = _prices({"a:on_demand": 4.0, "a:spot": 1.0, "a:savings_plan_1y": 3.0, "a:reserved_1y": 2.4, "a:low_priority": 0.8})
    assert region_jump(matched_ratios(five, five.assign(hourly_price=[4.0, 1.0, 3.0, 2.4 * 8760, 0.8]))) is None


def test_offers_compare_by_their_effective_hourly_price_and_only_in_one_currency():
    # a 1-year reservation of 0 USD/h and 21,024 USD upfront costs 21024 / 8760 = 2.4 USD an hour: the same
    # as 2.4 USD/h with nothing upfront
    old = _prices({"a:reserved_1y": 0.0}, upfront={"a:reserved_1y": 21024.0})
    assert matched_ratios(old, _prices({"a:reserved_1y": 2.4}))["ratio"].tolist() == [pytest.approx(1.0)]
    # prices in another currency than before are not compared (yen are not a jump of dollars)
    assert matched_ratios(_prices({"a:on_demand": 3.673}), _prices({"a:on_demand": 550.0}, "JPY")).empty


class _Source:
    """The packaged Azure eastus offers in `currency`, their prices times `factor`."""

    provider, source = "azure", "test feed"

    def __init__(self, factor: float, currency: str = "USD"):
        self.factor, self.currency = factor, currency

    def fetch(self, regions, progress):
        offers = load_snapshot(["azure"])
        offers = offers[offers["region"].isin(regions)].reset_index(drop=True)
        return offers.assign(hourly_price=offers["hourly_price"] * self.factor, currency=self.currency)


def test_a_million_times_the_prices_in_euro_are_refused_and_saved_only_when_accepted(tmp_path):
    # in EUR no bound of the currency's own catches 3,673,000 an hour: only the comparison does
    store = PriceStore(tmp_path / "s.sqlite")
    refresh(_Source(1.0, "EUR"), ["eastus"], store)
    with pytest.raises(PriceJumpError) as refused:
        refresh(_Source(1e6, "EUR"), ["eastus"], store)
    text = str(refused.value)
    # the packaged eastus holds 72 offers (azure.csv), all moved by a million; the example is the first on-demand
    # offer in id order, the RTX PRO 6000 at 6.38 an hour
    assert "azure eastus: the 72 offers also in snapshot #1 moved by a median ratio of ×1,000,000 (72 of 72" in text
    assert ("e.g. azure:eastus:Standard_NC128ds_xl_RTXPRO6000BSE_v6:on_demand 6.38 → 6,380,000 EUR/h" in text
            and "--accept-price-jumps" in text)
    assert [i.id for i in store.snapshots()] == [1]   # nothing saved
    warned = []
    info = refresh(_Source(1e6, "EUR"), ["eastus"], store, accept_price_jumps=True, warn=warned.append)
    assert info.id == 2 and store.offers(2).set_index("offer_id").at[NC24, "hourly_price"] == pytest.approx(3.673e6)
    assert len(warned) == 1 and warned[0].startswith("price jumps accepted (--accept-price-jumps): azure eastus")


def test_a_first_refresh_is_held_against_the_packaged_prices(tmp_path):
    store = PriceStore(tmp_path / "s.sqlite")
    with pytest.raises(PriceJumpError, match="the 72 offers also in the packaged snapshot moved by a median ratio of ×1/1,000"):
        refresh(_Source(1e-3), ["eastus"], store)
    assert store.snapshots() == []
    assert refresh(_Source(1.1), ["eastus"], store).id == 1   # ten percent dearer: a repricing
