"""GPU and card catalogs: datasheet facts, the seed guide's corrections, name resolution."""

import math

import pytest

from planner import catalog
from pricing_adapters.snapshot import load_snapshot


@pytest.fixture(scope="module")
def gpus():
    return catalog.load_gpus()


def test_seed_guide_cards_are_in_the_catalog(gpus):
    for gpu in ["RTX-3060-12GB", "RTX-A5000", "RTX-4090", "A100-80GB-PCIE", "V100-16GB-SXM2"]:
        assert gpu in gpus.index


def test_guide_errors_are_corrected(gpus):
    # The seed guide claimed MIG on the RTX A5000 and 61 TFLOPS FP32 for the RTX 4090.
    assert not gpus.loc["RTX-A5000", "mig"]
    assert gpus.loc["RTX-4090", "fp32_tflops"] == pytest.approx(82.6)


@pytest.mark.parametrize("gpu,memory_gb,tdp_watts,fp32,cc", [
    # NVIDIA datasheets: A100 80GB PCIe (2021), RTX A5000, RTX 3060 product page, V100 SXM2, H100 SXM5.
    ("A100-80GB-PCIE", 80, 300, 19.5, 8.0),
    ("RTX-A5000", 24, 230, 27.8, 8.6),
    ("RTX-3060-12GB", 12, 170, 12.74, 8.6),
    ("V100-16GB-SXM2", 16, 300, 15.7, 7.0),
    ("H100-SXM", 80, 700, 67, 9.0),
])
def test_datasheet_values(gpus, gpu, memory_gb, tdp_watts, fp32, cc):
    row = gpus.loc[gpu]
    assert (row.memory_gb, row.tdp_watts, row.compute_capability) == (memory_gb, tdp_watts, cc)
    assert row.fp32_tflops == pytest.approx(fp32)


def test_a100_dense_fp16_tensor_is_312_tflops(gpus):
    assert gpus.loc["A100-80GB-PCIE", "fp16_tensor_tflops"] == 312


def test_every_row_names_its_source(gpus):
    # Card prices, dates and their exceptions are checked row by row in test_catalog_data.py.
    assert (gpus["source"].str.len() > 0).all()
    assert (catalog.load_cards()["source"].str.len() > 0).all()


def test_every_snapshot_accelerator_is_in_the_catalog_or_flagged(gpus):
    snap = load_snapshot()
    known = snap[snap["gpu_known"]]
    assert set(known["gpu"]) <= set(gpus.index)
    assert (snap.loc[~snap["gpu_known"], "note"].str.contains("unknown accelerator")).all()


def test_guide_price_points_stay_in_their_currency():
    cards = catalog.load_cards()
    assert (cards.loc["rtx-3060-12gb", "price"], cards.loc["rtx-3060-12gb", "currency"]) == (2500, "CNY")


def test_a_card_without_a_sourced_price_loads_as_nan_and_says_why():
    # The seed's RTX A5000 price was a point chosen inside the guide's range ¥10,000-30,000: no source.
    cards = catalog.load_cards()
    assert math.isnan(cards.loc["rtx-a5000", "price"])
    assert cards.loc["rtx-a5000", "note"].startswith("price left empty:")


@pytest.mark.parametrize("name,expected", [
    ("A100-80GB-PCIE", "A100-80GB-PCIE"),
    ("a100-80gb-pcie", "A100-80GB-PCIE"),
    ("NVIDIA A100 80GB PCIe", "A100-80GB-PCIE"),
    ("NVIDIA GeForce RTX 3060", "RTX-3060-12GB"),
    ("Tesla T4", "T4"),
    ("A100", None),          # a family of three variants: ambiguous as a single GPU
    ("A100-80GB-PCI", None),
])
def test_resolve_gpu(name, expected):
    assert catalog.resolve_gpu(name) == expected


def test_family_matches_every_variant():
    assert set(catalog.match_gpus("A100-80GB")) == {"A100-80GB-PCIE", "A100-80GB-SXM"}
    assert set(catalog.match_gpus("V100")) == {"V100-16GB-SXM2", "V100-16GB-PCIE", "V100-32GB-SXM2"}
    assert catalog.match_gpus("RTX-A5000") == ("RTX-A5000",)


def test_onprem_offers_are_capex_of_card_plus_host():
    cards = catalog.load_cards()
    offers = catalog.onprem_offers(["rtx-5090"])
    row = offers.iloc[0]
    expected = cards.loc["rtx-5090", "price"] + cards.loc["rtx-5090", "host_cost_per_card"]
    assert row.upfront_price == expected == 1999 + 750
    assert row.purchase_option == "purchase" and row.gpu == "RTX-5090"
    assert math.isclose(row.gpu_memory_gb, 32)


def test_catalog_numbers_read_empty_cells_as_unknown_and_refuse_text_naming_the_column():
    import pandas as pd

    from planner.catalog.gpus import _numeric

    read = _numeric(pd.Series(["300", " 12.5 ", "", "1e3"], name="tdp_w", index=[4, 5, 6, 7]))
    assert read.dtype == float and list(read.index) == [4, 5, 6, 7] and read.name == "tdp_w"
    assert read[4] == 300.0 and read[5] == 12.5 and math.isnan(read[6]) and read[7] == 1000.0
    with pytest.raises(ValueError, match="column 'tdp_w': '300 W' is not a number"):
        _numeric(pd.Series(["300 W"], name="tdp_w"))
    with pytest.raises(ValueError, match="column 'tdp_w': '1_000' is not a number"):   # float() would read 1000
        _numeric(pd.Series(["1_000"], name="tdp_w"))
    # a row cut short: csv.DictReader gives None for its missing cells, a text frame NaN; both unknown
    short = _numeric(pd.DataFrame([{"tdp_w": "75"}, {"tdp_w": None}], dtype=str)["tdp_w"])
    assert short[0] == 75.0 and math.isnan(short[1])
