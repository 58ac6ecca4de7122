"""Helpers shared by the profile CSV tests: a profile written line by line, and the problems its reading names."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.errors import ScenarioError
from planner.scenario.profile_csv import read_profile_csv


def written(tmp_path: Path, lines: list[str], name: str = "w.csv") -> Path:
    """A profile CSV `name` in `tmp_path` holding `lines`, each ended by a newline."""
    csv = tmp_path / name
    csv.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return csv


def problems_of(csv: Path) -> list[str]:
    """The problems read_profile_csv refuses `csv` with (the test fails where it reads it)."""
    with pytest.raises(ScenarioError) as info:
        read_profile_csv(csv)
    return info.value.problems
