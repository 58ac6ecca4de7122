"""Three defects a browser audit found in the Plan page's sidebar (2026-12-07):

- a rejected upload's red "X was not loaded" box stayed on screen after the user had acted on something else (an edit
  in the sidebar, the reset button); it goes then, and stays while nothing changed, so it can be read;
- a quote typed for a card the file does not override went first in the download's `onprem.card_overrides`, between
  the file's comment and the entry that comment is about; it goes after the file's entries;
- a negative quote stayed in its box under Streamlit's own range error, the plan made with the price before; it is
  refused in the page's words (the price of one card in the currency, 0 or more, as the loader takes) and not planned with, as the
  scenario loader refuses a negative price in a file.

Oracles: the scenario texts written in this test, the figures typed in it, and the loader's own verdict on a file
with the same price (planner.scenario.load_scenario_text) — never the dashboard's output read back as the expectation.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state
from planner.errors import ScenarioError
from planner.scenario import load_scenario_text

ROOT = Path(__file__).resolve().parents[2]
ENTRY_TEXT = (ROOT / "scenarios" / "entry.yaml").read_text(encoding="utf-8")
HYBRID_TEXT = (ROOT / "scenarios" / "startup-hybrid.yaml").read_text(encoding="utf-8")
TIMEOUT = 180

# entry.yaml with an override of the RTX 3060 under a comment about it (the comment's figure is this test's own)
COMMENT = "    # the local shop's quote for the 3060, 2,300 CNY (a figure of this test)\n"
ENTRY = "    rtx-3060-12gb: {price: 2300, currency: CNY}\n"
QUOTED_TEXT = ENTRY_TEXT.replace("  capex_budget: 1500 ", "  card_overrides:\n" + COMMENT + ENTRY + "  capex_budget: 1500 ")


def _app() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _not_loaded(at: AppTest) -> list[str]:
    return [e.value.replace("\\", "") for e in at.error if "was not loaded" in e.value]   # as read


def _upload(at: AppTest, name: str, data: bytes) -> None:
    at.file_uploader(key="upload_file").set_value((name, data, "application/x-yaml")).run()
    assert not at.exception, [e.value for e in at.exception]


# ---------------------------------------------------------------------------------------------------
# A rejected upload's message: kept while nothing changed, gone once the user acts on something else


def _reset(at: AppTest) -> None:
    next(b for b in at.button if b.label == "Reset to the file's values").click().run()


ACTIONS = {
    "a slider moved": lambda at: at.slider(key="edit:pue").set_value(1.2).run(),
    "a cap typed": lambda at: at.number_input(key="edit:capex_budget").set_value(50000.0).run(),
    "a quote typed": lambda at: at.number_input(key="edit:price:rtx-4090").set_value(1400.0).run(),
    "the reset button": _reset,
    "a shipped scenario picked": lambda at: at.selectbox(key="base").set_value("file:entry.yaml").run(),
    "an upload accepted": lambda at: _upload(at, "good.yaml", ENTRY_TEXT.encode()),
}


@pytest.mark.parametrize("action", list(ACTIONS))
def test_a_rejected_uploads_message_stays_while_nothing_changed_and_goes_once_the_user_acts(action):
    at = _app()
    _upload(at, "bad.yaml", b"name: [")
    assert _not_loaded(at)
    at.run()                                     # nothing changed: the message stays to be read
    assert _not_loaded(at) and _not_loaded(at)[0].startswith("The last file read, **bad.yaml**, was not loaded")
    ACTIONS[action](at)
    assert not at.exception, [e.value for e in at.exception]
    assert not _not_loaded(at)


# ---------------------------------------------------------------------------------------------------
# A new quote in the download: after the file's entries, the file's comment kept above its own entry


def _check_quote_written(text: str) -> None:
    assert COMMENT + ENTRY in text                          # the comment still directly above the entry it is about
    onprem = yaml.safe_load(text)["onprem"]
    assert onprem["card_overrides"]["rtx-4060-ti-16gb"] == {"price": 450, "currency": "USD"}   # as typed, in USD
    assert onprem["card_overrides"]["rtx-3060-12gb"] == {"price": 2300, "currency": "CNY"}      # the file's, kept
    lines = text.splitlines()
    new = next(i for i, line in enumerate(lines) if line.startswith("    rtx-4060-ti-16gb:"))
    assert lines[new - 1] == ENTRY.rstrip("\n")              # right after the file's last entry


def test_a_quote_for_another_card_is_written_after_the_files_entries_not_under_their_comment():
    base = load_scenario_text(QUOTED_TEXT)
    values = {**state.default_edits(base), "price:rtx-4060-ti-16gb": 450.0}
    out, kept = state.edited_text(QUOTED_TEXT, base, values)
    assert kept
    _check_quote_written(out)
    assert load_scenario_text(out) == state.apply_edits(base, values)


def test_the_downloaded_upload_keeps_its_comment_above_its_own_override_after_a_quote_typed():
    at = _app()
    _upload(at, "quoted.yaml", QUOTED_TEXT.encode())
    assert not _not_loaded(at)
    at.number_input(key="edit:price:rtx-4060-ti-16gb").set_value(450.0).run()
    assert not at.exception, [e.value for e in at.exception]
    at.switch_page("fleetplan_dashboard/pages/export.py").run()    # the one scenario download, shown as text
    assert not at.exception, [e.value for e in at.exception]
    _check_quote_written(next(c.value for c in at.code))


def test_a_key_the_file_lacks_goes_after_a_block_entrys_last_line_and_a_workloads_last_key():
    text = ("name: Blocks\nonprem:\n  cards: [a100-80gb-pcie]\n  card_overrides:\n    # the A100's quote\n"
            "    a100-80gb-pcie:\n      price: 9000\n      currency: USD\n  # the room\n  pue: 1.3\n"
            "workloads:\n  - name: w\n    # month 1\n    gpu_hours_per_month: 100\n    reference_gpu: A10G\n")
    base = load_scenario_text(text)
    values = {**state.default_edits(base), "cards": ["a100-80gb-pcie", "rtx-4090"], "price:rtx-4090": 1400.0,
              "growth:w": 2.0}
    out, kept = state.edited_text(text, base, values)
    assert kept
    assert "    # the A100's quote\n    a100-80gb-pcie:\n      price: 9000\n      currency: USD\n    rtx-4090: " in out
    assert "  # the room\n  pue: 1.3\n" in out
    assert "    # month 1\n    gpu_hours_per_month: 100\n    reference_gpu: A10G\n    growth_per_month: 0.02" in out
    loaded = load_scenario_text(out)
    assert loaded.onprem.card_overrides["rtx-4090"].price == 1400
    assert loaded.workloads[0].growth_per_month == pytest.approx(0.02)


# ---------------------------------------------------------------------------------------------------
# A negative quote: refused in the page's words, not planned with


def test_a_negative_price_is_refused_by_the_loader_in_a_file_too():
    text = HYBRID_TEXT.replace("{price: 14000, currency: USD", "{price: -14000, currency: USD")
    with pytest.raises(ScenarioError):
        load_scenario_text(text)


def test_refused_quote_says_the_price_expected_in_the_currency_per_card_or_gpu():
    hybrid = load_scenario_text(HYBRID_TEXT)
    assert state.refused_quote(hybrid, "rtx-4090", -1599.0) == (
        "onprem.card_overrides.rtx-4090.price: your quote for rtx-4090 is -1,599 USD; expected the price of one card "
        "in USD, 0 or more — did you mean 1,599? (An empty box: the catalog's price.)")
    board = state.refused_quote(hybrid, "hgx-h100-8gpu", -39625.5)
    assert "is -39,625.50 USD; expected the price of one GPU (hgx-h100-8gpu is sold as 8-GPU boards) in USD" in board
    assert state.refused_quote(hybrid, "rtx-4090", None) is None        # empty: the catalog's price
    assert state.refused_quote(hybrid, "rtx-4090", 0.0) is None         # 0: taken, with the loader's warning, as in a file


def test_a_negative_quote_is_refused_in_the_pages_words_and_not_planned_with():
    at = _app()
    assert any(m.label.startswith("Total cost") for m in at.metric)
    at.number_input(key="edit:price:rtx-4090").set_value(-1599.0).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.number_input(key="edit:price:rtx-4090").value == -1599.0    # kept in its box, for the user to fix
    said = [e.value.replace("\\", "") for e in at.error]
    expected = "your quote for rtx-4090 is -1,599 USD; expected the price of one card in USD, 0 or more"
    in_sidebar = [e.value.replace("\\", "") for e in at.sidebar.error]
    assert any(expected in text for text in in_sidebar), in_sidebar                     # under the box
    main = [text for text in said if text.startswith("These inputs do not make a valid scenario")]
    assert main and expected in main[0] and "*On-prem cards*" in main[0]
    assert not any(m.label.startswith("Total cost") for m in at.metric)  # no plan made with it
    at.number_input(key="edit:price:rtx-4090").set_value(1400.0).run()    # fixed: planned again, the message gone
    assert not at.exception, [e.value for e in at.exception]
    assert not [e for e in at.error if "your quote" in e.value]
    assert any(m.label.startswith("Total cost") for m in at.metric)
