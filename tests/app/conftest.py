"""Fixtures the dashboard's tests share."""

from __future__ import annotations

import pytest

from fleetplan_dashboard import state


@pytest.fixture()
def fresh_cache():
    """The dashboard's plan cache empty before and after the test: a plan another test cached is not read back."""
    state.clear_plan_cache()
    yield
    state.clear_plan_cache()
