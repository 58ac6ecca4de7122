"""A URL a user configured is never stored or printed with its credentials: `user:password@` shows as `***@`, a
query value that may be a secret (any name but the price APIs' own) as `***` (pricing_adapters.shown.url_shown).
Hostile-input audit: FLEETPLAN_AZURE_PRICES_URL=http://user:pass@… was saved in every offer's source, and so in
plan.json, summary.md and the workbook; a failed refresh printed it; botocore's errors print AWS_ENDPOINT_URL as
given. Only 127.0.0.1 is ever reached."""

import sqlite3

import boto3
import botocore.endpoint
import httpx
import pytest

from pricing_adapters import azure as az
from pricing_adapters.aws import AwsPriceSource
from pricing_adapters.azure import AzurePriceSource
from pricing_adapters.base import check_endpoint
from pricing_adapters.errors import PriceSourceError, SourceConfigError, StoreError
from pricing_adapters.shown import url_shown, urls_shown
from pricing_adapters.snapshot import load_snapshot
from pricing_adapters.store import PriceStore

# nothing listens on port 1 of 127.0.0.1: a connection there is refused at once
REFUSED = "http://user:s3cret@127.0.0.1:1"


@pytest.mark.parametrize("url, shown", [
    ("http://user:pass@127.0.0.1:18081/api/retail/prices", "http://***@127.0.0.1:18081/api/retail/prices"),
    ("https://user@mirror.example/prices", "https://***@mirror.example/prices"),
    # a password holding `@`: the host is what follows the last one
    ("https://u:p@ss@mirror.example:8443/p", "https://***@mirror.example:8443/p"),
    # an Azure SAS: every value hidden but those of the Retail Prices API's own parameters, $filter written encoded
    ("https://m.example/p?sv=2022-11-02&sig=AbC%2F1%3D&api-version=2023-01-01-preview&%24filter=a+eq+b",
     "https://m.example/p?sv=***&sig=***&api-version=2023-01-01-preview&%24filter=a+eq+b"),
    ("https://m.example/p?code=xyz&currencyCode=%27USD%27&$skip=1000", "https://m.example/p?code=***&currencyCode=%27USD%27&$skip=1000"),
    ("https://m.example/p?TOKEN#access_token=abc", "https://m.example/p?***#***"),   # a bare token, a fragment
    ("https://m.example/p?key=", "https://m.example/p?key="),                           # nothing to hide
    ("https://prices.azure.com/api/retail/prices", "https://prices.azure.com/api/retail/prices"),
])
def test_a_url_is_shown_without_its_user_password_and_secret_query_values(url, shown):
    assert url_shown(url) == shown


def test_urls_in_a_text_are_shown_without_credentials_and_the_text_around_them_kept():
    text = ('Could not connect to the endpoint URL: "http://a:b@127.0.0.1:1/x?token=t1". Retried (https://c:d@h/p, '
            'api-version 1) and http://e:f@h.')
    assert urls_shown(text) == ('Could not connect to the endpoint URL: "http://***@127.0.0.1:1/x?token=***". Retried '
                                '(https://***@h/p, api-version 1) and http://***@h.')


def test_a_bad_endpoint_setting_is_named_without_its_password():
    with pytest.raises(SourceConfigError) as info:
        check_endpoint("http://user:s3cret@127.0.0.1:99999/x?sig=abc", "FLEETPLAN_AZURE_PRICES_URL")
    assert str(info.value).startswith("FLEETPLAN_AZURE_PRICES_URL='http://***@127.0.0.1:99999/x?sig=***' is not a "
                                      "usable URL")


def test_an_unreachable_azure_prices_url_is_named_without_its_password(monkeypatch):
    monkeypatch.delenv("AZURE_SUBSCRIPTION_ID", raising=False)
    monkeypatch.setenv(az.PRICES_URL_ENV, f"{REFUSED}/x?sig=abc")
    source = AzurePriceSource(http=httpx.Client(), max_attempts=2, sleep=lambda seconds: None)
    with pytest.raises(PriceSourceError) as info:
        source.fetch(["eastus"])
    message = str(info.value)
    assert "s3cret" not in message and "user" not in message and "abc" not in message
    # the URL requested: the prices URL's own query (hidden) and then the API's parameters
    assert message.startswith("Azure Retail Prices API unreachable (")
    assert (") for http://***@127.0.0.1:1/x?sig=***&api-version=2023-01-01-preview&currencyCode=%27USD%27&"
            "%24filter=serviceName+eq+%27Virtual+Machines%27+and+armRegionName+eq+%27eastus%27 (2 attempts)") in message


def test_an_unreachable_aws_endpoint_is_named_without_its_password(monkeypatch, tmp_path):
    (tmp_path / "empty").write_text("")
    for var in ("AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL_PRICING",
                "AWS_ENDPOINT_URL_EC2"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "empty"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "empty"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIAEXAMPLE")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "example")
    monkeypatch.setenv("AWS_ENDPOINT_URL", f"{REFUSED}/x?token=abc")
    monkeypatch.setattr(botocore.endpoint.time, "sleep", lambda seconds: None)   # botocore's retries
    source = AwsPriceSource(session=boto3.Session(region_name="us-east-1"), max_attempts=1)
    with pytest.raises(PriceSourceError) as info:
        source.fetch(["us-east-1"])
    message = str(info.value)
    assert "s3cret" not in message and "abc" not in message
    assert 'Could not connect to the endpoint URL: "http://***@127.0.0.1:1/x?token=***"' in message


def test_a_store_saved_before_credentials_were_hidden_shows_none(tmp_path):
    store = PriceStore(tmp_path / "s.sqlite")
    offers = load_snapshot(["azure"]).query("region == 'eastus'")
    store.save("azure", ["eastus"], "Azure Retail Prices API", offers)
    with sqlite3.connect(store.path) as con:   # as a refresh before the fix wrote them
        con.execute("UPDATE snapshots SET source = 'Retail (http://user:s3cret@127.0.0.1:8/p?sig=abc)'")
        con.execute("UPDATE offers SET source = 'Retail (http://user:s3cret@127.0.0.1:8/p?sig=abc, api-version 1)'")
    info = store.snapshots()[0]
    assert info.source == "Retail (http://***@127.0.0.1:8/p?sig=***)"
    assert set(store.offers(info.id)["source"]) == {"Retail (http://***@127.0.0.1:8/p?sig=***, api-version 1)"}
    assert set(store.latest_offers()[0]["source"]) == {"Retail (http://***@127.0.0.1:8/p?sig=***, api-version 1)"}


OLD_SNAPSHOT_SOURCE = "Retail (http://user:s3cret@127.0.0.1:8/p?sig=abc)"
OLD_OFFER_SOURCE = "Retail (http://user:s3cret@127.0.0.1:8/p?sig=abc, api-version 1)"


def store_saved_before_credentials_were_hidden(path):
    """A store of one azure eastus snapshot whose sources hold a password and a signature, as a refresh before the
    fix wrote them (written here with sqlite3, past the store's own hiding)."""
    store = PriceStore(path)
    store.save("azure", ["eastus"], "Azure Retail Prices API", load_snapshot(["azure"]).query("region == 'eastus'"))
    with sqlite3.connect(path) as con:
        con.execute("UPDATE snapshots SET source = ?", (OLD_SNAPSHOT_SOURCE,))
        con.execute("UPDATE offers SET source = ?", (OLD_OFFER_SOURCE,))
    con.close()
    assert b"s3cret" in path.read_bytes()
    return store


def stored_sources(path) -> tuple[set, set]:
    """(the snapshots' sources, the offers' sources) as the file holds them, read past the store."""
    con = sqlite3.connect(path)
    try:
        return ({row[0] for row in con.execute("SELECT source FROM snapshots")},
                {row[0] for row in con.execute("SELECT source FROM offers")})
    finally:
        con.close()


def test_a_refresh_into_a_store_saved_before_credentials_were_hidden_purges_them(tmp_path, monkeypatch):
    # they stayed on disk (hidden when read) until the store was refreshed into a new file
    import pricing_adapters.store as store_module

    store = store_saved_before_credentials_were_hidden(tmp_path / "s.sqlite")
    connect = store_module._connect

    def without_secure_delete(path):   # SQLite's default where it is built without SQLITE_SECURE_DELETE (not Debian's)
        con = connect(path)
        con.execute("PRAGMA secure_delete = OFF")
        return con

    monkeypatch.setattr(store_module, "_connect", without_secure_delete)
    store.save("azure", ["eastus2"], "Azure Retail Prices API", load_snapshot(["azure"]).query("region == 'eastus2'"))
    raw = store.path.read_bytes()
    assert b"s3cret" not in raw and b"sig=abc" not in raw   # not in a row, nor left in the file's free space
    # user:s3cret@ as ***@, the signature's value as ***; api-version, a price API's own parameter, kept
    assert stored_sources(store.path) == ({"Retail (http://***@127.0.0.1:8/p?sig=***)", "Azure Retail Prices API"},
                                          {"Retail (http://***@127.0.0.1:8/p?sig=***, api-version 1)",
                                           *set(load_snapshot(["azure"]).query("region == 'eastus2'")["source"])})


def test_a_refresh_that_fails_leaves_the_stored_sources_as_they_were(tmp_path, monkeypatch):
    # the rewrite is the refresh's own transaction: a failure after it (a full disk) rolls it back with the new rows
    import pricing_adapters.store as store_module

    store = store_saved_before_credentials_were_hidden(tmp_path / "s.sqlite")
    purge = store_module._purge_credentials

    def purged_then_the_disk_filled(con):
        purge(con)
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(store_module, "_purge_credentials", purged_then_the_disk_filled)
    with pytest.raises(StoreError, match="disk full"):
        store.save("azure", ["eastus2"], "Azure Retail Prices API", load_snapshot(["azure"]).query("region == 'eastus2'"))
    assert stored_sources(store.path) == ({OLD_SNAPSHOT_SOURCE}, {OLD_OFFER_SOURCE})
    assert [info.regions for info in store.snapshots()] == [("eastus",)]


def test_a_source_given_to_the_store_is_saved_without_credentials(tmp_path):
    store = PriceStore(tmp_path / "s.sqlite")
    offers = load_snapshot(["azure"]).query("region == 'eastus'").assign(source="feed https://u:s3cret@h/p?key=k")
    store.save("azure", ["eastus"], "feed https://u:s3cret@h/p?key=k", offers)
    raw = store.path.read_bytes()
    assert b"s3cret" not in raw and b"key=k" not in raw
    assert store.snapshots()[0].source == "feed https://***@h/p?key=***"
