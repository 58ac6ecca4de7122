"""The hostile price APIs of the review of 2026-12-05, replayed offline: a server dripping its headers or gzip
blocks that decode to nothing past --deadline, prices of 400 digits, junk or future dates that won over a real
quote, a bogus duplicate that replaced a real price, API text stored and quoted without limit, one broken
instance type failing a whole region. Azure is answered by respx or a server on 127.0.0.1, AWS by Stubber.
"""

from __future__ import annotations

import copy
import gzip
import json
import math
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

import httpx
import pytest
import respx
import test_aws
from test_attacks import HANG, local_server  # noqa: F401 - local_server is a fixture
from test_aws import REGION, Stubs, _describe, _items

from pricing_adapters import azure
from pricing_adapters.aws import PRICE_SOURCE
from pricing_adapters.azure import AzurePriceSource
from pricing_adapters.base import api_number
from pricing_adapters.errors import DeadlineExceeded, PriceSourceError
from pricing_adapters.refresh import refresh
from pricing_adapters.store import PriceStore

session = test_aws.session            # fixture: a boto3 session with fake keys
RETAIL = "https://prices.azure.com/api/retail/prices"   # answered by respx: no request leaves the process
FIX_AZURE = Path(__file__).resolve().parents[1] / "fixtures" / "azure"
MI300X = "azure:eastus2:Standard_ND96isr_MI300X_v5:on_demand"   # 48.0 USD/h in the fixture page, effective 2026-06-01
G5 = "aws:us-east-1:g5.12xlarge:on_demand"                       # 5.672 USD/h in the fixture item


@pytest.fixture(autouse=True)
def _azure_defaults(monkeypatch):
    """The Azure adapter on its default URL (mocked) and the packaged size table: no ARM."""
    monkeypatch.delenv(azure.PRICES_URL_ENV, raising=False)
    monkeypatch.delenv(azure.SUBSCRIPTION_ENV, raising=False)


def _eastus2_items() -> list[dict]:
    return json.loads((FIX_AZURE / "retail_eastus2_page1.json").read_text())["Items"]


def _mi300x(**changes) -> dict:
    item = copy.deepcopy(next(i for i in _eastus2_items() if i["armSkuName"] == "Standard_ND96isr_MI300X_v5"))
    item.update(changes)
    return item


def _azure_fetch(items: list[dict], region: str = "eastus2", **page) -> tuple:
    """(offers, skipped) of one Retail page of `items` (json.dumps writes a 400-digit int as its digits)."""
    body = json.dumps({"Items": items, "NextPageLink": None, **page}).encode()
    src = AzurePriceSource(http=httpx.Client())
    with respx.mock(base_url=RETAIL) as router:
        router.get("").mock(return_value=httpx.Response(200, content=body))
        df = src.fetch([region])
    return df.set_index("offer_id"), src.skipped


# ------------------------------------------------------------------ the deadline holds while headers or gzip drip

def _headers_drip(handler, stop) -> None:
    """A status line, then one header byte every 0.1 s: never a whole answer (h11 allows 16 kB of headers)."""
    handler.wfile.write(b"HTTP/1.1 200 OK\r\nX-Drip: ")
    while not stop.wait(0.1):
        handler.wfile.write(b"a")
        handler.wfile.flush()


def _empty_gzip_blocks(handler, stop) -> None:
    """A gzip answer whose body is a gzip header, then an empty stored deflate block every 0.1 s: each chunk
    decodes to nothing, so a check made per decoded chunk never runs."""
    handler.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n"
                        b"Connection: close\r\n\r\n")
    handler.wfile.write(gzip.compress(b"")[:10])   # the 10-byte gzip header alone
    while not stop.wait(0.1):
        handler.wfile.write(b"\x00\x00\x00\xff\xff")
        handler.wfile.flush()


@pytest.mark.parametrize("respond", [_headers_drip, _empty_gzip_blocks], ids=["headers drip", "empty gzip blocks"])
def test_a_retail_answer_that_never_completes_is_cut_at_the_deadline(local_server, monkeypatch, tmp_path, respond):  # noqa: F811
    # Both were still reading after 100 s against --deadline 8 (the deadline was checked per decoded chunk only)
    monkeypatch.setenv(azure.PRICES_URL_ENV, local_server(respond) + "/p")
    store = PriceStore(tmp_path / "s.sqlite")
    outcome: dict = {}

    def run() -> None:
        try:
            refresh(AzurePriceSource(deadline=1.5), ["eastus"], store)
        except Exception as exc:  # noqa: BLE001 - handed to the test's thread
            outcome["error"] = exc

    started = time.monotonic()
    worker = threading.Thread(target=run, daemon=True)   # on the old code it never returns: the test must
    worker.start()
    worker.join(HANG)
    assert not worker.is_alive(), f"the refresh was still reading after {HANG} s against a 1.5 s deadline"
    assert isinstance(outcome.get("error"), DeadlineExceeded), outcome
    assert "1.5 s deadline" in str(outcome["error"]) and time.monotonic() - started < HANG
    assert store.snapshots() == []


# ------------------------------------------------------------------ numbers no float holds, numbers that are no JSON number

def test_api_number_reads_json_numbers_and_decimal_text_only():
    assert api_number(3.673) == 3.673 and api_number(48) == 48.0 and api_number("3.673") == 3.673
    assert api_number("2e-3") == 0.002 and api_number("-1.5") == -1.5 and api_number(".5") == 0.5
    assert api_number(10**400) == math.inf and api_number(-(10**400)) == -math.inf   # float() raised OverflowError
    assert api_number("1e400") == math.inf
    for bad in ("3_673", " 1", "nan", "inf", "Infinity", "0x10", "", "1" * 65, True, None, [1], {"a": 1}):
        assert math.isnan(api_number(bad)), bad


@pytest.mark.parametrize("where", ["retailPrice", "savingsPlan"])
def test_an_azure_price_of_400_digits_is_skipped_not_a_traceback(where):
    # was: OverflowError: int too large to convert to float, out of `fleetplan prices refresh`
    huge = 10**400
    if where == "retailPrice":
        item = _mi300x(retailPrice=huge)
    else:
        item = _mi300x(savingsPlan=[{"term": "1 Year", "retailPrice": huge, "unitPrice": huge}])
    others = [i for i in _eastus2_items() if i["armSkuName"] != "Standard_ND96isr_MI300X_v5"]
    df, skipped = _azure_fetch([item, *others])
    assert skipped.get("non_finite_price") == 1
    assert (MI300X in df.index) == (where == "savingsPlan")   # the on-demand rate stays when only a plan is broken
    if where == "savingsPlan":
        assert df.loc[MI300X, "hourly_price"] == 48.0


def test_an_azure_price_written_with_digit_separators_is_no_price():
    # "3_673" was read as 3,673 USD/h (Python's float() takes digit separators)
    df, skipped = _azure_fetch([_mi300x(retailPrice="48_0"), *_eastus2_items()[1:]])
    assert MI300X not in df.index and skipped.get("no_price") == 1


# ------------------------------------------------------------------ dates: a junk or future date won over a real quote

@pytest.mark.parametrize("date, reason", [("zzzz", "bad_effective_date"), ("2026-02-30T00:00:00Z", "bad_effective_date"),
                                          (20260601, "bad_effective_date"), ("2099-01-01T00:00:00Z", "not_yet_effective")])
def test_a_quote_with_a_junk_or_future_date_does_not_replace_the_real_one(date, reason):
    # "zzzz" > "2026-06-01" as text, so a 0.5 USD/h quote dated "zzzz" replaced the real 48.0 (a plan then cost
    # 365 USD instead of 2,681); a 2099 date won the same way
    bogus = _mi300x(retailPrice=0.5, effectiveStartDate=date)
    for items in ([*_eastus2_items(), bogus], [bogus, *_eastus2_items()]):   # either order
        df, skipped = _azure_fetch(items)
        assert df.loc[MI300X, "hourly_price"] == 48.0
        assert df.loc[MI300X, "note"].endswith("effectiveStartDate 2026-06-01")
        assert skipped == {reason: 1}


def test_of_two_real_dates_the_newer_quote_wins():
    newer = _mi300x(retailPrice=45.0, effectiveStartDate="2026-09-01T00:00:00Z")
    for items in ([*_eastus2_items(), newer], [newer, *_eastus2_items()]):
        df, skipped = _azure_fetch(items)
        assert df.loc[MI300X, "hourly_price"] == 45.0 and skipped == {"duplicate": 1}


# ------------------------------------------------------------------ units and names

def test_a_fraction_of_an_hour_as_unit_is_no_hourly_price():
    # "0.001 Hours" multiplied the price by 1,000; "100 Hours" stays a price for 100 hours
    df, skipped = _azure_fetch([_mi300x(unitOfMeasure="0.001 Hours"), *_eastus2_items()[1:]])
    assert MI300X not in df.index and skipped.get("unknown_unit") == 1
    df, _ = _azure_fetch([_mi300x(unitOfMeasure="100 Hours", retailPrice=4800.0), *_eastus2_items()[1:]])
    assert df.loc[MI300X, "hourly_price"] == 48.0


@pytest.mark.parametrize("name", ["Standard_NC\u212a", "Standard_NC\u017f"], ids=["Kelvin sign", "long s"])
def test_a_size_name_with_letters_that_fold_to_ascii_is_malformed(name):
    # re.IGNORECASE matched the Kelvin sign as k and the long s as s: stored as an unknown GPU size
    df, skipped = _azure_fetch([_mi300x(armSkuName=name, skuName="X")])
    assert df.empty and skipped == {"malformed_size_name": 1}


# ------------------------------------------------------------------ messages quote API values shortened

def test_a_megabyte_next_page_link_and_currency_come_back_short():
    with pytest.raises(PriceSourceError) as info:
        _azure_fetch(_eastus2_items(), NextPageLink="http://[" + "a" * 1_000_000)
    assert len(str(info.value)) < 600 and "(1,000,010 characters)" in str(info.value)   # its repr
    with pytest.raises(PriceSourceError) as info:
        _azure_fetch(_eastus2_items(), BillingCurrency="E" * 500_000)
    assert len(str(info.value)) < 400 and "(500,000 characters)" in str(info.value)
    with pytest.raises(PriceSourceError) as info:
        _azure_fetch([_mi300x(currencyCode="X" * 500_000)])
    assert len(str(info.value)) < 400 and "(500,000 characters)" in str(info.value)


# ------------------------------------------------------------------ AWS

def _with_usd(item: dict, usd) -> dict:
    """`item` with every on-demand price dimension at `usd`."""
    item = copy.deepcopy(item)
    for term in item["terms"]["OnDemand"].values():
        for dim in term["priceDimensions"].values():
            dim["pricePerUnit"]["USD"] = usd
    return item


def _aws(session, products: list[dict], describe: dict | None = None, **options) -> Stubs:
    """Stubs whose source fetched us-east-1 from `describe` and one GetProducts page of `products`; its offers in
    `.result`."""
    stubs = Stubs(session, spot=False, reserved=False, **options)
    stubs.describe(describe)
    stubs.products(products)
    stubs.result = stubs.source.fetch([REGION])
    stubs.done()
    return stubs


def test_an_aws_price_of_400_digits_is_skipped_as_malformed(session):
    # was: OverflowError out of _term_prices, a traceback
    stubs = _aws(session, [_with_usd(_items()["g5.12xlarge"], 10**400), _items()["g4ad.16xlarge"]])
    assert G5 not in set(stubs.result["offer_id"]) and stubs.source.skipped.get("malformed") == 1
    stubs = _aws(session, [_with_usd(_items()["g5.12xlarge"], "5_672"), _items()["g4ad.16xlarge"]])
    assert G5 not in set(stubs.result["offer_id"]) and stubs.source.skipped.get("malformed") == 1


def test_a_duplicate_product_at_another_price_drops_the_offer_and_an_equal_one_is_kept_once(session):
    # the cheapest won: a bogus 0.0002 USD/h replaced g5.12xlarge's 5.672
    real, bogus = _items()["g5.12xlarge"], _with_usd(_items()["g5.12xlarge"], "0.0002000000")
    for products in ([real, bogus], [bogus, real]):
        stubs = _aws(session, [*products, _items()["g4ad.16xlarge"]])
        assert G5 not in set(stubs.result["offer_id"])
        assert stubs.source.skipped == {"conflicting_prices": 2}
    stubs = _aws(session, [real, real, real, _items()["g4ad.16xlarge"]])
    assert stubs.result.set_index("offer_id").loc[G5, "hourly_price"] == 5.672
    assert stubs.source.skipped == {"duplicate": 2}
    stubs = _aws(session, [real, bogus, real, _items()["g4ad.16xlarge"]])   # a third copy of a dropped offer: counted too
    assert G5 not in set(stubs.result["offer_id"]) and stubs.source.skipped == {"conflicting_prices": 3}


def test_a_spot_quote_stamped_in_the_future_does_not_win(session):
    # a 2099 stamp at 0.01 USD/h beat the current 2.0 as "the newest quote" of its zone
    stubs = Stubs(session, reserved=False)
    stubs.describe()
    stubs.products([_items()["g5.12xlarge"]])
    quote = {"InstanceType": "g5.12xlarge", "ProductDescription": "Linux/UNIX", "AvailabilityZone": "us-east-1a",
             "AvailabilityZoneId": "use1-az1"}
    now = datetime.now(timezone.utc)
    stubs.spot({"SpotPriceHistory": [{**quote, "SpotPrice": "2.0", "Timestamp": now},
                                     {**quote, "SpotPrice": "0.01", "Timestamp": datetime(2099, 1, 1, tzinfo=timezone.utc)}]})
    df = stubs.source.fetch([REGION]).set_index("offer_id")
    stubs.done()
    assert df.loc["aws:us-east-1:g5.12xlarge:spot", "hourly_price"] == 2.0
    assert "2099" not in df.loc["aws:us-east-1:g5.12xlarge:spot", "note"]
    assert stubs.source.skipped == {"future_timestamp": 1}


@pytest.mark.parametrize("published, kept", [
    ("2026-03-20T18:05:11Z", True),
    ("\x1b]0;PWNED\x07\x1b[2J", False),
    ("2026-03-20T18:05:11Z" + "x" * 1_000_000, False),
])
def test_publication_date_is_quoted_only_when_it_is_a_date(session, published, kept):
    # terminal escapes and a megabyte were stored in every offer's source (a store grew to 30 MB in one refresh)
    item = copy.deepcopy(_items()["g5.12xlarge"])
    item["publicationDate"] = published
    stubs = _aws(session, [item])
    source = stubs.result.set_index("offer_id").loc[G5, "source"]
    facts = "; GPU facts: EC2 DescribeInstanceTypes"
    assert source == (f"{PRICE_SOURCE} published {published}{facts}" if kept else f"{PRICE_SOURCE}{facts}")


@pytest.mark.parametrize("name", ["g5.x:spot", "g5." + "x" * 5000, "G5.12XLARGE", "g5"])
def test_an_instance_type_name_aws_never_spells_is_skipped(session, name):
    # a 5,003-character name was stored, and "g5.x:spot" gave the offer id aws:us-east-1:g5.x:spot:on_demand
    describe = _describe()
    (g5,) = [t for t in describe["InstanceTypes"] if t["InstanceType"] == "g5.12xlarge"]
    describe["InstanceTypes"].append({**copy.deepcopy(g5), "InstanceType": name})
    odd = copy.deepcopy(_items()["g5.12xlarge"])
    odd["product"]["attributes"]["instanceType"] = name
    stubs = _aws(session, [_items()["g5.12xlarge"], odd], describe=describe)
    assert list(stubs.result["sku"]) == ["g5.12xlarge"]
    assert stubs.source.skipped.get("malformed") == 1


def test_one_instance_type_with_a_negative_memory_is_skipped_not_the_whole_region(session):
    # was: "refresh failed: aws fetch: row 2 (offer aws:us-east-1:g5.2xlarge:on_demand): negative gpu_memory_mib"
    describe = _describe()
    (g4ad,) = [t for t in describe["InstanceTypes"] if t["InstanceType"] == "g4ad.16xlarge"]
    g4ad["GpuInfo"]["Gpus"][0]["MemoryInfo"]["SizeInMiB"] = -5
    stubs = _aws(session, [_items()["g5.12xlarge"], _items()["g4ad.16xlarge"]], describe=describe)
    assert list(stubs.result["offer_id"]) == [G5]
    assert stubs.source.skipped == {"malformed_row": 1}


def test_a_region_whose_every_accelerator_type_is_malformed_says_so(session, tmp_path):
    # the message said "check the region code" and named nothing skipped
    describe = _describe()
    for t in describe["InstanceTypes"]:
        t["InstanceType"] = t["InstanceType"] + ":x"
    stubs = Stubs(session, spot=False, reserved=False)
    stubs.describe(describe)
    stubs.products([_items()["g5.12xlarge"]])
    with pytest.raises(PriceSourceError) as info:
        refresh(stubs.source, [REGION], PriceStore(tmp_path / "s.sqlite"))
    n = sum(any(k in t for k in ("GpuInfo", "NeuronInfo", "InferenceAcceleratorInfo")) for t in describe["InstanceTypes"])
    assert str(info.value).startswith(f"no GPU offers returned for region {REGION}: {n} accelerator instance "
                                      f"types were returned and every one was skipped (skipped in this refresh: "
                                      f"{n} malformed")
    assert "check the region" not in str(info.value)
