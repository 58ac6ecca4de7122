"""Two findings of a review of the dashboard against the CLI: a shared link rounded typed values to six
digits (a budget of 1,234,567 reopened as 1,234,570), and a plan stayed cached after its profile CSV changed
on disk (the cache key held the price file's stamp, the profile only by its path)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fleetplan_dashboard import state
from planner import load_scenario
from planner.engine import plan

ROOT = Path(__file__).resolve().parents[2]
HYBRID = ROOT / "scenarios" / "startup-hybrid.yaml"


def test_a_link_carries_typed_values_exactly():
    s = load_scenario(HYBRID)
    values = {**state.default_edits(s), "capex_budget": 1234567.0, "power_cap_kw": 6.1234567,
              "electricity_per_kwh": 0.1234567}
    params = state.share_params("file:startup-hybrid.yaml", s, values)
    read, problems = state.values_from_params(s, params)
    assert problems == []
    for name in ("capex_budget", "power_cap_kw", "electricity_per_kwh"):
        assert read[name] == values[name], (name, params)


def _weights(busy: float, idle: float) -> list[float]:
    hours = [busy if d < 5 and 9 <= h < 18 else idle for d in range(7) for h in range(24)]
    mean = sum(hours) / 168
    return [w / mean for w in hours]


def test_a_profile_csv_changed_on_disk_is_planned_again(tmp_path):
    profile = tmp_path / "profile.csv"
    profile.write_text("weight\n" + "\n".join(["1.0"] * 168) + "\n")
    text = HYBRID.read_text()
    assert "profile: business_hours" in text
    (tmp_path / "s.yaml").write_text(text.replace("profile: business_hours", f"profile: {profile}", 1))
    flat = state.recommended(load_scenario(tmp_path / "s.yaml")).plan.total
    assert flat == pytest.approx(plan(load_scenario(tmp_path / "s.yaml"), baselines=False).total, rel=1e-9)

    profile.write_text("weight\n" + "\n".join(f"{w!r}" for w in _weights(4.0, 0.2)) + "\n")
    s = load_scenario(tmp_path / "s.yaml")
    peaked = plan(s, baselines=False).total
    assert peaked != pytest.approx(flat, rel=1e-3)       # the change matters to the plan
    assert state.recommended(s).plan.total == pytest.approx(peaked, rel=1e-9)
