"""What a scenario that is not UTF-8, or no scenario at all, is told (a review, 2026-12-05): a Latin-1 file said
Python's "cannot read: 'utf-8' codec can't decode byte 0xe9 in position 9", naming no line; `plan("")` said
".: is a folder"; `plan(None)` raised "expected str, bytes or os.PathLike object"."""

from __future__ import annotations

import os

import pytest

from planner import load_scenario, plan
from planner.errors import ScenarioError

SAVE = "save the file as UTF-8 (a byte like this is often a Latin-1 or Windows-1252 accent)"


@pytest.mark.parametrize("data, place, byte", [
    (b"name: caf\xe9\nworkloads: []\n", "1:10", "0xe9"),   # Latin-1 é: after "name: caf"
    # UTF-8 é (two bytes) counts one column; a CRLF line end is one line end
    (b"name: x\r\nhorizon_months: 12\r\ndescription: \"\xc3\xa9t\xc3\xa9 caf\xe9\"\r\n", "3:22", "0xe9"),
    (b"\xef\xbb\xbfname: caf\x92s\n", "1:10", "0x92"),   # after a UTF-8 byte order mark; Windows-1252's ’
    (b"name: x\rdescription: caf\xe9\r", "2:17", "0xe9"),   # old Mac line ends: a lone \r ends a line
])
def test_a_file_that_is_not_utf8_is_named_at_its_line_and_column(tmp_path, data, place, byte):
    path = tmp_path / "s.yaml"
    path.write_bytes(data)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert info.value.problems == [f"{path}:{place}: not UTF-8 text (byte {byte}); {SAVE}"]


@pytest.mark.parametrize("encoding, named", [("utf-16", "UTF-16"), ("utf-32", "UTF-32"), ("utf-16-be", None)])
def test_a_utf16_or_utf32_file_is_named_as_such(tmp_path, encoding, named):
    path = tmp_path / "s.yaml"
    data = "name: x\n".encode(encoding)   # utf-16 and utf-32 with their byte order marks, as Windows tools write
    if named is None:                      # big-endian UTF-16 with its mark, written by hand
        data = b"\xfe\xff" + data
        named = "UTF-16"
    path.write_bytes(data)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert info.value.problems == [f"{path}:1:1: not UTF-8 text: {named} (it begins with {named}'s byte order mark); "
                                   "save the file as UTF-8"]


def test_compare_names_the_line_of_a_scenario_through_a_pipe_that_is_not_utf8(tmp_path):
    from planner.reports.compare import read_side

    read, write = os.pipe()
    os.write(write, b"name: x\ndescription: caf\xe9\n")   # "description: caf" is 16 characters
    os.close(write)
    with pytest.raises(ScenarioError) as info:
        read_side(f"/dev/fd/{read}")
    os.close(read)
    assert info.value.problems == [f"/dev/fd/{read}:2:17: not UTF-8 text (byte 0xe9); {SAVE}"]


def test_line_ends_read_as_before(tmp_path):
    # the file was read as text, whose universal newlines make \r\n and a lone \r one line end: a problem on the
    # third line is still named on it
    for end in ("\n", "\r\n", "\r"):
        path = tmp_path / "s.yaml"
        path.write_bytes(end.join(["name: x", "horizon_months: 12", "discount_rate: 7", ""]).encode())
        with pytest.raises(ScenarioError) as info:
            load_scenario(path)
        assert any(p.startswith(f"{path}:3:16: discount_rate:") for p in info.value.problems), info.value.problems


ACCEPTED = "expected a Scenario, a scenario YAML file's path (a str or Path), its YAML text (a str) or a dict"


# a TypeError before: plan()'s docstring promises a ScenarioError for bad input, which is what a notebook catches
@pytest.mark.parametrize("given, got", [(None, "None"), (5, "5 (int)"), (2.5, "2.5 (float)"), (["s.yaml"], "['s.yaml'] (list)")])
def test_no_scenario_at_all_is_a_scenario_error_that_says_what_was_given_and_what_is_read(given, got):
    with pytest.raises(ScenarioError) as info:
        plan(given)
    assert info.value.problems == [f"got {got}; {ACCEPTED}"]
    assert str(info.value) == f"scenario: 1 problem\n  got {got}; {ACCEPTED}"


def test_a_scenario_file_read_as_bytes_is_told_to_decode_them_or_give_the_path(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("name: Start-up hybrid fleet, planned from a notebook\n")   # 52 characters and a line end; the first 40 shown
    with pytest.raises(ScenarioError) as info:
        plan(open(path, "rb").read())
    assert info.value.problems == [f"got 53 bytes (b'name: Start-up hybrid fleet, planned fro'…); {ACCEPTED}: decode them "
                                   "first (data.decode('utf-8')) or pass the file's path"]
    with pytest.raises(ScenarioError) as info:
        load_scenario(bytearray(b"name: x"))
    assert info.value.problems == [f"got 7 bytes (b'name: x'); {ACCEPTED}: decode them first (data.decode('utf-8')) "
                                   "or pass the file's path"]


@pytest.mark.parametrize("given", ["", "  \n"])
def test_an_empty_text_is_not_the_working_folder(given):
    with pytest.raises(ScenarioError) as info:
        plan(given)
    assert info.value.problems == ["<text>: empty; expected a scenario file's path or its YAML text"]


def test_any_path_like_names_a_file():
    # a PurePosixPath (or any os.PathLike) was a path before the type check above, and stays one
    from pathlib import Path, PurePosixPath

    entry = Path(__file__).resolve().parents[2] / "scenarios" / "entry.yaml"
    assert load_scenario(PurePosixPath(entry)) == load_scenario(entry)
