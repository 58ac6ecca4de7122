"""The Plan page's cost by category shows money as the page's other tables do, in whole units of the currency: it
showed cents (36,421.47) beside a total and a fleet table in whole ones (an audit in a real browser).

Oracle: the fleet table's cost column, whole units with thousands separators ("%,.0f"), as the page's total metric
shows money (36,421 USD)."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]


def _format(table, column: str) -> str | None:
    settings = json.loads(table.proto.columns).get(column, {})
    return (settings.get("type_config") or {}).get("format")


def test_the_cost_by_category_is_in_whole_units_as_the_fleet_table():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    assert not at.exception, [e.value for e in at.exception]
    (costs,) = [d for d in at.dataframe if "category" in d.value.columns and "cost" in d.value.columns]
    (fleet,) = [d for d in at.dataframe if "sku" in d.value.columns and "action" in d.value.columns]
    assert _format(fleet, "cost") == "%,.0f"
    assert _format(costs, "cost") == "%,.0f"
