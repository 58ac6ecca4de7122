"""The attacks of the reliability review, replayed: each test states the outcome an attacker got on the
old code (a destroyed file, a partial snapshot saved with exit 0, a refresh that never ends, a traceback)
and checks the opposite. Local servers listen on 127.0.0.1 only; boto3 reaches them through
AWS_ENDPOINT_URL_PRICING, the Azure adapter through FLEETPLAN_AZURE_*_URL.
"""

from __future__ import annotations

import copy
import json
import sqlite3
import threading
import time
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pandas as pd
import pytest
import test_aws
from azure.core.exceptions import HttpResponseError
from botocore.stub import Stubber
from store_race import damage, damaged_store, foreign_sqlite, race
from test_aws import (
    ACCELERATOR_TYPES,
    REGION,
    Stubs,
    _assert_unchanged,
    _describe,
    _good_offers,
    _items,
    _p4d_item,
    _page,
    _spot,
    _spot_params,
    _store_state,
)
from typer.testing import CliRunner

from planner.catalog.prices import price_table
from planner.cli import app
from planner.errors import PriceSourceError as PlanPriceSourceError
from planner.errors import PriceStoreUnusable
from pricing_adapters import azure, base
from pricing_adapters.aws import AwsPriceSource
from pricing_adapters.azure import AzurePriceSource
from pricing_adapters.errors import DeadlineExceeded, PriceSourceError, StoreError
from pricing_adapters.refresh import refresh
from pricing_adapters.schema import OffersSchemaError, validate_offers
from pricing_adapters.snapshot import load_snapshot
from pricing_adapters.store import APPLICATION_ID, PriceStore, set_aside

runner = CliRunner()
session = test_aws.session            # fixture: a boto3 session with fake keys
FIX_AZURE = Path(__file__).resolve().parents[1] / "fixtures" / "azure"


@pytest.fixture
def store(tmp_path):
    """A store holding one good AWS snapshot (us-east-1, one offer at 5.672 USD/h)."""
    s = PriceStore(tmp_path / "s.sqlite")
    s.save("aws", [REGION], "earlier refresh", _good_offers(),
           fetched_at=datetime(2026, 7, 20, 12, 0, tzinfo=timezone.utc))
    return s


@pytest.fixture
def local_server():
    """start(respond) -> base URL of an HTTP server on 127.0.0.1 calling respond(handler, stop_event)."""
    servers = []

    def start(respond) -> str:
        stop = threading.Event()

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - http.server API
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    respond(self, stop)
                except OSError:   # the client gave up: that is the point of most of these tests
                    pass

            do_POST = do_GET

            def log_message(self, *args):
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append((server, stop))
        return f"http://127.0.0.1:{server.server_port}"

    yield start
    for server, stop in servers:
        stop.set()
        server.shutdown()
        server.server_close()


def send(handler, body: bytes, status: int = 200, ctype: str = "application/json") -> None:
    handler.send_response(status)
    handler.send_header("Content-Type", ctype)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def drip(handler, stop) -> None:
    """A 200 answer that promises 100 kB and sends one byte every 0.2 s until the test ends."""
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", "100000")
    handler.end_headers()
    while not stop.wait(0.2):
        handler.wfile.write(b" ")
        handler.wfile.flush()


# == 1. the store under concurrent first use ===================================================================

def test_twenty_processes_opening_one_path_at_once_lose_no_file_and_make_one_store(tmp_path):
    # Attack: a user's own SQLite file at the store path, 20 processes calling open_store at once: the
    # file was renamed over an earlier backup (destroyed in 5 of 5 rounds); fresh paths gave "table
    # snapshots already exists" and "disk I/O error". A user's file that is no database at all was
    # moved aside as a "damaged store". 4 rounds of each case here (one start-up of the 20 processes,
    # about 10 s); benchmarks/store_race.py runs 50.
    rounds = 4
    foreign = [tmp_path / f"foreign{r}" / "prices.sqlite" for r in range(rounds)]
    garbage = [tmp_path / f"garbage{r}" / "prices.sqlite" for r in range(rounds)]
    fresh = [tmp_path / f"fresh{r}" / "prices.sqlite" for r in range(rounds)]
    damaged = [tmp_path / f"damaged{r}" / "prices.sqlite" for r in range(rounds)]
    originals = {p: foreign_sqlite(p) for p in foreign}
    for p in garbage:
        p.parent.mkdir()
        p.write_bytes(b"not a database, but someone's bytes " * 300)
        originals[p] = p.read_bytes()
    damaged_bytes = {p: damaged_store(p) for p in damaged}
    results = race(foreign + garbage + fresh + damaged, processes=20, timeout=120)
    for path, got in zip(foreign + garbage, results[:2 * rounds]):
        assert path.read_bytes() == originals[path]           # untouched, byte for byte, in place
        assert [p.name for p in path.parent.iterdir()] == ["prices.sqlite"]   # not copied aside, no lock
        assert {kind for kind, _ in got} == {"raised"}        # never a store, nor the packaged prices in its place
        assert all(message.startswith("StoreForeign: ") and "another application" in message
                   and "left untouched" in message for _, message in got)
    for path, got in zip(fresh, results[2 * rounds:3 * rounds]):
        assert {kind for kind, _ in got} == {"store"}, got     # every process got the store, none failed
        assert sorted(p.name for p in path.parent.iterdir()) == ["prices.sqlite", "prices.sqlite.lock"]
        con = sqlite3.connect(path)
        assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert con.execute("SELECT count(*) FROM sqlite_master WHERE name = 'snapshots'").fetchone()[0] == 1
        con.close()
    for path, got in zip(damaged, results[3 * rounds:]):
        assert {kind for kind, _ in got} == {"store"}, got    # a writer's open: the damaged one aside, a new store
        (aside,) = path.parent.glob("prices.sqlite.bad-*")    # set aside exactly once, the original bytes
        assert aside.read_bytes() == damaged_bytes[path]


def test_setting_aside_never_overwrites_an_earlier_backup(tmp_path):
    # Attack: backups were named <name>.bad-<second>, and Path.rename replaces an existing file.
    path = tmp_path / "s.sqlite"
    now = datetime.now(timezone.utc).timestamp()
    earlier = {}
    for dt in range(4):   # the names the old scheme would pick for the next seconds
        stamp = datetime.fromtimestamp(now + dt, timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        earlier[tmp_path / f"s.sqlite.bad-{stamp}"] = f"backup {dt}".encode()
    for p, data in earlier.items():
        p.write_bytes(data)
    damaged = damaged_store(path)
    aside = set_aside(path)
    assert aside is not None and aside.read_bytes() == damaged
    assert all(p.read_bytes() == data for p, data in earlier.items())


def test_the_cli_refuses_a_foreign_sqlite_store_and_leaves_it(tmp_path):
    path = tmp_path / "mine.sqlite"
    original = foreign_sqlite(path)
    result = runner.invoke(app, ["prices", "list", "--store", str(path)])
    assert result.exit_code == 2
    assert "another application" in result.stderr and "Traceback" not in result.output
    assert path.read_bytes() == original and not list(tmp_path.glob("*.bad-*"))


def _files(folder: Path) -> dict[str, bytes]:
    """Every file in `folder`, by name: what a command left there."""
    return {p.name: p.read_bytes() for p in folder.iterdir()}


READ_ONLY = [["prices", "list"], ["prices", "show"], ["prices", "diff", "1", "2"]]
EVERY_STORE_COMMAND = [*READ_ONLY, ["prices", "refresh", "--provider", "aws", "--region", REGION]]


def _not_a_store(path: Path, kind: str) -> None:
    if kind == "scenario":   # `--store scenario.yaml` for `--scenario`, or a tab completion gone wrong
        path.write_bytes((Path(__file__).resolve().parents[2] / "scenarios" / "startup-hybrid.yaml").read_bytes())
    else:                    # another application's database, damaged: SQLite calls it malformed too
        foreign_sqlite(path)
        damage(path)


@pytest.mark.parametrize("kind", ["scenario", "damaged foreign database"])
@pytest.mark.parametrize("command", EVERY_STORE_COMMAND, ids=lambda c: c[1])
def test_a_file_that_is_not_a_store_is_refused_and_never_moved(tmp_path, command, kind):
    # Attack: `fleetplan prices list --store scenario.yaml` printed "moved aside to scenario.yaml.bad-…",
    # exited 0 and left a new empty store and a lock file where the scenario was: any file SQLite could
    # not read counted as a damaged store of ours. The same for refresh, show and diff, and for another
    # application's damaged database.
    path = tmp_path / "startup-hybrid.yaml"
    _not_a_store(path, kind)
    before = _files(tmp_path)
    result = runner.invoke(app, [*command, "--store", str(path)])
    assert result.exit_code == 2, result.output
    assert "is not a fleetplan price store" in result.stderr and "left untouched" in result.stderr
    assert "Traceback" not in result.output
    assert _files(tmp_path) == before   # nothing renamed, written or added (no lock file either)


@pytest.mark.parametrize("kind", ["scenario", "damaged foreign database"])
def test_plans_on_a_file_that_is_not_a_store_fail_and_never_move_it(tmp_path, kind):
    # they planned on the packaged prices, said in a warning, exit 0: not the prices the scenario asks for
    path = tmp_path / "prices.sqlite"
    _not_a_store(path, kind)
    before = _files(tmp_path)
    with pytest.raises(PriceStoreUnusable, match="is not a fleetplan price store .* left untouched"):
        price_table("store", path)
    assert _files(tmp_path) == before


class _GoodSource:
    provider, source = "aws", "fake AWS"

    def fetch(self, regions, progress):
        return _good_offers()


def test_a_damaged_store_is_left_by_readers_and_set_aside_by_a_refresh(tmp_path, monkeypatch):
    # A store of ours (its header says so) whose pages a disk fault overwrote: the readers report it and
    # leave it; the next refresh keeps it as prices.sqlite.bad-… and starts a new store.
    path = tmp_path / "prices.sqlite"
    damaged = damaged_store(path)
    for command in READ_ONLY:
        result = runner.invoke(app, [*command, "--store", str(path)])
        assert result.exit_code == 2, result.output
        assert "is a damaged price store" in result.stderr and "`fleetplan prices refresh` moves it aside" in result.stderr
        assert _files(tmp_path) == {"prices.sqlite": damaged}
    monkeypatch.setattr("pricing_adapters.refresh.get_source", lambda provider, **kw: _GoodSource())
    # one offer, where the packaged snapshot holds 104 in us-east-1: its missing offers accepted
    started = int(time.time())
    result = runner.invoke(app, ["prices", "refresh", "--provider", "aws", "--region", REGION, "--store", str(path),
                                 "--accept-missing-offers"])
    assert result.exit_code == 0, result.output
    (aside,) = tmp_path.glob("prices.sqlite.bad-*")
    assert aside.read_bytes() == damaged
    # no page of the old store can be read, so not even its highest id: the new one counts from 1000 per second since
    # 1970 at the replacement, above any id the old one gave (it gave none; a pin of #1 must not find another #1)
    (snapshot_id,) = [s.id for s in PriceStore(path).snapshots()]
    assert started * 1000 < snapshot_id <= int(time.time()) * 1000 + 1
    assert "moved aside to" in result.stderr and f"saved snapshot #{snapshot_id} " in result.stderr


@pytest.mark.parametrize("kind", ["no file", "no folder", "empty file"])
@pytest.mark.parametrize("command", READ_ONLY, ids=lambda c: c[1])
def test_reading_where_there_is_no_store_creates_nothing(tmp_path, command, kind):
    # Attack: `fleetplan prices list --store new.sqlite` (or show) made new.sqlite and new.sqlite.lock,
    # with its folders; an empty file was written into a store.
    path = tmp_path / "prices.sqlite" if kind != "no folder" else tmp_path / "typo" / "prices.sqlite"
    if kind == "empty file":
        path.touch()
    before = _files(tmp_path)
    result = runner.invoke(app, [*command, "--store", str(path)])
    if kind == "no folder":   # a typo in the folder is bad input, as plan and validate say it
        assert result.exit_code == 2
        assert f"error: --store {path}: folder {tmp_path / 'typo'} does not exist" in " ".join(result.stderr.split())
    else:
        assert f"no price store at {path}" in result.stderr and "fleetplan prices refresh" in result.stderr
    assert "Traceback" not in result.output
    assert _files(tmp_path) == before


# == 2. malformed AWS GetProducts pages =========================================================================

def _aws_against(url: str, session, monkeypatch, spot: bool = True, **options) -> AwsPriceSource:
    """An AwsPriceSource whose pricing client calls `url`; EC2 answers from the recorded fixtures."""
    monkeypatch.setenv("AWS_ENDPOINT_URL_PRICING", url)
    src = AwsPriceSource(session=session, spot=spot, **options)
    ec2 = Stubber(src.client("ec2", REGION))
    ec2.add_response("describe_instance_types", _describe(), {"MaxResults": 100})
    if spot:
        ec2.add_response("describe_spot_price_history", _spot(), _spot_params(ACCELERATOR_TYPES))
    ec2.activate()
    return src


@pytest.mark.parametrize("body", [
    json.dumps(_page([_p4d_item()]))[:150].encode(),          # truncated mid-page
    b"<html><body>502 Bad Gateway</body></html>",             # a proxy's page with status 200
    json.dumps({"PriceList": [json.dumps(_p4d_item())[:90]], "FormatVersion": "aws_v1"}).encode(),  # bad item
])
def test_a_broken_get_products_page_fails_the_refresh_and_saves_nothing(body, local_server, session, monkeypatch,
                                                                       store):
    # Attack: such a page was read as the last one; the refresh exited 0 and saved spot rows only.
    url = local_server(lambda h, stop: send(h, body, ctype="application/x-amz-json-1.1"))
    before = _store_state(store)
    with pytest.raises(PriceSourceError, match="GetProducts page 1 for us-east-1") as info:
        refresh(_aws_against(url, session, monkeypatch), [REGION], store)
    assert "\n" not in str(info.value)
    _assert_unchanged(store, before)


def test_prices_all_in_another_currency_fail_the_refresh(session, store):
    # Attack: every price in CNY gave "skipped: 6 non_usd" and exit 0 (with spot rows only saved).
    stubs = Stubs(session)
    stubs.describe()
    items = [copy.deepcopy(i) for i in (_p4d_item(), *_items().values())]
    for item in items:
        for term in item.get("terms", {}).get("OnDemand", {}).values():
            for dim in term["priceDimensions"].values():
                dim["pricePerUnit"] = {"CNY": "24.0"}
    stubs.products(items)
    stubs.spot()
    before = _store_state(store)
    with pytest.raises(PriceSourceError, match="no USD on-demand price for any of the 6 GPU types of us-east-1"):
        refresh(stubs.source, [REGION], store)
    _assert_unchanged(store, before)


def test_azure_rejects_the_same_faults(local_server, monkeypatch):
    page = json.loads((FIX_AZURE / "retail_eastus2_page1.json").read_text())
    for body, message in [
        (json.dumps(page)[:200].encode(), "is not valid JSON"),                                  # truncated
        (b"<html>502</html>", "is not valid JSON"),                                             # proxy page
        (json.dumps({"Items": ["oops"], "NextPageLink": None}).encode(), "is not an object"),   # bad item
        (json.dumps({**page, "Items": [{**i, "currencyCode": "EUR"} for i in page["Items"]]}).encode(),
         "returned EUR prices"),                                                               # currency
        (json.dumps({**page, "Items": [{**i, "skuName": i["skuName"] + " Spot", "savingsPlan": []}
                                       for i in page["Items"]]}).encode(), "no on-demand price"),  # spot only
    ]:
        url = local_server(lambda h, stop, b=body: send(h, b))
        monkeypatch.setenv(azure.PRICES_URL_ENV, url + "/api/retail/prices")
        with pytest.raises(PriceSourceError, match=message):
            AzurePriceSource(sleep=lambda s: None).fetch(["eastus2"])


def _cli_refresh(provider: str, region: str, store_path: Path, *extra: str):
    return runner.invoke(app, ["prices", "refresh", "--provider", provider, "--region", region,
                               "--store", str(store_path), *extra])


def test_terms_of_the_wrong_shape_end_the_cli_refresh_in_one_line(session, store, monkeypatch):
    # Attack: a GetProducts item whose `terms` was a list gave an AttributeError traceback.
    stubs = Stubs(session, spot=False)
    stubs.describe()
    items = [copy.deepcopy(i) for i in (_p4d_item(), _items()["g5.12xlarge"])]
    for item in items:
        item["terms"] = ["OnDemand"]
    stubs.products(items)
    monkeypatch.setattr("pricing_adapters.refresh.get_source", lambda provider, **kw: stubs.source)
    before = _store_state(store)
    result = _cli_refresh("aws", REGION, store.path)
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit) and "Traceback" not in result.output   # typer.Exit(1), nothing else
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("refresh failed: AWS GetProducts gave no USD on-demand price") and "2 malformed" in line
    _assert_unchanged(store, before)


@pytest.mark.parametrize("plans", ["1 Year", {"term": "1 Year"}, ["1 Year"]])
def test_a_savings_plan_of_the_wrong_shape_is_counted_and_the_rest_saved(local_server, monkeypatch, tmp_path, plans):
    # Attack: `savingsPlan` as a string, an object or a list of strings gave an AttributeError traceback.
    page = json.loads((FIX_AZURE / "retail_eastus_page3.json").read_text())
    first = json.loads((FIX_AZURE / "retail_eastus_page1.json").read_text())["Items"][0]   # NC24ads on-demand
    body = json.dumps({**page, "Items": [{**first, "savingsPlan": plans}]}).encode()
    monkeypatch.setenv(azure.PRICES_URL_ENV, local_server(lambda h, stop: send(h, body)) + "/api/retail/prices")
    # one offer, where the packaged snapshot holds 72 in eastus: its missing offers accepted
    result = _cli_refresh("azure", "eastus", tmp_path / "s.sqlite", "--accept-missing-offers")
    assert result.exit_code == 0, result.output
    assert "skipped: 1 malformed" in result.stderr
    (snapshot,) = PriceStore(tmp_path / "s.sqlite").snapshots()
    offers = PriceStore(tmp_path / "s.sqlite").offers(snapshot.id)
    assert list(zip(offers.purchase_option, offers.hourly_price)) == [("on_demand", 3.673)]   # reference eastus


def test_an_azure_listing_with_nothing_readable_ends_the_cli_refresh_in_one_line(local_server, monkeypatch, store):
    # every item priced per month: nothing hourly is left, and the store keeps its snapshot
    page = json.loads((FIX_AZURE / "retail_eastus_page1.json").read_text())
    body = json.dumps({**page, "NextPageLink": None,
                       "Items": [{**i, "unitOfMeasure": "1/Month"} for i in page["Items"]]}).encode()
    monkeypatch.setenv(azure.PRICES_URL_ENV, local_server(lambda h, stop: send(h, body)) + "/api/retail/prices")
    before = _store_state(store)
    result = _cli_refresh("azure", "eastus", store.path)
    assert result.exit_code == 1, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("refresh failed: no GPU offers returned for region eastus")
    _assert_unchanged(store, before)


# == 3. deadlines and page limits ==============================================================================

# Not a timing claim: the deadline's own error says it fired; without it these reads went on for 600 s and more, so
# a bound this far above the deadlines (1-2 s) catches one that is ignored without failing on a busy machine.
HANG = 60


def test_a_dripping_price_list_is_cut_at_the_deadline_aws(local_server, session, monkeypatch, store):
    # Attack: one byte every 5 s was still being read after 600 s.
    url = local_server(drip)
    src = _aws_against(url, session, monkeypatch, spot=False, deadline=1.5)
    before = _store_state(store)
    started = time.monotonic()
    with pytest.raises(DeadlineExceeded, match="1.5 s deadline"):
        refresh(src, [REGION], store)
    assert time.monotonic() - started < HANG
    _assert_unchanged(store, before)


def test_endless_page_tokens_stop_at_the_deadline_and_at_the_page_limit(local_server, session, monkeypatch):
    # Attack: a new NextToken on every page looped past 240 s.
    count = iter(range(10**9))
    url = local_server(lambda h, stop: send(h, json.dumps(
        {"FormatVersion": "aws_v1", "PriceList": [], "NextToken": f"t{next(count)}"}).encode(),
        ctype="application/x-amz-json-1.1"))
    started = time.monotonic()
    with pytest.raises(DeadlineExceeded, match="deadline"):
        _aws_against(url, session, monkeypatch, spot=False, deadline=1).fetch([REGION])
    assert time.monotonic() - started < HANG
    monkeypatch.setattr(base, "MAX_PAGES", 5)
    with pytest.raises(DeadlineExceeded, match="went past 5 pages"):
        _aws_against(url, session, monkeypatch, spot=False).fetch([REGION])


def test_a_dripping_or_endless_retail_listing_ends_the_cli_refresh(local_server, monkeypatch, tmp_path):
    store = tmp_path / "s.sqlite"
    count = iter(range(10**9))

    def endless(h, stop):
        base_url = f"http://127.0.0.1:{h.server.server_port}/p"
        send(h, json.dumps({"Items": [], "NextPageLink": f"{base_url}?$skip={next(count)}"}).encode())

    for respond in (drip, endless):
        monkeypatch.setenv(azure.PRICES_URL_ENV, local_server(respond) + "/p")
        started = time.monotonic()
        result = runner.invoke(app, ["prices", "refresh", "--provider", "azure", "--region", "eastus",
                                     "--store", str(store), "--deadline", "1"])
        assert time.monotonic() - started < HANG
        assert result.exit_code == 1 and "1 s deadline" in result.stderr and "Traceback" not in result.output
    assert PriceStore(store).snapshots() == []


def test_deadline_flag_is_documented():
    result = runner.invoke(app, ["prices", "refresh", "--help"])
    assert "--deadline" in result.output and "SECONDS" in result.output


@pytest.mark.parametrize("deadline", ["1e10", "inf", "nan", "86401"])
def test_a_deadline_beyond_a_day_or_not_a_number_is_bad_input(tmp_path, deadline):
    # 1e10 and inf overflowed threading's join() into a traceback; nan would be a deadline that never passes
    result = runner.invoke(app, ["prices", "refresh", "--provider", "azure", "--region", "eastus",
                                 "--store", str(tmp_path / "s.sqlite"), "--deadline", deadline])
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert f"Invalid value for '--deadline': expected a number of seconds from 1 to 86400, got '{deadline}'" \
        in " ".join(result.stderr.split())
    assert not (tmp_path / "s.sqlite").exists()   # refused before the store is made


@pytest.mark.parametrize("seconds", [1e10, float("inf")])
def test_a_huge_deadline_in_the_library_waits_for_the_call(seconds):
    # the API (AzurePriceSource(deadline=…)) has no range check: join() waits at most threading.TIMEOUT_MAX
    assert base.call_with_deadline(base.Deadline(seconds), "a quick call", lambda: 42) == 42


class _Skus:
    def __init__(self, error=None, hang=None):
        self.error, self.hang = error, hang

    def list(self, filter=None, **kwargs):  # noqa: A002 - the SDK's parameter name
        if self.hang is not None:
            self.hang.wait()   # ARM accepted the request and never answers
        raise self.error


class _Compute:
    def __init__(self, **kw):
        self.resource_skus = _Skus(**kw)


def _http_500():
    error = HttpResponseError(message="Internal Server Error")
    error.status_code = 500
    return error


def test_arm_500_or_no_answer_falls_back_to_the_packaged_sizes(local_server, monkeypatch):
    # Attack: ARM 500 failed the whole refresh (403 fell back); a silent ARM endpoint took 1,208 s.
    page = (FIX_AZURE / "retail_eastus2_page1.json").read_bytes()
    monkeypatch.setenv(azure.PRICES_URL_ENV, local_server(lambda h, stop: send(h, page)) + "/p")
    hang = threading.Event()
    try:
        for compute, said in ((_Compute(error=_http_500()), "HTTP 500"), (_Compute(hang=hang), "no answer within")):
            src = AzurePriceSource(compute_client=compute, subscription_id="sub", deadline=2)
            started = time.monotonic()
            df = src.fetch(["eastus2"])
            assert time.monotonic() - started < HANG
            assert (df["purchase_option"] == "on_demand").any()
            assert said in src.notice and "packaged size table" in src.notice
    finally:
        hang.set()


def test_the_arm_client_gets_timeouts_and_few_retries(monkeypatch):
    import azure.mgmt.compute

    built = {}
    monkeypatch.setattr(azure.mgmt.compute, "ComputeManagementClient",
                        lambda credential, sub, base_url=None, **kw: built.update(kw) or object())
    AzurePriceSource(credential=object(), subscription_id="sub", deadline=5)._compute_client()
    assert built["read_timeout"] <= 5 and built["connection_timeout"] <= 10 and built["retry_total"] <= 3


# == 4. bad stored rows, bad numbers, bad endpoints ==============================================================

def test_rows_and_snapshots_edited_by_hand_are_skipped_and_named(tmp_path):
    # Attack: one edited row broke `plan` and `prices list` for good.
    path = tmp_path / "s.sqlite"
    s = PriceStore(path)
    offers = load_snapshot(["aws"])
    offers = offers[offers["region"] == REGION].reset_index(drop=True)
    first = s.save("aws", [REGION], "first", offers)
    second = s.save("aws", ["us-west-2"], "second", load_snapshot(["aws"]).query("region == 'us-west-2'"))
    third = s.save("aws", ["eu-west-1"], "third", load_snapshot(["aws"]).query("region == 'eu-west-1'"))
    ids = list(offers["offer_id"][:3])
    con = sqlite3.connect(path)
    con.execute("UPDATE offers SET hourly_price = -3 WHERE offer_id = ?", (ids[0],))
    con.execute("UPDATE offers SET offer_id = NULL WHERE offer_id = ?", (ids[1],))
    con.execute("UPDATE offers SET hourly_price = 'abc' WHERE offer_id = ?", (ids[2],))
    con.execute("UPDATE snapshots SET regions = 'us-west-2, oops' WHERE id = ?", (second.id,))
    con.execute("UPDATE snapshots SET fetched_at = 'last tuesday' WHERE id = ?", (third.id,))
    con.commit()
    con.close()

    listed = runner.invoke(app, ["prices", "list", "--store", str(path), "--format", "json"])
    assert listed.exit_code == 0 and [r["id"] for r in json.loads(listed.stdout)] == [first.id]
    assert f"snapshot #{second.id} skipped" in listed.stderr and f"snapshot #{third.id} skipped" in listed.stderr

    table, provenance = price_table("store", path)
    used = table[(table["provider"] == "aws") & (table["region"] == REGION)]
    assert len(used) == len(offers) - 3 and not set(ids) & set(used["offer_id"])
    assert "3 bad offer rows skipped" in provenance["warning"]
    assert ids[0] in provenance["warning"] and "negative hourly_price -3.0" in provenance["warning"]
    # the cell that is no number is shown, and not also called empty (it said "… is not a number, empty 'hourly_price'")
    assert f"(offer {ids[2]}): hourly_price 'abc' is not a number;" in provenance["warning"] + ";"
    assert "empty 'hourly_price'" not in provenance["warning"]


@pytest.mark.parametrize("column, value, said", [
    ("hourly_price", "1e400", "a price that is not finite"),
    ("hourly_price", "Infinity", "a price that is not finite"),
    ("gpu_count", "1e6", "gpu_count above 128 per unit"),
    ("gpu_count", "inf", "gpu_count above 128 per unit"),
    ("hourly_price", "0", "hourly_price 0"),
])
def test_an_offers_csv_with_impossible_numbers_is_refused_naming_the_row(tmp_path, column, value, said):
    offers = load_snapshot(["aws"]).head(5).astype({column: object})
    offers.loc[3, column] = value
    csv = tmp_path / "offers.csv"
    offers.to_csv(csv, index=False)
    with pytest.raises(PlanPriceSourceError) as info:
        price_table(str(csv))
    text = str(info.value)
    assert f"line 5 (offer {offers.loc[3, 'offer_id']}): {said}" in text and "\n" not in text


def test_infinite_prices_from_the_apis_are_never_stored(session):
    # Attack: "1e400" in a GetProducts price was stored as inf.
    stubs = Stubs(session, spot=False, reserved=False)
    stubs.describe()
    huge = copy.deepcopy(_items()["g5.12xlarge"])
    for term in huge["terms"]["OnDemand"].values():
        for dim in term["priceDimensions"].values():
            dim["pricePerUnit"] = {"USD": "1e400"}
    stubs.products([huge, _p4d_item()])
    df = stubs.source.fetch([REGION])
    assert list(df["sku"]) == ["p4d.24xlarge"] and stubs.source.skipped == {"malformed": 1}
    assert azure.classify_item({"type": "Consumption", "skuName": "x", "productName": "Virtual Machines NC",
                                "retailPrice": float("inf")}) == ([], ["non_finite_price"])
    with pytest.raises(OffersSchemaError, match="not finite"):
        validate_offers(pd.concat([df.assign(hourly_price=float("inf"))]))


@pytest.mark.parametrize("provider, variable", [
    ("azure", "FLEETPLAN_AZURE_PRICES_URL"), ("azure", "FLEETPLAN_AZURE_ARM_URL"),
    ("aws", "AWS_ENDPOINT_URL_PRICING"), ("aws", "AWS_ENDPOINT_URL_EC2"),
])
def test_an_endpoint_with_an_impossible_port_is_a_usage_error(tmp_path, monkeypatch, provider, variable):
    monkeypatch.setenv(variable, "http://127.0.0.1:70000/prices")
    region = "eastus" if provider == "azure" else REGION
    result = runner.invoke(app, ["prices", "refresh", "--provider", provider, "--region", region,
                                 "--store", str(tmp_path / "s.sqlite")])
    assert result.exit_code == 2
    assert variable in result.stderr and "Port out of range" in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize("provider, region, message", [
    ("aws", "eastus", "not AWS region codes: eastus (expected e.g. us-east-1)"),       # Azure's name for it
    ("aws", "", "no AWS region given"),
    ("azure", "us-east-1", "not Azure region names: us-east-1"),
    ("azure", "eastus' or armRegionName eq 'westus", "not Azure region names"),      # spliced into $filter
    ("azure", " ", "no Azure region given"),
])
def test_a_region_that_cannot_be_one_is_a_usage_error_and_makes_no_store(tmp_path, provider, region, message):
    # Attack: `prices refresh --provider aws --region eastus`, or `--region ""`, said "refresh failed" with
    # exit 1, the code of a failed refresh, after making the store; Azure sent any text to the API.
    folder = tmp_path / "store"
    folder.mkdir()
    result = runner.invoke(app, ["prices", "refresh", "--provider", provider, "--region", region,
                                 "--store", str(folder / "s.sqlite")])
    assert result.exit_code == 2, result.output
    assert f"error: --region: {message}" in result.stderr and "Traceback" not in result.output
    assert list(folder.iterdir()) == []


# == 5. messages ===============================================================================================

def _limited(monkeypatch, query_only: bool = False) -> None:
    """Make the store's write connections unable to grow the file by more than a page (a full disk), or
    unable to write at all (a read-only file: root ignores chmod, so SQLite's query_only stands in)."""
    real = PriceStore._connect

    def connect(self):
        con = real(self)
        if query_only:
            con.execute("PRAGMA query_only = ON")
        else:
            pages = con.execute("PRAGMA page_count").fetchone()[0]
            con.execute(f"PRAGMA max_page_count = {pages + 1}")
        return con

    monkeypatch.setattr(PriceStore, "_connect", connect)


def test_a_full_disk_is_reported_as_a_full_disk(monkeypatch, store):
    # Attack: the message was "cannot rollback - no transaction is active".
    before = _store_state(store)
    _limited(monkeypatch)
    with pytest.raises(StoreError) as info:
        store.save("aws", ["us-west-2"], "big", load_snapshot(["aws"]))
    assert str(info.value).startswith("disk full") and "rollback" not in str(info.value)
    monkeypatch.undo()
    _assert_unchanged(store, before)


def test_a_read_only_store_is_said_once(monkeypatch, store):
    # Attack: "The store is unchanged" was printed twice in one message.
    import pricing_adapters.refresh as refresh_module

    _limited(monkeypatch, query_only=True)

    class Source:
        provider, source = "aws", "fake"

        def fetch(self, regions, progress):
            return load_snapshot(["aws"]).query("region == 'us-east-1'")

    monkeypatch.setattr(refresh_module, "get_source", lambda provider, **kw: Source())
    result = runner.invoke(app, ["prices", "refresh", "--provider", "aws", "--region", REGION,
                                 "--store", str(store.path)])
    assert result.exit_code == 1
    assert "read-only" in result.stderr and result.stderr.lower().count("store is unchanged") == 1
