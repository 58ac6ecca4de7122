"""The review of 2026-12-04, replayed offline: answers and store cells nested 100,000 deep, numbers no float
holds, an accelerator type without a name, a page gzipped twice. On the old code each was a traceback (or,
for the page gzipped twice, gigabytes of memory); each now fails in one line or is skipped and named.
Azure is answered by respx, AWS by Stubber or at botocore's `before-send` (raw HTTP bodies).
"""

from __future__ import annotations

import gzip
import json
import math
import sqlite3
from pathlib import Path

import httpx
import pandas as pd
import pytest
import respx
import test_aws
from botocore.awsrequest import AWSResponse
from test_aws import REGION, Stubs, _assert_unchanged, _items, _p4d_item, _Raw, _store_state
from typer.testing import CliRunner

from planner.catalog import price_table
from planner.cli import app
from pricing_adapters import aws, azure
from pricing_adapters.aws import AwsPriceSource
from pricing_adapters.azure import AzurePriceSource
from pricing_adapters.errors import PriceSourceError
from pricing_adapters.refresh import refresh
from pricing_adapters.snapshot import load_snapshot
from pricing_adapters.store import PriceStore

runner = CliRunner()
session = test_aws.session            # fixture: a boto3 session with fake keys
store_with_snapshot = test_aws.store_with_snapshot   # one good us-east-1 offer, g5.12xlarge at 5.672 USD/h

RETAIL = "https://prices.azure.com/api/retail/prices"   # answered by respx: no request leaves the process
FIX_AZURE = Path(__file__).resolve().parents[1] / "fixtures" / "azure"
EASTUS2_PAGE = (FIX_AZURE / "retail_eastus2_page1.json").read_bytes()   # MI300X v5 on-demand at 48.0 USD/h
MI300X = "azure:eastus2:Standard_ND96isr_MI300X_v5:on_demand"
DEEP = "[" * 100_000 + "]" * 100_000   # beyond any recursion limit of json.loads


@pytest.fixture(autouse=True)
def _azure_defaults(monkeypatch):
    """The Azure adapter on its default URL (mocked) and the packaged size table: no ARM."""
    monkeypatch.delenv(azure.PRICES_URL_ENV, raising=False)
    monkeypatch.delenv(azure.SUBSCRIPTION_ENV, raising=False)


# ------------------------------------------------------------------ JSON nested 100,000 deep

def test_an_azure_page_nested_100000_deep_is_not_valid_json_in_one_line(tmp_path):
    # it was a RecursionError traceback out of `fleetplan prices refresh`
    body = b'{"Items": [' + DEEP.encode() + b"]}"
    store = tmp_path / "s.sqlite"
    with respx.mock(base_url=RETAIL) as router:
        router.get("").mock(return_value=httpx.Response(200, content=body))
        with pytest.raises(PriceSourceError, match=r"^Azure Retail Prices API: page .* is not valid JSON$"):
            AzurePriceSource(http=httpx.Client()).fetch(["eastus"])
        result = runner.invoke(app, ["prices", "refresh", "--provider", "azure", "--region", "eastus",
                                     "--store", str(store)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "RecursionError" not in result.output
    (said,) = result.stderr.strip().splitlines()
    assert said.startswith("refresh failed: Azure Retail Prices API: page https://prices.azure.com")
    assert said.endswith("is not valid JSON. The store is unchanged; plans keep using the packaged snapshot for eastus.")


def test_a_get_products_answer_nested_100000_deep_is_a_one_line_error_and_saves_nothing(session, store_with_snapshot):
    # botocore's json.loads raised RecursionError, which `_errors` did not turn into a PriceSourceError
    body = ('{"FormatVersion": "aws_v1", "PriceList": [' + DEEP + "]}").encode()
    src = AwsPriceSource(session=session, spot=False, max_attempts=1)
    ec2 = test_aws.Stubber(src.client("ec2", REGION))
    ec2.add_response("describe_instance_types", test_aws._describe(), {"MaxResults": 100})
    ec2.activate()
    src.pricing_client(REGION).meta.events.register(
        "before-send.pricing.GetProducts",
        lambda request, **kwargs: AWSResponse(request.url, 200, {"Content-Type": "application/x-amz-json-1.1"},
                                              _Raw(body)))
    before = _store_state(store_with_snapshot)
    with pytest.raises(PriceSourceError) as info:
        refresh(src, [REGION], store_with_snapshot)
    text = str(info.value)
    assert text.startswith("AWS GetProducts failed in us-east-1: its answer could not be read (RecursionError")
    assert text.endswith("; nothing was saved") and "\n" not in text
    _assert_unchanged(store_with_snapshot, before)


def test_a_price_list_item_nested_100000_deep_fails_like_any_item_that_does_not_parse(session, store_with_snapshot):
    # an item string of nested lists escaped `_product` as a RecursionError
    stubs = Stubs(session, spot=False)
    stubs.describe()
    stubs.pricing.add_response("get_products", {"FormatVersion": "aws_v1", "PriceList": [DEEP]},
                               test_aws._products_params())
    before = _store_state(store_with_snapshot)
    with pytest.raises(PriceSourceError) as info:
        refresh(stubs.source, [REGION], store_with_snapshot)
    text = str(info.value)
    assert text.startswith("AWS GetProducts page 1 for us-east-1 has an item that does not parse as a product: '[[[[")
    assert text.endswith("; nothing was saved") and "\n" not in text
    _assert_unchanged(store_with_snapshot, before)


# ------------------------------------------------------------------ DescribeInstanceTypes: no name, a 400-digit MiB

def _ec2_item(itype: str | None, name: str, count: int, gpu_mib: str, vcpus: int, mib: int) -> str:
    named = f"<instanceType>{itype}</instanceType>" if itype else ""
    return (f"<item>{named}<vCpuInfo><defaultVCpus>{vcpus}</defaultVCpus></vCpuInfo><memoryInfo><sizeInMiB>{mib}"
            f"</sizeInMiB></memoryInfo><gpuInfo><gpus><item><name>{name}</name><manufacturer>NVIDIA</manufacturer>"
            f"<count>{count}</count><memoryInfo><sizeInMiB>{gpu_mib}</sizeInMiB></memoryInfo></item></gpus>"
            f"</gpuInfo></item>")


@pytest.mark.parametrize("bad", [
    _ec2_item(None, "A10G", 1, "22888", 4, 16384),                          # was a KeyError
    _ec2_item("p4d.24xlarge", "A100", 8, "1" + "0" * 400, 96, 1179648),     # was an OverflowError
], ids=["no instanceType", "GPU MiB of 401 digits"])
def test_an_accelerator_type_without_a_name_or_with_a_400_digit_mib_is_skipped_and_counted(session, bad):
    items = _ec2_item("g5.12xlarge", "A10G", 4, "22888", 48, 196608) + bad   # the fixture's g5.12xlarge, then it
    body = ('<?xml version="1.0" encoding="UTF-8"?><DescribeInstanceTypesResponse '
            'xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>r</requestId>'
            f"<instanceTypeSet>{items}</instanceTypeSet></DescribeInstanceTypesResponse>").encode()
    src = AwsPriceSource(session=session, spot=False, reserved=False, max_attempts=1)
    src.client("ec2", REGION).meta.events.register(
        "before-send.ec2.DescribeInstanceTypes",
        lambda request, **kwargs: AWSResponse(request.url, 200, {"Content-Type": "text/xml"}, _Raw(body)))
    pricing = test_aws.Stubber(src.pricing_client(REGION))
    pricing.add_response("get_products", test_aws._page([_items()["g5.12xlarge"], _p4d_item()]),
                         test_aws._products_params())
    pricing.add_response("get_products", test_aws._page([]), test_aws._products_params(metal=True))
    pricing.activate()
    df = src.fetch([REGION])
    pricing.assert_no_pending_responses()
    # g5.12xlarge alone, at the fixture's 5.6720000000 USD/h; p4d is priced but has no facts left
    assert list(df["offer_id"]) == ["aws:us-east-1:g5.12xlarge:on_demand"]
    assert list(df["hourly_price"]) == [5.672] and list(df["gpu_count"]) == [4.0]
    assert src.skipped == {"malformed": 1, "no_accelerator_facts": 1}


def test_memory_share_of_a_400_digit_mib_is_unknown():
    assert aws.memory_share("L4", 10**400) is None   # was OverflowError: int too large to convert to float
    assert aws.memory_share("L4", 2861) == (0.125, 22888)


# ------------------------------------------------------------------ stored cells: nested regions, infinite terms

def _packaged(region: str) -> pd.DataFrame:
    offers = load_snapshot(["azure"])
    return offers[offers["region"] == region].reset_index(drop=True)


def _edit(path: Path, sql: str, *params) -> None:
    con = sqlite3.connect(path)
    con.execute(sql, params)
    con.commit()
    con.close()


@pytest.fixture
def two_snapshots(tmp_path) -> Path:
    """#1 azure eastus at 2 × the packaged prices, #2 azure eastus at 3 ×."""
    path = tmp_path / "s.sqlite"
    s = PriceStore(path)
    for factor in (2, 3):
        s.save("azure", ["eastus"], "test", _packaged("eastus").assign(hourly_price=lambda d, f=factor: d["hourly_price"] * f))
    return path


def _eastus(offers: pd.DataFrame) -> pd.Series:
    rows = offers[(offers["provider"] == "azure") & (offers["region"] == "eastus")]
    return rows.set_index("offer_id")["hourly_price"].sort_index()


def _expected(factor: float) -> pd.Series:
    return (_packaged("eastus").set_index("offer_id")["hourly_price"] * factor).sort_index()


def test_a_snapshot_whose_regions_nest_100000_deep_is_skipped_and_named(two_snapshots):
    # json.loads raised RecursionError: list, show, plans on the store and refresh (after saving) all crashed
    _edit(two_snapshots, "UPDATE snapshots SET regions = ? WHERE id = 2", DEEP)
    said = f"snapshot #2 skipped (regions {DEEP[:80]!r} is not a JSON list)"
    offers, provenance = price_table("store", two_snapshots)
    pd.testing.assert_series_equal(_eastus(offers), _expected(2))   # #1 is in force again
    assert said in provenance["warning"] and len(provenance["warning"]) < 2000   # the cell is not copied whole
    for command in (["prices", "list"], ["prices", "show"]):
        result = runner.invoke(app, [*command, "--store", str(two_snapshots)])
        assert result.exit_code == 0 and "Traceback" not in result.output, (command, result.output)
        assert said in result.stderr
    with respx.mock(base_url=RETAIL) as router:
        router.get("").mock(return_value=httpx.Response(200, content=EASTUS2_PAGE))
        # the recorded page's 3 offers, where the packaged snapshot holds 74 in eastus2: the missing ones accepted
        result = runner.invoke(app, ["prices", "refresh", "--provider", "azure", "--region", "eastus2",
                                     "--store", str(two_snapshots), "--accept-missing-offers"])
    assert result.exit_code == 0, result.output
    assert "saved snapshot #3 (azure, eastus2" in result.stderr and "Traceback" not in result.output
    offers, _ = price_table("store", two_snapshots)
    assert list(offers.loc[offers["offer_id"] == MI300X, "hourly_price"]) == [48.0]


@pytest.mark.parametrize("term", [math.inf, -math.inf, 1e300])
def test_an_offer_whose_term_months_is_infinite_is_skipped_as_a_bad_term(two_snapshots, term):
    # SQLite keeps inf as a REAL; astype("int64") raised IntCastingNaNError (1e300 was already skipped)
    nc24 = "azure:eastus:Standard_NC24ads_A100_v4:on_demand"
    _edit(two_snapshots, "UPDATE offers SET term_months = ? WHERE snapshot_id = 2 AND offer_id = ?", term, nc24)
    offers, provenance = price_table("store", two_snapshots)
    pd.testing.assert_series_equal(_eastus(offers), _expected(3).drop(nc24))
    row = list(_packaged("eastus")["offer_id"]).index(nc24) + 1   # rows are kept in the order they were saved
    assert f"snapshot #2: 1 bad offer row skipped: row {row} (offer {nc24}): bad term_months" in provenance["warning"]
    for command in (["prices", "list"], ["prices", "show"]):
        result = runner.invoke(app, [*command, "--store", str(two_snapshots)])
        assert result.exit_code == 0 and "Traceback" not in result.output, (command, result.output)


# ------------------------------------------------------------------ Content-Encoding

def _counted(body: bytes, reads: list) -> object:
    """The body as a stream that records each chunk read from it."""
    def chunks():
        for start in range(0, len(body), 4096):
            reads.append(start)
            yield body[start:start + 4096]
    return chunks()


@pytest.mark.parametrize("headers, wire", [
    ([("content-encoding", "gzip, gzip")], lambda b: gzip.compress(gzip.compress(b))),
    ([("content-encoding", "gzip"), ("content-encoding", "gzip")], lambda b: gzip.compress(gzip.compress(b))),
    ([("content-encoding", "identity, gzip")], gzip.compress),
    ([("content-encoding", "zstd")], lambda b: b),
], ids=["gzip-gzip", "two-headers", "identity-gzip", "zstd"])
def test_a_page_with_more_than_one_content_coding_is_refused_before_its_body_is_read(tmp_path, headers, wire):
    # gzip of gzip of 4 GiB of zeros (6.7 kB on the wire) took 8.5 GB of memory: httpx undoes every layer of a
    # network chunk before the page's size can be counted
    reads: list = []
    store = PriceStore(tmp_path / "s.sqlite")
    with respx.mock(base_url=RETAIL) as router:
        router.get("").mock(return_value=httpx.Response(200, headers=headers,
                                                        content=_counted(wire(EASTUS2_PAGE), reads)))
        with pytest.raises(PriceSourceError) as info:
            refresh(AzurePriceSource(http=httpx.Client()), ["eastus2"], store)
    text = str(info.value)
    assert text.startswith("Azure Retail Prices API: page https://prices.azure.com") and "\n" not in text
    assert "has Content-Encoding" in text and text.endswith("; nothing was saved")
    assert reads == [] and store.snapshots() == []


@pytest.mark.parametrize("coding, wire", [("gzip", gzip.compress), ("identity", lambda b: b), ("", lambda b: b)])
def test_a_page_with_one_content_coding_is_read(coding, wire):
    # what the Retail Prices API sends: gzip (httpx asks for it) or nothing
    headers = {"content-type": "application/json", **({"content-encoding": coding} if coding else {})}
    with respx.mock(base_url=RETAIL) as router:
        router.get("").mock(return_value=httpx.Response(200, headers=headers, content=wire(EASTUS2_PAGE)))
        df = AzurePriceSource(http=httpx.Client()).fetch(["eastus2"])
    assert list(df.loc[df["offer_id"] == MI300X, "hourly_price"]) == [48.0]


# ------------------------------------------------------------------ a refresh whose every item was skipped

def _eastus_page_per_month() -> bytes:
    """Page 1 of eastus with every item priced "1/Month": NC24ads on-demand, Spot and Low Priority (each
    skipped as unknown_unit) and a Windows item (skipped as windows before its unit is read)."""
    page = json.loads((FIX_AZURE / "retail_eastus_page1.json").read_text())
    return json.dumps({**page, "NextPageLink": None,
                       "Items": [{**i, "unitOfMeasure": "1/Month"} for i in page["Items"]]}).encode()


@pytest.mark.parametrize("body, said", [
    (_eastus_page_per_month(), "no GPU offers returned for region eastus: 4 price items were returned and every one "
                               "was skipped (skipped in this refresh: 3 unknown_unit, 1 windows); nothing was saved"),
    (b'{"Items": [], "NextPageLink": null}', "no GPU offers returned for region eastus — check the region code; "
                                             "nothing was saved"),
], ids=["all skipped", "none returned"])
def test_a_refresh_whose_items_were_all_skipped_says_so_with_the_reasons(tmp_path, body, said):
    # it said "check the region code" and never showed what was skipped
    store = tmp_path / "s.sqlite"
    with respx.mock(base_url=RETAIL) as router:
        router.get("").mock(return_value=httpx.Response(200, content=body))
        with pytest.raises(PriceSourceError) as info:
            refresh(AzurePriceSource(http=httpx.Client()), ["eastus"], PriceStore(store))
        assert str(info.value) == said
        result = runner.invoke(app, ["prices", "refresh", "--provider", "azure", "--region", "eastus",
                                     "--store", str(store)])
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"refresh failed: {said}") and "Traceback" not in result.output
    assert PriceStore(store).snapshots() == []
