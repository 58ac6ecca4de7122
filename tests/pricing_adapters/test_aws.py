"""The AWS price source, offline: real boto3 clients driven by botocore's Stubber.

Recorded responses live in tests/fixtures/aws/ (shapes of ../shared/reference/api-samples/, see the
README there). Stubber answers at botocore's `before-call` event, so it bypasses the retry loop; the
tests about retries answer one level lower instead, at `before-send` (raw HTTP responses), so that
botocore's own standard retry mode does the retrying and backing off.
"""

from __future__ import annotations

import copy
import json
import math
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from datetime import datetime, timezone
from pathlib import Path

import boto3
import botocore.endpoint
import pandas as pd
import pytest
from botocore.awsrequest import AWSResponse
from botocore.exceptions import ConnectTimeoutError
from botocore.stub import ANY, Stubber

from pricing_adapters import aws
from pricing_adapters.aws import AwsPriceSource, effective_hourly, price_filters, pricing_endpoint_region
from pricing_adapters.errors import CredentialsError, PriceSourceError, ThrottledError
from pricing_adapters.refresh import get_source, refresh
from pricing_adapters.schema import validate_offers
from pricing_adapters.store import PriceStore

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "aws"
REGION = "us-east-1"


def utc_today() -> str:
    return datetime.now(timezone.utc).date().isoformat()


# -- no traffic beyond loopback -------------------------------------------------------------------------

@pytest.fixture(autouse=True)
def _no_backoff_sleep(monkeypatch):
    """botocore's retry loop sleeps via time.sleep in botocore.endpoint; record instead of sleeping."""
    delays: list[float] = []
    monkeypatch.setattr(botocore.endpoint.time, "sleep", lambda s: delays.append(s))
    return delays


# -- fixtures ----------------------------------------------------------------------------------------

def _load(name: str):
    return json.loads((FIXTURES / name).read_text())


def _p4d_item() -> dict:
    return _load("get_products_item_p4d_24xlarge_us-east-1.json")


def _items() -> dict[str, dict]:
    """The other decoded PriceList items, by instance type."""
    return {i["product"]["attributes"]["instanceType"]: i for i in _load("get_products_items_us-east-1.json")}


def _describe() -> dict:
    return _load("describe_instance_types_us-east-1.json")


def _spot() -> dict:
    data = _load("describe_spot_price_history_us-east-1.json")
    for q in data["SpotPriceHistory"]:
        q["Timestamp"] = datetime.fromisoformat(q["Timestamp"])
    return data


def _page(items: list[dict], token: str | None = None) -> dict:
    """A GetProducts response: PriceList items are JSON strings."""
    page = {"FormatVersion": "aws_v1", "PriceList": [json.dumps(i) for i in items]}
    if token:
        page["NextToken"] = token
    return page


def _products_params(region: str = REGION, token: str | None = None, metal: bool = False) -> dict:
    """The GetProducts request of `region`'s shared-tenancy compute instances, or with `metal` its bare-metal ones
    (tenancy Dedicated, product family "Compute Instance (bare metal)", as Karpenter asks: pkg/providers/pricing/
    pricing.go, UpdateOnDemandPricing)."""
    params = {
        "ServiceCode": "AmazonEC2",
        "Filters": [
            {"Type": "TERM_MATCH", "Field": "regionCode", "Value": region},
            {"Type": "TERM_MATCH", "Field": "operatingSystem", "Value": "Linux"},
            {"Type": "TERM_MATCH", "Field": "tenancy", "Value": "Dedicated" if metal else "Shared"},
            {"Type": "TERM_MATCH", "Field": "preInstalledSw", "Value": "NA"},
            {"Type": "TERM_MATCH", "Field": "capacitystatus", "Value": "Used"},
            {"Type": "TERM_MATCH", "Field": "marketoption", "Value": "OnDemand"},
            {"Type": "TERM_MATCH", "Field": "productFamily",
             "Value": "Compute Instance (bare metal)" if metal else "Compute Instance"},
        ],
        "FormatVersion": "aws_v1",
        "MaxResults": 100,
    }
    if token:
        params["NextToken"] = token
    return params


def _spot_params(types: list[str]) -> dict:
    return {"InstanceTypes": types, "ProductDescriptions": ["Linux/UNIX"], "StartTime": ANY, "MaxResults": 1000}


ACCELERATOR_TYPES = sorted(["g4ad.16xlarge", "g4dn.8xlarge", "g5.12xlarge", "p5.48xlarge", "p4d.24xlarge",
                            "inf2.xlarge"])


@pytest.fixture
def session():
    return boto3.Session(aws_access_key_id="testing", aws_secret_access_key="testing",
                         aws_session_token="testing", region_name=REGION)


class Stubs:
    """An AwsPriceSource whose ec2 and pricing clients (real boto3 clients) carry Stubbers."""

    def __init__(self, session, region: str = REGION, **options):
        self.source = AwsPriceSource(session=session, **options)
        self.ec2 = Stubber(self.source.client("ec2", region))
        self.pricing = Stubber(self.source.pricing_client(region))
        self.ec2.activate()
        self.pricing.activate()

    def describe(self, response: dict | None = None, token: str | None = None, sent_token: str | None = None):
        params = {"MaxResults": 100, **({"NextToken": sent_token} if sent_token else {})}
        response = copy.deepcopy(response if response is not None else _describe())
        if token:
            response["NextToken"] = token
        self.ec2.add_response("describe_instance_types", response, params)

    def products(self, items: list[dict], token: str | None = None, sent_token: str | None = None,
                 region: str = REGION, metal: list[dict] | tuple = ()):
        """A page of the compute-instance query. Its last page (no `token`) is followed by the bare-metal query's
        one page of `metal` items, which the source asks for next (none: an empty page; None: not queued)."""
        self.pricing.add_response("get_products", _page(items, token), _products_params(region, sent_token))
        if token is None and metal is not None:
            self.metal(metal, region=region)

    def metal(self, items: list[dict], token: str | None = None, sent_token: str | None = None, region: str = REGION):
        """A page of the bare-metal query."""
        self.pricing.add_response("get_products", _page(items, token), _products_params(region, sent_token, True))

    def spot(self, response: dict | None = None, types: list[str] = ACCELERATOR_TYPES):
        self.ec2.add_response("describe_spot_price_history", response if response is not None else _spot(),
                              _spot_params(types))

    def done(self):
        self.ec2.assert_no_pending_responses()
        self.pricing.assert_no_pending_responses()


def _by_id(df: pd.DataFrame) -> pd.DataFrame:
    return df.set_index("offer_id", drop=False)


def _full_region(stubs: Stubs) -> None:
    """describe (2 pages) -> get_products (3 pages, NextToken) -> spot, for us-east-1."""
    desc = _describe()["InstanceTypes"]
    stubs.describe({"InstanceTypes": desc[:4]}, token="dit-2")
    stubs.describe({"InstanceTypes": desc[4:]}, sent_token="dit-2")
    items = _items()
    stubs.products([_p4d_item(), items["r5.24xlarge"]], token="page-2")
    stubs.products([items["g5.12xlarge"], items["g4dn.8xlarge"]], token="page-3", sent_token="page-2")
    stubs.products([items["p5.48xlarge"], items["inf2.xlarge"], items["g4ad.16xlarge"]], sent_token="page-3")
    stubs.spot()


def _good_offers() -> pd.DataFrame:
    return validate_offers(pd.DataFrame([{
        "offer_id": "aws:us-east-1:g5.12xlarge:on_demand", "provider": "aws", "region": "us-east-1",
        "sku": "g5.12xlarge", "purchase_option": "on_demand", "gpu": "A10G", "gpu_known": True,
        "accelerator_name": "A10G", "gpu_count": 4.0, "gpu_memory_gb": 24.0, "gpu_memory_mib": 22888.0, "vcpus": 48.0,
        "memory_gb": 192.0, "hourly_price": 5.672, "upfront_price": 0.0, "currency": "USD", "term_months": 0,
        "zone": "", "as_of": "2026-07-20", "source": "earlier refresh", "note": ""}]))


@pytest.fixture
def store_with_snapshot(tmp_path):
    store = PriceStore(tmp_path / "s.sqlite")
    store.save("aws", [REGION], "earlier refresh", _good_offers(),
               fetched_at=datetime(2026, 7, 20, 12, 0, tzinfo=timezone.utc))
    return store


def _store_state(store: PriceStore):
    snaps = store.snapshots()
    return snaps, {s.id: store.offers(s.id) for s in snaps}


def _assert_unchanged(store: PriceStore, before) -> None:
    snaps, offers = _store_state(PriceStore(store.path))
    assert snaps == before[0]
    assert offers.keys() == before[1].keys()
    for k in offers:
        pd.testing.assert_frame_equal(offers[k], before[1][k])


def test_the_network_guard_stops_an_unstubbed_call(session, _no_network):
    src = AwsPriceSource(session=session, max_attempts=1)
    # botocore takes the refusal (an OSError) for an unreachable endpoint; the guard recorded the lookup
    with pytest.raises(Exception, match="Could not connect to the endpoint URL"):
        src.client("ec2", REGION).describe_instance_types(MaxResults=5)
    assert set(_no_network) == {"resolve 'ec2.us-east-1.amazonaws.com'"}   # cleared: the attempt was this test's purpose
    _no_network.clear()


# -- small pieces ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("region, endpoint", [
    ("us-east-1", "us-east-1"), ("us-west-2", "us-east-1"), ("ca-central-1", "us-east-1"),
    ("sa-east-1", "us-east-1"), ("eu-west-1", "eu-central-1"), ("eu-central-1", "eu-central-1"),
    ("ap-northeast-1", "ap-south-1"), ("me-south-1", "ap-south-1"), ("af-south-1", "ap-south-1"),
])
def test_pricing_endpoint_by_region(region, endpoint):
    assert pricing_endpoint_region(region) == endpoint


def test_clients_use_standard_retries_and_the_chosen_pricing_endpoint(session):
    src = AwsPriceSource(session=session, max_attempts=4, connect_timeout=3, read_timeout=7)
    pricing = src.pricing_client("eu-west-1")
    assert pricing.meta.region_name == "eu-central-1"
    assert src.client("ec2", "eu-west-1").meta.region_name == "eu-west-1"
    assert pricing.meta.config.retries == {"mode": "standard", "total_max_attempts": 4}
    assert (pricing.meta.config.connect_timeout, pricing.meta.config.read_timeout) == (3, 7)
    assert src.pricing_client("eu-north-1") is pricing   # one client per endpoint region


def test_endpoint_variables_are_honoured_by_boto3(session, monkeypatch):
    monkeypatch.setenv("AWS_ENDPOINT_URL_PRICING", "http://127.0.0.1:4566")
    monkeypatch.setenv("AWS_ENDPOINT_URL_EC2", "http://127.0.0.1:4567")
    src = AwsPriceSource(session=session)
    assert src.pricing_client(REGION).meta.endpoint_url == "http://127.0.0.1:4566"
    assert src.client("ec2", REGION).meta.endpoint_url == "http://127.0.0.1:4567"


def test_get_source_builds_the_aws_source(session):
    src = get_source("aws", session=session, spot=False)
    assert isinstance(src, AwsPriceSource) and src.provider == "aws" and src.spot is False
    assert src.source == "AWS Price List Query API + EC2 DescribeInstanceTypes/DescribeSpotPriceHistory"


def test_price_filters_shape():
    assert price_filters("eu-west-1") == _products_params("eu-west-1")["Filters"]


# -- a full fetch ------------------------------------------------------------------------------------------

def test_full_fetch_of_one_region(session):
    stubs = Stubs(session)
    _full_region(stubs)
    steps = []
    before = utc_today()   # the fetch stamps the UTC date it starts on; a run may cross midnight
    df = stubs.source.fetch([REGION], lambda step, done, total=None: steps.append((step, done, total)))
    after = utc_today()
    stubs.done()

    assert validate_offers(df).equals(df)
    rows = _by_id(df)
    od = rows.loc["aws:us-east-1:p4d.24xlarge:on_demand"]
    assert od.hourly_price == 21.957642 and od.upfront_price == 0 and od.term_months == 0
    assert (od.gpu, od.gpu_known, od.accelerator_name) == ("A100-40GB-SXM", True, "A100")
    assert (od.gpu_count, od.gpu_memory_gb, od.vcpus, od.memory_gb) == (8.0, 40.0, 96.0, 1152.0)
    # the price's API, then where the GPU facts came from, as an Azure offer names them (jumps.FACTS_FROM reads it)
    assert od.source == ("AWS Price List Query API GetProducts (AmazonEC2) published 2026-07-20T13:44:30Z; "
                         "GPU facts: EC2 DescribeInstanceTypes")

    # the three purchase options of the issue, with the right GPU on every row
    p4d = df[df.sku == "p4d.24xlarge"]
    assert set(p4d.purchase_option) == {"on_demand", "reserved_1y", "reserved_3y", "spot"}
    assert (p4d.gpu == "A100-40GB-SXM").all() and (p4d.gpu_count == 8).all() and (p4d.gpu_memory_gb == 40).all()
    assert (p4d[p4d.purchase_option == "reserved_1y"].term_months == 12).all()
    assert (p4d[p4d.purchase_option == "reserved_3y"].term_months == 36).all()
    assert len(p4d[p4d.purchase_option.str.startswith("reserved")]) == 12   # 2 terms x 3 options x 2 classes

    spot = rows.loc["aws:us-east-1:p4d.24xlarge:spot"]
    assert (spot.hourly_price, spot.zone) == (2.4655, "use1-az1")   # lowest of 8.1915, 8.1203, 7.8799, 2.4655
    assert spot.note == "lowest of 4 zone quotes | spot price of 2026-07-20T13:00:00+00:00"
    assert spot.source == "AWS EC2 DescribeSpotPriceHistory (Linux/UNIX); GPU facts: EC2 DescribeInstanceTypes"

    # rows from the second and third page
    assert rows.loc["aws:us-east-1:g5.12xlarge:on_demand"].hourly_price == 5.672
    assert rows.loc["aws:us-east-1:g5.12xlarge:on_demand"].gpu == "A10G"
    # memory: nominal GB as sold (the A10G is a 24 GB card), the API's usable MiB kept beside it
    g5 = rows.loc["aws:us-east-1:g5.12xlarge:on_demand"]
    assert (g5.gpu_memory_gb, g5.gpu_memory_mib) == (24.0, 22888.0)
    assert (od.gpu_memory_mib, rows.loc["aws:us-east-1:p5.48xlarge:spot"].gpu_memory_gb) == (40960.0, 80.0)
    inf2 = rows.loc["aws:us-east-1:inf2.xlarge:on_demand"]
    assert (inf2.gpu, inf2.gpu_count, inf2.gpu_memory_gb, inf2.hourly_price) == ("INFERENTIA2", 1.0, 32.0, 0.7582)
    assert rows.loc["aws:us-east-1:g4ad.16xlarge:on_demand"].gpu == "RADEON-PRO-V520"

    # not a GPU type: ignored; empty terms and zero price: skipped and counted
    assert "r5.24xlarge" not in set(df.sku)
    assert "aws:us-east-1:g4dn.8xlarge:on_demand" not in rows.index
    assert "aws:us-east-1:p5.48xlarge:on_demand" not in rows.index
    # p5 spot is read from the region's zones only: 17.6289 (use1-az6), not the Local Zone's 10.2397
    p5_spot = rows.loc["aws:us-east-1:p5.48xlarge:spot"]
    assert (p5_spot.hourly_price, p5_spot.zone, p5_spot.gpu) == (17.6289, "use1-az6", "H100-SXM")
    assert stubs.source.skipped == {"empty_terms": 1, "zero_price": 1, "local_zone_spot": 1}

    assert set(df.currency) == {"USD"} and set(df.as_of) in ({before}, {after}) and set(df.provider) == {"aws"}
    assert ("aws us-east-1: prices", 3, None) in steps
    assert ("aws us-east-1: instance types", 2, None) in steps
    assert steps[-1] == ("aws regions", 1, 1)


def test_reserved_terms_effective_hourly_checked_by_hand(session):
    stubs = Stubs(session, spot=False)
    stubs.describe()
    stubs.products([_p4d_item()])
    df = stubs.source.fetch([REGION])
    stubs.done()
    rows = _by_id(df)

    # 1 year, standard, Partial Upfront: fee 58035 USD, 6.625 USD/h
    r = rows.loc["aws:us-east-1:p4d.24xlarge:reserved_1y:partial_upfront:standard"]
    assert (r.sku, r.purchase_option, r.term_months) == ("p4d.24xlarge", "reserved_1y", 12)
    assert (r.hourly_price, r.upfront_price) == (6.625, 58035.0)
    assert r.note == "Partial Upfront/standard"
    # by hand: 6.625 + 58035 / 8760 = 6.625 + 6.625 = 13.25
    assert effective_hourly(r.hourly_price, r.upfront_price, r.term_months) == pytest.approx(13.25, abs=1e-12)

    # 3 years, convertible, Partial Upfront: 5.55 + 145854 / 26280 = 5.55 + 5.55 = 11.10
    r = rows.loc["aws:us-east-1:p4d.24xlarge:reserved_3y:partial_upfront:convertible"]
    assert (r.hourly_price, r.upfront_price, r.term_months) == (5.55, 145854.0, 36)
    assert effective_hourly(r.hourly_price, r.upfront_price, r.term_months) == pytest.approx(11.10, abs=1e-12)

    # 1 year, standard, All Upfront: 0 + 113880 / 8760 = 13.00
    r = rows.loc["aws:us-east-1:p4d.24xlarge:reserved_1y:all_upfront:standard"]
    assert (r.hourly_price, r.upfront_price) == (0.0, 113880.0)
    assert effective_hourly(r.hourly_price, r.upfront_price, r.term_months) == pytest.approx(13.0, abs=1e-12)

    # 3 years, standard, No Upfront: 9.45 / h, nothing upfront
    r = rows.loc["aws:us-east-1:p4d.24xlarge:reserved_3y:no_upfront:standard"]
    assert (r.hourly_price, r.upfront_price, r.note) == (9.45, 0.0, "No Upfront/standard")

    # the offers table's cost per hour (what the planner prices offers with) agrees with the hand figure
    from pricing_adapters.schema import effective_hourly as table_cost_per_hour

    r = rows.loc[["aws:us-east-1:p4d.24xlarge:reserved_1y:partial_upfront:standard"]]
    assert table_cost_per_hour(r.hourly_price, r.upfront_price, r.term_months).iloc[0] == pytest.approx(13.25)


def test_reserved_off_gives_on_demand_only(session):
    stubs = Stubs(session, spot=False, reserved=False)
    stubs.describe()
    stubs.products([_p4d_item()])
    df = stubs.source.fetch([REGION])
    stubs.done()
    assert list(df.offer_id) == ["aws:us-east-1:p4d.24xlarge:on_demand"]


def test_empty_terms_product_is_skipped_and_counted(session):
    stubs = Stubs(session, spot=False)
    stubs.describe()
    empty = _items()["g4dn.8xlarge"]
    assert empty["terms"] == {}
    also_empty = copy.deepcopy(_items()["g5.12xlarge"])
    also_empty["terms"] = {"OnDemand": {}, "Reserved": {}}
    stubs.products([empty, also_empty, _p4d_item()])
    df = stubs.source.fetch([REGION])
    stubs.done()
    assert set(df.sku) == {"p4d.24xlarge"}
    assert stubs.source.skipped == {"empty_terms": 2}


def test_zero_price_product_is_skipped_and_counted(session):
    stubs = Stubs(session, spot=False)
    stubs.describe()
    zero = _items()["p5.48xlarge"]
    (term,) = zero["terms"]["OnDemand"].values()
    (dim,) = term["priceDimensions"].values()
    assert dim["pricePerUnit"]["USD"] == "0.0000000000"
    stubs.products([zero, _items()["g5.12xlarge"]])
    df = stubs.source.fetch([REGION])
    stubs.done()
    assert list(df.offer_id) == ["aws:us-east-1:g5.12xlarge:on_demand"]
    assert stubs.source.skipped == {"zero_price": 1}


def test_unknown_unit_and_non_usd_are_skipped_and_counted(session):
    stubs = Stubs(session, spot=False)
    stubs.describe()
    odd = copy.deepcopy(_items()["g5.12xlarge"])
    (term,) = odd["terms"]["OnDemand"].values()
    (dim,) = term["priceDimensions"].values()
    dim["unit"] = "GB-Mo"
    cny = copy.deepcopy(_items()["g4ad.16xlarge"])
    (term,) = cny["terms"]["OnDemand"].values()
    (dim,) = term["priceDimensions"].values()
    dim["pricePerUnit"] = {"CNY": "24.0"}
    stubs.products([odd, cny, _items()["inf2.xlarge"]])
    df = stubs.source.fetch([REGION])
    stubs.done()
    assert list(df.sku) == ["inf2.xlarge"]
    assert stubs.source.skipped == {"unknown_unit": 1, "non_usd": 1}


def _terms_list(item):
    item["terms"] = ["OnDemand"]


def _on_demand_list(item):
    item["terms"]["OnDemand"] = ["JRTCKXETXF"]


def _dimensions_list(item):
    (term,) = item["terms"]["OnDemand"].values()
    term["priceDimensions"] = [5.672]


def _price_per_unit_text(item):
    (term,) = item["terms"]["OnDemand"].values()
    (dim,) = term["priceDimensions"].values()
    dim["pricePerUnit"] = "5.672"


def _term_text(item):
    (code,) = item["terms"]["OnDemand"]
    item["terms"]["OnDemand"][code] = "5.672"


@pytest.mark.parametrize("break_it", [_terms_list, _on_demand_list, _dimensions_list, _price_per_unit_text,
                                      _term_text])
def test_a_product_whose_terms_have_the_wrong_shape_is_skipped_as_malformed(session, break_it):
    stubs = Stubs(session, spot=False, reserved=False)
    stubs.describe()
    broken = copy.deepcopy(_items()["g5.12xlarge"])
    break_it(broken)
    stubs.products([broken, _p4d_item()])
    df = stubs.source.fetch([REGION])
    stubs.done()
    # the other product is read as usual: p4d.24xlarge at the public 21.957642 USD/h
    assert list(zip(df.offer_id, df.hourly_price)) == [("aws:us-east-1:p4d.24xlarge:on_demand", 21.957642)]
    assert stubs.source.skipped == {"malformed": 1}


def test_a_reserved_term_whose_attributes_are_not_an_object_is_skipped_as_malformed(session):
    stubs = Stubs(session, spot=False)
    stubs.describe()
    item = _p4d_item()
    first = next(iter(item["terms"]["Reserved"]))
    item["terms"]["Reserved"][first]["termAttributes"] = ["1yr"]
    stubs.products([item])
    df = stubs.source.fetch([REGION])
    stubs.done()
    assert len(df) == 1 + 11   # on-demand and 11 of the 12 reservations (1yr/3yr x 3 options x 2 classes)
    assert stubs.source.skipped == {"malformed": 1}


def test_only_malformed_products_fail_the_refresh_in_one_line_and_save_nothing(session, store_with_snapshot):
    stubs = Stubs(session, spot=False)
    stubs.describe()
    items = [copy.deepcopy(i) for i in (_p4d_item(), _items()["g5.12xlarge"])]
    for item in items:
        _terms_list(item)
    stubs.products(items)
    before = _store_state(store_with_snapshot)
    with pytest.raises(PriceSourceError, match=r"no USD on-demand price .* \(skipped: 2 malformed\)") as info:
        refresh(stubs.source, [REGION], store_with_snapshot)
    assert "\n" not in str(info.value)
    _assert_unchanged(store_with_snapshot, before)


def test_unknown_accelerator_is_kept_and_flagged(session):
    stubs = Stubs(session, spot=False)
    desc = _describe()
    g5 = next(t for t in desc["InstanceTypes"] if t["InstanceType"] == "g5.12xlarge")
    g5["GpuInfo"]["Gpus"][0].update(Name="Zeta 9", Manufacturer="Acme")
    stubs.describe(desc)
    stubs.products([_items()["g5.12xlarge"]])
    df = stubs.source.fetch([REGION])
    stubs.done()
    (row,) = df.itertuples()
    assert (row.gpu, row.gpu_known, row.accelerator_name, row.gpu_count) == ("Zeta 9", False, "Zeta 9", 4.0)
    assert row.note == "unknown accelerator: Acme Zeta 9 (GpuInfo)"


def test_fractional_gpu_from_partition_size():
    facts = aws.accelerator_facts({
        "InstanceType": "g6f.large", "VCpuInfo": {"DefaultVCpus": 2}, "MemoryInfo": {"SizeInMiB": 8192},
        "GpuInfo": {"Gpus": [{"Name": "L4", "Manufacturer": "NVIDIA", "Count": 1, "GpuPartitionSize": 0.125,
                              "MemoryInfo": {"SizeInMiB": 2861}}]}})
    assert (facts["gpu"], facts["gpu_count"], facts["vcpus"], facts["memory_gb"]) == ("L4", 0.125, 2.0, 8.0)
    assert (facts["gpu_memory_gb"], facts["gpu_memory_mib"]) == (3.0, 2861.0)   # 1/8 of a 24 GB L4; API MiB
    assert facts["note"] == "fractional GPU: 0.125 of one per unit"
    assert aws.accelerator_facts({"InstanceType": "r5.large", "VCpuInfo": {"DefaultVCpus": 2}}) is None


def test_l4_slices_without_partition_size_are_fractions_of_22888_mib(session):
    """DescribeInstanceTypes may describe a g6f/gr6f slice with Count 0 or 1 and no GpuPartitionSize
    (reference README trap 4): its MiB over a whole L4's 22888 MiB is the fraction. By hand:
    2861 / 22888 = 1/8, 5722 / 22888 = 1/4, 11444 / 22888 = 1/2; memory 24 GB / 8 = 3, / 4 = 6, / 2 = 12."""
    stubs = Stubs(session, spot=False)
    stubs.describe(_load("describe_instance_types_l4_slices_us-east-1.json"))
    stubs.products(_load("get_products_items_l4_slices_us-east-1.json"))
    df = _by_id(stubs.source.fetch([REGION]))
    stubs.done()
    counts = {sku: (r.gpu_count, r.gpu_memory_gb, r.gpu_memory_mib) for sku, r in df.set_index("sku").iterrows()}
    assert counts == {"g6.xlarge": (1.0, 24.0, 22888.0), "g6f.large": (0.125, 3.0, 2861.0),
                      "g6f.2xlarge": (0.25, 6.0, 5722.0), "gr6f.4xlarge": (0.5, 12.0, 11444.0)}
    large = df.loc["aws:us-east-1:g6f.large:on_demand"]
    assert large.hourly_price / large.gpu_count == pytest.approx(1.616)   # 0.202 USD/h for 1/8 of an L4
    assert large.note.startswith("fractional GPU: 0.125 of one per unit (2861 of the 22888 MiB of a whole L4")
    assert "Count 0 and no GpuPartitionSize" in large.note
    assert "Count 1 and no GpuPartitionSize" in df.loc["aws:us-east-1:g6f.2xlarge:on_demand"].note
    assert df.loc["aws:us-east-1:g6.xlarge:on_demand"].note == ""
    assert stubs.source.skipped == {}


def test_a_device_count_of_zero_with_whole_gpu_memory_is_unknown_flagged_and_counted(session):
    stubs = Stubs(session, spot=False)
    desc = _load("describe_instance_types_l4_slices_us-east-1.json")
    g6 = next(t for t in desc["InstanceTypes"] if t["InstanceType"] == "g6.xlarge")
    g6["GpuInfo"]["Gpus"][0]["Count"] = 0   # a whole L4's 22888 MiB: not a slice, so the count is unknown
    stubs.describe(desc)
    stubs.products(_load("get_products_items_l4_slices_us-east-1.json"))
    df = stubs.source.fetch([REGION]).set_index("sku")
    stubs.done()
    assert math.isnan(df.loc["g6.xlarge", "gpu_count"])
    assert df.loc["g6.xlarge", "note"] == "gpu_count unknown: GpuInfo reports no device count"
    assert stubs.source.skipped == {"unknown_gpu_count": 1}


def test_memory_share_reads_slices_and_leaves_whole_gpus():
    assert aws.memory_share("L4", 2861) == (0.125, 22888)
    assert aws.memory_share("L4", 22888) is None          # a whole L4 as the API reports it (93 % of 24 GB)
    assert aws.memory_share("A10G", 22888) is None
    assert aws.memory_share("A100-40GB-SXM", 40960) is None
    assert aws.memory_share("T4", 8192) == (0.5, 16384)   # no API figure known: nominal 16 GB x 1024
    assert aws.memory_share(None, 2861) is None and aws.memory_share("L4", None) is None


def test_spot_takes_the_newest_quote_per_zone_then_the_lowest_zone(session):
    stubs = Stubs(session, reserved=False)
    stubs.describe()
    stubs.products([_items()["g5.12xlarge"]])
    old = datetime(2026, 7, 1, tzinfo=timezone.utc)
    new = datetime(2026, 7, 20, tzinfo=timezone.utc)
    quote = {"InstanceType": "g5.12xlarge", "ProductDescription": "Linux/UNIX"}
    stubs.ec2.add_response("describe_spot_price_history", {"SpotPriceHistory": [
        {**quote, "AvailabilityZone": "us-east-1a", "AvailabilityZoneId": "use1-az1", "SpotPrice": "2.5",
         "Timestamp": new},
        {**quote, "AvailabilityZone": "us-east-1a", "AvailabilityZoneId": "use1-az1", "SpotPrice": "0.9",
         "Timestamp": old},                                        # superseded quote, not the price today
        {**quote, "AvailabilityZone": "us-east-1b", "AvailabilityZoneId": "use1-az2", "SpotPrice": "2.1",
         "Timestamp": new},
    ], "NextToken": "spot-2"}, _spot_params(ACCELERATOR_TYPES))
    stubs.ec2.add_response("describe_spot_price_history", {"SpotPriceHistory": [
        {**quote, "AvailabilityZone": "us-east-1c", "AvailabilityZoneId": "use1-az4", "SpotPrice": "2.3",
         "Timestamp": new}]}, {**_spot_params(ACCELERATOR_TYPES), "NextToken": "spot-2"})
    df = stubs.source.fetch([REGION])
    stubs.done()
    spot = _by_id(df).loc["aws:us-east-1:g5.12xlarge:spot"]
    assert (spot.hourly_price, spot.zone, spot.term_months) == (2.1, "use1-az2", 0)
    assert spot.note.startswith("lowest of 3 zone quotes")


def test_two_regions_use_their_own_clients_and_endpoints(session):
    stubs_us = Stubs(session, spot=False, reserved=False)
    src = stubs_us.source
    ec2_eu = Stubber(src.client("ec2", "eu-west-1"))
    pricing_eu = Stubber(src.pricing_client("eu-west-1"))
    ec2_eu.activate(), pricing_eu.activate()
    stubs_us.describe()
    stubs_us.products([_items()["g5.12xlarge"]])
    ec2_eu.add_response("describe_instance_types", _describe(), {"MaxResults": 100})
    eu_item = copy.deepcopy(_items()["g5.12xlarge"])
    eu_item["product"]["attributes"]["regionCode"] = "eu-west-1"
    pricing_eu.add_response("get_products", _page([eu_item]), _products_params("eu-west-1"))
    pricing_eu.add_response("get_products", _page([]), _products_params("eu-west-1", metal=True))
    df = src.fetch([REGION, "eu-west-1"])
    stubs_us.done(), ec2_eu.assert_no_pending_responses(), pricing_eu.assert_no_pending_responses()
    assert list(df.offer_id) == ["aws:us-east-1:g5.12xlarge:on_demand", "aws:eu-west-1:g5.12xlarge:on_demand"]


# -- bare-metal types: their own product family and query ----------------------------------------------------------

def _metal_items() -> dict[str, dict]:
    """g4dn.metal and g5g.metal as the bare-metal query answers them (fixtures README: product family "Compute
    Instance (bare metal)", tenancy "Dedicated", as Karpenter asks for them), by instance type."""
    return {i["product"]["attributes"]["instanceType"]: i for i in _load("get_products_items_metal_us-east-1.json")}


def _describe_with_metal() -> dict:
    desc = _describe()
    desc["InstanceTypes"] += _load("describe_instance_types_metal_us-east-1.json")["InstanceTypes"]
    return desc


def test_a_refresh_stores_the_on_demand_prices_of_bare_metal_types(session, store_with_snapshot):
    # was: the shared-tenancy "Compute Instance" query alone, which never returns them: a refresh replaced the
    # packaged g4dn.metal (7.824 USD/h in us-east-1) and g5g.metal (2.744) with nothing, too few types for the
    # missing-offers check. Karpenter asks for them in a second query (aws/karpenter-provider-aws,
    # pkg/providers/pricing/pricing.go, UpdateOnDemandPricing: tenancy Dedicated, "Compute Instance (bare metal)").
    stubs = Stubs(session, spot=False)
    stubs.describe(_describe_with_metal())
    stubs.products([_items()["g5.12xlarge"]], metal=list(_metal_items().values()))
    info = refresh(stubs.source, [REGION], store_with_snapshot)
    stubs.done()   # both queries asked, the bare-metal one with its own filters (Stubs.metal)
    stored = _by_id(PriceStore(store_with_snapshot.path).offers(info.id))
    assert stored.loc["aws:us-east-1:g4dn.metal:on_demand", "hourly_price"] == 7.824
    assert stored.loc["aws:us-east-1:g5g.metal:on_demand", "hourly_price"] == 2.744
    assert stored.loc["aws:us-east-1:g5.12xlarge:on_demand", "hourly_price"] == 5.672
    g4dn = stored.loc["aws:us-east-1:g4dn.metal:on_demand"]
    assert (g4dn.gpu, g4dn.gpu_count, g4dn.vcpus, g4dn.memory_gb) == ("T4", 8.0, 96.0, 384.0)
    assert stubs.source.skipped == {}


def test_each_query_keeps_only_the_items_it_asked_for(session):
    # a Dedicated "Compute Instance" is a dedicated instance, dearer than the shared one: neither query asked for it
    dedicated = copy.deepcopy(_items()["g5.12xlarge"])
    dedicated["product"]["attributes"]["tenancy"] = "Dedicated"
    stubs = Stubs(session, spot=False, reserved=False)
    stubs.describe(_describe_with_metal())
    stubs.products([_p4d_item(), _metal_items()["g4dn.metal"]], metal=[dedicated, _metal_items()["g5g.metal"]])
    df = stubs.source.fetch([REGION])
    stubs.done()
    assert list(df["sku"]) == ["p4d.24xlarge", "g5g.metal"]
    assert stubs.source.skipped == {"filter_mismatch": 2}


# -- the region of an item without regionCode --------------------------------------------------------------------

@pytest.mark.parametrize("location, kept", [
    ("US East (N. Virginia)", True),   # us-east-1's name in the Price List (the fixtures' items)
    ("US West (Oregon)", False),       # us-west-2's
    (None, False),                     # no location either: nothing says it is us-east-1's
])
def test_an_item_without_a_region_code_is_placed_by_its_location(session, location, kept):
    # was: kept whatever region its location named, stored as a us-east-1 price
    item = copy.deepcopy(_items()["g5.12xlarge"])
    del item["product"]["attributes"]["regionCode"]
    item["product"]["attributes"].pop("location")
    if location is not None:
        item["product"]["attributes"]["location"] = location
    stubs = Stubs(session, spot=False, reserved=False)
    stubs.describe()
    stubs.products([item, _p4d_item()])
    df = stubs.source.fetch([REGION])
    stubs.done()
    assert ("g5.12xlarge" in set(df["sku"])) is kept
    assert stubs.source.skipped == ({} if kept else {"wrong_region": 1})


@pytest.mark.parametrize("region, location", [
    ("eu-west-1", "EU (Ireland)"),                      # as Price List filters spell it; botocore: "Europe (Ireland)"
    ("eu-west-1", "Europe (Ireland)"),
    ("sa-east-1", "South America (São Paulo)"),         # with or without the accent
    ("us-gov-west-1", "AWS GovCloud (US)"),             # the reference GetProducts item (usage type UGW1-…)
])
def test_the_price_list_s_spellings_of_a_region_s_location_are_its_own(region, location):
    assert aws.in_region({"location": location}, region)
    assert not aws.in_region({"location": location}, "us-east-1")
    assert not aws.in_region({"location": location, "regionCode": "us-east-1"}, region)   # regionCode decides


def test_bad_region_code_fails_before_any_call(session):
    src = AwsPriceSource(session=session)
    with pytest.raises(PriceSourceError, match="not AWS region codes: US East"):
        src.fetch(["US East"])
    assert src._clients == {}


# -- throttling through botocore's standard retry mode ---------------------------------------------------

class FakeHttp:
    """Answers a client's HTTP requests at `before-send`: botocore's retry loop runs as in production."""

    def __init__(self, client, answers):
        self.answers = list(answers)
        self.bodies: list[dict] = []
        client.meta.events.register("before-send.pricing.GetProducts", self)

    def __call__(self, request, **kwargs):
        self.bodies.append(json.loads(request.body))
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        if isinstance(answer, Exception):
            raise answer
        status, body = answer
        return AWSResponse(request.url, status, {"Content-Type": "application/x-amz-json-1.1"},
                           _Raw(json.dumps(body).encode()))


class _Raw:
    def __init__(self, data: bytes):
        self.data = data

    def stream(self, **kwargs):
        yield self.data


THROTTLED = (400, {"__type": "ThrottlingException", "message": "Rate exceeded"})


def test_throttling_then_success_is_retried_with_backoff(session, _no_backoff_sleep):
    src = AwsPriceSource(session=session, spot=False, max_attempts=4)
    ec2 = Stubber(src.client("ec2", REGION))
    ec2.activate()
    ec2.add_response("describe_instance_types", _describe(), {"MaxResults": 100})
    http = FakeHttp(src.pricing_client(REGION), [THROTTLED, THROTTLED, (200, _page([_items()["g5.12xlarge"]])),
                                                 (200, _page([]))])
    df = src.fetch([REGION])
    assert list(df.offer_id) == ["aws:us-east-1:g5.12xlarge:on_demand"]
    assert len(http.bodies) == 4          # two throttled attempts, then the answer; then the bare-metal query's
    assert http.bodies == [_products_params()] * 3 + [_products_params(metal=True)]   # the parameters, every attempt
    assert len(_no_backoff_sleep) == 2                    # botocore backed off before each retry
    ec2.assert_no_pending_responses()


def test_throttling_until_retries_run_out_leaves_the_store_unchanged(session, store_with_snapshot,
                                                                   _no_backoff_sleep):
    before = _store_state(store_with_snapshot)
    src = AwsPriceSource(session=session, max_attempts=3)
    ec2 = Stubber(src.client("ec2", REGION))
    ec2.activate()
    ec2.add_response("describe_instance_types", _describe(), {"MaxResults": 100})
    http = FakeHttp(src.pricing_client(REGION), [THROTTLED])
    with pytest.raises(ThrottledError) as err:
        refresh(src, [REGION], store_with_snapshot)
    assert len(http.bodies) == 3 and len(_no_backoff_sleep) == 2
    assert "\n" not in str(err.value) and "throttling" in str(err.value)
    _assert_unchanged(store_with_snapshot, before)
    # the last good snapshot is still the one served
    offers, infos = PriceStore(store_with_snapshot.path).latest_offers(["aws"])
    assert [i.source for i in infos] == ["earlier refresh"] and list(offers.hourly_price) == [5.672]


def test_ec2_request_limit_exceeded_is_a_throttled_error(session):
    stubs = Stubs(session)
    stubs.ec2.add_client_error("describe_instance_types", service_error_code="RequestLimitExceeded",
                               service_message="Request limit exceeded.", http_status_code=503,
                               expected_params={"MaxResults": 100})
    with pytest.raises(ThrottledError, match="DescribeInstanceTypes kept throttling in us-east-1"):
        stubs.source.fetch([REGION])


def test_a_throttled_page_midway_returns_nothing(session):
    stubs = Stubs(session)
    stubs.describe()
    stubs.products([_p4d_item()], token="page-2")
    stubs.pricing.add_client_error("get_products", service_error_code="ThrottlingException",
                                   service_message="Rate exceeded", http_status_code=400,
                                   expected_params=_products_params(token="page-2"))
    with pytest.raises(ThrottledError):
        stubs.source.fetch([REGION])


def test_timeouts_give_a_one_line_error(session, store_with_snapshot):
    before = _store_state(store_with_snapshot)
    src = AwsPriceSource(session=session, max_attempts=2)
    ec2 = Stubber(src.client("ec2", REGION))
    ec2.activate()
    ec2.add_response("describe_instance_types", _describe(), {"MaxResults": 100})
    http = FakeHttp(src.pricing_client(REGION), [ConnectTimeoutError(endpoint_url="https://api.pricing")])
    with pytest.raises(PriceSourceError, match=r"^timed out") as err:
        refresh(src, [REGION], store_with_snapshot)
    assert not isinstance(err.value, (CredentialsError, ThrottledError)) and "\n" not in str(err.value)
    assert len(http.bodies) == 2   # connection errors are retried too
    _assert_unchanged(store_with_snapshot, before)


# -- credentials -----------------------------------------------------------------------------------------

@pytest.fixture
def no_credentials(monkeypatch, tmp_path):
    for var in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN",
                "AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
                "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN"):
        monkeypatch.delenv(var, raising=False)
    (tmp_path / "empty_config").write_text("")
    (tmp_path / "empty_credentials").write_text("")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "empty_config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "empty_credentials"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")


def test_no_credentials_is_a_clear_error_and_the_store_is_unchanged(no_credentials, store_with_snapshot):
    before = _store_state(store_with_snapshot)
    src = AwsPriceSource(session=boto3.Session(region_name=REGION))
    with pytest.raises(CredentialsError) as err:
        refresh(src, [REGION], store_with_snapshot)
    message = str(err.value)
    assert message.startswith("no AWS credentials: set AWS_PROFILE or AWS_ACCESS_KEY_ID")
    assert "\n" not in message
    assert src._clients == {}   # failed before any client was built, so nothing was sent
    _assert_unchanged(store_with_snapshot, before)


def test_no_credentials_with_the_default_session(no_credentials):
    src = get_source("aws")
    with pytest.raises(CredentialsError, match="^no AWS credentials"):
        src.fetch([REGION])


def test_credentials_missing_at_call_time_are_reported_the_same_way(no_credentials, session):
    # a client built before the keys went away signs nothing: botocore raises NoCredentialsError
    anonymous = boto3.Session(region_name=REGION)
    src = AwsPriceSource(session=session)
    src._clients[("ec2", REGION)] = anonymous.client("ec2", region_name=REGION)
    with pytest.raises(CredentialsError, match="^no AWS credentials"):
        src.fetch([REGION])


@pytest.mark.parametrize("code", ["ExpiredToken", "UnrecognizedClientException", "InvalidClientTokenId",
                                  "AuthFailure"])
def test_rejected_credentials(session, code):
    stubs = Stubs(session)
    stubs.ec2.add_client_error("describe_instance_types", service_error_code=code,
                               service_message="The security token included in the request is expired",
                               http_status_code=400, expected_params={"MaxResults": 100})
    with pytest.raises(CredentialsError, match=f"AWS rejected the credentials \\({code}"):
        stubs.source.fetch([REGION])


def test_other_api_errors_are_price_source_errors(session):
    stubs = Stubs(session)
    stubs.describe()
    stubs.pricing.add_client_error("get_products", service_error_code="AccessDeniedException",
                                   service_message="User is not authorized to perform: pricing:GetProducts",
                                   http_status_code=400, expected_params=_products_params())
    with pytest.raises(PriceSourceError, match="GetProducts failed in us-east-1: AccessDeniedException"):
        stubs.source.fetch([REGION])


# -- a refresh killed halfway -----------------------------------------------------------------------------

class _DiesMidway:
    """A sqlite3 connection that writes half of an executemany's rows, then is interrupted."""

    def __init__(self, con, exc):
        self._con, self._exc = con, exc

    def executemany(self, sql, rows):
        rows = list(rows)
        self._con.executemany(sql, rows[: len(rows) // 2])
        raise self._exc

    def __getattr__(self, name):
        return getattr(self._con, name)


def test_refresh_interrupted_inside_the_write_leaves_the_store_unchanged(session, store_with_snapshot,
                                                                         monkeypatch):
    before = _store_state(store_with_snapshot)
    stubs = Stubs(session)
    _full_region(stubs)
    real_connect = sqlite3.connect
    monkeypatch.setattr("pricing_adapters.store.sqlite3.connect",
                        lambda *a, **k: _DiesMidway(real_connect(*a, **k), KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        refresh(stubs.source, [REGION], store_with_snapshot)
    monkeypatch.undo()
    _assert_unchanged(store_with_snapshot, before)
    con = sqlite3.connect(store_with_snapshot.path)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert con.execute("SELECT COUNT(*) FROM offers").fetchone()[0] == 1
    con.close()


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX SIGKILL")
def test_refresh_process_killed_halfway_leaves_the_store_readable_and_unchanged(session, store_with_snapshot):
    """A real kill: a child process fetches through Stubber and is SIGKILLed in the middle of the insert."""
    before = _store_state(store_with_snapshot)
    child = textwrap.dedent(f"""
        import os, signal, sqlite3, sys
        sys.path[:0] = [{str(REPO)!r}, {str(Path(__file__).parent)!r}]
        import boto3
        import test_aws as t
        from pricing_adapters.refresh import refresh
        from pricing_adapters.store import PriceStore

        class Killed(Exception):
            pass

        real_connect = sqlite3.connect

        class DiesMidway(t._DiesMidway):
            def executemany(self, sql, rows):
                rows = list(rows)
                self._con.executemany(sql, rows[: len(rows) // 2])
                os.kill(os.getpid(), signal.SIGKILL)

        import pricing_adapters.store as store_module
        store_module.sqlite3 = type("S", (), {{"connect": staticmethod(lambda *a, **k: DiesMidway(real_connect(*a, **k), None)),
                                              "Error": sqlite3.Error, "DatabaseError": sqlite3.DatabaseError}})
        session = boto3.Session(aws_access_key_id="testing", aws_secret_access_key="testing", region_name="us-east-1")
        stubs = t.Stubs(session)
        t._full_region(stubs)
        refresh(stubs.source, ["us-east-1"], PriceStore({str(store_with_snapshot.path)!r}))
        print("not killed")
    """)
    env = {**os.environ, "AWS_EC2_METADATA_DISABLED": "true"}
    proc = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stdout + proc.stderr
    _assert_unchanged(store_with_snapshot, before)
    con = sqlite3.connect(store_with_snapshot.path)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()


# -- answers of the wrong shape deeper down --------------------------------------------------------------

@pytest.mark.parametrize("field", ["LeaseContractLength", "PurchaseOption", "OfferingClass"])
def test_a_reserved_term_attribute_that_is_not_text_skips_that_term_only(session, field):
    # a list where AWS writes "1yr" was an unhashable-type TypeError out of the whole refresh
    stubs = Stubs(session, spot=False)
    stubs.describe()
    item = _p4d_item()
    first = next(iter(item["terms"]["Reserved"].values()))
    assert first["termAttributes"] == {"LeaseContractLength": "1yr", "OfferingClass": "convertible",
                                       "PurchaseOption": "Partial Upfront"}   # the fixture's first term
    first["termAttributes"][field] = [first["termAttributes"][field]]
    stubs.products([item])
    df = stubs.source.fetch([REGION])
    stubs.done()
    assert len(df) == 1 + 11   # on-demand and 11 of the 12 reservations (1yr/3yr x 3 options x 2 classes)
    assert "aws:us-east-1:p4d.24xlarge:reserved_1y:partial_upfront:convertible" not in set(df.offer_id)
    assert stubs.source.skipped == {"malformed": 1}


DESCRIBE_XML = """<?xml version="1.0" encoding="UTF-8"?>
<DescribeInstanceTypesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>r</requestId>
<instanceTypeSet><item><instanceType>g5.xlarge</instanceType><vCpuInfo><defaultVCpus>4</defaultVCpus></vCpuInfo>
<gpuInfo><gpus><item><name>A10G</name><manufacturer>NVIDIA</manufacturer><count>{count}</count>
<memoryInfo><sizeInMiB>22888</sizeInMiB></memoryInfo></item></gpus></gpuInfo></item></instanceTypeSet>
</DescribeInstanceTypesResponse>"""


@pytest.mark.parametrize("count, parser_error", [
    ("eight", "ValueError"),                # a number field that is not one: botocore's int() fails
    ("<8", "ResponseParserError"),          # XML that does not parse
])
def test_an_ec2_answer_botocore_cannot_parse_is_a_one_line_error_and_saves_nothing(
        session, store_with_snapshot, count, parser_error):
    src = AwsPriceSource(session=session, spot=False, max_attempts=1)
    body = DESCRIBE_XML.format(count=count).encode()
    src.client("ec2", REGION).meta.events.register(
        "before-send.ec2.DescribeInstanceTypes",
        lambda request, **kwargs: AWSResponse(request.url, 200, {"Content-Type": "text/xml"}, _Raw(body)))
    before = _store_state(store_with_snapshot)
    with pytest.raises(PriceSourceError) as info:
        refresh(src, [REGION], store_with_snapshot)
    text = str(info.value)
    assert text.startswith(f"AWS DescribeInstanceTypes failed in us-east-1: its answer could not be read ({parser_error}")
    assert text.endswith("; nothing was saved") and "\n" not in text
    _assert_unchanged(store_with_snapshot, before)


# -- a listing of invented types is refused, not held (review, 2026-12-05: 300,000 Azure sizes took 620 MB) ----

def _gpu_types(n: int) -> dict:
    """A DescribeInstanceTypes answer of `n` distinct GPU instance types, each the fixture's g4ad.16xlarge renamed."""
    (g4ad,) = [t for t in _describe()["InstanceTypes"] if t["InstanceType"] == "g4ad.16xlarge"]
    return {"InstanceTypes": [{**g4ad, "InstanceType": f"g4ad.x{i}"} for i in range(n)]}


def test_more_gpu_instance_types_than_any_region_has_fail_the_refresh_and_save_nothing(session, store_with_snapshot):
    # 10,000 (MAX_OFFERS_PER_REGION) are read on: the refusal that follows is GetProducts' empty listing
    stubs = Stubs(session, spot=False)
    stubs.describe(_gpu_types(10_000))
    stubs.products([])
    before = _store_state(store_with_snapshot)
    with pytest.raises(PriceSourceError, match=r"^AWS GetProducts gave no USD on-demand price for any of the 10000 GPU"):
        refresh(stubs.source, [REGION], store_with_snapshot)
    # one more: refused after that page, before any price is asked for
    stubs = Stubs(session, spot=False)
    stubs.describe(_gpu_types(10_001))
    with pytest.raises(PriceSourceError) as info:
        refresh(stubs.source, [REGION], store_with_snapshot)
    assert str(info.value) == ("AWS DescribeInstanceTypes in us-east-1: the GPU instance types went past 10,000 for one "
                               "region (several times any real region's); the listing cannot be trusted; nothing was "
                               "saved")
    stubs.done()   # no GetProducts call was made
    _assert_unchanged(store_with_snapshot, before)


def _spot_zones(n: int) -> dict:
    """A DescribeSpotPriceHistory answer quoting p4d.24xlarge in `n` distinct zone ids (use1-az0 …), at 3.0 USD/h,
    except 2.5 in the last."""
    stamp = datetime(2026, 7, 20, 13, 0, tzinfo=timezone.utc)
    return {"SpotPriceHistory": [{"AvailabilityZoneId": f"use1-az{i}", "InstanceType": "p4d.24xlarge",
                                  "ProductDescription": "Linux/UNIX", "SpotPrice": "2.5" if i == n - 1 else "3.0",
                                  "Timestamp": stamp} for i in range(n)]}


def test_more_spot_quotes_than_any_region_has_fail_the_refresh(session):
    def fetch(n: int):
        stubs = Stubs(session)
        stubs.describe()
        stubs.products([_p4d_item()])
        stubs.spot(_spot_zones(n))
        return stubs.source.fetch([REGION])

    spot = _by_id(fetch(10_000)).loc["aws:us-east-1:p4d.24xlarge:spot"]   # MAX_OFFERS_PER_REGION quotes: read
    assert (spot.hourly_price, spot.zone) == (2.5, "use1-az9999")
    assert spot.note.startswith("lowest of 10,000 zone quotes")
    with pytest.raises(PriceSourceError, match=r"^AWS DescribeSpotPriceHistory in us-east-1: the spot quotes "
                                               r"\(instance type and zone\) went past 10,000 for one region"):
        fetch(10_001)


def test_more_gpu_offers_than_any_region_has_fail_the_refresh(session):
    # the fixture's p4d.24xlarge item gives 13 offers (on demand, and 2 terms x 3 payment options x 2 classes
    # reserved: test_full_fetch_of_one_region); 769 renamed copies give 9,997, 770 give 10,010 > 10,000
    (p4d_type,) = [t for t in _describe()["InstanceTypes"] if t["InstanceType"] == "p4d.24xlarge"]

    def fetch(n: int):
        stubs = Stubs(session, spot=False)
        stubs.describe({"InstanceTypes": [{**p4d_type, "InstanceType": f"p4d.x{i}"} for i in range(n)]})
        items = []
        for i in range(n):
            item = _p4d_item()
            item["product"]["attributes"]["instanceType"] = f"p4d.x{i}"
            items.append(item)
        stubs.products(items)
        return stubs.source.fetch([REGION])

    assert len(fetch(769)) == 9_997
    with pytest.raises(PriceSourceError, match=r"^AWS GetProducts in us-east-1: the GPU offers went past 10,000 "):
        fetch(770)
