"""The AWS adapter against answers of the wrong kind (price adapters audit, 2026-12-05): EC2 pages that are not the
operation's answer, reservations missing a price part, page tokens of megabytes, credential helpers that hang or print
no JSON, names and zone ids of a megabyte, products the filters did not ask for, and error messages of megabytes.

AWS is answered by botocore's Stubber (the recorded shapes of tests/fixtures/aws), at `before-send` (raw EC2 XML and
Price List JSON that botocore parses as in production), or by a fake AWS on 127.0.0.1 that the CLI is pointed at
(AWS_ENDPOINT_URL_EC2 / AWS_ENDPOINT_URL_PRICING): EC2 query XML rendered from the fixtures by botocore's own service
model, Price List JSON pages.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs
from xml.sax.saxutils import escape

import botocore.session
import pytest
import test_aws
from botocore.awsrequest import AWSResponse
from test_aws import (
    FIXTURES,
    REGION,
    Stubs,
    _by_id,
    _describe,
    _items,
    _p4d_item,
    _page,
    _products_params,
    _Raw,
    _spot,
)
from typer.testing import CliRunner

from planner.cli import app
from pricing_adapters import aws
from pricing_adapters.aws import AwsPriceSource
from pricing_adapters.errors import CredentialsError, DeadlineExceeded, PriceSourceError
from pricing_adapters.store import PriceStore

session = test_aws.session   # fixture: a boto3 session with fake keys
P4D_ON_DEMAND = "aws:us-east-1:p4d.24xlarge:on_demand"   # 21.957642 USD/h in the fixture item


# -- a fake AWS on 127.0.0.1 ----------------------------------------------------------------------------------

EC2_MODEL = botocore.session.get_session().get_service_model("ec2")
Answer = tuple[int, str, bytes]


def _xml(shape, value) -> str:
    """`value` (boto3's Python shape) as EC2 query XML, by the service model: what botocore parses back into it."""
    kind = shape.type_name
    if kind == "structure":
        return "".join(f"<{tag}>{_xml(member, value[name])}</{tag}>"
                       for name, member in shape.members.items() if name in value
                       for tag in [member.serialization.get("name") or name[0].lower() + name[1:]])
    if kind == "list":
        return "".join(f"<item>{_xml(shape.member, v)}</item>" for v in value)
    if kind == "boolean":
        return "true" if value else "false"
    if kind == "timestamp":
        return escape(value if isinstance(value, str) else value.isoformat())
    return escape(str(value))


def ec2_xml(operation: str, data: dict) -> bytes:
    """An EC2 answer of `operation` holding `data`, as EC2 sends it (a requestId first)."""
    body = _xml(EC2_MODEL.operation_model(operation).output_shape, data)
    return (f'<?xml version="1.0" encoding="UTF-8"?><{operation}Response xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">'
            f"<requestId>5f1a6b0e-0000-4000-8000-000000000000</requestId>{body}</{operation}Response>").encode()


def recorded(api: str) -> Answer:
    """The fixture listing's answer to `api`."""
    if api == "DescribeInstanceTypes":
        return 200, "text/xml", ec2_xml(api, _describe())
    if api == "DescribeSpotPriceHistory":
        return 200, "text/xml", ec2_xml(api, json.loads((FIXTURES / "describe_spot_price_history_us-east-1.json")
                                                        .read_text()))
    return 200, "application/x-amz-json-1.1", json.dumps(_page([_p4d_item(), *_items().values()])).encode()


@contextlib.contextmanager
def fake_aws(answer: Callable[[str, dict, int], Answer | None] = lambda api, params, n: None) -> Iterator[str]:
    """EC2 and the Price List on 127.0.0.1: each request is answered with `answer(api, params, n)` (n: the calls of that
    API so far), or the recorded answer when it gives None. Yields the endpoint URL."""
    calls: dict[str, int] = {}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):  # noqa: N802 - http.server API
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            target = self.headers.get("X-Amz-Target", "")
            if target:   # the Price List: JSON 1.1
                api, params = target.split(".")[-1], json.loads(raw or b"{}")
            else:        # EC2: a form-encoded query
                params = {k: v[0] for k, v in parse_qs(raw.decode()).items()}
                api = params.get("Action", "")
            calls[api] = calls.get(api, 0) + 1
            status, ctype, body = answer(api, params, calls[api]) or recorded(api)
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def cli_refresh(url: str, store: Path, monkeypatch, *extra: str):
    monkeypatch.setenv("AWS_ENDPOINT_URL_EC2", url)
    monkeypatch.setenv("AWS_ENDPOINT_URL_PRICING", url)
    return CliRunner().invoke(app, ["prices", "refresh", "--provider", "aws", "--region", REGION,
                                    "--store", str(store), *extra])


def _one_line(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture
def refreshed_store(tmp_path, monkeypatch) -> Path:
    """A store holding one refresh of the recorded listing: p4d.24xlarge spot at 2.4655 USD/h (use1-az1). Its 18
    offers lack most of the 104 packaged ones of us-east-1: accepted."""
    store = tmp_path / "s.sqlite"
    with fake_aws() as url:
        result = cli_refresh(url, store, monkeypatch, "--accept-missing-offers")
    assert result.exit_code == 0, result.output
    offers = _by_id(PriceStore(store).latest_offers(["aws"])[0])
    assert offers.loc["aws:us-east-1:p4d.24xlarge:spot", "hourly_price"] == 2.4655
    return store


def _snapshots(store: Path) -> list:
    return PriceStore(store, create=False).snapshots()


# -- 1. an EC2 page of another kind, answered with status 200 ---------------------------------------------------

PROXY_PAGE = (b'<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>Sign in to the proxy'
              b"</title></head><body><p>Your session has expired.</p></body></html>")


def test_a_spot_answer_that_is_a_proxy_page_fails_the_refresh_and_the_spot_prices_stay(refreshed_store, monkeypatch):
    # was: exit 0, "saved snapshot #2 … 16 offers": every spot offer gone from the snapshot in force
    before = _snapshots(refreshed_store)

    def proxy(api, params, n):
        return (200, "text/html", PROXY_PAGE) if api == "DescribeSpotPriceHistory" else None

    with fake_aws(proxy) as url:
        result = cli_refresh(url, refreshed_store, monkeypatch)
    assert result.exit_code == 1, result.output
    line = _one_line(result.stderr)
    assert ("AWS DescribeSpotPriceHistory page 1 for us-east-1 is not its answer (no SpotPriceHistory and no request "
            "id: a proxy's or another service's page); the listing cannot be trusted; nothing was saved") in line
    assert "Traceback" not in result.output and _snapshots(refreshed_store) == before


def test_a_second_instance_types_page_that_is_a_bare_response_element_fails_the_refresh(refreshed_store, monkeypatch):
    # was: exit 0, "skipped: … 3 no_accelerator_facts", "saved snapshot #2 … 2 offers": p4d, p5 and inf2 dropped out
    types = _describe()["InstanceTypes"]
    before = _snapshots(refreshed_store)

    def cut_short(api, params, n):
        if api != "DescribeInstanceTypes":
            return None
        if "NextToken" not in params:
            return 200, "text/xml", ec2_xml(api, {"InstanceTypes": types[:3], "NextToken": "dit-2"})
        return 200, "text/xml", b"<Response/>"

    with fake_aws(cut_short) as url:
        result = cli_refresh(url, refreshed_store, monkeypatch)
    assert result.exit_code == 1, result.output
    assert ("AWS DescribeInstanceTypes page 2 for us-east-1 is not its answer (no InstanceTypes and no request id"
            in _one_line(result.stderr))
    assert _snapshots(refreshed_store) == before


def test_an_empty_spot_answer_that_names_its_request_is_still_no_quotes(tmp_path, monkeypatch):
    # a real answer with no quote: <spotPriceHistorySet/>, which botocore reads as an empty list, or no set at all,
    # which botocore leaves out; both carry their requestId
    for body in (ec2_xml("DescribeSpotPriceHistory", {"SpotPriceHistory": []}),
                 ec2_xml("DescribeSpotPriceHistory", {})):
        store = tmp_path / f"s{len(body)}.sqlite"
        with fake_aws(lambda api, params, n, body=body:
                      (200, "text/xml", body) if api == "DescribeSpotPriceHistory" else None) as url:
            # a first refresh of the recorded listing, held against the 104 packaged offers: accepted
            result = cli_refresh(url, store, monkeypatch, "--accept-missing-offers")
        assert result.exit_code == 0, result.output
        offers = PriceStore(store).latest_offers(["aws"])[0]
        assert "spot" not in set(offers["purchase_option"]) and P4D_ON_DEMAND in set(offers["offer_id"])


# -- 4. a reservation missing a part of its price ----------------------------------------------------------------

def _p4d_terms(purchase: str) -> tuple[dict, list[dict]]:
    """The fixture's p4d.24xlarge item, and its Reserved terms of `purchase` option (4: 1yr/3yr x 2 classes)."""
    item = _p4d_item()
    terms = [t for t in item["terms"]["Reserved"].values() if t["termAttributes"]["PurchaseOption"] == purchase]
    assert len(terms) == 4
    return item, terms


def _reserved(session, item: dict) -> Stubs:
    stubs = Stubs(session, spot=False)
    stubs.describe()
    stubs.products([item])
    stubs.result = _by_id(stubs.source.fetch([REGION]))
    stubs.done()
    return stubs


def test_a_partial_upfront_term_without_its_upfront_fee_is_skipped_not_saved_at_half_its_price(session):
    # was: reserved_1y:partial_upfront:standard saved at 6.625 USD/h, the real price being 6.625 + 58035 / 8760 = 13.25
    item, partial = _p4d_terms("Partial Upfront")
    for term in partial:
        term["priceDimensions"] = {k: d for k, d in term["priceDimensions"].items() if d["unit"] != "Quantity"}
    stubs = _reserved(session, item)
    assert not any(":partial_upfront:" in oid for oid in stubs.result.index)
    assert len(stubs.result) == 1 + 8   # on demand, All and No Upfront of 1yr/3yr x 2 classes
    assert stubs.source.skipped == {"purchase_option_mismatch": 4}
    # the cheapest 1-year term is now All Upfront standard: 113880 / 8760 = 13.00 USD/h (No Upfront standard: 13.90)
    one_year = stubs.result[stubs.result.purchase_option == "reserved_1y"]
    cost = one_year.hourly_price + one_year.upfront_price / 8760
    assert cost.idxmin() == "aws:us-east-1:p4d.24xlarge:reserved_1y:all_upfront:standard"
    assert cost.min() == pytest.approx(13.0, abs=1e-12)


def _add_upfront_fee(term: dict) -> None:
    term["priceDimensions"]["FEE.2TG2D8R56U"] = {"unit": "Quantity", "description": "Upfront Fee",
                                                 "pricePerUnit": {"USD": "1000"}}


def _hourly_fee(term: dict) -> None:
    (hrs,) = [d for d in term["priceDimensions"].values() if d["unit"] == "Hrs"]
    hrs["pricePerUnit"]["USD"] = "1.0000000000"


def _without_hourly(term: dict) -> None:
    term["priceDimensions"] = {k: d for k, d in term["priceDimensions"].items() if d["unit"] != "Hrs"}


@pytest.mark.parametrize("purchase, change", [
    ("No Upfront", _add_upfront_fee),      # No Upfront has no fee
    ("All Upfront", _hourly_fee),          # All Upfront's hourly fee is 0
    ("Partial Upfront", _without_hourly),  # Partial Upfront has both
])
def test_a_reservation_whose_prices_do_not_fit_its_purchase_option_is_skipped(session, purchase, change):
    item, terms = _p4d_terms(purchase)
    change(terms[0])
    stubs = _reserved(session, item)
    assert len(stubs.result) == 1 + 11
    assert stubs.source.skipped == {"purchase_option_mismatch": 1}


# -- 5. page tokens ---------------------------------------------------------------------------------------------

def test_a_page_token_of_64_kib_is_followed_and_one_character_more_fails_the_refresh(session):
    token = "t" * 65_536
    stubs = Stubs(session, spot=False, reserved=False)
    stubs.describe()
    stubs.products([_items()["g5.12xlarge"]], token=token)
    stubs.products([_p4d_item()], sent_token=token)
    assert set(stubs.source.fetch([REGION])["sku"]) == {"g5.12xlarge", "p4d.24xlarge"}
    stubs.done()

    stubs = Stubs(session, spot=False, reserved=False)
    stubs.describe()
    stubs.products([_items()["g5.12xlarge"]], token=token + "t")
    with pytest.raises(PriceSourceError) as info:
        stubs.source.fetch([REGION])
    assert str(info.value) == ("AWS GetProducts returned a page token of 65,537 characters in us-east-1 (page 1; at "
                               "most 65,536 are taken, a real one is a few KB at most); the listing cannot be trusted; "
                               "nothing was saved")
    stubs.done()   # the token was never sent


def _pricing_pages(session, pages: int, token_chars: int) -> tuple[AwsPriceSource, list[int]]:
    """A source whose GetProducts answers (raw JSON, parsed by botocore) run to `pages` pages, each but the last with a
    new token of `token_chars` characters; the last holds g5.12xlarge. Also the token lengths sent back. The bare-metal
    query that follows is answered with one empty page."""
    src = AwsPriceSource(session=session, spot=False, reserved=False, max_attempts=1)
    ec2 = test_aws.Stubber(src.client("ec2", REGION))
    ec2.add_response("describe_instance_types", _describe(), {"MaxResults": 100})
    ec2.activate()
    sent: list[int] = []

    def answer(request, **kwargs):
        if json.loads(request.body) == test_aws._products_params(metal=True):
            return AWSResponse(request.url, 200, {"Content-Type": "application/x-amz-json-1.1"},
                               _Raw(json.dumps(_page([])).encode()))
        asked = json.loads(request.body).get("NextToken", "")
        sent.append(len(asked))
        n = len(sent)
        page = _page([_items()["g5.12xlarge"]]) if n == pages else {
            "FormatVersion": "aws_v1", "PriceList": [], "NextToken": f"{n:08d}".ljust(token_chars, "A")}
        return AWSResponse(request.url, 200, {"Content-Type": "application/x-amz-json-1.1"},
                           _Raw(json.dumps(page).encode()))

    src.pricing_client(REGION).meta.events.register("before-send.pricing.GetProducts", answer)
    return src, sent


def test_the_memory_a_listing_holds_does_not_grow_with_its_page_tokens(session):
    # was: every token kept whole to tell a loop; 8 MB tokens grew a refresh by 8.7 MB a page (1.5 GB at page 171).
    # 60,000-character tokens: 100 more pages would hold 6 MB more if kept; their digests hold 100 x 32 bytes
    def peak_held(pages: int) -> int:
        src, sent = _pricing_pages(session, pages, 60_000)
        tracemalloc.start()
        try:
            assert list(src.fetch([REGION])["sku"]) == ["g5.12xlarge"]
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
            assert len(sent) == pages and sent[1:] == [60_000] * (pages - 1)

    assert peak_held(120) - peak_held(20) < 2_000_000


# -- 6. credential_process -------------------------------------------------------------------------------------

@pytest.fixture
def helper_profile(monkeypatch, tmp_path):
    """set(command): the default boto3 session of a source reads credentials from profile "helper", whose
    credential_process is `command` (no keys in the environment)."""
    for var in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("AWS_PROFILE", "helper")

    def set_command(command: str) -> None:
        Path(os.environ["AWS_CONFIG_FILE"]).write_text(f"[profile helper]\ncredential_process = {command}\n")

    return set_command


def _gone(pid: int, seconds: float = 5.0) -> bool:
    """True once process `pid` has ended (gone, or a zombie), polling /proc for up to `seconds`."""
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        try:
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X"):
                return True
        except (FileNotFoundError, ProcessLookupError):   # gone; the latter when it went while /proc was read
            return True
        time.sleep(0.05)
    return False


def test_a_credential_process_that_never_answers_is_ended_at_the_deadline(helper_profile, tmp_path):
    # was: `credential_process = /bin/sleep 40` held `--deadline 3` for 40.9 s
    pid_file = tmp_path / "helper.pid"
    helper_profile(f"/bin/sh -c 'echo $$ > {pid_file}; exec sleep 30'")
    src = AwsPriceSource(deadline=1.0)
    started = time.monotonic()
    with pytest.raises(DeadlineExceeded) as info:
        src.fetch([REGION])
    assert time.monotonic() - started < 5
    message = str(info.value)
    # the helper named by its program: its arguments may hold a secret
    assert message.startswith("gave up after the 1 s deadline while reading AWS credentials from credential_process "
                              "'/bin/sh' (arguments hidden; profile 'helper') ")
    assert "echo" not in message and message.endswith("nothing was saved")
    assert src._clients == {}   # nothing was asked of AWS
    assert _gone(int(pid_file.read_text()))   # the helper was ended, not left waiting


@pytest.mark.parametrize("command, why", [
    ("/bin/echo not-json", "'/bin/echo' (arguments hidden; profile 'helper') did not print credentials that can be "
                           "read (JSONDecodeError: Expecting value: line 1 column 1 (char 0)); it must print one JSON "
                           "object such as"),
    ("/bin/echo [1]", "'/bin/echo' (arguments hidden; profile 'helper') did not print credentials that can be read "
                      "(AttributeError: "),
    # the program named once: not again in the error's own words ("… No such file or directory: '/nonexistent/…'")
    ("/nonexistent/fleetplan-helper", "'/nonexistent/fleetplan-helper' (profile 'helper') could not be started "
                                      "(FileNotFoundError: No such file or directory); check its command"),
])
def test_a_credential_process_whose_answer_cannot_be_read_is_named(helper_profile, command, why):
    # was: "AWS credentials failed in -: its answer could not be read (JSONDecodeError…)", not a CredentialsError
    helper_profile(command)
    with pytest.raises(CredentialsError) as info:
        AwsPriceSource().fetch([REGION])
    assert str(info.value).startswith(f"AWS credential_process {why}")
    assert str(info.value).endswith("; nothing was fetched")


@pytest.mark.parametrize("command, program", [
    # the audit's: the command line was quoted whole, its token with it
    ("/bin/echo --token=SuperSecretToken123 not-json", "'/bin/echo' (arguments hidden; "),
    # quoted as botocore splits it (shlex): the program ends where the quotes close
    ("'/bin/echo' 'SuperSecretToken123'", "'/bin/echo' (arguments hidden; "),
    # shell syntax credential_process does not run: botocore starts a program named "TOKEN=…", which is no program
    ("TOKEN=SuperSecretToken123 /bin/echo", "(not shown: its first word holds '='; credential_process runs no shell, "
                                            "so NAME=value before the program sets no variable) (arguments hidden; "),
])
def test_a_credential_process_is_named_by_its_program_never_its_arguments(helper_profile, command, program):
    helper_profile(command)
    with pytest.raises(CredentialsError) as info:
        AwsPriceSource().fetch([REGION])
    assert str(info.value).startswith(f"AWS credential_process {program}profile 'helper') ")
    assert "SuperSecretToken123" not in str(info.value)


def test_the_cli_says_which_credential_process_printed_no_json_and_hides_its_arguments(helper_profile, tmp_path):
    helper_profile("/bin/echo --token=SuperSecretToken123 not-json")
    result = CliRunner().invoke(app, ["prices", "refresh", "--provider", "aws", "--region", REGION,
                                      "--store", str(tmp_path / "s.sqlite")])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert ("AWS credential_process '/bin/echo' (arguments hidden; profile 'helper') did not print credentials"
            in _one_line(result.stderr))
    assert "SuperSecretToken123" not in result.output


# -- 7. accelerator names and zone ids of any length ------------------------------------------------------------

def _with_p4d_gpu_name(name: str) -> dict:
    describe = _describe()
    (p4d,) = [t for t in describe["InstanceTypes"] if t["InstanceType"] == "p4d.24xlarge"]
    p4d["GpuInfo"]["Gpus"][0]["Name"] = name
    return describe


@pytest.mark.parametrize("name", ["Z" * 1_000_000, "Z" * 65, "A100\x1b[2J"])
def test_an_accelerator_name_no_gpu_has_skips_its_type(session, name):
    # was: a 1,000,000-character GPU Name stored whole in gpu, accelerator_name and note of 14 offers (a 42 MB store)
    stubs = Stubs(session, spot=False, reserved=False)
    stubs.describe(_with_p4d_gpu_name(name))
    stubs.products([_p4d_item(), _items()["g5.12xlarge"]])
    df = stubs.source.fetch([REGION])
    stubs.done()
    assert list(df["offer_id"]) == ["aws:us-east-1:g5.12xlarge:on_demand"]
    # the type, and then its price (priced, but DescribeInstanceTypes gave it no accelerator that can be kept)
    assert stubs.source.skipped == {"malformed": 1, "no_accelerator_facts": 1}


def test_an_unknown_accelerator_name_of_64_characters_is_kept_and_flagged(session):
    stubs = Stubs(session, spot=False, reserved=False)
    stubs.describe(_with_p4d_gpu_name("Z" * 64))
    stubs.products([_p4d_item()])
    (row,) = stubs.source.fetch([REGION]).itertuples()
    assert (row.gpu, row.gpu_known, row.accelerator_name, row.hourly_price) == ("Z" * 64, False, "Z" * 64, 21.957642)


def test_a_spot_quote_whose_zone_id_is_no_zone_id_is_skipped(session):
    # was: an AvailabilityZoneId of 500,008 characters stored as the spot offer's zone (beside a valid zone name)
    spot = _spot()
    (cheapest,) = [q for q in spot["SpotPriceHistory"]
                   if q["InstanceType"] == "p4d.24xlarge" and q["AvailabilityZoneId"] == "use1-az1"]
    assert cheapest["SpotPrice"] == "2.465500" and cheapest["AvailabilityZone"] == "us-east-1a"
    cheapest["AvailabilityZoneId"] = "use1-az1" + "Q" * 500_000
    stubs = Stubs(session, reserved=False)
    stubs.describe()
    stubs.products([_p4d_item()])
    stubs.spot(spot)
    row = _by_id(stubs.source.fetch([REGION])).loc["aws:us-east-1:p4d.24xlarge:spot"]
    stubs.done()
    # the lowest of the other three zones: 8.1915 (az2), 8.1203 (az4), 7.8799 (az6)
    assert (row.hourly_price, row.zone) == (7.8799, "use1-az6")
    assert row.note.startswith("lowest of 3 zone quotes")
    assert stubs.source.skipped == {"malformed": 1, "local_zone_spot": 1}   # and p5's Atlanta Local Zone, as before


# -- 8. products the filters did not ask for --------------------------------------------------------------------

def _windows_p4d() -> dict:
    """The fixture's p4d.24xlarge as a Windows, Dedicated, SQL Web product at 40.0 USD/h on demand."""
    item = _p4d_item()
    item["product"]["attributes"].update(operatingSystem="Windows", tenancy="Dedicated", preInstalledSw="SQL Web")
    for term in item["terms"]["OnDemand"].values():
        for dim in term["priceDimensions"].values():
            dim["pricePerUnit"]["USD"] = "40.0000000000"
    return item


def test_a_windows_product_is_not_saved_as_the_linux_price_nor_drops_it(session):
    # was: alone, saved as p4d's Linux on-demand price (40.0); beside the Linux product, p4d dropped as conflicting
    stubs = Stubs(session, spot=False)
    stubs.describe()
    stubs.products([_windows_p4d(), _items()["g5.12xlarge"]])
    assert list(stubs.source.fetch([REGION])["sku"]) == ["g5.12xlarge"]
    assert stubs.source.skipped == {"filter_mismatch": 1}

    stubs = Stubs(session, spot=False)
    stubs.describe()
    stubs.products([_windows_p4d(), _p4d_item()])
    df = _by_id(stubs.source.fetch([REGION]))
    assert df.loc[P4D_ON_DEMAND, "hourly_price"] == 21.957642 and len(df) == 13   # and its 12 reservations
    assert stubs.source.skipped == {"filter_mismatch": 1}


@pytest.mark.parametrize("field, value", [
    ("operatingSystem", "RHEL"), ("tenancy", "Host"), ("preInstalledSw", "SQL Std"),
    ("capacitystatus", "UnusedCapacityReservation"), ("marketoption", "CapacityBlock"),
    ("productFamily", "Dedicated Host"), ("operatingSystem", None), ("tenancy", ["Shared"]),
])
def test_every_filter_asked_for_is_checked_on_the_item(session, field, value):
    item = _items()["g5.12xlarge"]
    where = item["product"] if field == "productFamily" else item["product"]["attributes"]
    assert where[field] == dict(aws._PRICE_FILTERS)[field]   # as asked for (test_aws: _products_params)
    if value is None:
        del where[field]
    else:
        where[field] = value
    stubs = Stubs(session, spot=False)
    stubs.describe()
    stubs.products([item, _p4d_item()])
    assert "g5.12xlarge" not in set(stubs.source.fetch([REGION])["sku"])
    assert stubs.source.skipped == {"filter_mismatch": 1}


# -- 9. error messages of megabytes -----------------------------------------------------------------------------

def _cut(text: str) -> str:
    """`text` as a message quotes an API's text: its first 200 characters and its length."""
    return f"{text[:200]}… ({len(text):,} characters)"


def test_a_price_list_error_message_of_5_mb_is_cut_to_200_characters(session):
    message = "bad filter " + "x" * 5_000_000
    stubs = Stubs(session)
    stubs.describe()
    stubs.pricing.add_client_error("get_products", service_error_code="InvalidParameterException",
                                   service_message=message, http_status_code=400, expected_params=_products_params())
    with pytest.raises(PriceSourceError) as info:
        stubs.source.fetch([REGION])
    assert str(info.value) == f"AWS GetProducts failed in us-east-1: InvalidParameterException: {_cut(message)}"

    stubs = Stubs(session)
    stubs.ec2.add_client_error("describe_instance_types", service_error_code="ExpiredToken",
                               service_message="expired " + "z" * 5_000_000, http_status_code=400,
                               expected_params={"MaxResults": 100})
    with pytest.raises(CredentialsError) as info:
        stubs.source.fetch([REGION])
    assert len(str(info.value)) < 400
    assert f"(ExpiredToken: {_cut('expired ' + 'z' * 5_000_000)})" in str(info.value)


def test_an_ec2_error_answer_of_5_mb_is_one_short_line(session):
    # EC2's own error XML, parsed by botocore
    message = "bad " + "y" * 5_000_000
    body = (f'<?xml version="1.0" encoding="UTF-8"?><Response><Errors><Error><Code>InvalidParameterValue</Code>'
            f"<Message>{message}</Message></Error></Errors><RequestID>5f1a6b0e</RequestID></Response>").encode()
    src = AwsPriceSource(session=session, max_attempts=1)
    src.client("ec2", REGION).meta.events.register(
        "before-send.ec2.DescribeInstanceTypes",
        lambda request, **kwargs: AWSResponse(request.url, 400, {"Content-Type": "text/xml"}, _Raw(body)))
    with pytest.raises(PriceSourceError) as info:
        src.fetch([REGION])
    assert str(info.value) == f"AWS DescribeInstanceTypes failed in us-east-1: InvalidParameterValue: {_cut(message)}"


def test_the_cli_prints_a_5_mb_error_message_in_one_short_line(tmp_path, monkeypatch):
    error = json.dumps({"__type": "InvalidParameterException", "message": "bad filter " + "x" * 5_000_000}).encode()
    with fake_aws(lambda api, params, n: (400, "application/x-amz-json-1.1", error) if api == "GetProducts"
                  else None) as url:
        result = cli_refresh(url, tmp_path / "s.sqlite", monkeypatch)
    assert result.exit_code == 1
    assert len(result.stderr) < 1_000   # was 5,000,239 characters
    assert "InvalidParameterException: bad filter xxx" in result.stderr and "(5,000,011 characters)" in result.stderr
