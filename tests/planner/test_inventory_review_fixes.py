"""Review fixes of `fleetplan inventory`: UTF-16 and byte-order marks, memory.total of [N/A] or in other
units, input with no GPU line, a megabyte of garbage, and owned cards written with their age.

Inputs are the recorded outputs of tests/fixtures/nvidia_smi/ (re-encoded or with one cell changed).
Facts used: the A100 80GB PCIe has 80 GB = 81,920 MiB and the RTX 3060 12 GB 12,288 MiB (fixture
README); nvidia-smi shows the 8 GB RTX 3060 under the same name with 8,192 MiB.
"""

import codecs
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from planner.catalog import inventory
from planner.catalog.inventory import parse_inventory, read_inventory_file
from planner.cli import app
from planner.errors import PlannerError
from planner.scenario import load_scenario

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "nvidia_smi"
runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def cards(stdout: str) -> dict:
    """card id → count of the block on stdout."""
    existing = yaml.safe_load(stdout)["onprem"]["existing"]
    return {card: owned["count"] for card, owned in existing.items()}


def saved(tmp_path: Path, data: bytes, name: str = "smi.csv") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


# --- 6. UTF-16 (Windows PowerShell `>`) and byte-order marks ------------------------------------------

@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-8-sig"])
def test_a_saved_output_with_a_byte_order_mark_is_read_with_its_memory_checked(tmp_path, encoding):
    # "utf-16" writes the little-endian BOM and text, as Windows PowerShell's `nvidia-smi ... > smi.csv` does
    text = (FIX / "unknown_and_8gb.csv").read_text(encoding="utf-8")
    data = text.encode(encoding)
    if encoding == "utf-16-be":
        data = codecs.BOM_UTF16_BE + data
    result = run("inventory", "--from", saved(tmp_path, data))
    assert result.exit_code == 0, result.output
    # the 8 GB RTX 3060 is not counted as the 12 GB card: its memory cell was read, not lost to NULs
    assert cards(result.stdout) == {"rtx-a5000": 1}
    assert "not counted: NVIDIA GeForce RTX 3060, 8192 MiB, 170.00 W — NVIDIA GeForce RTX 3060 with 8192 MiB" in result.stderr
    assert "\x00" not in result.stderr and "\ufeff" not in result.stderr


def test_the_real_h200_output_saved_as_utf16_maps_to_the_hgx_h200_card(tmp_path):
    data = (FIX / "h200_real.csv").read_text(encoding="utf-8").encode("utf-16")
    result = run("inventory", "--from", saved(tmp_path, data))
    assert result.exit_code == 0 and result.stderr == ""
    assert cards(result.stdout) == {"hgx-h200-8gpu": 1}


def test_a_byte_order_mark_in_text_is_not_part_of_the_first_name():
    inv = parse_inventory("\ufeff" + (FIX / "unknown_and_8gb.csv").read_text(encoding="utf-8"))
    assert inv.unknown[0][0] == "NVIDIA GeForce RTX 3060, 8192 MiB, 170.00 W"


def test_utf16_without_its_byte_order_mark_exits_2_in_one_line(tmp_path):
    data = (FIX / "h200_real.csv").read_text(encoding="utf-8").encode("utf-16-le")
    result = run("inventory", "--from", saved(tmp_path, data))
    assert result.exit_code == 2 and result.stdout == "" and "Traceback" not in result.output
    assert "smi.csv: holds NUL characters, not text" in result.stderr and len(result.stderr.strip().splitlines()) == 1


# --- 7. memory.total of [N/A] -------------------------------------------------------------------------

@pytest.mark.parametrize("cell", ["[N/A]", "[Not Supported]"])
def test_a_gpu_whose_memory_nvidia_smi_cannot_read_is_listed_not_counted(cell):
    # the name is that of the 8 GB and of the 12 GB RTX 3060: without its memory the card is not known
    inv = parse_inventory(f"NVIDIA GeForce RTX 3060, {cell}, 170.00 W\nNVIDIA A100 80GB PCIe, 81920 MiB, 300.00 W\n")
    assert dict(inv.existing) == {"a100-80gb-pcie": 1}
    (line, why), = inv.unknown
    assert line.startswith("NVIDIA GeForce RTX 3060")
    assert why == (f"memory.total is {cell}, so it cannot be checked to be the 12 GB RTX-3060-12GB of the catalog; "
                   "if it is, count it under rtx-3060-12gb by hand")


# --- 8. memory units ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("cell", "counted"), [
    ("81920 MiB", True),     # as nvidia-smi prints it
    ("81920", True),         # --format=csv,nounits: MiB, as its header says
    ("80 GiB", True),        # 80 × 1024 = 81,920 MiB
    ("80GiB", True),
    ("85899 MB", True),      # 85,899,000,000 bytes = 81,920 MiB
    ("80 GB", True),         # 80e9 bytes = 76,294 MiB, 6.9 % under 81,920: within the 15 % tolerance
    ("80 MiB", False),
    ("80", False),           # 80 MiB (nounits)
])
def test_memory_is_read_in_its_unit(cell, counted):
    inv = parse_inventory(f"NVIDIA A100 80GB PCIe, {cell}, 300.00 W\n")
    assert dict(inv.existing) == ({"a100-80gb-pcie": 1} if counted else {})
    assert (inv.unknown == []) == counted


def test_an_8gb_rtx_3060_in_mb_is_still_not_the_12gb_card():
    # 8,192 MB = 7,812.5 MiB: not the 12,288 MiB card (it was read as 8,192 MiB before, rejected too)
    inv = parse_inventory("NVIDIA GeForce RTX 3060, 8192 MB, 170.00 W\n")
    assert dict(inv.existing) == {} and "with 7812 MiB is not the 12 GB RTX-3060-12GB" in inv.unknown[0][1]


@pytest.mark.parametrize("cell", ["80 GHz", "80 W", "81920 MiBs"])
def test_a_memory_unit_not_known_is_listed_not_counted(cell):
    inv = parse_inventory(f"NVIDIA A100 80GB PCIe, {cell}, 300.00 W\n")
    assert dict(inv.existing) == {}
    assert f"memory.total {cell!r}: unit {cell.split()[-1].lstrip('0123456789')} not known" in inv.unknown[0][1]


def test_the_nounits_form_with_its_header_maps_the_real_h200():
    # `--format=csv,nounits` of the real H200 line: the header carries the units
    real = (FIX / "h200_real_full_query.csv").read_text(encoding="utf-8").replace(" MiB", "").replace(" W", "")
    inv = parse_inventory(real)
    assert dict(inv.existing) == {"hgx-h200-8gpu": 1} and inv.unknown == []


# --- 9. no GPU lines ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("content", "seen"), [
    (b"", "it is empty"),
    (b"\n\n  \n", "it is empty"),
    (b"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n",
     "its first line is \"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\""),
    (b"name, memory.total [MiB], power.limit [W]\n", "its first line is 'name, memory.total [MiB], power.limit [W]'"),
])
def test_input_with_no_gpu_line_exits_2_saying_what_was_expected(tmp_path, content, seen):
    result = run("inventory", "--from", saved(tmp_path, content))
    assert result.exit_code == 2 and result.stdout == "" and "Traceback" not in result.output
    message = result.stderr.strip()
    assert len(message.splitlines()) == 1
    assert f"smi.csv: no GPU lines ({seen}); expected lines like 'NVIDIA H200, 143771 MiB, 700.00 W'" in message


@pytest.mark.parametrize("header", [b"", b"name\n"])
def test_the_output_of_the_name_query_alone_is_listed_with_the_query_to_run(tmp_path, header):
    # `nvidia-smi --query-gpu=name`: GPUs, but an RTX 3060 may be the 8 GB model the catalog lacks, so
    # no line is counted without its memory; each says what to run (before the review fix: "no GPU lines")
    result = run("inventory", "--from", saved(tmp_path, header + b"NVIDIA A100 80GB PCIe\nNVIDIA GeForce RTX 3060\n"))
    assert result.exit_code == 0, result.output
    assert yaml.safe_load(result.stdout) == {"onprem": {"existing": {}}}
    warnings = result.stderr.strip().splitlines()
    assert len(warnings) == 2
    assert warnings[0].startswith("not counted: NVIDIA A100 80GB PCIe — no memory.total on this line, so it cannot "
                                  "be checked to be the 80 GB A100-80GB-PCIE of the catalog; run nvidia-smi "
                                  "--query-gpu=name,memory.total,power.limit")
    assert warnings[0].endswith("or if it is, count it under a100-80gb-pcie by hand")
    assert "12 GB RTX-3060-12GB" in warnings[1] and "rtx-3060-12gb" in warnings[1]


def test_a_name_alone_of_a_gpu_with_no_card_says_so_not_to_run_the_query(tmp_path):
    # the full query would still count nothing: the catalog has no on-prem T4 card
    result = run("inventory", "--from", saved(tmp_path, b"Tesla T4\n"))
    assert result.exit_code == 0, result.output
    assert " ".join(result.stderr.split()) == ("not counted: Tesla T4 — GPU T4 has no on-prem card in "
                                               "planner/data/onprem_cards.csv; add the card as a custom card "
                                               "(onprem.custom_cards)")


def test_read_inventory_file_raises_for_no_gpu_lines(tmp_path):
    with pytest.raises(PlannerError, match="no GPU lines"):
        read_inventory_file(saved(tmp_path, b"hello\n"))


def test_unknown_gpus_alone_are_still_gpu_lines_exit_0(tmp_path):
    # a real GPU the catalog lacks is worth a warning, not a failure
    result = run("inventory", "--from", saved(tmp_path, b"NVIDIA RTX A500O, 24564 MiB, 230.00 W\n"))
    assert result.exit_code == 0 and yaml.safe_load(result.stdout) == {"onprem": {"existing": {}}}
    assert "the nearest name there is RTX-A5000, another GPU unless this line misspells it" in " ".join(
        result.stderr.split())


# --- 10. a megabyte of garbage ------------------------------------------------------------------------

def test_a_megabyte_of_garbage_lists_100_lines_and_counts_the_rest(tmp_path):
    garbage = "".join(f"{'abcdefghij'[i % 10] * (1 + i % 3)}\n" for i in range(200_000))
    text = ((FIX / "h200_real.csv").read_text(encoding="utf-8") + garbage)[:999_000]
    lines = sum(1 for line in text.splitlines() if line.strip()) - 1   # all but the H200
    result = run("inventory", "--from", saved(tmp_path, text.encode()))
    assert result.exit_code == 0 and cards(result.stdout) == {"hgx-h200-8gpu": 1}
    warnings = result.stderr.strip().splitlines()
    assert len(warnings) == 101
    assert warnings[-1] == (f"not counted: … and {lines - 100:,} more lines not counted — "
                            "not listed; only the first 100 are")


def test_a_repeated_unknown_name_asks_for_suggestions_once(monkeypatch):
    calls = []
    real = inventory.catalog.suggest_gpu
    monkeypatch.setattr(inventory.catalog, "suggest_gpu", lambda name: calls.append(name) or real(name))
    inventory._unknown_name_hint.cache_clear()
    inv = parse_inventory("NVIDIA RTX A500O, 24564 MiB, 230.00 W\n" * 1000)
    assert calls == ["NVIDIA RTX A500O"]
    assert len(inv.unknown) == 101 and inv.unlisted == 900
    assert inv.unknown[0][0] == "NVIDIA RTX A500O, 24564 MiB, 230.00 W"
    assert "the nearest name there is RTX-A5000" in inv.unknown[0][1]


def test_a_gpu_the_catalog_lacks_is_not_suggested_as_another_card():
    # an RTX A4000 (16 GB) is no RTX A6000 (48 GB), an L40 no L40S: the line says the catalog lacks it
    inventory._unknown_name_hint.cache_clear()
    inv = parse_inventory("NVIDIA RTX A4000, 16376 MiB, 140.00 W\nNVIDIA L40, 46068 MiB, 300.00 W\n")
    for (_, why), near in zip(inv.unknown, ("RTX-A6000", "L40S")):
        assert why.startswith("not in planner/data/gpus.csv") and "did you mean" not in why
        assert f"the nearest name there is {near}, another GPU unless this line misspells it" in why
        assert "custom card" in why


# --- 11. owned cards with their age -------------------------------------------------------------------

# the catalog prices the RTX 3060 in CNY: a scenario owning one needs a rate (any: resale is not planned here)
SCENARIO = ("name: owned\nhorizon_months: 12\nfx: {CNY: 0.14}\n"
            "workloads:\n  - name: a\n    gpu_hours_per_month: 100\n    reference_gpu: T4\n")


def test_owned_cards_are_written_with_an_age_to_fill_in_and_load_as_a_scenario_block():
    result = run("inventory", "--from", FIX / "two_3060_one_a100.csv")
    assert result.exit_code == 0, result.output
    assert yaml.safe_load(result.stdout) == {"onprem": {"existing": {
        "a100-80gb-pcie": {"count": 1, "age_months": 0}, "rtx-3060-12gb": {"count": 2, "age_months": 0}}}}
    assert "nvidia-smi does not say when a card was bought: set each age_months" in result.stdout
    scenario = load_scenario(SCENARIO + result.stdout)
    assert scenario.onprem.owned_count("rtx-3060-12gb") == 2
    assert scenario.onprem.owned_age_months("rtx-3060-12gb") == 0


def test_a_known_age_is_written_without_the_placeholder_comment():
    block = parse_inventory((FIX / "two_3060_one_a100.csv").read_text(encoding="utf-8")).yaml_block(age_months=30)
    assert "#" not in block
    scenario = load_scenario(SCENARIO + block)
    assert scenario.onprem.owned_count("a100-80gb-pcie") == 1 and scenario.onprem.owned_age_months("a100-80gb-pcie") == 30
    assert scenario.onprem.owned_age_months("rtx-3060-12gb") == 30


# --- cells in CSV quotes (a file saved from a spreadsheet) -------------------------------------------

def test_quoted_cells_are_read_as_nvidia_smis_own(tmp_path):
    # the recorded two RTX 3060 12 GB and one A100 80GB PCIe, each cell quoted as a spreadsheet saves it:
    # a quoted name was read, a quoted memory cell made the line "not a GPU line"
    lines = (FIX / "two_3060_one_a100.csv").read_text(encoding="utf-8").splitlines()
    quoted = "\n".join(", ".join(f'"{cell.strip()}"' for cell in line.split(",")) for line in lines) + "\n"
    assert quoted.count('"') == 2 * sum(len(line.split(",")) for line in lines)
    result = run("inventory", "--from", saved(tmp_path, quoted.encode("utf-8")))
    assert result.exit_code == 0, result.output
    assert cards(result.stdout) == cards(run("inventory", "--from", FIX / "two_3060_one_a100.csv").stdout) \
        == {"rtx-3060-12gb": 2, "a100-80gb-pcie": 1}


# --- audit H 2: a line longer than the csv module's field limit (131,072 characters) -------------------

@pytest.mark.parametrize(("before", "number"), [("", 1), ("NVIDIA H200, 143771 MiB, 700.00 W\n\n", 3)])
def test_a_line_of_140000_characters_exits_2_naming_its_line(tmp_path, before, number):
    # a minified JSON or a log saved by mistake: the csv module's "field larger than field limit" traceback
    result = run("inventory", "--from", saved(tmp_path, (before + "a" * 140_000 + "\n").encode()))
    assert result.exit_code == 2 and result.stdout == "" and "Traceback" not in result.output
    assert result.stderr.strip() == (f"error: {tmp_path / 'smi.csv'}: line {number}: not a GPU line (140,000 characters; "
                                     "nvidia-smi prints about 100 per GPU) — is this the output of nvidia-smi "
                                     "--query-gpu=name,memory.total,power.limit --format=csv,noheader?")


def test_parse_inventory_lists_a_line_of_140000_characters_as_no_gpu_line():
    inv = parse_inventory("NVIDIA H200, 143771 MiB, 700.00 W\n" + "a" * 140_000 + "\n")
    assert inv.existing == {"hgx-h200-8gpu": 1}
    assert [(len(line), why.split(" of ")[0]) for line, why in inv.unknown] == [(140_000, "not a GPU line")]
