"""The Prices page's `note` column says a cloud offer's facts in a budget holder's words: it showed the notes the
packaged snapshot's builder and the price refresh write, in the offers table's field names and a repository file's
path ("gpu_count unknown", "gpu_memory_gb unknown", "gpu_count from Azure docs
(pricing_adapters/data/azure_gpu_counts.csv)"). The offers table itself keeps them (the CLI prints them so).

The engine's notes are read from the packaged snapshot's CSVs and made by the adapters from their recorded answers
(tests/fixtures/azure); the words are worked out by hand from what each note means in the code that writes it
(scripts/build_snapshot.py, pricing_adapters/aws.py, pricing_adapters/azure.py).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import tables

ROOT = Path(__file__).resolve().parents[2]
PRICES_PAGE = "fleetplan_dashboard/pages/prices.py"
SNAPSHOTS = ROOT / "pricing_adapters" / "snapshots"
# what the page must not show a budget holder: the scenario's field paths, the offers table's fields, a repository file
FIELD_TEXTS = ("card_overrides", "custom_cards", "gpu_count", "gpu_memory_gb", "pricing_adapters/")

# (provider, region, sku, purchase option): the packaged snapshot's note, and the page's words for it
SNAPSHOT_ROWS = {
    ("aws", "us-east-1", "dl1.24xlarge", "on_demand"): ("gpu_count unknown", "GPUs per instance not known"),
    ("aws", "af-south-1", "inf1.24xlarge", "on_demand"): ("gpu_memory_gb unknown", "GPU memory not known"),
    ("aws", "us-east-1", "g6f.large", "on_demand"): ("fractional GPU: 0.125 of one per unit",
                                                     "0.125 of a GPU per instance"),
    ("aws", "us-east-1", "p5.48xlarge", "spot"): (
        "lowest of 4 zone quotes; dropped 2 equal to on-demand, 1 Local Zone | spot time unknown",
        "lowest of 4 zone quotes; dropped 2 equal to on-demand, 1 Local Zone | date of the spot price not known"),
    ("azure", "eastus", "Standard_ND96asr_A100_v4", "on_demand"): (
        "gpu_count from Azure docs (pricing_adapters/data/azure_gpu_counts.csv) | family unknown; GPU from "
        "SkyPilot-style name 'A100' and size series",
        "GPU count from Azure's documentation of its sizes | no size family given; GPU (A100) told from the "
        "accelerator's name and the size's series"),
    ("azure", "australiaeast", "Standard_NV6ads_A10_v5", "on_demand"): (
        "fractional GPU: 1/6 of one per unit | fractional A10: vCPUs/36 = 6/36 (the reference's 0.167 is rounded)",
        "1/6 of a GPU per instance | one A10 per 36 vCPUs: 6/36 of one (the source data's 0.167 is rounded)"),
    ("azure", "australiaeast", "Standard_NV18ads_A10_v5", "on_demand"): (
        "fractional GPU: 1/2 of one per unit | fractional A10: vCPUs/36 = 18/36 (as the reference)",
        "1/2 of a GPU per instance | one A10 per 36 vCPUs: 18/36 of one (as the source data says)"),
    ("azure", "centralus", "Standard_NG32adms_V620_v1", "on_demand"): (
        "gpu_count unknown | GPU partition; fraction unknown | gpu_memory_gb unknown | Retail Prices armSkuName "
        "'Standard_NG32adms_V620'",
        "GPUs per instance not known | a share of one GPU, how large not known | GPU memory not known | named "
        "'Standard_NG32adms_V620' in Azure's price list"),
    ("azure", "eastasia", "Standard_ND40s_v2", "on_demand"): (
        "unknown accelerator: Standard_ND40s_v2 (no accelerator name in source) | gpu_count unknown",
        "accelerator the planner does not know: Standard_ND40s_v2 (the source data names none) | GPUs per instance "
        "not known"),
}


def _snapshot_notes() -> dict[tuple, str]:
    notes = {}
    for provider in ("aws", "azure"):
        with (SNAPSHOTS / f"{provider}.csv").open(newline="", encoding="utf-8") as f:
            notes |= {(r["provider"], r["region"], r["sku"], r["purchase_option"]): r["note"] for r in csv.DictReader(f)}
    return notes


def test_the_packaged_snapshot_notes_these_offers_by_field_names():
    notes = _snapshot_notes()
    assert {row: notes[row] for row in SNAPSHOT_ROWS} == {row: engine for row, (engine, _) in SNAPSHOT_ROWS.items()}


def test_the_prices_page_says_the_cloud_offers_notes_in_words():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.selectbox(key="base").set_value("file:entry.yaml").run()
    at.switch_page(PRICES_PAGE).run()
    at.toggle(key="prices_in_use").set_value(False).run()   # every offer, not only entry.yaml's two regions
    # every offer, not only those its workload can use (an unknown GPU count or memory is none it can)
    at.selectbox(key="prices_workload").set_value("(none: raw USD per GPU-hour)").run()
    assert not at.exception, [e.value for e in at.exception]
    table = at.dataframe[0].value.set_index(["provider", "region", "sku", "purchase_option"])
    assert {row: table.loc[row, "note"] for row in SNAPSHOT_ROWS} == {row: w for row, (_, w) in SNAPSHOT_ROWS.items()}
    # no note on the page, cloud or card, names a field or a file; the warnings neither
    notes = table["note"].dropna().astype(str)
    assert len(notes[notes != ""]) > 816   # the snapshot's 816 cloud notes (of 1,897 offers), and the cards'
    assert not [n for n in set(notes) if any(t in n for t in FIELD_TEXTS)]
    assert not [w.value for w in at.warning if any(t in w.value.replace("\\", "") for t in FIELD_TEXTS)]


@pytest.mark.parametrize(("engine_note", "words"), [
    # pricing_adapters/aws.py: a reservation's terms, a spot quote's time, DescribeInstanceTypes' devices
    ("Partial Upfront/convertible", "Partial Upfront, convertible reserved instance"),
    ("lowest of 3 zone quotes | spot price of 2026-12-05T10:20:30+00:00",
     "lowest of 3 zone quotes | spot price of 2026-12-05 10:20 UTC"),
    ("unknown accelerator: Habana Gaudi9 (GpuInfo) | gpu_count unknown: GpuInfo reports no device count",
     "accelerator the planner does not know: Habana Gaudi9 (a GPU) | GPUs per instance not known: AWS gives no count"),
    ("unknown accelerator: AWS Inferentia9 (NeuronInfo)",
     "accelerator the planner does not know: AWS Inferentia9 (an AWS Neuron chip)"),
    ("2 accelerator kinds in GpuInfo; the first (A10G) is used", "2 kinds of accelerator; the facts are the first's (A10G)"),
    ("fractional GPU: 0.125 of one per unit (2861 of the 22888 MiB of a whole L4; the API gave no Count and no "
     "GpuPartitionSize)",
     "0.125 of a GPU per instance (its 2861 MiB of a whole L4's 22888 MiB; AWS gives no count and no share)"),
    # pricing_adapters/azure.py: the size facts, a Retail item's price and key
    ("family 'standardNDFooFamily' not mapped; GPU from the packaged size table",
     "GPU from the planner's own list of Azure sizes (Azure's family 'standardNDFooFamily' is not one it knows)"),
    ("gpu_count from the packaged size table", "GPU count from the planner's own list of Azure sizes"),
    ("gpu_count from SkyPilot AZURE_MISSING_GPU_COUNT (no GPUs capability)",
     "GPU count from SkyPilot's list of Azure families (Azure gives none for this size)"),
    ("unknown accelerator: Standard_NC8ads_X9_v9 | size not in the GPU size facts; accelerator unknown | gpu_count unknown",
     "accelerator the planner does not know: Standard_NC8ads_X9_v9 | a size the planner has no facts of; accelerator "
     "not known | GPUs per instance not known"),
    ("restricted in 2 zones 1,3: NotAvailableForSubscription | restricted in eastus: QuotaId",
     "restricted in 2 zones 1,3: not available to the subscription | restricted in eastus: not offered to this kind of "
     "subscription"),
    ("Retail Prices armSkuName is 'Standard_NC6s_v3 ' | retailPrice per 100 Hours | effectiveStartDate 2023-04-01",
     "named 'Standard_NC6s_v3 ' in Azure's price list | Azure's price is per 100 Hours | price in force since "
     "2023-04-01"),
    ("GPU partition: reference count 1 replaced by the Azure docs share",
     "a share of one GPU: the source data's count of 1 replaced by Azure's documented share"),
    # notes the page does not know (an offers CSV's own), a part it knows inside a sentence of the user's, none
    ("quoted by our reseller | spot time unknown", "quoted by our reseller | date of the spot price not known"),
    ("our gpu_count unknown until the quote", "our gpu_count unknown until the quote"),
    ("", ""),
    (None, None),
])
def test_an_offers_note_is_said_in_words(engine_note, words):
    assert tables.offer_note_words(engine_note) == words


def test_the_notes_the_azure_adapter_writes_from_its_recorded_answers_are_said_in_words():
    from pricing_adapters import azure

    skus = {d["name"]: d for d in json.loads((ROOT / "tests/fixtures/azure/resource_skus_eastus_eastus2.json").read_text())}

    def words(size: str) -> str:
        facts = azure.arm_size_facts(skus[size], "eastus", {}, azure.load_gpu_counts())
        return tables.offer_note_words(" | ".join(facts["notes"]))

    assert words("Standard_ND96isr_MI300X_v5") == "GPU count from Azure's documentation of its sizes"
    assert words("Standard_NV6ads_A10_v5") == "one A10 per 36 vCPUs: 6/36 = 1/6 of one (Azure reports 1 GPU)"
    assert words("Standard_NG32adms_V620_v1") == "a share of one GPU, how large not known | GPU memory not known"
    assert words("Standard_ND96asr_v4") == "restricted in eastus: not available to the subscription"
    # a one-year reservation's total of 3,478 USD (tests/fixtures/azure/retail_items_examples.json), over 8,760 hours
    items = json.loads((ROOT / "tests/fixtures/azure/retail_items_examples.json").read_text())
    (note,) = [n for item in items if item.get("type") == "Reservation" for _, _, n in azure.classify_item(item)[0]]
    assert tables.offer_note_words(note) == "reservation: 3478 for a 1 Year term, over its 8,760 hours"


def test_the_notes_the_aws_adapter_writes_for_a_gpu_slice_are_said_in_words():
    from pricing_adapters import aws

    # g6f.large: 2,861 MiB of an L4's 22,888 is 1/8 of one, whatever Count says (aws.memory_share)
    facts = aws.accelerator_facts({"InstanceType": "g6f.large", "GpuInfo": {"Gpus": [
        {"Name": "L4", "Manufacturer": "NVIDIA", "Count": 1, "MemoryInfo": {"SizeInMiB": 2861}}]}})
    assert tables.offer_note_words(facts["note"]) == ("0.125 of a GPU per instance (its 2861 MiB of a whole L4's 22888 "
                                                      "MiB; AWS gives a count of 1 and no share)")
