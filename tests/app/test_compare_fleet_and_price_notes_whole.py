"""Table cells a browser audit found cut (2026-12-07): the Compare page's fleets cut what is bought or rented
("88 × a100-80gb-pcie purchas", "Standard_ND96is_MI300X_v…") and its action ("rent on-demar") at 165 and 85 px;
the Prices page's note column, which says where an offer's figures come from, was as wide as the grid chose and cut
("your fig…"). Now the fleets' cells wrap, and the notes show whole up to 93 characters, a longer one in full under
the table.

Facts from outside the code: industrial.yaml's plan buys 88 A100 80GB PCIe and rents Azure Standard_ND96is_MI300X_v5
on demand (README's industrial example); "88 × a100-80gb-pcie purchase" is 28 characters, more than the 19 a 158 px cell
holds (14 px font, 7.5 px a character); a grid cell wraps only in rows higher than 4rem (64 px: Streamlit's grid).
startup-hybrid.yaml's card_overrides give the A100 80GB PCIe busy_watts, currency, host_cost_per_card, idle_watts,
life_years, maintenance_rate_per_year and price.
"""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import tables

ROOT = Path(__file__).resolve().parents[2]
COMPARE_PAGE = "fleetplan_dashboard/pages/compare.py"
PRICES_PAGE = "fleetplan_dashboard/pages/prices.py"
PHONE_PX = 356
A100_NOTE = ("your figures (Card overrides): busy watts, currency, host cost per card, idle watts, life years, maintenance "
             "rate per year, price; the rest catalog figures; capex = card + host share")


def test_the_compare_pages_fleets_wrap_what_is_bought_and_the_action_in_their_cells():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params["scenario"] = "industrial.yaml"
    at.query_params["onprem.pue"] = "1.6"      # B, the current edits, differs from A, the file
    at.run()
    at.switch_page(COMPARE_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    fleets = [d for d in at.dataframe if "what" in d.value.columns]
    assert len(fleets) == 2
    for fleet in fleets:
        whats = list(fleet.value["what"])
        assert "88 × a100-80gb-pcie purchase" in whats and "Standard_ND96is_MI300X_v5 on-demand" in whats, whats
        assert "rent on-demand" in list(fleet.value["action"])
        settings = json.loads(fleet.proto.columns)
        assert len("88 × a100-80gb-pcie purchase") * 7.5 > settings["what"]["width"]   # one line cuts it
        assert fleet.proto.row_height > 64, fleet.proto.row_height                     # so the rows wrap
        # what, its cost and the action still within a phone's page
        assert sum(settings[c]["width"] for c in ("what", "cost", "action")) <= PHONE_PX
    # nothing said "in full" under them: two lines hold every name
    assert not [c.value for c in at.caption if c.value.startswith("In full:")]


def test_the_prices_pages_notes_show_whole_or_in_full_under_the_table():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.switch_page(PRICES_PAGE).run()
    at.selectbox(key="prices_workload").set_value("(none: raw USD per GPU-hour)").run()
    assert not at.exception, [e.value for e in at.exception]
    (table,) = at.dataframe
    width = json.loads(table.proto.columns)["note"]["width"]
    notes = [n for n in table.value["note"].dropna() if n]
    assert A100_NOTE in notes
    long = [n for n in notes if len(n) * 7.5 > width]
    # each note whole in its column up to 93 characters (700 px), the A100's 182 and any other longer said in full
    # under the table, after its card or instance
    assert width >= 93 * 7.5 and A100_NOTE in long
    in_full = [c.value for c in at.caption if c.value.startswith("Notes in full:")]
    assert len(in_full) == 1, in_full
    assert f"**a100\\-80gb\\-pcie**: {tables.plain(A100_NOTE)}" in in_full[0]
    assert all(tables.plain(n) in in_full[0] for n in long)
