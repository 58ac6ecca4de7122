"""The dashboard's review fixes: shared links with values no widget can show, uploads too large to plan
ahead for, scenarios written with explicit keys, workload names with dots, a rejected upload's message
after another scenario is picked, and the uploads a session keeps.

Oracles: the slider ranges of the page (`state.slider_specs`), `planner.engine.plan` on scenarios built
with `model_copy`, and counts worked out by hand — never the dashboard's own output read back.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state
from planner import load_scenario
from planner.engine import plan
from planner.scenario import apply_overrides, load_scenario_text, path_problems

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
TIMEOUT = 180


@pytest.fixture(scope="module")
def entry():
    return load_scenario(SCENARIOS / "entry.yaml")


def _app(**params: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _total(at: AppTest) -> str:
    return next(m.value for m in at.metric if m.label.startswith("Total cost"))


def _money(x: float) -> str:
    return f"{x:,.0f} USD"


def _link_warning(at: AppTest) -> str:
    found = [w.value.replace("\\", "") for w in at.warning   # as read: without tables.plain's escapes
             if w.value.startswith("Parts of the link were ignored")]
    assert found, [w.value for w in at.warning]
    return found[0]


# ---------------------------------------------------------------------------------------------------
# Shared links: a value outside a slider's range, a negative cap


@pytest.mark.parametrize(("path", "text"), [
    ("onprem.pue", "5"),                                                  # PUE slider: 1 to 3
    ("horizon_months", "500"),                                            # 1 to 120
    ("workloads.coursework-and-kaggle.gpu_hours_per_month", "1e8"),       # 0 to 4 × the file's, at least 100
    ("workloads.coursework-and-kaggle.growth_per_month", "-3"),           # -300 % a month
    ("onprem.electricity_per_kwh", "-1"),                                 # 0 to at least 1
])
def test_a_link_value_outside_its_slider_is_ignored_and_named_not_a_crash(entry, path, text):
    at = _app(scenario="entry.yaml", **{path: text})
    assert f"{path}={text} (the sidebar's “" in _link_warning(at)
    assert "”): outside this page's range" in _link_warning(at)
    assert _total(at) == _money(plan(entry).total)          # the file's own plan


def test_values_from_params_refuses_values_outside_the_slider_ranges(entry):
    specs = {spec.name: spec for spec in state.slider_specs(entry)}
    pue = specs["pue"]
    values, problems = state.values_from_params(entry, {"scenario": "entry.yaml", "onprem.pue": f"{pue.high + 0.5}",
                                                        "horizon_months": f"{int(specs['horizon_months'].high)}"})
    assert values["pue"] == entry.onprem.pue                      # refused: the file's value stays
    assert values["horizon_months"] == 120                        # the top of the range is allowed
    assert problems == [f"onprem.pue={pue.high + 0.5} (the sidebar's “PUE”): outside this page's range, 1 to 3"]


@pytest.mark.parametrize(("path", "edit"), [("onprem.capex_budget", "capex_budget"),
                                             ("onprem.power_cap_kw", "power_cap_kw")])
def test_a_negative_cap_in_a_link_is_refused_not_read_as_no_cap(path, edit):
    hybrid = load_scenario(SCENARIOS / "startup-hybrid.yaml")
    at = _app(scenario="startup-hybrid.yaml", **{path: "-1"})
    assert f"{path}=-1 (the sidebar's “" in _link_warning(at)
    assert "”): expected 0 or more, or none for no cap" in _link_warning(at)
    assert at.session_state[state.edit_key(edit)] == getattr(hybrid.onprem, edit)   # the file's cap, kept
    assert getattr(hybrid.onprem, edit) is not None


# ---------------------------------------------------------------------------------------------------
# "Download this scenario with the edits" for a scenario written with explicit keys (`? key` / `: value`)

EXPLICIT_KEYS = """\
name: Explicit keys
horizon_months: 24
onprem:
  ? pue
  : 1.4
  cards: [a100-80gb-pcie]
workloads:
  - name: w
    gpu_hours_per_month: 120
    reference_gpu: A10G
"""


def test_edits_to_a_scenario_with_explicit_keys_are_written_out_whole():
    base = load_scenario_text(EXPLICIT_KEYS, origin="explicit.yaml")
    values = {**state.default_edits(base), "electricity_per_kwh": 0.2, "pue": 1.3}
    out, kept = state.edited_text(EXPLICIT_KEYS, base, values)
    assert not kept                                     # the layout is not one edited in place
    expected = base.model_copy(update={"onprem": base.onprem.model_copy(update={"electricity_per_kwh": 0.2,
                                                                                "pue": 1.3})})
    assert load_scenario_text(out, origin="edited.yaml") == expected


def test_the_plan_page_offers_the_edited_explicit_key_scenario_for_download():
    at = _app()
    at.file_uploader(key="upload_file").set_value(("explicit.yaml", EXPLICIT_KEYS.encode(), "application/x-yaml")).run()
    at.slider(key="edit:electricity_per_kwh").set_value(0.2).run()
    at.slider(key="edit:pue").set_value(1.3).run()
    assert not at.exception, [e.value for e in at.exception]
    assert _total(at)


# ---------------------------------------------------------------------------------------------------
# A rejected upload's message, and the uploads a session keeps


def _not_loaded(at: AppTest) -> list[str]:
    return [e.value.replace("\\", "") for e in at.error if "was not loaded" in e.value]   # as read


def test_a_rejected_uploads_message_goes_once_another_scenario_is_picked():
    at = _app()
    at.file_uploader(key="upload_file").set_value(("bad.yaml", b"name: [", "application/x-yaml")).run()
    assert _not_loaded(at)
    at.selectbox(key="base").set_value("file:entry.yaml").run()
    assert not _not_loaded(at)
    at.slider(key="edit:pue").set_value(1.2).run()
    assert not _not_loaded(at)


def test_a_session_keeps_its_last_five_uploads():
    text = (SCENARIOS / "entry.yaml").read_text(encoding="utf-8")
    at = _app()
    for i in range(7):
        data = f"{text}# upload {i}\n".encode()
        at.file_uploader(key="upload_file").set_value((f"u{i}.yaml", data, "application/x-yaml")).run()
    kept = at.session_state["uploads"]
    assert [state.base_label(bid) for bid in kept] == [f"u{i}.yaml (uploaded)" for i in range(2, 7)]
    assert at.selectbox(key="base").value == list(kept)[-1]          # the newest is on screen
    files = [f"file:{name}" for name in state.scenario_files()]
    assert at.selectbox(key="base").options == [state.base_label(o) for o in files + list(kept)]


def test_keep_upload_moves_an_upload_made_again_to_the_newest_and_drops_the_oldest():
    uploads: dict[str, str] = {}
    for i in range(5):
        state.keep_upload(uploads, f"upload:u{i}.yaml:{i}", str(i))
    state.keep_upload(uploads, "upload:u0.yaml:0", "0")                 # made again: newest, nothing dropped
    state.keep_upload(uploads, "upload:u5.yaml:5", "5")                 # a sixth: the oldest (u1) goes
    assert list(uploads) == [f"upload:u{i}.yaml:{i}" for i in (2, 3, 4, 0, 5)]


# ---------------------------------------------------------------------------------------------------
# Uploads with many workloads: refused over the limit; the values planned ahead bounded


def _many_workloads(n: int) -> str:
    return "name: Many\nworkloads:\n" + "".join(
        f"- {{name: w{i}, gpu_hours_per_month: 1, reference_gpu: A10G}}\n" for i in range(n))


def test_an_upload_with_more_workloads_than_the_limit_is_refused_and_says_so():
    n = state.MAX_UPLOAD_WORKLOADS + 1
    scenario, problems, _ = state.read_upload("many.yaml", _many_workloads(n).encode())
    assert scenario is None
    assert problems == [f"many.yaml:2:1: workloads: {n} workloads; the dashboard takes at most "
                        f"{state.MAX_UPLOAD_WORKLOADS} (two sliders each) — plan a larger file with the command "
                        "line: fleetplan plan many.yaml"]
    at = _app()
    at.file_uploader(key="upload_file").set_value(("many.yaml", _many_workloads(3000).encode(),
                                                   "application/x-yaml")).run()
    shown = _not_loaded(at)
    assert shown and "3,000 workloads" in shown[0] and f"at most {state.MAX_UPLOAD_WORKLOADS}" in shown[0]
    assert at.selectbox(key="base").value == "file:startup-hybrid.yaml"      # the scenario on screen stays


def test_the_values_planned_ahead_are_bounded_whatever_the_number_of_sliders(monkeypatch):
    asked: list[int] = []
    files = len(state.scenario_files())
    monkeypatch.setattr(state, "plan_ahead", lambda scenarios, soon=(), solver=None:
                        asked.append(len(scenarios) + len(soon) - files))
    at = _app()
    text = _many_workloads(state.MAX_UPLOAD_WORKLOADS)
    at.file_uploader(key="upload_file").set_value(("fifty.yaml", text.encode(), "application/x-yaml")).run()
    assert len(at.slider) == 2 * state.MAX_UPLOAD_WORKLOADS + 3                # 103 sliders drawn
    at.slider(key="edit:demand:w0").set_value(2.0).run()
    assert not at.exception, [e.value for e in at.exception]
    assert asked and max(asked) <= state.MAX_AHEAD                             # not 2 per slider (over 200)


def test_next_values_follow_the_slider_moved_then_stop_at_the_limit():
    s = load_scenario_text(_many_workloads(state.MAX_UPLOAD_WORKLOADS), origin="fifty.yaml")
    values = state.default_edits(s)
    after = {**values, "demand:w7": 2.0}
    ahead = state.next_values(s, after, ("demand:w7", 1))
    assert len(ahead) == state.MAX_AHEAD
    step = next(spec.step for spec in state.slider_specs(s) if spec.name == "demand:w7")
    assert [v["demand:w7"] for v in ahead[:3]] == [pytest.approx(2.0 + k * step) for k in (1, 2, 3)]
    assert all(sum(v[k] != after[k] for k in after) == 1 for v in ahead)       # each one slider a step away
    assert {"horizon_months", "electricity_per_kwh"} <= {next(k for k in after if v[k] != after[k]) for v in ahead}


# ---------------------------------------------------------------------------------------------------
# A workload whose name has a dot (team.a)


@pytest.fixture(scope="module")
def dotted():
    text = (SCENARIOS / "entry.yaml").read_text(encoding="utf-8")
    assert "name: coursework-and-kaggle" in text
    return text.replace("name: coursework-and-kaggle", "name: team.a")


def test_the_library_overrides_a_workload_named_with_a_dot(dotted):
    s = load_scenario_text(dotted, origin="dot.yaml")
    expected = s.model_copy(update={"workloads": tuple(
        w.model_copy(update={"gpu_hours_per_month": 240.0, "growth_per_month": 0.01}) if w.name == "team.a" else w
        for w in s.workloads)})
    overrides = {"workloads.team.a.gpu_hours_per_month": 240.0, "workloads.team.a.growth_per_month": 0.01}
    assert apply_overrides(s, overrides) == expected
    assert plan(s, overrides=overrides).total == pytest.approx(plan(expected).total, rel=1e-9)
    assert path_problems(s, "workloads.team.a") == [
        "workloads.team.a: name a field of the workload, e.g. workloads.team.a.gpu_hours_per_month"]
    assert "no workload named 'team'" in path_problems(s, "workloads.team.b.gpu_hours_per_month")[0]


def test_the_longest_workload_name_wins_next_to_a_shorter_one(dotted):
    s = load_scenario_text(dotted, origin="dot.yaml")
    team = s.workloads[0].model_copy(update={"name": "team"})
    s = s.model_copy(update={"workloads": (*s.workloads, team)})
    changed = apply_overrides(s, {"workloads.team.a.gpu_hours_per_month": 240.0,
                                  "workloads.team.gpu_hours_per_month": 7.0})
    hours = {w.name: w.gpu_hours_per_month for w in changed.workloads}
    assert hours["team.a"] == 240.0 and hours["team"] == 7.0


def test_the_dashboard_edits_a_workload_named_with_a_dot(dotted):
    s = load_scenario_text(dotted, origin="dot.yaml")
    expected = s.model_copy(update={"workloads": tuple(
        w.model_copy(update={"gpu_hours_per_month": 240.0}) if w.name == "team.a" else w for w in s.workloads)})
    at = _app()
    at.file_uploader(key="upload_file").set_value(("dot.yaml", dotted.encode(), "application/x-yaml")).run()
    at.slider(key="edit:demand:team.a").set_value(240.0).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not [e.value for e in at.error]
    assert _total(at) == _money(plan(expected).total)
    out, kept = state.edited_text(dotted, s, {**state.default_edits(s), "demand:team.a": 240.0})
    assert kept                                          # written in place, comments kept
    assert load_scenario_text(out, origin="edited.yaml") == expected
