"""The Prices page's offers table shows each column under a header in words: it showed the engine's column names
(`purchase_option`, `gpu_memory_gb`, `as_of`; an audit in a real browser). The engine's DataFrame keeps its names:
only the view's headers change.

Oracle: a header in words has no underscore (the engine's snake_case names all have one or are one lower-case word
shown as typed); the engine's names of the view's columns, as the page gets them."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
PRICES_PAGE = "fleetplan_dashboard/pages/prices.py"


def test_every_column_of_the_offers_table_has_a_header_in_words():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.switch_page(PRICES_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    for workload in ("llm-finetune", "(none: raw USD per GPU-hour)"):
        at.selectbox(key="prices_workload").set_value(workload).run()
        (table,) = at.dataframe
        settings = json.loads(table.proto.columns)
        order = list(table.proto.column_order)
        assert {"purchase_option", "gpu_memory_gb", "as_of"} <= set(table.value.columns)   # the engine's names kept
        headers = {c: settings.get(c, {}).get("label") or c for c in order}
        assert not [c for c, h in headers.items() if "_" in h], headers
        assert headers["gpu_memory_gb"] == "GB per GPU" and headers["as_of"] == "price as of"
        assert headers["purchase_option"] == "purchase option"
