"""`fleetplan inventory` given a name that is a family of GPUs (`NVIDIA A100`, `A100-80GB`, `Tesla V100`) picks the
member by memory.total when one member's size is nearest to it, and otherwise lists the members the memory fits
(all of them when the memory is not known), each with its memory and card, so the user chooses. It said "not in
planner/data/gpus.csv (the nearest name there is A10, …)" for `NVIDIA A100`, and named one member for `A100`.

Facts (gpus.csv `family` and `memory_gb`, onprem_cards.csv `gpu`): the A100 family is A100-40GB-PCIE,
A100-40GB-SXM (40 GB = 40,960 MiB), A100-80GB-PCIE and A100-80GB-SXM (80 GB = 81,920 MiB), of which only the PCIe
boards have cards (a100-40gb-pcie, a100-80gb-pcie); the H100 family is H100-NVL (94 GB = 96,256 MiB, card h100-nvl),
H100-PCIE (80 GB, card h100-pcie) and H100-SXM (80 GB, card hgx-h100-8gpu); the V100 family is V100-16GB-PCIE,
V100-16GB-SXM2 (16 GB = 16,384 MiB) and V100-32GB-SXM2 (32 GB = 32,768 MiB), none with a card. Memory fits a size
within 15 % (inventory.MEMORY_TOLERANCE). Lines in nvidia-smi's shape: `name, memory.total, power.limit`.
"""

from __future__ import annotations

import pytest
import yaml

from planner.catalog.inventory import parse_inventory
from tests.planner.cli_run import run

BY_HAND = "count it by hand under the card of the one it is (as a custom card, onprem.custom_cards, where it has none)"
A100_80 = "A100-80GB-PCIE (80 GB, card a100-80gb-pcie) and A100-80GB-SXM (80 GB, no on-prem card)"
A100_ALL = ("A100-40GB-PCIE (40 GB, card a100-40gb-pcie), A100-40GB-SXM (40 GB, no on-prem card), "
            "A100-80GB-PCIE (80 GB, card a100-80gb-pcie) and A100-80GB-SXM (80 GB, no on-prem card)")
COMMAND = "nvidia-smi --query-gpu=name,memory.total,power.limit --format=csv,noheader"


def said(line: str) -> tuple[dict, list[tuple[str, str]]]:
    inv = parse_inventory(line + "\n")
    return dict(inv.existing), inv.unknown


@pytest.mark.parametrize(("line", "why"), [
    # 81,920 MiB is both 80 GB boards' size: the PCIe one has a card, the SXM one none
    ("NVIDIA A100, 81920 MiB, 300.00 W",
     f"NVIDIA A100 names a family of GPUs, and 81920 MiB fits more than one: {A100_80}; {BY_HAND}"),
    ("A100, 81920 MiB, 300.00 W", f"A100 names a family of GPUs, and 81920 MiB fits more than one: {A100_80}; {BY_HAND}"),
    ("A100-80GB, 81920 MiB, 300.00 W",
     f"A100-80GB names a family of GPUs, and 81920 MiB fits more than one: {A100_80}; {BY_HAND}"),
    ("NVIDIA A100, 40960 MiB, 250.00 W",
     "NVIDIA A100 names a family of GPUs, and 40960 MiB fits more than one: A100-40GB-PCIE (40 GB, card "
     f"a100-40gb-pcie) and A100-40GB-SXM (40 GB, no on-prem card); {BY_HAND}"),
    # 81,559 MiB (an H100 80 GB) is 14,697 MiB from 96,256: more than 15 % (14,438), so not the NVL
    ("NVIDIA H100, 81559 MiB, 350.00 W",
     "NVIDIA H100 names a family of GPUs, and 81559 MiB fits more than one: H100-PCIE (80 GB, card h100-pcie) and "
     f"H100-SXM (80 GB, card hgx-h100-8gpu); {BY_HAND}"),
    # 24,576 MiB is within 15 % of neither 40,960 nor 81,920
    ("NVIDIA A100, 24576 MiB, 250.00 W",
     f"NVIDIA A100 with 24576 MiB is none of its family's GPUs: {A100_ALL}; add it as a custom card (onprem.custom_cards)"),
    ("NVIDIA A100, [N/A], 250.00 W",
     f"NVIDIA A100 names a family of GPUs: {A100_ALL}; memory.total is [N/A], which does not tell which one it is: {BY_HAND}"),
    ("NVIDIA A100, 80 XB, 250.00 W",
     f"NVIDIA A100 names a family of GPUs: {A100_ALL}; memory.total '80 XB': unit XB not known; expected MiB as "
     "nvidia-smi prints it (or GiB, MB, GB)"),
    # picked by memory, but the member has no card: said of the member, not of the family's name
    ("Tesla V100, 32768 MiB, 300.00 W", "GPU V100-32GB-SXM2 has no on-prem card in planner/data/onprem_cards.csv; "
                                      "add the card as a custom card (onprem.custom_cards)"),
])
def test_a_family_whose_memory_does_not_single_out_a_carded_member_lists_the_members(line, why):
    assert said(line) == ({}, [(line, why)])


@pytest.mark.parametrize(("line", "card"), [
    # 95,830 MiB is 426 MiB from the NVL's 96,256 and 13,910 from the 80 GB boards' 81,920: the NVL alone is nearest
    ("NVIDIA H100, 95830 MiB, 400.00 W", "h100-nvl"),
    ("H100, 95830 MiB, 400.00 W", "h100-nvl"),
])
def test_a_family_member_singled_out_by_memory_is_counted_under_its_card(line, card):
    assert said(line) == ({card: 1}, [])


def test_names_of_one_gpu_are_counted_as_before():
    text = ("NVIDIA A100 80GB PCIe, 81920 MiB, 300.00 W\nNVIDIA A100-PCIE-40GB, 40960 MiB, 250.00 W\n"
            "NVIDIA H200, 143771 MiB, 700.00 W\n")
    inv = parse_inventory(text)
    assert dict(inv.existing) == {"a100-80gb-pcie": 1, "a100-40gb-pcie": 1, "hgx-h200-8gpu": 1} and inv.unknown == []


def test_a_file_of_family_names_alone_is_read_and_each_line_lists_the_members(tmp_path):
    # `nvidia-smi --query-gpu=name` output: no memory, so no member can be picked; the file is GPU lines all the same
    path = tmp_path / "names.csv"
    path.write_text("NVIDIA A100\nNVIDIA A100\n")
    result = run("inventory", "--from", path)
    assert result.exit_code == 0, result.output
    assert yaml.safe_load(result.stdout) == {"onprem": {"existing": {}}}
    why = (f"NVIDIA A100 names a family of GPUs: {A100_ALL}; no memory.total on this line to tell which one it "
           f"is: run {COMMAND}, or {BY_HAND}")
    assert parse_inventory("NVIDIA A100\n").unknown == [("NVIDIA A100", why)]
    stderr = " ".join(result.stderr.split())
    assert stderr.count("not counted: NVIDIA A100 — NVIDIA A100 names a family of GPUs: A100-40GB-PCIE (40 GB") == 2


def test_the_cli_counts_the_member_memory_singles_out_and_warns_of_the_others(tmp_path):
    path = tmp_path / "smi.csv"
    path.write_text("NVIDIA H100, 95830 MiB, 400.00 W\nNVIDIA A100, 81920 MiB, 300.00 W\n")
    result = run("inventory", "--from", path, "--age-months", 6)
    assert result.exit_code == 0, result.output
    assert yaml.safe_load(result.stdout)["onprem"]["existing"] == {"h100-nvl": {"count": 1, "age_months": 6}}
    assert ("not counted: NVIDIA A100, 81920 MiB, 300.00 W — NVIDIA A100 names a family of GPUs, and 81920 MiB fits "
            f"more than one: {A100_80}; {BY_HAND}") in " ".join(result.stderr.split())
