"""A scenario read through a pipe (`fleetplan plan <(cat s.yaml)`) has no folder of its own: the
files it names by a relative path are the working folder's, as the shell user means them. They were
looked for in /dev/fd (a review's known problem, 2026-12-04)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from planner.errors import ScenarioError
from planner.reports.compare import read_side
from planner.scenario import load_scenario_file

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
WORKED = EXAMPLES / "worked-example.yaml"


def _through_a_pipe(text: str) -> Path:
    """/dev/fd/N of a pipe holding `text` (as bash's `<(cat s.yaml)` gives), its writer closed."""
    read, write = os.pipe()
    data = text.encode()
    assert len(data) < 65536   # fits the pipe's buffer: written before anyone reads
    os.write(write, data)
    os.close(write)
    return Path(f"/dev/fd/{read}")


@pytest.mark.skipif(not Path("/dev/fd").is_dir(), reason="needs /dev/fd")
def test_a_relative_offers_file_is_the_working_folders(tmp_path, monkeypatch):
    text = WORKED.read_text(encoding="utf-8")
    assert "source: offers-g5-us-east-1.csv" in text
    monkeypatch.chdir(EXAMPLES)
    s = load_scenario_file(_through_a_pipe(text))
    assert Path(s.prices.source) == EXAMPLES / "offers-g5-us-east-1.csv"


@pytest.mark.skipif(not Path("/dev/fd").is_dir(), reason="needs /dev/fd")
def test_a_relative_offers_file_missing_from_the_working_folder_is_named_there(tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    with pytest.raises(ScenarioError) as exc:
        load_scenario_file(_through_a_pipe(WORKED.read_text(encoding="utf-8")))
    message = str(exc.value)   # the path as messages quote a long value: its first 60 characters
    assert f"file not found: {str(work / 'offers-g5-us-east-1.csv')[:60]}" in message
    assert "/dev/fd/offers" not in message


def test_a_regular_file_keeps_its_own_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)   # the working folder has no offers file: the scenario's folder has
    assert Path(load_scenario_file(WORKED).prices.source) == EXAMPLES / "offers-g5-us-east-1.csv"


@pytest.mark.skipif(not Path("/dev/fd").is_dir(), reason="needs /dev/fd")
def test_a_file_redirected_to_dev_fd_keeps_its_own_folder(tmp_path, monkeypatch):
    # `fleetplan validate /dev/stdin < examples/worked-example.yaml` from another folder: the file's folder
    monkeypatch.chdir(tmp_path)
    fd = os.open(WORKED, os.O_RDONLY)
    try:
        s = load_scenario_file(Path(f"/dev/fd/{fd}"))
    finally:
        os.close(fd)
    assert Path(s.prices.source) == EXAMPLES / "offers-g5-us-east-1.csv"


@pytest.mark.skipif(not Path("/dev/fd").is_dir(), reason="needs /dev/fd")
def test_compare_reads_a_piped_scenario_against_the_working_folder(monkeypatch):
    monkeypatch.chdir(EXAMPLES)
    side = read_side(_through_a_pipe(WORKED.read_text(encoding="utf-8")))
    assert Path(side.prices.source) == EXAMPLES / "offers-g5-us-east-1.csv"
