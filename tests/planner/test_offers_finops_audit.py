"""Findings of a FinOps audit of `fleetplan offers` (2026-12, at 007245e): --max-price's warnings said "compares USD"
under --currency EUR, where the cap is in EUR; `--provider aws --region eastus` printed "0 offers" without a word
that eastus is an Azure region; converted prices carried float noise into CSV and JSON (20.201028800000003); and
`--gpu V710 --limit 2` was titled "the cheapest 2 of 35 offers" though no V710 offer has a per-GPU price.

Facts used, read from the packaged snapshot's own rows (pricing_adapters/snapshots/*.csv, by the csv module here):
eastus is in azure.csv only and us-east-1 in aws.csv only; the 35 V710 rows all have an empty gpu_count; azure
eastus has 72 rows, 33 of them with an empty gpu_count; the rows of eastus and us-east-1 with gpu_memory_gb ≥ 80 and
an empty gpu_count are 27; aws p4d.24xlarge on demand (8 GPUs) is 21.957642 USD an hour in us-east-1 and 21.95764
in us-east-2; azure eastus2 Standard_NCC40ads_H100_v5 spot is 1.745 USD for 1 GPU. By hand, at --fx USD=0.92:
21.95764 × 0.92 = 20.2010288 EUR, to six decimals 20.201029, and per GPU 20.2010288 / 8 = 2.5251286, 2.525129;
1.745 × 0.92 = 1.6054 EUR. The card rtx-3060-12gb is priced in CNY (planner/data/onprem_cards.csv).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app

SNAPSHOTS = Path(__file__).resolve().parents[2] / "pricing_adapters" / "snapshots"


def snapshot_rows() -> list[dict]:
    return [row for name in ("aws.csv", "azure.csv") for row in csv.DictReader((SNAPSHOTS / name).open(newline=""))]


def run(*args: str):
    result = CliRunner().invoke(app, ["offers", *args])
    assert result.exit_code == 0, result.output
    return result


def said(result) -> str:
    return " ".join(result.stderr.split())


def title(result) -> str:
    return result.stdout.splitlines()[0].strip()


# --- 1. --max-price's warnings name the currency the cap is in --------------------------------------------

def test_max_price_in_eur_says_it_compares_eur_per_gpu_hour_for_the_offers_with_no_gpu_count():
    uncounted = [r for r in snapshot_rows() if r["region"] in ("eastus", "us-east-1") and r["gpu_memory_gb"]
                 and float(r["gpu_memory_gb"]) >= 80 and not r["gpu_count"]]
    assert len(uncounted) == 27
    text = said(run("--min-memory", "80", "--region", "eastus", "--region", "us-east-1", "--currency", "EUR",
                    "--fx", "USD=0.92", "--max-price", "3"))
    assert "warning: 27 offers with an unknown gpu_count left out (" in text
    assert "--max-price compares EUR per GPU-hour" in text and "compares USD" not in text


def test_max_price_in_usd_still_says_usd():
    text = said(run("--min-memory", "80", "--region", "eastus", "--max-price", "3"))
    assert "--max-price compares USD per GPU-hour" in text


def test_max_price_in_eur_says_it_compares_eur_for_a_card_priced_in_cny_with_no_rate():
    text = said(run("--provider", "onprem", "--currency", "EUR", "--fx", "USD=0.92", "--max-price", "100"))
    assert ("rtx-3060-12gb priced in CNY left out: --max-price compares EUR per GPU-hour and there is no rate for "
            "CNY; pass --fx CNY=<USD per 1 CNY>") in text


# --- 2. a region of another provider than the one asked for -----------------------------------------------

def test_the_regions_are_each_of_one_provider_in_the_snapshot():
    owners = {}
    for r in snapshot_rows():
        owners.setdefault(r["region"], set()).add(r["provider"])
    assert owners["eastus"] == {"azure"} and owners["us-east-1"] == {"aws"}


@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
def test_aws_in_eastus_says_eastus_is_an_azure_region_and_matches_nothing(fmt):
    result = run("--provider", "aws", "--region", "eastus", "--format", fmt)
    assert ("warning: no offer of --provider aws is in --region eastus: eastus is an Azure region, so the two "
            "filters together match no offer") in said(result)
    if fmt == "csv":
        assert len(result.stdout.splitlines()) == 1   # the header only, as before
    elif fmt == "json":
        assert json.loads(result.stdout) == []
    else:
        assert "0 offers (USD)" in result.stdout


def test_one_region_of_another_provider_beside_one_of_its_own_is_named_with_both_providers():
    result = run("--provider", "azure", "--region", "eastus", "--region", "us-east-1", "--format", "json")
    assert {r["region"] for r in json.loads(result.stdout)} == {"eastus"}
    assert ("warning: no offer of --provider azure is in --region us-east-1: eastus is an Azure region and us-east-1 "
            "is an AWS region, so only the offers in eastus are shown") in said(result)


def test_with_onprem_given_too_the_warning_says_the_cards_are_still_shown():
    result = run("--provider", "aws", "--provider", "onprem", "--region", "eastus", "--format", "json")
    assert {r["provider"] for r in json.loads(result.stdout)} == {"onprem"}
    assert ("eastus is an Azure region, so the two filters together match no cloud offer (on-prem cards pass any "
            "--region)") in said(result)


@pytest.mark.parametrize("args", [["--provider", "aws", "--region", "us-east-1"], ["--region", "eastus"],
                                  ["--provider", "onprem", "--region", "eastus"]])
def test_no_such_warning_where_each_region_has_offers_of_a_provider_given(args):
    assert "no offer of --provider" not in said(run(*args, "--format", "csv"))


# --- 3. converted prices without float noise, USD ones as they are -----------------------------------------

def test_converted_csv_prices_are_the_products_to_six_decimals():
    rows = list(csv.DictReader(io.StringIO(run("--currency", "EUR", "--fx", "USD=0.92", "--format", "csv").stdout)))
    (p4d,) = [r for r in rows if r["sku"] == "p4d.24xlarge" and r["region"] == "us-east-2"
              and r["purchase_option"] == "on_demand"]
    assert (p4d["eur_per_hour"], p4d["eur_per_gpu_hour"]) == ("20.201029", "2.525129")
    (h100,) = [r for r in rows if r["sku"] == "Standard_NCC40ads_H100_v5" and r["region"] == "eastus2"
               and r["purchase_option"] == "spot"]
    assert (h100["eur_per_hour"], h100["eur_per_gpu_hour"]) == ("1.6054", "1.6054")
    decimals = [len(cell.partition(".")[2]) for r in rows for cell in (r["eur_per_hour"], r["eur_per_gpu_hour"])]
    assert max(decimals) <= 6


def test_converted_json_prices_are_rounded_too():
    rows = json.loads(run("--gpu", "A100-40GB-SXM", "--provider", "aws", "--region", "us-east-2", "--currency", "EUR",
                          "--fx", "USD=0.92", "--format", "json").stdout)
    (p4d,) = [r for r in rows if r["sku"] == "p4d.24xlarge" and r["purchase_option"] == "on_demand"]
    assert (p4d["eur_per_hour"], p4d["eur_per_gpu_hour"]) == (20.201029, 2.525129)


def test_usd_prices_are_not_rounded():
    rows = list(csv.DictReader(io.StringIO(run("--gpu", "A100-40GB-SXM", "--provider", "aws", "--region", "us-east-1",
                                               "--format", "csv").stdout)))
    (p4d,) = [r for r in rows if r["sku"] == "p4d.24xlarge" and r["purchase_option"] == "on_demand"]
    # us-east-1's p4d is 21.957642 USD an hour: per GPU 21.957642 / 8 = 2.74470525, its eight decimals kept
    assert (p4d["usd_per_hour"], p4d["usd_per_gpu_hour"]) == ("21.957642", "2.74470525")


# --- 4. the title says when the rows shown have no per-GPU price --------------------------------------------

def test_v710_rows_have_no_gpu_count():
    v710 = [r for r in snapshot_rows() if r["gpu"] == "V710"]
    assert len(v710) == 35 and all(not r["gpu_count"] for r in v710)


def test_a_limit_of_offers_with_no_per_gpu_price_is_not_called_the_cheapest():
    assert title(run("--gpu", "V710", "--limit", "2")) == "2 of 35 offers, none with a per-GPU price (USD)"


def test_a_limit_reaching_past_the_priced_offers_says_how_many_are_priced():
    eastus = [r for r in snapshot_rows() if r["provider"] == "azure" and r["region"] == "eastus"]
    unpriced = sum(not r["gpu_count"] for r in eastus)
    assert (len(eastus), unpriced) == (72, 33)
    result = run("--provider", "azure", "--region", "eastus", "--limit", "45")
    assert title(result) == ("45 of 72 offers: the 39 with a per-GPU price, cheapest first, then 6 of the 33 without "
                             "one (USD)")


def test_a_limit_within_the_priced_offers_is_still_the_cheapest():
    assert title(run("--provider", "azure", "--region", "eastus", "--limit", "3")) == "the cheapest 3 of 72 offers (USD)"
    assert title(run("--gpu", "V710")) == "35 offers (USD)"
