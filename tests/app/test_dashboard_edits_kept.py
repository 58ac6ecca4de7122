"""The Plan page's edits are the session's, not its widgets': a widget value Streamlit drops (a page not drawing the
widget, after a `run_every` fragment's run: Streamlit issue #10805) takes no edit with it, and a URL the page wrote
itself, which a browser sends again while a newer one is on its way, is never opened as a shared link.

Oracles: startup-hybrid.yaml's own values (horizon 36 months, llm-finetune 400 GPU-hours a month), the edits made
here by hand, and `planner.engine.plan` of the file's scenario with those values, never the dashboard's output read
back. The same losses in a real browser: tests/app/test_browser.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state
from planner import load_scenario
from planner.engine import plan
from tests.app.test_dashboard_links_uploads import _app as _opened  # the app opened with a URL query

ROOT = Path(__file__).resolve().parents[2]
HYBRID = ROOT / "scenarios" / "startup-hybrid.yaml"
EXPORT_PAGE = "fleetplan_dashboard/pages/export.py"
COMPARE_PAGE = "fleetplan_dashboard/pages/compare.py"
PLAN_PAGE = "fleetplan_dashboard/pages/plan.py"
HORIZON = "edit:horizon_months"


@pytest.fixture(scope="module")
def hybrid():
    return load_scenario(HYBRID)


def _money(s) -> str:
    return f"{plan(s, baselines=False).total:,.0f} USD"


def _total(at: AppTest) -> tuple[str, str]:
    metric = next(m for m in at.metric if m.label.startswith("Total cost"))
    return metric.label, metric.value


def _query(at: AppTest) -> dict[str, str]:
    """The app's URL query as one value per key (AppTest keeps lists)."""
    return {k: v[0] if isinstance(v, list) else v for k, v in at.query_params.items()}


def _dropped(at: AppTest, widget_key: str) -> None:
    """The widget's value dropped, as Streamlit drops it on a page that does not draw the widget when the run before
    was a fragment's (the Plan page's timer): by hand here, AppTest runs no timer. (Gone already where no page hands
    it back to the session.)"""
    if widget_key in at.session_state:
        del at.session_state[widget_key]


def test_an_edit_outlives_its_widgets_value_on_export_compare_and_back_on_plan(hybrid):
    at = _opened(scenario="startup-hybrid.yaml")
    assert at.slider(key=HORIZON).value == 36
    at.slider(key=HORIZON).set_value(40).run()
    at.switch_page(COMPARE_PAGE).run()
    assert "B: total, 40 months" in [m.label for m in at.metric]
    _dropped(at, HORIZON)
    at.switch_page(EXPORT_PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    forty = hybrid.model_copy(update={"horizon_months": 40})
    caption = next(c.value for c in at.caption if c.value.startswith("Total "))
    assert caption.startswith(f"Total {_money(forty)} over 40 months")
    assert any(c.value.endswith("with the Plan page's edits.") for c in at.caption)
    at.switch_page(PLAN_PAGE).run()
    assert at.slider(key=HORIZON).value == 40
    assert _total(at) == ("Total cost, 40 months", _money(forty))
    assert _query(at) == {"scenario": "startup-hybrid.yaml", "horizon_months": "40"}


def test_the_scenario_picked_outlives_the_pickers_value(hybrid):
    at = _opened()
    at.selectbox(key="base").set_value("file:entry.yaml").run()
    at.switch_page(COMPARE_PAGE).run()
    _dropped(at, "base")
    at.switch_page(EXPORT_PAGE).run()
    assert any(c.value.endswith("from entry\\.yaml, as saved.") for c in at.caption), [c.value for c in at.caption]
    at.switch_page(PLAN_PAGE).run()
    assert at.selectbox(key="base").value == "file:entry.yaml"


def test_a_url_the_page_wrote_before_is_not_opened_as_a_shared_link(hybrid):
    """Three quick steps of the horizon: each run's request carries the URL the browser had, two runs old, then
    none at all (the session's first). Every such URL is the page's own: the edits stand, the URL is written anew."""
    at = _opened(scenario="startup-hybrid.yaml")
    first = _query(at)
    assert first == {"scenario": "startup-hybrid.yaml"}
    at.slider(key=HORIZON).set_value(37).run()
    written = _query(at)
    assert written == {"scenario": "startup-hybrid.yaml", "horizon_months": "37"}
    at.slider(key=HORIZON).set_value(38).run()
    for older, value in ((written, 39), (first, 40)):
        at.query_params.clear()
        for key, text in older.items():
            at.query_params[key] = text
        at.slider(key=HORIZON).set_value(value).run()
        assert not at.exception, [e.value for e in at.exception]
        assert at.slider(key=HORIZON).value == value
        assert _total(at) == (f"Total cost, {value} months", _money(hybrid.model_copy(update={"horizon_months": value})))
        assert _query(at) == {"scenario": "startup-hybrid.yaml", "horizon_months": str(value)}
    assert not [w.value for w in at.warning if w.value.startswith("Parts of the link")]


def test_a_link_the_session_never_saw_is_still_opened_over_the_edits(hybrid):
    at = _opened(scenario="startup-hybrid.yaml")
    at.slider(key=HORIZON).set_value(40).run()
    at.query_params.clear()
    at.query_params["scenario"] = "startup-hybrid.yaml"
    at.query_params["onprem.pue"] = "1.3"
    at.run()
    assert at.slider(key=HORIZON).value == 36          # the link's: no horizon, so the file's
    assert at.slider(key="edit:pue").value == 1.3
    edited = hybrid.model_copy(update={"onprem": hybrid.onprem.model_copy(update={"pue": 1.3})})
    assert _total(at) == ("Total cost, 36 months", _money(edited))


def test_reset_and_another_scenario_give_the_files_values_in_the_widgets_and_the_url(hybrid):
    at = _opened(scenario="startup-hybrid.yaml")
    at.slider(key=HORIZON).set_value(40).run()
    at.slider(key="edit:demand:llm-finetune").set_value(450.0).run()
    next(b for b in at.button if b.label == "Reset to the file's values").click().run()
    assert at.slider(key=HORIZON).value == 36 and at.slider(key="edit:demand:llm-finetune").value == 400.0
    assert _query(at) == {"scenario": "startup-hybrid.yaml"}
    assert _total(at) == ("Total cost, 36 months", _money(hybrid))
    at.slider(key=HORIZON).set_value(40).run()
    at.selectbox(key="base").set_value("file:entry.yaml").run()
    entry = load_scenario(ROOT / "scenarios" / "entry.yaml")
    assert at.slider(key=HORIZON).value == entry.horizon_months
    assert _query(at) == {"scenario": "entry.yaml"}


def test_an_edit_is_kept_by_name_and_read_by_every_page(hybrid, monkeypatch):
    """The state functions alone, on a plain dict for the session."""
    session: dict = {}
    monkeypatch.setattr(state.st, "session_state", session)
    assert state.base_id() == "file:startup-hybrid.yaml"
    state.open_base("file:startup-hybrid.yaml", {"horizon_months": 40})
    session[state.edit_key("pue")] = 1.3           # a widget's new value, then its on_change
    state.keep_edit("pue")
    values = state.current_values(hybrid)
    assert values["horizon_months"] == 40 and values["pue"] == 1.3
    assert values["demand:llm-finetune"] == 400.0  # the file's
    state.show_edits_in_widgets(hybrid)
    assert session[HORIZON] == 40 and session["edit:demand:llm-finetune"] == 400.0
    state.clear_edits()
    assert state.current_values(hybrid) == state.default_edits(hybrid)
    assert not state.link_is_known({"scenario": "a.yaml"})
    state.know_link({"scenario": "a.yaml", "horizon_months": "40"})
    state.know_link({"scenario": "a.yaml"})
    assert state.link_is_known({"horizon_months": "40", "scenario": "a.yaml"})   # any order, any one written
    assert state.link_is_known({"scenario": "a.yaml"})
    assert not state.link_is_known({"scenario": "a.yaml", "horizon_months": "41"})


def test_a_new_value_reruns_the_page_in_its_own_thread_however_the_dashboard_is_started():
    """Streamlit's fastReruns ran a new run beside the one it stopped, both on the session state under locks of their
    own: "dictionary changed size during iteration" in st.slider (audit, server-clean.log). Off in the repository's
    config (`streamlit run app.py`, `make run`) and on `fleetplan dashboard`'s command line (an installed package
    has no config file)."""
    tomllib = pytest.importorskip("tomllib")      # Python 3.11+
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["runner"]["fastReruns"] is False
    from planner.cli.dashboard import streamlit_command

    cmd = streamlit_command("127.0.0.1", None)
    assert dict(zip(cmd[5::2], cmd[6::2]))["--runner.fastReruns"] == "false"


def test_a_session_remembers_its_last_100_links_the_oldest_forgotten(monkeypatch):
    """`links_known` grew by every URL a session wrote or opened, for as long as it lived. It keeps the newest 100 (a
    browser's URL lags the page's by a handful at most: state.LINKS_KEPT); one written again is the newest. Oracle: the
    queries made here, counted by hand."""
    session: dict = {}
    monkeypatch.setattr(state.st, "session_state", session)

    def link(months: int) -> dict[str, str]:
        return {"scenario": "startup-hybrid.yaml", "horizon_months": str(months)}

    for months in range(1, 101):                    # 100 queries: every one kept
        state.know_link(link(months))
    assert all(state.link_is_known(link(m)) for m in range(1, 101))
    state.know_link(link(1))                        # the oldest written again: now the newest
    state.know_link(link(101))                      # the 101st: the oldest, 2 months, forgotten
    assert not state.link_is_known(link(2))
    assert all(state.link_is_known(link(m)) for m in (1, *range(3, 102)))
    assert len(session[state.LINKS_KEY]) == 100
    for months in range(102, 1102):                 # a long session: still the last 100
        state.know_link(link(months))
    assert len(session[state.LINKS_KEY]) == 100
    assert [state.link_is_known(link(m)) for m in (1001, 1002, 1101)] == [False, True, True]   # 1002 to 1101 kept
