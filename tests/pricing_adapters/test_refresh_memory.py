"""Memory a refresh may hold, against local servers on 127.0.0.1: an Azure listing is held one page at a time
(before, every item of every page was kept until the last page, so memory grew with the listing), and an AWS
answer is read no further than aws.MAX_ANSWER_BYTES (before, botocore read an answer of any size). Peaks are
tracemalloc's, taken over the fetch alone: the pages are built before it starts.
"""

from __future__ import annotations

import json
import threading
import tracemalloc
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest
import test_aws
from botocore.stub import Stubber
from test_aws import REGION, _assert_unchanged, _describe, _p4d_item, _page, _store_state

from pricing_adapters import aws, azure
from pricing_adapters.aws import AwsPriceSource
from pricing_adapters.azure import AzurePriceSource
from pricing_adapters.errors import PriceSourceError
from pricing_adapters.refresh import refresh

session = test_aws.session            # fixtures: a boto3 session with fake keys,
_no_backoff_sleep = test_aws._no_backoff_sleep   # and botocore's retries not sleeping (autouse)
store_with_snapshot = test_aws.store_with_snapshot   # one good us-east-1 offer, g5.12xlarge at 5.672 USD/h

Respond = Callable[[BaseHTTPRequestHandler], None]


@pytest.fixture
def local_server():
    """start(respond) -> (base URL of an HTTP/1.0 server on 127.0.0.1 calling respond(handler), requests seen)."""
    servers = []

    def start(respond: Respond) -> tuple[str, list[str]]:
        seen: list[str] = []

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - http.server API
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                seen.append(self.path)
                try:
                    respond(self)
                except OSError:   # the client stopped reading: what the AWS tests expect of it
                    pass

            do_POST = do_GET

            def log_message(self, *args):
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_port}", seen

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def _answer(handler: BaseHTTPRequestHandler, body: bytes, ctype: str, length: bool = True) -> None:
    """A 200 answer; without `length` it has no Content-Length and ends when the connection closes."""
    handler.send_response(200)
    handler.send_header("Content-Type", ctype)
    if length:
        handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def _peak_bytes(call: Callable[[], object]) -> int:
    """The most memory Python held (tracemalloc) at any point while `call()` ran."""
    tracemalloc.start()
    try:
        call()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# ------------------------------------------------------------------ Azure: one page at a time

NON_GPU_PER_PAGE = 500
A100 = "Standard_NC24ads_A100_v4"   # in the packaged size table: kept with its savings plan


def _retail_item(n: int, sku: str, product: str, price: float, **extra) -> dict:
    """A Linux pay-as-you-go Retail Prices item of eastus, in the API's fields."""
    return {"currencyCode": "USD", "tierMinimumUnits": 0.0, "retailPrice": price, "unitPrice": price,
            "armRegionName": "eastus", "location": "US East", "effectiveStartDate": "2024-01-01T00:00:00Z",
            "meterId": f"{n:08d}-0000-0000-0000-000000000000", "meterName": sku.removeprefix("Standard_"),
            "productId": "DZH318Z0BQ4J", "skuId": f"DZH318Z0BQ4J/{n:06d}", "productName": product,
            "skuName": sku.removeprefix("Standard_").replace("_", " "), "serviceName": "Virtual Machines",
            "serviceId": "DZH313Z7MMC8", "serviceFamily": "Compute", "unitOfMeasure": "1 Hour",
            "type": "Consumption", "isPrimaryMeterRegion": True, "armSkuName": sku, **extra}


def _retail_listing(base: str, pages: int) -> list[bytes]:
    """`pages` Retail Prices pages linked by NextPageLink: each holds NON_GPU_PER_PAGE Linux D4s v5 items
    (not GPU sizes) and one Windows item; the middle page also holds the A100 at 3.673 USD/h with a 1-year
    savings plan at 2.31, and the last page quotes it again on a non-primary meter at 9.99 and 8.88."""
    bodies = []
    for p in range(pages):
        items = [_retail_item(p * 1000 + i, "Standard_D4s_v5", "Virtual Machines Dsv5 Series", 0.192)
                 for i in range(NON_GPU_PER_PAGE)]
        items.append(_retail_item(p * 1000 + 999, "Standard_D4s_v5", "Virtual Machines Dsv5 Series Windows", 0.376))
        if p == pages // 2:
            items.append(_retail_item(p * 1000 + 998, A100, "Virtual Machines NCadsA100v4 Series", 3.673,
                                      savingsPlan=[{"term": "1 Year", "retailPrice": 2.31}]))
        if p == pages - 1:
            items.append(_retail_item(p * 1000 + 997, A100, "Virtual Machines NCadsA100v4 Series", 9.99,
                                      isPrimaryMeterRegion=False, savingsPlan=[{"term": "1 Year", "retailPrice": 8.88}]))
        link = f"{base}/api/retail/prices?$skip={p + 1}" if p + 1 < pages else None
        bodies.append(json.dumps({"BillingCurrency": "USD", "Items": items, "NextPageLink": link}).encode())
    return bodies


def _fetch_listing(local_server, monkeypatch, pages: int) -> tuple[AzurePriceSource, dict[str, float], int, int]:
    """(source, {offer_id: hourly price}, peak bytes of the fetch, bytes of the listing's first page)."""
    bodies: list[bytes] = []

    def respond(handler: BaseHTTPRequestHandler) -> None:
        skip = parse_qs(urlsplit(handler.path).query).get("$skip", ["0"])[0]
        _answer(handler, bodies[int(skip)], "application/json")

    base, _ = local_server(respond)
    bodies.extend(_retail_listing(base, pages))
    monkeypatch.setenv(azure.PRICES_URL_ENV, f"{base}/api/retail/prices")
    monkeypatch.delenv(azure.SUBSCRIPTION_ENV, raising=False)
    src = AzurePriceSource(sleep=lambda s: None)
    out = {}
    peak = _peak_bytes(lambda: out.update(src.fetch(["eastus"]).set_index("offer_id")["hourly_price"]))
    return src, out, peak, len(bodies[0])


def test_an_azure_listing_ten_times_longer_takes_no_more_memory_than_one_more_page(local_server, monkeypatch):
    # Before, every item of every page was kept until the last page: 27 more pages of 501 items each held
    # about 70 pages' bytes more memory (Python objects outweigh their JSON).
    _fetch_listing(local_server, monkeypatch, 1)   # first use: what is set up once is not counted below
    results = {pages: _fetch_listing(local_server, monkeypatch, pages) for pages in (3, 30)}
    for pages, (src, offers, _, _) in results.items():
        assert offers == {f"azure:eastus:{A100}:on_demand": 3.673, f"azure:eastus:{A100}:savings_plan_1y": 2.31}
        # each page's D4s v5 items are no GPU size and its Windows item no Linux VM; the non-primary quote
        # of the A100 (on-demand and savings plan) loses to the primary one, pages earlier
        assert src.skipped == {"non_gpu": pages * NON_GPU_PER_PAGE, "windows": pages, "duplicate": 2}
        assert src.returned == {"eastus": pages * (NON_GPU_PER_PAGE + 1) + 2}
    (*_, short_peak, page_bytes), (*_, long_peak, _) = results[3], results[30]
    assert long_peak - short_peak < page_bytes, (short_peak, long_peak, page_bytes)


# ------------------------------------------------------------------ AWS: no answer read past the limit

P4D_TERMS = 13   # the fixture's p4d.24xlarge item: one OnDemand term and 12 Reserved ones (README there)


def _aws_pricing_at(url: str, session, monkeypatch, **options) -> AwsPriceSource:
    """An AwsPriceSource whose GetProducts calls go to `url`; DescribeInstanceTypes answers from the fixture."""
    monkeypatch.setenv("AWS_ENDPOINT_URL_PRICING", url)
    src = AwsPriceSource(session=session, spot=False, **options)
    ec2 = Stubber(src.client("ec2", REGION))
    ec2.add_response("describe_instance_types", _describe(), {"MaxResults": 100})
    ec2.activate()
    return src


TOO_LARGE = r"^AWS GetProducts in us-east-1 sent an answer larger than \d+ MB \(.*\); .*; nothing was saved$"


@pytest.mark.parametrize("length", [True, False], ids=["with Content-Length", "ended by closing"])
def test_a_full_get_products_page_is_read_and_a_limit_one_byte_below_it_fails_the_refresh(
        length, local_server, session, monkeypatch, store_with_snapshot):
    body = json.dumps(_page([_p4d_item()] * 100)).encode()   # 100 items with all 13 terms: a full real page
    base, seen = local_server(lambda h: _answer(h, body, "application/x-amz-json-1.1", length))

    df = _aws_pricing_at(base, session, monkeypatch).fetch([REGION])   # the default limit
    assert len(df) == P4D_TERMS and set(df["sku"]) == {"p4d.24xlarge"}
    assert df.set_index("purchase_option").loc["on_demand", "hourly_price"] == 21.957642   # the fixture's price

    monkeypatch.setattr(aws, "MAX_ANSWER_BYTES", len(body))
    src = _aws_pricing_at(base, session, monkeypatch)
    assert len(src.fetch([REGION])) == P4D_TERMS
    # the bare-metal query is given the same page: its 100 shared-tenancy items are not what it asked for
    assert src.skipped == {"duplicate": 99 * P4D_TERMS, "filter_mismatch": 100}

    monkeypatch.setattr(aws, "MAX_ANSWER_BYTES", len(body) - 1)
    before, asked = _store_state(store_with_snapshot), len(seen)
    with pytest.raises(PriceSourceError, match=TOO_LARGE):
        refresh(_aws_pricing_at(base, session, monkeypatch), [REGION], store_with_snapshot)
    assert len(seen) == asked + 1   # not asked again: a retry would get the same answer
    _assert_unchanged(store_with_snapshot, before)


def test_an_endless_aws_answer_is_cut_at_the_limit_and_never_held_whole(local_server, session, monkeypatch,
                                                                        store_with_snapshot):
    # Before, botocore read all 16 MiB (and would have read any more), then parsed them.
    limit = 2**20
    head, tail = b'{"FormatVersion": "aws_v1", "PriceList": []', b"}"
    block = b" " * 2**16
    sent = len(head) + 256 * len(block) + len(tail)   # 16 MiB of JSON, no Content-Length

    def respond(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/x-amz-json-1.1")
        handler.end_headers()
        handler.wfile.write(head)
        for _ in range(256):
            handler.wfile.write(block)
        handler.wfile.write(tail)

    base, _ = local_server(respond)
    monkeypatch.setattr(aws, "MAX_ANSWER_BYTES", limit)
    src = _aws_pricing_at(base, session, monkeypatch)
    before = _store_state(store_with_snapshot)

    def fails() -> None:
        with pytest.raises(PriceSourceError, match=TOO_LARGE):
            refresh(src, [REGION], store_with_snapshot)

    peak = _peak_bytes(fails)
    assert peak < sent / 4, (peak, sent)
    _assert_unchanged(store_with_snapshot, before)


def test_an_aws_answer_that_stalls_mid_body_is_retried_then_fails_as_timed_out(local_server, session, monkeypatch,
                                                                              store_with_snapshot):
    # The body is now read outside botocore's send: a read timeout there must still be botocore's, which its
    # retry mode retries and the adapter reports as timed out, as when botocore read the body itself.
    def respond(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/x-amz-json-1.1")
        handler.send_header("Content-Length", "1000")
        handler.end_headers()
        handler.wfile.write(b'{"FormatVersion": ')
        handler.wfile.flush()
        threading.Event().wait(3)   # well past the client's read timeout of 0.5 s

    base, seen = local_server(respond)
    src = _aws_pricing_at(base, session, monkeypatch, max_attempts=2, read_timeout=0.5)
    before = _store_state(store_with_snapshot)
    with pytest.raises(PriceSourceError, match="^timed out or could not connect calling AWS GetProducts for us-east-1"):
        refresh(src, [REGION], store_with_snapshot)
    assert len(seen) == 2   # both attempts
    _assert_unchanged(store_with_snapshot, before)
