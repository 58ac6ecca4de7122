"""Helpers shared by the planner's tests."""

import contextlib
import sys
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

RETAIL_PATH = "/api/retail/prices"


@contextlib.contextmanager
def local_retail_prices(respond: Callable[[dict, str], bytes]) -> Iterator[str]:
    """A Retail Prices endpoint on 127.0.0.1 for as long as the block runs: each GET is answered with
    `respond(query, url)` (its parsed query string, this endpoint's URL, for NextPageLinks) as JSON. Yields
    the URL; the server and its thread are gone afterwards (a later sweep may fork its workers)."""
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - http.server API
            body = respond(parse_qs(urlparse(self.path).query), url)
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    url = f"http://127.0.0.1:{server.server_port}{RETAIL_PATH}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield url
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _ended(pid: int, seconds: float = 10.0) -> bool:
    """True once process `pid` is gone or a zombie (killed, waiting for whoever adopted it to reap it);
    reads its state in Linux's /proc, polling for up to `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)


@pytest.fixture
def process_ended():
    """`process_ended(pid, seconds=10)`: whether that process has ended (Linux only: skip without /proc)."""
    if not Path("/proc/self/stat").exists():
        pytest.skip("reads process states in Linux's /proc")
    return _ended


@pytest.fixture(scope="session")
def retail_prices_server():
    """`local_retail_prices`: a Retail Prices endpoint on 127.0.0.1, as a context manager."""
    return local_retail_prices


TESTS = Path(__file__).resolve().parents[1]
AZURE_PAGES = {None: "retail_eastus_page1.json", "1000": "retail_eastus_page2.json", "2000": "retail_eastus_page3.json"}
AZURE_UPSTREAM = "https://prices.azure.com:443/api/retail/prices"
# scenarios/store-a100-eastus.yaml: 730 h of one A100 80 GB, priced from `azure_eastus_store` at 3.673 USD/h
STORE_A100_SCENARIO = TESTS / "fixtures" / "scenarios" / "store-a100-eastus.yaml"


def recorded_eastus_page(query: dict, url: str) -> bytes:
    """The recorded Retail Prices page of eastus (tests/fixtures/azure/) that `query` asks for, its next-page links
    pointing at `url` (the local endpoint)."""
    page = TESTS / "fixtures" / "azure" / AZURE_PAGES[query.get("$skip", [None])[0]]
    return page.read_text().replace(AZURE_UPSTREAM, url).encode()


@pytest.fixture
def recorded_eastus(retail_prices_server, monkeypatch):
    """(the URL of the recorded eastus pages served on 127.0.0.1, the queries it answered); no subscription id set.
    The test sets the prices URL itself."""
    answered = []

    def respond(query: dict, url: str) -> bytes:
        answered.append(query)
        return recorded_eastus_page(query, url)

    monkeypatch.delenv("AZURE_SUBSCRIPTION_ID", raising=False)
    with retail_prices_server(respond) as url:
        yield url, answered


@pytest.fixture(scope="module")
def azure_eastus_store(tmp_path_factory) -> Path:
    """A price store made by `fleetplan prices refresh --provider azure --region eastus` from the recorded
    Retail Prices pages (tests/fixtures/azure/), served on 127.0.0.1 only while it is made (so later sweeps
    may fork). The pages hold 4 of eastus's sizes (10 offers), where the packaged snapshot holds 72 offers there:
    against it they lack most offers, so they are saved deliberately (--accept-missing-offers)."""
    from typer.testing import CliRunner

    from planner.cli import app

    path = tmp_path_factory.mktemp("store") / "prices.sqlite"
    with local_retail_prices(recorded_eastus_page) as url, pytest.MonkeyPatch.context() as mp:
        mp.setenv("FLEETPLAN_AZURE_PRICES_URL", url)
        mp.delenv("AZURE_SUBSCRIPTION_ID", raising=False)
        result = CliRunner().invoke(app, ["prices", "refresh", "--provider", "azure", "--region", "eastus",
                                          "--store", str(path), "--accept-missing-offers"])
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture
def store_a100_scenario() -> Path:
    """The path of scenarios/store-a100-eastus.yaml (prices from the store; no file of its own beside it)."""
    return STORE_A100_SCENARIO


@pytest.fixture
def nothing_solved(monkeypatch):
    """Any point built or solved by the sweep fails the test."""
    module = sys.modules["planner.reports.sweep"]

    def refused(*args, **kwargs):
        raise AssertionError("the sweep built or solved a point before refusing it")

    for name in ("_point_scenario", "_sweep_point"):
        monkeypatch.setattr(module, name, refused)


@pytest.fixture
def nothing_compared(monkeypatch):
    """Pricing or solving a side of a compare fails the test: for refusals said before either."""
    import importlib

    compare_module = importlib.import_module("planner.reports.compare")   # the package's name is the function

    def refused(*args, **kwargs):
        raise AssertionError("a side was priced or solved before the refusal")
    monkeypatch.setattr(compare_module, "checked_inputs", refused)
    monkeypatch.setattr(compare_module, "plan", refused)
