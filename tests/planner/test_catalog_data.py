"""The packaged catalog data states facts from outside the project, each with a dated source.

Checks the on-prem card table (dated 2025-2026 prices or a stated reason, cited numbers), the GPU table
(GeForce tensor figures at FP32 accumulate, nominal GB), the framework tables and `fleetplan inventory`
on real and synthetic nvidia-smi output.
"""

import csv
import datetime as dt
import math
import re
from pathlib import Path

import pytest

from planner import catalog
from planner.catalog import frameworks
from planner.catalog.inventory import parse_inventory

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "nvidia_smi"
OLDEST_PRICE_DATE = dt.date(2025, 1, 1)
NEWEST_PRICE_DATE = dt.date(2026, 12, 31)
# A row may keep an older or undated price only when its note starts its reason with one of these.
STALE_REASONS = ("stale:", "undated:")
NO_PRICE_REASON = "price left empty:"

# What nvidia-smi prints as `name` for each GPU of a card row (NVIDIA marketing names).
NVIDIA_SMI_NAMES = {
    "RTX-3060-12GB": "NVIDIA GeForce RTX 3060",
    "RTX-4060-TI-16GB": "NVIDIA GeForce RTX 4060 Ti",
    "RTX-3090": "NVIDIA GeForce RTX 3090",
    "RTX-4090": "NVIDIA GeForce RTX 4090",
    "RTX-5090": "NVIDIA GeForce RTX 5090",
    "RTX-A5000": "NVIDIA RTX A5000",
    "RTX-A6000": "NVIDIA RTX A6000",
    "RTX-6000-ADA": "NVIDIA RTX 6000 Ada Generation",
    "RTX-PRO-6000-WS": "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
    "L40S": "NVIDIA L40S",
    "A100-40GB-PCIE": "NVIDIA A100-PCIE-40GB",   # NVIDIA driver README, supported GPUs (device 20F1)
    "A100-80GB-PCIE": "NVIDIA A100 80GB PCIe",
    "H100-PCIE": "NVIDIA H100 PCIe",
    "H100-NVL": "NVIDIA H100 NVL",
    "H200-NVL": "NVIDIA H200 NVL",
    "H100-SXM": "NVIDIA H100 80GB HBM3",
    "H200-SXM": "NVIDIA H200",
}


@pytest.fixture(scope="module")
def cards():
    return catalog.load_cards()


@pytest.fixture(scope="module")
def gpus():
    return catalog.load_gpus()


def _card_ids():
    return list(catalog.load_cards().index)


# --- on-prem cards -------------------------------------------------------------------------------


@pytest.mark.parametrize("card_id", _card_ids())
def test_every_card_price_is_sourced_and_dated_2025_or_later_unless_the_note_says_why(cards, card_id):
    row = cards.loc[card_id]
    if math.isnan(row.price):
        assert row.note.startswith(NO_PRICE_REASON), f"{card_id}: empty price without '{NO_PRICE_REASON}' in its note"
        return
    assert row.source.strip() and row.source != "none found", f"{card_id}: a price needs a source"
    assert "DESIGN" not in row.source and "this project" not in row.source, f"{card_id}: circular source"
    if not row.as_of:
        assert row.note.startswith("undated:"), f"{card_id}: undated price without a reason"
        return
    as_of = dt.date.fromisoformat(row.as_of)
    assert as_of <= NEWEST_PRICE_DATE
    if as_of < OLDEST_PRICE_DATE:
        assert row.note.startswith(STALE_REASONS), f"{card_id}: price of {as_of} without a reason in its note"


@pytest.mark.parametrize("card_id", _card_ids())
def test_every_cited_price_and_date_appear_in_the_source(cards, card_id):
    row = cards.loc[card_id]
    if math.isnan(row.price):
        return
    # a price in cents (rtx-4090: 1,669.99 USD) is cited with them
    cited = f"{row.price:,.0f}" if float(row.price).is_integer() else f"{row.price:,.2f}"
    assert cited in row.source, f"{card_id}: price {cited} not in its source text"
    if row.as_of:
        assert row.as_of in row.source, f"{card_id}: date {row.as_of} not in its source text"


MIDPOINT = re.compile(r"midpoint of the cited range ([\d,]+)–([\d,]+) (\w+)")


@pytest.mark.parametrize("card_id", _card_ids())
def test_a_price_taken_from_a_cited_range_is_its_midpoint_and_both_ends_are_in_the_source(cards, card_id):
    row = cards.loc[card_id]
    match = MIDPOINT.search(row.note)
    if not match:
        return
    low, high = (float(x.replace(",", "")) for x in match.group(1, 2))
    assert match.group(3) == row.currency
    assert row.price == (low + high) / 2, f"{card_id}: {row.price} is not the midpoint of {low:,.0f}-{high:,.0f}"
    for end in (low, high):
        assert f"{end:,.0f}" in row.source, f"{card_id}: range end {end:,.0f} not in its source text"


def test_hgx_h200_is_the_dated_reuters_chip_price_and_says_the_host_is_not_included(cards):
    row = cards.loc["hgx-h200-8gpu"]
    assert (row.price, row.currency, row.as_of) == (27000, "USD", "2026-01-08")
    assert "NOT included" in row.note and "lower bound" in row.note


def test_cards_people_buy_now_are_in_the_catalog(cards):
    wanted = {"rtx-4090": "RTX-4090", "rtx-5090": "RTX-5090", "rtx-4060-ti-16gb": "RTX-4060-TI-16GB",
              "rtx-3060-12gb": "RTX-3060-12GB", "rtx-a5000": "RTX-A5000", "rtx-a6000": "RTX-A6000",
              "rtx-6000-ada": "RTX-6000-ADA", "rtx-pro-6000": "RTX-PRO-6000-WS", "l40s": "L40S",
              "a100-80gb-pcie": "A100-80GB-PCIE", "h100-pcie": "H100-PCIE", "h100-nvl": "H100-NVL",
              "h200-nvl": "H200-NVL", "hgx-h100-8gpu": "H100-SXM", "hgx-h200-8gpu": "H200-SXM"}
    assert {card: cards.loc[card, "gpu"] for card in wanted} == wanted


def test_rtx_5090_costs_its_launch_msrp_of_1999_usd_from_2025_01_06(cards):
    row = cards.loc["rtx-5090"]
    assert (row.price, row.currency, row.as_of) == (1999, "USD", "2025-01-06")


@pytest.mark.parametrize("card_id", ["hgx-h100-8gpu", "hgx-h200-8gpu"])
def test_hgx_servers_are_eight_gpus_sharing_one_host_with_no_separate_host_cost(cards, gpus, card_id):
    row = cards.loc[card_id]
    assert (row.cards_per_server, row.host_cost_per_card) == (8, 0)
    assert gpus.loc[row.gpu, "nvlink"]


def test_hgx_h100_busy_watts_are_a_dgx_h100s_10_2_kw_over_8_gpus(cards):
    assert cards.loc["hgx-h100-8gpu", "busy_watts"] == pytest.approx(10_200 / 8)


def test_h200_idle_watts_match_the_real_nvidia_smi_reading_of_105_w():
    header, reading = (FIXTURES / "h200_real_full_query.csv").read_text().splitlines()[:2]
    cells = dict(zip([h.strip() for h in header.split(",")], [c.strip() for c in reading.split(",")]))
    measured = float(cells["power.draw [W]"].split()[0])
    assert measured == pytest.approx(105.21)
    assert catalog.load_cards().loc["hgx-h200-8gpu", "idle_watts"] == round(measured)


@pytest.mark.parametrize("card_id", _card_ids())
def test_idle_watts_are_below_busy_watts(cards, card_id):
    assert 0 < cards.loc[card_id, "idle_watts"] < cards.loc[card_id, "busy_watts"]


# --- GPU catalog ---------------------------------------------------------------------------------


def test_rtx_4090_fp16_tensor_is_the_fp32_accumulate_165_2_not_the_datasheets_fp16_accumulate_330_3(gpus):
    assert gpus.loc["RTX-4090", "fp16_tensor_tflops"] == pytest.approx(330.3 / 2, abs=0.05) == 165.2


def test_rtx_3090_fp16_tensor_is_71_half_of_the_fp16_accumulate_142(gpus):
    assert gpus.loc["RTX-3090", "fp16_tensor_tflops"] == 142 / 2


def test_geforce_fp16_tensor_equals_bf16_the_fp32_accumulate_rate(gpus):
    geforce = gpus[gpus["aliases"].str.contains("GeForce")]
    assert len(geforce) >= 5
    for gpu, row in geforce.iterrows():
        if not math.isnan(row.fp16_tensor_tflops):
            assert row.fp16_tensor_tflops == row.bf16_tensor_tflops, gpu


def test_memory_is_nominal_whole_gb_not_gib_from_an_api(gpus):
    # AWS reports 22888 MiB for an A10G or L4 (22.35 GiB) and 45776 MiB for an L40S; the catalog holds 24 and 48.
    assert (gpus["memory_gb"].dropna() % 1 == 0).all()
    assert gpus.loc[["A10G", "L4", "L40S"], "memory_gb"].tolist() == [24, 24, 48]


def test_seed_guide_errors_stay_corrected(gpus):
    assert not gpus.loc["RTX-A5000", "mig"]
    assert gpus.loc["RTX-4090", "fp32_tflops"] == pytest.approx(82.6)


def test_a10g_has_its_published_600_gb_s_and_no_copied_a10_tflops(gpus):
    assert gpus.loc["A10G", "memory_bandwidth_gbps"] == 600
    assert math.isnan(gpus.loc["A10G", "fp32_tflops"]) and "Baseten" in gpus.loc["A10G", "source"]


def test_rtx_5090_fp32_is_its_shaders_times_two_times_boost_clock(gpus):
    assert gpus.loc["RTX-5090", "fp32_tflops"] == pytest.approx(21_760 * 2 * 2.407e9 / 1e12, abs=0.05)


def test_every_gpu_row_names_a_source(gpus):
    assert (gpus["source"].str.strip().str.len() > 0).all()


# --- frameworks and CUDA -------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["tensorflow==2.18", "tensorflow==2.19", "tensorflow==2.20"])
def test_current_tensorflow_has_a_gpu_build(spec):
    assert frameworks.framework_problem(spec) is None
    assert frameworks.stack(spec)["cuda"] == "12.5"


def test_tensorflow_2_21_is_known_but_its_unverified_build_is_said_so():
    problem = frameworks.framework_problem("tensorflow==2.21")
    assert problem is not None and "not verified" in problem and "no GPU build" not in problem


@pytest.mark.parametrize("spec", ["pytorch==2.8", "pytorch==2.9", "pytorch==2.10", "pytorch==2.11"])
@pytest.mark.parametrize("gpu", ["B200", "RTX-PRO-6000-WS", "RTX-5090", "H200-NVL", "A100-80GB-PCIE"])
def test_current_pytorch_runs_on_blackwell_and_older(gpus, spec, gpu):
    assert frameworks.exclusion_reason(spec, gpu, gpus.loc[gpu, "compute_capability"]) is None


def test_pytorch_2_7_with_cuda_12_6_has_no_blackwell_kernels(gpus):
    assert frameworks.exclusion_reason("pytorch==2.7", "RTX-5090", gpus.loc["RTX-5090", "compute_capability"])


def test_cuda_13_dropped_maxwell_pascal_and_volta():
    rng = frameworks.cuda_ranges().loc["13.0"]
    assert (rng.min_compute_capability, rng.max_compute_capability) == (7.5, 12.1)


def test_every_framework_row_cites_its_source():
    table = frameworks.frameworks()
    assert (table["source"].str.len() > 0).all()
    assert set(table.loc[table["cuda"] != "", "cuda"]) <= set(frameworks.cuda_ranges().index)


# --- fleetplan inventory -------------------------------------------------------------------------


def test_real_nvidia_smi_output_of_an_h200_maps_to_the_hgx_h200_card():
    inv = parse_inventory((FIXTURES / "h200_real.csv").read_text())
    assert dict(inv.existing) == {"hgx-h200-8gpu": 1} and inv.unknown == []


def test_real_nvidia_smi_output_with_its_header_line_maps_too():
    inv = parse_inventory((FIXTURES / "h200_real_full_query.csv").read_text())
    assert dict(inv.existing) == {"hgx-h200-8gpu": 1} and inv.unknown == []


@pytest.mark.parametrize("card_id", _card_ids())
def test_every_catalog_card_maps_back_from_its_nvidia_smi_name(cards, gpus, card_id):
    gpu = cards.loc[card_id, "gpu"]
    assert gpu in NVIDIA_SMI_NAMES, f"add the nvidia-smi name of {gpu} to NVIDIA_SMI_NAMES"
    usable_mib = round(gpus.loc[gpu, "memory_gb"] * 1024 * 0.975)  # nvidia-smi shows a little under the nominal size
    line = f"{NVIDIA_SMI_NAMES[gpu]}, {usable_mib} MiB, {gpus.loc[gpu, 'tdp_watts']:.2f} W"
    inv = parse_inventory(line)
    assert inv.unknown == []
    owned = next(iter(inv.existing))
    assert cards.loc[owned, "gpu"] == gpu


def test_the_scenario_format_lists_every_card_id_and_framework_range_of_the_catalog(cards):
    text = (Path(__file__).resolve().parents[2] / "docs" / "scenario-format.md").read_text(encoding="utf-8")
    listed = text.split("Card ids in the packaged catalog:", 1)[1].split("\n\n", 1)[0]
    assert re.findall(r"`([a-z0-9-]+)`", listed) == list(cards.index)
    table = frameworks.frameworks()
    newest = {name: max(table.loc[table["framework"] == name, "version"], key=lambda v: tuple(map(int, v.split("."))))
              for name in ("tensorflow", "pytorch")}   # by number: 2.10 comes after 2.9
    assert f"`tensorflow` 2.0–{newest['tensorflow']}" in text and f"`pytorch` 1.13 and 2.0–{newest['pytorch']}" in text


def test_the_example_offers_file_gives_the_catalogs_nominal_memory(gpus):
    # it held 22.3515625 (AWS's 22888 MiB as GiB), so min_gpu_memory_gb: 24 found no A10G in the example
    import csv

    path = Path(__file__).resolve().parents[2] / "examples" / "offers-g5-us-east-1.csv"
    for row in csv.DictReader(path.open(encoding="utf-8")):
        assert float(row["gpu_memory_gb"]) == gpus.loc[row["gpu"], "memory_gb"] == 24


DATA = Path(__file__).resolve().parents[2] / "planner" / "data"


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.csv")))
def test_every_packaged_csv_row_has_as_many_fields_as_its_header(name):
    # a note with an unquoted comma gave gpus.csv's H100-SXM row 18 fields for 16: the csv module read it (the extra in
    # its rest), pandas refused the whole file
    with (DATA / name).open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    assert {len(row) for row in rows if row} == {len(rows[0])}, name
