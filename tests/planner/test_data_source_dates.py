"""Every row of the packaged fact tables without a date column dates its source, or says it could not.

gpus.csv (GPU datasheet figures), cuda_compute.csv (compute-capability range per CUDA release) and
azure_gpu_counts.csv (GPU counts from Azure's size pages) have no date column: their readers (the build
script checks azure_gpu_counts.csv's columns exactly) keep the date inside the `source` text, as an ISO date
(YYYY-MM or YYYY-MM-DD, as precise as the dated document says), or the words "date not found". A new row
with neither, a date that is no calendar date, or one in the future fails here.

Also: the GPUs whose speed estimates docs/speed-model.md lists as extrapolated are the ones the code marks so.
"""

import csv
import datetime as dt
import re
from pathlib import Path

import pytest

from planner.catalog import speeds
from planner.catalog.gpus import load_gpus

ROOT = Path(__file__).resolve().parents[2]
UNDATED_FILES = ("planner/data/gpus.csv", "planner/data/cuda_compute.csv", "pricing_adapters/data/azure_gpu_counts.csv")
NOT_FOUND = "date not found"
# an ISO date of month or day precision; a bare year is not matched (sources also hold "4096 MiB", "2,039 GB/s")
ISO_DATE = re.compile(r"(?<![\w.-])(\d{4})-(\d{2})(?:-(\d{2}))?(?![\w-]|\.\d)")


def _rows(rel: str) -> list[dict[str, str]]:
    with (ROOT / rel).open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def source_dates(source: str) -> list[dt.date]:
    """The ISO dates written in a source text (the first of the month for a month); ValueError for one that is no
    calendar date."""
    return [dt.date(int(y), int(m), int(d or 1)) for y, m, d in ISO_DATE.findall(source)]


def undated(source: str, today: dt.date) -> str | None:
    """Why a source text fails the rule, or None."""
    try:
        dates = source_dates(source)
    except ValueError as err:
        return f"a date that is no calendar date ({err})"
    future = [d for d in dates if d > today]
    if future:
        return f"a date in the future: {future[0]}"
    if not dates and NOT_FOUND not in source:
        return f"no ISO date (YYYY-MM or YYYY-MM-DD) and no '{NOT_FOUND}'"
    return None


@pytest.mark.parametrize("rel", UNDATED_FILES)
def test_every_row_dates_its_source_or_says_no_date_was_found(rel):
    today = dt.datetime.now(dt.timezone.utc).date()
    rows = _rows(rel)
    assert rows
    bad = {next(iter(row.values())): why for row in rows if (why := undated(row["source"], today))}
    assert not bad, f"{rel}: rows whose source is not dated: {bad}"


@pytest.mark.parametrize(("source", "today", "why"), [
    ("NVIDIA T4 datasheet (2019)", dt.date(2026, 12, 7), "no ISO date"),              # a bare year is no date
    ("AWS DescribeInstanceTypes (4096 MiB per GPU)", dt.date(2026, 12, 7), "no ISO date"),
    ("Azure docs: X (ms.date 2024-13-01)", dt.date(2026, 12, 7), "no calendar date"),
    ("Azure docs: X (ms.date 2024-02-30)", dt.date(2026, 12, 7), "no calendar date"),
    ("release notes dated 2027-01", dt.date(2026, 12, 7), "in the future"),
    ("notes dated 2026-12-08", dt.date(2026, 12, 7), "in the future"),
])
def test_a_source_without_a_real_past_date_is_caught(source, today, why):
    assert why in undated(source, today)


@pytest.mark.parametrize("source", [
    "CUDA Toolkit release notes; released 2025-01 (archive: 'CUDA Toolkit 12.8.0 (January 2025)')",
    "Azure docs: ND H100 v5 series (ms.date 2025-09-02 in MicrosoftDocs/azure-compute-docs@02773904)",
    "NVIDIA L4 datasheet (cited as 2023; date not found)",
    "notes dated 2026-12",                                        # this month is not the future
])
def test_a_dated_source_or_one_saying_no_date_was_found_passes(source):
    assert undated(source, dt.date(2026, 12, 7)) is None


def test_a_source_can_hold_several_dates_and_document_numbers():
    text = "product brief PB-10137-001_v03 (September 2020: dated 2020-09); keynote 2025-01-06; RN-06722-001 _v11.1"
    assert source_dates(text) == [dt.date(2020, 9, 1), dt.date(2025, 1, 6)]


# docs/speed-model.md, "Estimates for GPUs the benchmark does not cover": the GPUs with a figure outside the range
# of the eleven measured GPUs (memory bandwidth 600-3,350 GB/s, fp16 tensor 71-989.4 TFLOPS, read off gpus.csv).
# A change to gpus.csv or measured_speed.csv that moves a GPU in or out fails here: update that list with it.
EXTRAPOLATED_IN_DOCS = {
    "L4", "RTX-3060-12GB", "RTX-4060-TI-16GB", "H100-NVL", "H200-SXM", "H200-NVL", "K80", "MI25", "V620",   # bandwidth
    "T4", "B200", "GB200", "MI300X", "INFERENTIA",                                                      # both
}


def test_the_gpus_speed_model_md_lists_as_extrapolated_are_those_the_code_marks():
    marked = {gpu for gpu in load_gpus().index
              if speeds.EXTRAPOLATED in speeds.gpu_speed("measured", gpu).detail}
    assert marked == EXTRAPOLATED_IN_DOCS
    doc = (ROOT / "docs" / "speed-model.md").read_text(encoding="utf-8")
    for name in ("L4 (300 GB/s)", "H100 NVL (3,900)", "H200 SXM and H200 NVL (4,800)", "T4 (65 TFLOPS, 320 GB/s)",
                 "B200 (2,250, 8,000)", "GB200 (2,500, 8,000)", "Inferentia (64, 50)", "K80 (240)"):
        assert name in doc
