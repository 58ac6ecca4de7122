"""The dashboard under attack: where it listens, what an uploaded scenario can learn about the server's
files, and whether a scenario's text can make a viewer's browser fetch an image.

Facts from outside the code: the sockets the kernel lists for a running `streamlit run app.py`
(/proc/net/tcp), the messages a page shows for a file that exists and one that does not, the paths the
validation asks the operating system about (os.stat), and what a CommonMark renderer (markdown-it-py)
makes of every text the pages hand to Streamlit's Markdown.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from google.protobuf.json_format import MessageToDict
from markdown_it import MarkdownIt
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state
from fleetplan_dashboard.server import free_port, stop, wait_until_healthy

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = ROOT / "scenarios" / "startup-hybrid.yaml"
EXISTING_CSV = ROOT / "examples" / "offers-g5-us-east-1.csv"
TIMEOUT = 180
IMAGE = "![x](http://127.0.0.1:9/x.png)"


# ---------------------------------------------------------------------------------------------------
# Where the server listens


def test_the_shipped_streamlit_config_binds_localhost_and_sends_no_statistics():
    tomllib = pytest.importorskip("tomllib")      # Python 3.11+
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["address"] == "127.0.0.1"
    assert config["browser"]["gatherUsageStats"] is False


def _listening(port: int) -> set[str]:
    """Local addresses (hex, as /proc/net/tcp{,6} lists them) of the sockets listening on `port`."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, state_ = line.split()[1], line.split()[3]
            address, _, hex_port = local.partition(":")
            if state_ == "0A" and int(hex_port, 16) == port:      # 0A: LISTEN
                found.add(address)
    return found


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux's /proc/net/tcp")
def test_streamlit_run_app_py_listens_on_localhost_only():
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("STREAMLIT_")}
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
                             "--server.port", str(port), "--server.fileWatcherType", "none"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert wait_until_healthy(f"http://127.0.0.1:{port}", proc, poll=0.25), "streamlit did not start"
        # 127.0.0.1 in /proc/net/tcp's little-endian hex; no IPv6 socket, no 0.0.0.0
        assert _listening(port) == {"0100007F"}
    finally:
        stop(proc)


# ---------------------------------------------------------------------------------------------------
# Uploads that name server files


def _with_profile(path: str) -> bytes:
    return DEFAULT.read_text().replace("profile: flat", f"profile: {path}").encode()


def _with_source(path: str) -> bytes:
    return DEFAULT.read_text().replace("source: snapshot ", f"source: {path} ").encode()


def _shown_problems(at: AppTest, data: bytes, path: str) -> str:
    at.file_uploader(key="upload_file").set_value(("probe.yaml", data, "application/x-yaml")).run()
    assert not at.exception, at.exception
    text = "\n".join(e.value.replace("\\", "") for e in at.error)   # as read: without tables.plain's escapes
    assert "probe.yaml" in text and path in text
    return text.replace(path, "<PATH>")


def test_an_upload_cannot_tell_which_server_files_exist():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT).run()
    assert not at.exception, at.exception
    assert Path("/etc/shadow").exists() and EXISTING_CSV.is_file()
    missing = "/nonexistent/weights.csv"
    profiles = {p: _shown_problems(at, _with_profile(p), p) for p in ("/etc/shadow", str(EXISTING_CSV), missing)}
    assert len(set(profiles.values())) == 1, profiles
    sources = {p: _shown_problems(at, _with_source(p), p) for p in (str(EXISTING_CSV), missing)}
    assert len(set(sources.values())) == 1, sources
    for shown in (*profiles.values(), *sources.values()):
        assert "not found" not in shown and "exist" not in shown


class _Stats:
    """Records the paths handed to os.stat (Path.is_file, Path.exists and os.path.* all go through it)."""

    def __init__(self, monkeypatch):
        self.paths: list[str] = []
        real = os.stat

        def stat(path, *args, **kwargs):
            self.paths.append(os.fsdecode(path) if isinstance(path, (str, bytes, os.PathLike)) else str(path))
            return real(path, *args, **kwargs)
        monkeypatch.setattr(os, "stat", stat)


@pytest.mark.parametrize("broken_line", ["", "onprem: [unclosed\n"], ids=["valid-yaml", "with-a-syntax-error"])
def test_an_uploaded_path_is_never_looked_up(monkeypatch, tmp_path, broken_line):
    # A unique path per run: the validator caches by text, and a cached answer would look nothing up.
    probe = str(tmp_path / "weights.csv")
    stats = _Stats(monkeypatch)
    scenario, problems, _ = state.read_upload("probe.yaml", _with_profile(probe) + broken_line.encode())
    assert scenario is None and problems
    assert probe not in stats.paths


# ---------------------------------------------------------------------------------------------------
# A scenario's text shown as text

# the elements whose strings Streamlit renders as Markdown (bodies, labels, help); code blocks, tables
# and charts are not Markdown and are left out
MARKDOWN_ELEMENTS = {"title", "header", "subheader", "markdown", "caption", "error", "warning", "info", "success",
                     "metric", "slider", "selectbox", "multiselect", "number_input", "toggle", "button",
                     "download_button", "file_uploader", "expandable", "text_input", "checkbox", "radio"}


# the fields of those elements that Streamlit renders as Markdown (not ids, values or select options)
MARKDOWN_FIELDS = {"body", "label", "help", "caption"}


def _strings(value):
    """The Markdown fields' strings in a message dict, at any depth."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k in MARKDOWN_FIELDS and isinstance(v, str):
                yield v
            else:
                yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _nodes(node):
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _nodes(child)


def _markdown_html(at: AppTest) -> list[str]:
    """Every Markdown text of the page, rendered to HTML by a CommonMark renderer."""
    md = MarkdownIt("commonmark")
    html = []
    for node in _nodes(at._tree):
        proto = getattr(node, "proto", None)
        if proto is None or getattr(node, "type", None) not in MARKDOWN_ELEMENTS:
            continue
        html += [md.render(s) for s in _strings(MessageToDict(proto)) if s]
    assert html
    return html


def test_an_uploaded_scenarios_text_shows_no_image_on_any_page():
    text = (DEFAULT.read_text()
            .replace("name: Start-up hybrid fleet", f"name: '{IMAGE} Start-up'")
            .replace("description: One flagship", f"description: '{IMAGE}' # One flagship")
            .replace("- name: prototyping", "- name: '![w](http://127.0.0.1:9/w.png)'"))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT).run()
    at.file_uploader(key="upload_file").set_value(("![f](f.png).yaml", text.encode(), "application/x-yaml")).run()
    assert not at.exception, at.exception
    assert at.selectbox(key="base").value.startswith("upload:")
    titles = [MarkdownIt("commonmark").render(t.value) for t in at.title]
    assert f"<p>Plan — {IMAGE} Start-up</p>\n" in titles, titles        # the name, shown as typed
    for page in (None, "fleetplan_dashboard/pages/compare.py", "fleetplan_dashboard/pages/export.py",
                 "fleetplan_dashboard/pages/prices.py"):
        if page:
            at.switch_page(page).run()
            assert not at.exception, (page, at.exception)
        html = _markdown_html(at)
        assert not [h for h in html if "<img" in h], page
        # the scenario's text or its file's name is on the page, as text
        assert any("127.0.0.1:9" in h or "![f](f.png)" in h for h in html), page


# ---------------------------------------------------------------------------------------------------
# A price store's text shown as text (audit H 1): a store row the reader skips is named by its offer_id,
# and that warning reached st.warning (Prices page) and the price banner (Plan page) as live Markdown

LINK = "**[Click to re-authenticate](http://evil.example/login)**"
BAD_OFFER_ID = f"azure:eastus:{IMAGE} {LINK}:spot"


@pytest.fixture
def store_with_a_markdown_offer_id(tmp_path, monkeypatch) -> Path:
    """The server's price store (`FLEETPLAN_STORE`): the packaged azure eastus offers, one row edited by hand
    to a negative price and an offer_id that is Markdown for an image and a link."""
    import sqlite3

    from pricing_adapters.snapshot import load_snapshot
    from pricing_adapters.store import PriceStore

    path = tmp_path / "prices.sqlite"
    offers = load_snapshot(["azure"])
    PriceStore(path).save("azure", ["eastus"], "test", offers[offers["region"] == "eastus"].reset_index(drop=True))
    con = sqlite3.connect(path)
    con.execute("UPDATE offers SET hourly_price = -1, offer_id = ? WHERE rowid = (SELECT min(rowid) FROM offers)",
                (BAD_OFFER_ID,))
    con.commit()
    con.close()
    monkeypatch.setenv("FLEETPLAN_STORE", str(path))
    return path


def _assert_shown_as_typed(at: AppTest, alerts) -> None:
    """No image or link on the page; the alerts hold the offer_id escaped (tables.plain), read as typed."""
    from fleetplan_dashboard import tables

    html = _markdown_html(at)
    assert not [h for h in html if "<img" in h or "<a " in h]
    assert any(f"{IMAGE} {LINK}" in h for h in html)         # the bad row is still named, as text
    assert any(tables.plain(BAD_OFFER_ID) in a.value for a in alerts), [a.value for a in alerts]


def test_a_store_offer_id_shows_no_image_or_link_on_the_prices_and_plan_pages(store_with_a_markdown_offer_id):
    scenario = (ROOT / "scenarios" / "entry.yaml").read_text().replace("source: snapshot", "source: store", 1)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT).run()
    at.file_uploader(key="upload_file").set_value(("store.yaml", scenario.encode(), "application/x-yaml")).run()
    assert not at.exception, at.exception
    assert at.selectbox(key="base").value.startswith("upload:")
    _assert_shown_as_typed(at, [*at.warning, *at.info])      # the price banner
    at.switch_page("fleetplan_dashboard/pages/prices.py").run()
    assert not at.exception, at.exception
    _assert_shown_as_typed(at, at.warning)
