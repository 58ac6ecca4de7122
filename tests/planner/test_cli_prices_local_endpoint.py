"""`fleetplan prices refresh --provider azure` end to end against a local Retail Prices endpoint.

The recorded pages (tests/fixtures/azure/) are served on 127.0.0.1 with their NextPageLink pointed at
the same server, through FLEETPLAN_AZURE_PRICES_URL — the real httpx client, paging and classification.
They hold 4 of eastus's sizes, 10 offers, where the packaged snapshot holds 72 offers in eastus: a first refresh
from them lacks most of the offers in force, and is saved only with --accept-missing-offers.
"""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "azure"
PAGES = {None: "retail_eastus_page1.json", "1000": "retail_eastus_page2.json", "2000": "retail_eastus_page3.json"}
UPSTREAM = "https://prices.azure.com:443/api/retail/prices"


@pytest.fixture
def retail_endpoint(retail_prices_server):
    requests = []

    def respond(query: dict, url: str) -> bytes:
        requests.append(query)
        return (FIX / PAGES[query.get("$skip", [None])[0]]).read_text().replace(UPSTREAM, url).encode()

    with retail_prices_server(respond) as url:
        yield url, requests


def test_refresh_from_a_local_endpoint_then_show(tmp_path, monkeypatch, retail_endpoint):
    url, requests = retail_endpoint
    monkeypatch.setenv("FLEETPLAN_AZURE_PRICES_URL", url)
    store = tmp_path / "s.sqlite"
    runner = CliRunner()
    result = runner.invoke(app, ["prices", "refresh", "--provider", "azure", "--region", "eastus", "--store", str(store),
                                 "--accept-missing-offers"])
    assert result.exit_code == 0, result.output
    assert len(requests) == 3  # three pages followed through NextPageLink
    assert "no AZURE_SUBSCRIPTION_ID" in result.stderr  # GPU facts from the packaged size table
    shown = runner.invoke(app, ["prices", "show", "--gpu", "A100-80GB-PCIE", "--provider", "azure",
                                "--store", str(store), "--format", "json"])
    rows = {(r["sku"], r["purchase_option"]): r for r in json.loads(shown.stdout) if r["region"] == "eastus"}
    # reference data: Standard_NC24ads_A100_v4 in eastus at 3.673 USD/h, 1 × A100 80 GB
    on_demand = rows[("Standard_NC24ads_A100_v4", "on_demand")]
    assert on_demand["hourly_price"] == 3.673 and on_demand["gpu_count"] == 1
    # a 1-year reservation listed at 21,024 USD for the term: 21024 / 8760 h = 2.4 USD/h
    assert rows[("Standard_NC24ads_A100_v4", "reserved_1y")]["hourly_price"] == pytest.approx(2.4)
    assert "store snapshot #1" in shown.stderr



def test_a_password_in_the_prices_url_reaches_neither_the_store_nor_a_plan(tmp_path, monkeypatch, retail_endpoint,
                                                                            store_a100_scenario):
    # hostile-input audit: FLEETPLAN_AZURE_PRICES_URL=http://user:pass@… was saved in every offer's source, which
    # plan.json, summary.md and the workbook's prices-used sheet then showed
    url, _ = retail_endpoint
    monkeypatch.setenv("FLEETPLAN_AZURE_PRICES_URL", url.replace("http://", "http://user:s3cret@") + "?sig=abc")
    monkeypatch.delenv("AZURE_SUBSCRIPTION_ID", raising=False)
    store = tmp_path / "s.sqlite"
    runner = CliRunner()
    result = runner.invoke(app, ["prices", "refresh", "--provider", "azure", "--region", "eastus", "--store", str(store),
                                 "--accept-missing-offers"])
    assert result.exit_code == 0, result.output
    assert b"s3cret" not in store.read_bytes() and b"sig=abc" not in store.read_bytes()
    planned = runner.invoke(app, ["plan", str(store_a100_scenario), "--store", str(store), "--format", "json"])
    assert planned.exit_code == 0, planned.output
    assert "s3cret" not in planned.output and "sig=abc" not in planned.output
    port = url.split(":")[2].split("/")[0]
    assert {row["source"] for row in json.loads(planned.stdout)["prices_used"]} == {
        f"Azure Retail Prices API (http://***@127.0.0.1:{port}/api/retail/prices?sig=***, api-version "
        "2023-01-01-preview); GPU facts: packaged size table"}

@pytest.fixture
def scaled_endpoint(retail_prices_server, monkeypatch):
    """The recorded eastus pages with each item's retailPrice and unitPrice times `scale["factor"]` (its
    savingsPlan rates left alone, as the hostile-input audit's server left them), then passed to
    `scale["edit"]` (page number, page) when set, set as the prices URL."""
    scale = {"factor": 1.0, "edit": None}

    def respond(query: dict, url: str) -> bytes:
        skip = query.get("$skip", [None])[0]
        page = json.loads((FIX / PAGES[skip]).read_text().replace(UPSTREAM, url))
        for item in page["Items"]:
            item["retailPrice"] = item["unitPrice"] = item["retailPrice"] * scale["factor"]
        if scale["edit"]:
            scale["edit"](list(PAGES).index(skip) + 1, page)
        return json.dumps(page).encode()

    with retail_prices_server(respond) as url:
        monkeypatch.setenv("FLEETPLAN_AZURE_PRICES_URL", url)
        monkeypatch.delenv("AZURE_SUBSCRIPTION_ID", raising=False)
        yield scale


def _refresh(store: Path, *extra: str):
    """`prices refresh` of eastus; the recorded pages' missing offers accepted (a first refresh lacks most of the
    packaged ones), so that only the price checks speak."""
    return CliRunner().invoke(app, ["prices", "refresh", "--provider", "azure", "--region", "eastus",
                                    "--store", str(store), "--accept-missing-offers", *extra])


def _nc24_on_demand(store: Path) -> list[float]:
    """The NC24ads A100 v4 eastus on-demand price of each snapshot in the store, oldest first."""
    from pricing_adapters.store import PriceStore

    s = PriceStore(store, create=False)
    return [s.offers(i.id).set_index("offer_id").at["azure:eastus:Standard_NC24ads_A100_v4:on_demand", "hourly_price"]
            for i in s.snapshots()]


def _refresh_held_to_missing_offers(store: Path, *extra: str):
    """`prices refresh` of eastus without --accept-missing-offers."""
    return CliRunner().invoke(app, ["prices", "refresh", "--provider", "azure", "--region", "eastus",
                                    "--store", str(store), *extra])


def test_a_feed_a_million_times_too_dear_is_refused_as_missing_offers_and_never_saved(tmp_path, scaled_endpoint):
    store = tmp_path / "s.sqlite"
    assert _refresh(store).exit_code == 0
    saved = store.read_bytes()
    scaled_endpoint["factor"] = 1e6
    # 10 offers in snapshot #1. Scaled, the 8 priced by their item's retailPrice are above 100,000 USD/h, no rented
    # offer's price (the cheapest, NC24ads A100 v4 spot at 0.444433, becomes 444,433): skipped as implausible, they
    # are missing from the refresh, which keeps only the 2 savings-plan rates the server left alone
    result = _refresh_held_to_missing_offers(store)
    assert result.exit_code == 1, result.output
    line = " ".join(result.stderr.split())
    assert line.startswith("refresh failed: offers missing: azure eastus: 8 of the 10 offers in force there (snapshot "
                           "#1) are missing from this refresh, which holds 2 offers: more than half of them (8 of 10, "
                           "3 instance types)")
    # the 8 missing are the 8 skipped for their prices: the refusal says so (it said "more likely a partial answer")
    assert ("; every offer missing was in the answer but skipped as an implausible price (above 100,000 USD an hour or "
            "below 0.0001 a unit-hour, say), so more likely a broken feed (a wrong unit, currency or scale) than a "
            "partial answer or instance types retired, and plans would lose those offers, so nothing was saved. To save "
            "the others all the same (an implausible price is never saved), refresh again with --accept-missing-offers. "
            "The store is unchanged") in line
    assert "more likely a partial answer" not in line
    # and what the refresh skipped, as a saved one tells it: the recorded pages' own 5, 1 each
    # (tests/fixtures/azure/README.md), and the 8
    assert line.endswith("skipped: 1 cloud_services, 1 devtest, 8 implausible_price, 1 non_gpu, 1 windows, "
                         "1 zero_or_negative_price")
    assert store.read_bytes() == saved
    # accepted, the prices above the bound are left out still: no flag saves 3,673,000 USD/h for an A100
    accepted = _refresh_held_to_missing_offers(store, "--accept-missing-offers", "--accept-price-jumps")
    assert accepted.exit_code == 0, accepted.output
    assert "8 implausible_price" in accepted.stderr and "saved snapshot #2 (azure, eastus, 2 offers" in accepted.stderr
    assert ("(8 of the 8 offers missing were skipped as implausible prices, above 100,000 USD an hour or below 0.0001 a "
            "unit-hour, say, and are not saved)") in " ".join(accepted.stderr.split())
    from pricing_adapters.store import PriceStore

    latest = PriceStore(store, create=False).offers(2)
    assert sorted(latest["purchase_option"]) == ["savings_plan_1y", "savings_plan_3y"]
    assert sorted(latest["hourly_price"]) == [1.4692, 2.5711]


def test_a_feed_a_million_times_too_cheap_is_said_skipped_for_its_prices_not_a_partial_answer(tmp_path, scaled_endpoint):
    # the review of 2026-12-07: prices below 0.0001 a unit-hour are skipped as the Azure items are read
    # (classify_item), not by the offers table's USD bound, and their offer ids were not kept: this refusal said
    # "more likely a partial answer" right above "skipped: 8 implausible_price"
    store = tmp_path / "s.sqlite"
    assert _refresh(store).exit_code == 0
    saved = store.read_bytes()
    scaled_endpoint["factor"] = 1e-6

    def two_on_demand_prices_left_alone(number: int, page: dict) -> None:   # so that the refresh is not empty
        for item in page["Items"]:
            if item["meterName"] in ("NV6ads A10 v5", "ND96asr v4"):
                item["retailPrice"] = item["unitPrice"] = {"NV6ads A10 v5": 0.454, "ND96asr v4": 27.197}[item["meterName"]]

    scaled_endpoint["edit"] = two_on_demand_prices_left_alone
    result = _refresh_held_to_missing_offers(store)
    assert result.exit_code == 1, result.output
    line = " ".join(result.stderr.split())
    # of the 10 offers of snapshot #1 the two on-demand ones left alone are kept. The other 8, each below 0.0001
    # USD/h (the dearest, ND96asr v4 spot, 2.99167 × 1e-6 = 0.000003; a year's reservation 21,024 × 1e-6 / 8,760 h
    # = 0.0000024), skipped: 6 items, the NC24ads A100 v4's on-demand one with its 2 savings-plan rates, and the
    # D14 item (1.0 × 1e-6: 7 implausible_price), which is no GPU size and so no offer missing. Both spot offers
    # gone while the ND96asr v4 is still offered: refused. Of the 8, the 2 savings plans went with their item (the
    # NC24ads's on-demand one, named), whatever their own rates: 6 skipped as implausible prices, 2 dropped with their
    # item
    assert line.startswith("refresh failed: offers missing: azure eastus: 8 of the 10 offers in force there (snapshot "
                           "#1) are missing from this refresh, which holds 2 offers: a purchase option gone whole from a "
                           "region that still offers instance types that had it: the 2 spot offers in eastus (2 "
                           "instance types)")
    assert ("; every offer missing was in the answer but skipped, 6 as implausible prices (above 100,000 USD an hour "
            "or below 0.0001 a unit-hour, say) and 2 dropped with their item (azure:eastus:Standard_NC24ads_A100_v4:"
            "on_demand), whose own price was skipped as zero, "
            "negative or implausible, so more likely a broken feed (a wrong unit, currency or scale) than a partial "
            "answer or instance types retired") in line
    assert "more likely a partial answer" not in line
    assert line.endswith("skipped: 1 cloud_services, 1 devtest, 7 implausible_price, 1 windows, "
                         "1 zero_or_negative_price")
    assert store.read_bytes() == saved


@pytest.mark.parametrize("usd_per_hour, offers, skipped", [
    (150_000.0, 10, "1 implausible_price, "),   # the audit's: the refresh failed whatever the flags
    (100_000.0, 11, ""),                        # the bound itself is a price
])
def test_one_new_size_priced_above_100000_usd_an_hour_is_skipped_and_the_rest_saved(tmp_path, scaled_endpoint,
                                                                                   usd_per_hour, offers, skipped):
    nc24_on_demand = json.loads((FIX / PAGES[None]).read_text())["Items"][0]

    def with_a_dear_new_size(number: int, page: dict) -> None:
        if number == 3:
            page["Items"].append({**nc24_on_demand, "armSkuName": "Standard_NC96ads_X200_v9",
                                  "skuName": "NC96ads X200 v9", "meterName": "NC96ads X200 v9",
                                  "retailPrice": usd_per_hour, "unitPrice": usd_per_hour, "savingsPlan": []})

    scaled_endpoint["edit"] = with_a_dear_new_size
    store = tmp_path / "s.sqlite"
    result = _refresh(store)
    assert result.exit_code == 0, result.output
    # the recorded pages' 10 offers, and the new size's on-demand offer within the bound
    assert f"saved snapshot #1 (azure, eastus, {offers} offers" in result.stderr
    # skipped by the recorded pages themselves: 1 each (tests/fixtures/azure/README.md)
    assert (f"skipped: 1 cloud_services, 1 devtest, {skipped}1 non_gpu, 1 windows, 1 zero_or_negative_price"
            in result.stderr)


def test_a_feed_ten_percent_dearer_is_saved_at_once(tmp_path, scaled_endpoint):
    store = tmp_path / "s.sqlite"
    assert _refresh(store).exit_code == 0
    scaled_endpoint["factor"] = 1.1
    result = _refresh(store)
    assert result.exit_code == 0, result.output
    assert "saved snapshot #2" in result.stderr and "price jumps" not in result.stderr
    assert _nc24_on_demand(store) == [3.673, pytest.approx(4.0403)]   # 3.673 × 1.1


def test_accept_price_jumps_saves_a_feed_a_thousand_times_dearer_and_says_so(tmp_path, scaled_endpoint):
    store = tmp_path / "s.sqlite"
    scaled_endpoint["factor"] = 1000.0
    # a first refresh is held against the packaged prices: 5 of its 10 offers are packaged (no reservation,
    # savings plan or low priority there), each 1000 × its price
    refused = _refresh(store)
    assert refused.exit_code == 1
    assert "the 5 offers also in the packaged snapshot moved by a median ratio of ×1,000 (5 of 5" in refused.stderr
    # refused, it still tells what it skipped, as a saved refresh does: the recorded pages' own 5 items, 1 each
    # (tests/fixtures/azure/README.md); none for its price (3,673 USD/h lies within USD's bound)
    assert " ".join(refused.stderr.split()).endswith(
        "skipped: 1 cloud_services, 1 devtest, 1 non_gpu, 1 windows, 1 zero_or_negative_price")
    result = _refresh(store, "--accept-price-jumps")
    assert result.exit_code == 0, result.output
    assert "warning: price jumps accepted (--accept-price-jumps): azure eastus:" in " ".join(result.stderr.split())
    assert "saved snapshot #1" in result.stderr and _nc24_on_demand(store) == [pytest.approx(3673.0)]


def test_a_later_dated_second_item_at_a_thousandth_of_the_price_is_refused(tmp_path, scaled_endpoint):
    # the price-adapters audit (2026-12-05, item 2): a second primary-meter item for the NC24ads A100 v4 with a
    # newer effectiveStartDate at 3.673 / 1000 won the duplicate ranking and was saved as its on-demand price,
    # counted only as "1 duplicate". The newer date rightly wins a real repricing; the jump of its one offer is
    # what gives this one away
    store = tmp_path / "s.sqlite"
    assert _refresh(store).exit_code == 0
    saved = store.read_bytes()

    def later_and_cheaper(number: int, page: dict) -> None:
        if number == 1:
            item = {**page["Items"][0], "retailPrice": 0.003673, "unitPrice": 0.003673,
                    "effectiveStartDate": "2026-07-01T00:00:00Z", "meterId": "22222222-0000-0000-0000-000000000001"}
            item.pop("savingsPlan")
            page["Items"].append(item)

    scaled_endpoint["edit"] = later_and_cheaper
    result = _refresh(store)
    assert result.exit_code == 1, result.output
    line = " ".join(result.stderr.split())
    assert ("prices moved far beyond any real repricing (tens of percent): azure eastus: 1 of the 10 offers also in "
            "snapshot #1 moved beyond ×50 or ×1/50, more than any repricing or spot swing: "
            "azure:eastus:Standard_NC24ads_A100_v4:on_demand 3.673 → 0.003673 USD/h (×1/1,000)") in line
    # and within the refresh: its spot quote, 0.444433, is 121 times the new on-demand price
    assert ("azure eastus: 1 spot offer costs more an hour than 2× the same instance on demand in this refresh, e.g. "
            "azure:eastus:Standard_NC24ads_A100_v4:spot 0.444433 USD/h, against 0.003673 on demand (×121)") in line
    assert store.read_bytes() == saved and _nc24_on_demand(store) == [3.673]


def test_a_first_refresh_with_reservations_at_100_times_is_refused_and_the_right_one_says_what_was_unchecked(
        tmp_path, scaled_endpoint):
    # the price-adapters audit (2026-12-05, item 3): the packaged snapshot holds no reservation, so on a first
    # refresh reservations at 100× were compared with nothing and saved
    from pricing_adapters.store import PriceStore

    store = tmp_path / "s.sqlite"
    PriceStore(store)
    empty = store.read_bytes()

    def reservations_x100(number: int, page: dict) -> None:
        for item in page["Items"]:
            if item["type"] == "Reservation":
                item["retailPrice"] = item["unitPrice"] = item["retailPrice"] * 100

    scaled_endpoint["edit"] = reservations_x100
    result = _refresh(store)
    assert result.exit_code == 1, result.output
    # 1 year: 21,024 × 100 / 8,760 h = 240 USD/h against 3.673 on demand (65.3×); 3 years: 39,420 × 100 / 26,280 = 150
    assert ("refresh failed: prices contradict each other: azure eastus: 2 reservations cost more an hour than 1.5× "
            "the same instance on demand in this refresh, e.g. azure:eastus:Standard_NC24ads_A100_v4:reserved_1y "
            "240 USD/h, against 3.673 on demand (×65)") in " ".join(result.stderr.split())
    assert store.read_bytes() == empty
    scaled_endpoint["edit"] = None
    right = _refresh(store)
    assert right.exit_code == 0, right.output
    assert ("note: reservations and savings plans: no earlier prices to compare with; checked against on-demand only"
            in " ".join(right.stderr.split()))
    scaled_endpoint["factor"] = 1.1   # a normal repricing, held against snapshot #1's reservations this time
    again = _refresh(store)
    assert again.exit_code == 0 and "saved snapshot #2" in again.stderr and "no earlier prices" not in again.stderr


def test_a_first_refresh_with_savings_plans_at_a_thousandth_is_refused(tmp_path, scaled_endpoint):
    # nor are there packaged savings plans: the NC24ads A100 v4's rates, 2.5711 and 1.4692 USD/h, at 1/1,000 are
    # 1/1,429 and 1/2,500 of its 3.673 on demand; the example is the farther
    from pricing_adapters.store import PriceStore

    store = tmp_path / "s.sqlite"
    PriceStore(store)
    empty = store.read_bytes()

    def plans_at_a_thousandth(number: int, page: dict) -> None:
        for item in page["Items"]:
            for plan in item.get("savingsPlan") or []:
                plan["retailPrice"] = plan["unitPrice"] = plan["retailPrice"] / 1000

    scaled_endpoint["edit"] = plans_at_a_thousandth
    result = _refresh(store)
    assert result.exit_code == 1, result.output
    assert ("prices contradict each other: azure eastus: 2 savings plans cost less an hour than 1/20 of the same "
            "instance on demand in this refresh, e.g. azure:eastus:Standard_NC24ads_A100_v4:savings_plan_3y 0.0014692 "
            "USD/h, against 3.673 on demand (×1/2,500)") in " ".join(result.stderr.split())
    assert store.read_bytes() == empty


def test_a_refresh_lacking_most_offers_in_force_is_refused_until_accepted_then_held_against_it(tmp_path,
                                                                                               scaled_endpoint):
    # in force in eastus, with no refresh yet: the packaged snapshot's 72 offers (59 on demand and 13 spot, of 59
    # sizes). The recorded pages hold 10 offers, of which 5 are packaged (NC24ads A100 v4 and ND96asr v4 on demand
    # and spot, NV6ads A10 v5 on demand): 67 missing, of 56 sizes (every size but those three); on demand 59 - 3 = 56,
    # spot 13 - 2 = 11. The examples are the first 5 of them in offer id order.
    from pricing_adapters.store import PriceStore

    store = tmp_path / "s.sqlite"
    PriceStore(store)
    empty = store.read_bytes()
    said = ("azure eastus: 67 of the 72 offers in force there (the packaged snapshot) are missing from this refresh, "
            "which holds 10 offers: more than half of them (67 of 72, 56 instance types), the on_demand offers (56 of "
            "59, 56 instance types), the spot offers (11 of 13, 11 instance types); e.g. "
            "azure:eastus:Standard_NC128ds_xl_RTXPRO6000BSE_v6:on_demand, "
            "azure:eastus:Standard_NC128lds_xl_RTXPRO6000BSE_v6:on_demand, "
            "azure:eastus:Standard_NC132ds_xl_RTXPRO6000BSE_v6:on_demand, "
            "azure:eastus:Standard_NC132lds_xl_RTXPRO6000BSE_v6:on_demand, "
            "azure:eastus:Standard_NC144ds_xl_RTXPRO6000BSE_v6:on_demand and 62 more")
    runner = CliRunner()
    args = ["prices", "refresh", "--provider", "azure", "--region", "eastus", "--store", str(store)]
    refused = runner.invoke(app, args)
    assert refused.exit_code == 1, refused.output
    assert isinstance(refused.exception, SystemExit) and "Traceback" not in refused.output
    assert " ".join(refused.stderr.split()) == (
        f"refresh failed: offers missing: {said}; more likely a partial answer (pages, a region or a purchase option "
        "left out) than instance types retired, and plans would lose those offers, so nothing was saved. If they "
        "really are gone, refresh again with --accept-missing-offers. The store is unchanged; plans keep using the "
        "packaged snapshot for eastus. skipped: 1 cloud_services, 1 devtest, 1 non_gpu, 1 windows, "
        "1 zero_or_negative_price")
    assert store.read_bytes() == empty
    accepted = runner.invoke(app, [*args, "--accept-missing-offers"])
    assert accepted.exit_code == 0, accepted.output
    line = " ".join(accepted.stderr.split())
    assert f"warning: missing offers accepted (--accept-missing-offers): {said}" in line
    assert "saved snapshot #1 (azure, eastus, 10 offers" in line
    # the next refresh is held against what plans now use there, snapshot #1's 10 offers: none is missing
    again = runner.invoke(app, args)
    assert again.exit_code == 0, again.output
    assert "saved snapshot #2 (azure, eastus, 10 offers" in again.stderr and "missing" not in again.stderr


class _ArmSkus:
    """ARM's resource SKUs as the price-refresh audit's stub listed them: the NC24ads A100 v4 with `gpus["n"]` GPUs."""

    def __init__(self, gpus: dict):
        self.gpus = gpus

    def list(self, filter=None, **kwargs):  # noqa: A002 - the SDK's parameter name
        return [{"resourceType": "virtualMachines", "name": "Standard_NC24ads_A100_v4", "family": "standardNCADSA100v4Family",
                 "capabilities": [{"name": "GPUs", "value": self.gpus["n"]}, {"name": "vCPUs", "value": "24"},
                                  {"name": "MemoryGB", "value": "220"}]}]


def test_an_a100_vm_said_to_hold_8_gpus_is_refused_and_plans_keep_its_price_per_gpu_hour(tmp_path, monkeypatch,
                                                                                         retail_endpoint,
                                                                                         store_a100_scenario):
    # `--subscription` reads GPU facts from ARM; its client is the audit's stub, the prices the recorded eastus pages
    import azure.identity
    import azure.mgmt.compute

    gpus = {"n": "1"}
    monkeypatch.setattr(azure.identity, "DefaultAzureCredential", lambda: object())
    monkeypatch.setattr(azure.mgmt.compute, "ComputeManagementClient",
                        lambda *args, **kwargs: type("Compute", (), {"resource_skus": _ArmSkus(gpus)})())
    monkeypatch.setenv("FLEETPLAN_AZURE_PRICES_URL", retail_endpoint[0])
    store = tmp_path / "s.sqlite"
    runner = CliRunner()
    args = ["prices", "refresh", "--provider", "azure", "--region", "eastus", "--subscription", "sub", "--store", str(store)]
    assert runner.invoke(app, [*args, "--accept-missing-offers"]).exit_code == 0   # snapshot #1: 1 GPU, as sold
    saved = store.read_bytes()
    gpus["n"] = "8"
    refused = runner.invoke(app, args)
    assert refused.exit_code == 1 and "Traceback" not in refused.output
    said = ("azure Standard_NC24ads_A100_v4 in eastus: gpu_count 1 → 8 (1 in snapshot #1; 8 in this refresh, from "
            "azure-mgmt-compute resource SKUs)")
    text = " ".join(refused.stderr.split())
    assert text.startswith(f"refresh failed: hardware facts changed: {said}; an instance type's hardware does not "
                           "change under its name")
    assert "refresh again with --accept-hardware-changes. The store is unchanged; plans keep using snapshot #1 " in text
    assert text.endswith("skipped: 1 cloud_services, 1 devtest, 1 non_gpu, 1 windows, 1 zero_or_negative_price")
    assert store.read_bytes() == saved

    def total() -> float:
        planned = runner.invoke(app, ["plan", str(store_a100_scenario), "--store", str(store), "--format", "json",
                                      "--no-baselines", "--no-decisions"])
        assert planned.exit_code == 0, planned.output
        return json.loads(planned.stdout)["total"]

    assert total() == pytest.approx(730 * 3.673)   # 2,681.29 USD: one A100 at 3.673 USD/h
    accepted = runner.invoke(app, [*args, "--accept-hardware-changes"])
    assert accepted.exit_code == 0, accepted.output
    text = " ".join(accepted.stderr.split())
    warning = f"warning: hardware changes accepted (--accept-hardware-changes): {said} "
    assert warning in text and text.index(warning) < text.index("saved snapshot #2 (azure, eastus, 10 offers")
    assert total() == pytest.approx(730 * 3.673 / 8)   # 335.16 USD: taken knowingly
