"""`fleetplan inventory --from -` reads standard input, as most command-line tools do (`ssh host nvidia-smi … |
fleetplan inventory --from -`): it said "error: -: cannot read: No such file or directory".

Facts used: tests/fixtures/nvidia_smi/two_3060_one_a100.csv is two RTX 3060 12 GB and one A100 80 GB PCIe
(fixture README), the catalog ids rtx-3060-12gb and a100-80gb-pcie; input is read up to 1,000,000 bytes.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from planner.cli import app
from planner.errors import PlannerError

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "nvidia_smi"
TWO_3060_ONE_A100 = {"rtx-3060-12gb": 2, "a100-80gb-pcie": 1}


def inventory(stdin: bytes, *args: str):
    return CliRunner().invoke(app, ["inventory", *args], input=stdin)


def counts(stdout: str) -> dict:
    return {card: owned["count"] for card, owned in yaml.safe_load(stdout)["onprem"]["existing"].items()}


def test_dash_reads_the_nvidia_smi_output_piped_in():
    result = inventory((FIX / "two_3060_one_a100.csv").read_bytes(), "--from", "-", "--age-months", "6")
    assert result.exit_code == 0, result.output
    assert counts(result.stdout) == TWO_3060_ONE_A100
    assert "{count: 2, age_months: 6}" in result.stdout


def test_piped_utf16_output_of_windows_powershell_is_read_as_a_saved_file_is():
    data = (FIX / "two_3060_one_a100.csv").read_text(encoding="utf-8").encode("utf-16")   # with its byte-order mark
    result = inventory(data, "--from", "-")
    assert result.exit_code == 0 and counts(result.stdout) == TWO_3060_ONE_A100, result.output


@pytest.mark.parametrize(("data", "said"), [
    (b"hello\n", "error: standard input: no GPU lines (its first line is 'hello')"),
    (b"", "error: standard input: no GPU lines (it is empty)"),
    (b"x" * 1_000_001, "error: standard input: more than 1,000,000 bytes"),
])
def test_wrong_input_is_named_as_standard_input_with_exit_2(data, said):
    result = inventory(data, "--from", "-")
    assert result.exit_code == 2 and said in result.stderr and "Traceback" not in result.output, result.output


def test_closed_standard_input_says_what_to_do(monkeypatch):
    from planner.catalog.inventory import read_inventory_stdin

    monkeypatch.setattr(sys, "stdin", None)   # `fleetplan inventory --from - <&-`
    with pytest.raises(PlannerError, match=r"^standard input: closed; pipe the nvidia-smi output in, or give --from FILE$"):
        read_inventory_stdin()


def test_a_file_named_dash_is_read_as_dot_slash_dash(tmp_path, monkeypatch):
    (tmp_path / "-").write_bytes((FIX / "two_3060_one_a100.csv").read_bytes())
    monkeypatch.chdir(tmp_path)
    result = inventory(b"", "--from", "./-")
    assert result.exit_code == 0 and counts(result.stdout) == TWO_3060_ONE_A100, result.output


def test_help_says_dash_reads_standard_input():
    result = CliRunner().invoke(app, ["inventory", "--help"])
    assert "(- reads it from standard input)" in " ".join(result.stdout.split())
