"""The Prices page reads a scenario's pinned store snapshot (prices.snapshot) as its plan does: it read the
store's newest prices. The store is tests/planner/test_prices_pinned.py's: snapshot #1 holds AWS g5.xlarge on
demand in us-east-1 at 1.00 USD/h, snapshot #2 the same offer at 2.00 USD/h (one A10G: 1.00 and 2.00 USD per
GPU-hour)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.planner.test_prices_pinned import SCENARIO, save

ROOT = Path(__file__).resolve().parents[2]
PRICES_PAGE = "fleetplan_dashboard/pages/prices.py"


def g5_price_on_the_prices_page(text: str) -> tuple[float, str]:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.file_uploader(key="upload_file").set_value(("mine.yaml", text.encode(), "application/x-yaml")).run()
    assert at.selectbox(key="base").value.startswith("upload:mine.yaml:"), [e.value for e in at.error]
    at.switch_page(PRICES_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    table = at.dataframe[0].value
    (price,) = table[(table["sku"] == "g5.xlarge") & (table["region"] == "us-east-1")]["usd_per_gpu_hour"]
    return float(price), " ".join(c.value for c in at.caption).replace("\\", "")   # its Markdown escapes


def test_the_prices_page_shows_the_pinned_snapshots_prices(tmp_path, monkeypatch):
    store = tmp_path / "prices.sqlite"
    assert [save(store, 1.00), save(store, 2.00)] == [1, 2]
    monkeypatch.setenv("FLEETPLAN_STORE", str(store))
    price, caption = g5_price_on_the_prices_page(SCENARIO.format(pin="  snapshot: 1\n"))
    assert price == 1.00 and "the price store as it stood at its snapshot #1, fixed by the scenario file" in caption
    price, caption = g5_price_on_the_prices_page(SCENARIO.format(pin=""))
    assert price == 2.00 and "#1" not in caption


def test_the_plan_pages_price_banner_says_the_store_is_pinned(tmp_path, monkeypatch):
    # the Plan page's banner said "Prices: price store" of a plan on a pinned snapshot, as of the newest
    from fleetplan_dashboard import tables
    from planner import plan
    from planner.reports.tables import written_prices

    store = tmp_path / "prices.sqlite"
    assert [save(store, 1.00), save(store, 2.00)] == [1, 2]
    monkeypatch.setenv("FLEETPLAN_STORE", str(store))
    p = plan(SCENARIO.format(pin="  snapshot: 1\n"), baselines=False)
    assert p.total == 730.00   # 730 GPU-hours at snapshot #1's 1.00 USD/h
    _, text = tables.price_banner(written_prices(p), scenario=p.scenario)
    assert "Prices: price store as it stood at its snapshot #1, fixed by the scenario file" in text.replace("\\", ""), text
