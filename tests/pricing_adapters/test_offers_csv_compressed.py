"""An offers CSV (`prices.source: FILE`) may be gzip, bzip2, xz or a zip of one CSV, told by its first bytes, as
pandas read `offers.csv.gz` by its name before the file was read with a size bound (then it was binary garbage
to the CSV parser). The bound, MAX_OFFERS_CSV_BYTES, is on the decompressed bytes, counted as they come.

Facts from outside the code: examples/offers-g5-us-east-1.csv is one g5.xlarge offer at 1.006 USD/h;
examples/melange-toy.yaml plans 3 g5.xlarge at 1.01 and an A100 at 3.67 USD/h, 6.70 × 730 h = 4,891.00 USD
(docs/cost-model.md). The compressed files are built here with Python's gzip, bz2, lzma and zipfile."""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import tarfile
import tracemalloc
import zipfile
import zlib
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from planner.cli import app
from pricing_adapters import snapshot
from pricing_adapters.schema import OffersSchemaError
from pricing_adapters.snapshot import read_offers_csv

ROOT = Path(__file__).resolve().parents[2]
G5 = ROOT / "examples" / "offers-g5-us-east-1.csv"
TAIL = "; expected a whole gzip file of an offers CSV, or the CSV itself"


def zipped(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buf.getvalue()


COMPRESS = {"gzip": gzip.compress, "bzip2": bz2.compress, "xz": lzma.compress,
            "lzma": lambda data: lzma.compress(data, format=lzma.FORMAT_ALONE),
            "zip": lambda data: zipped({"offers.csv": data})}


def written(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("kind", COMPRESS)
@pytest.mark.parametrize("name", ["offers.csv.compressed", "offers.csv"])   # told by its bytes, not its name
def test_a_compressed_offers_csv_reads_as_the_csv_itself(tmp_path, kind, name):
    packed = written(tmp_path / name, COMPRESS[kind](G5.read_bytes()))
    assert packed.read_bytes()[:100] != G5.read_bytes()[:100]
    offers = read_offers_csv(str(packed), origin=str(packed))
    assert list(offers["sku"]) == ["g5.xlarge"] and list(offers["hourly_price"]) == [1.006]
    pd.testing.assert_frame_equal(offers, read_offers_csv(str(G5), origin=str(G5)))


def test_a_gzip_file_of_two_members_reads_as_both_one_after_the_other(tmp_path):
    header, row = G5.read_bytes().split(b"\n", 1)
    packed = written(tmp_path / "offers.csv.gz", gzip.compress(header + b"\n") + gzip.compress(row) + b"\0" * 8)
    pd.testing.assert_frame_equal(read_offers_csv(packed, origin="o"), read_offers_csv(G5, origin="o"))


def test_a_plain_csv_named_gz_reads_as_a_csv(tmp_path):
    plain = written(tmp_path / "offers.csv.gz", G5.read_bytes())
    assert list(read_offers_csv(plain, origin=str(plain))["hourly_price"]) == [1.006]


@pytest.mark.parametrize("kind", COMPRESS)
def test_the_bound_is_on_the_decompressed_bytes(tmp_path, kind, monkeypatch):
    packed = written(tmp_path / "offers.packed", COMPRESS[kind](G5.read_bytes()))
    assert G5.stat().st_size == 436 and packed.stat().st_size < 436 + 200
    monkeypatch.setattr(snapshot, "MAX_OFFERS_CSV_BYTES", 436)
    assert list(read_offers_csv(packed, origin="o")["sku"]) == ["g5.xlarge"]
    monkeypatch.setattr(snapshot, "MAX_OFFERS_CSV_BYTES", 435)
    with pytest.raises(OffersSchemaError) as info:
        read_offers_csv(packed, origin="offers.packed")
    assert str(info.value) == (f"offers.packed: larger than 435 bytes once decompressed ({kind}); not an offers table "
                               "(every GPU offer of AWS and Azure, in every region and purchase option, is at most "
                               "about 45 MB)")


def zeros_gzip(mib: int) -> bytes:
    """A gzip file of `mib` MiB of zero bytes, built a MiB at a time (about 100 KB for 100 MiB)."""
    packer, chunk = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS), bytes(2**20)
    return b"".join([*(packer.compress(chunk) for _ in range(mib)), packer.flush()])


@pytest.mark.parametrize("kind", ["gzip", "zip"])
def test_a_gzip_bomb_is_refused_without_decompressing_it_all(tmp_path, kind, monkeypatch):
    bomb = zeros_gzip(200) if kind == "gzip" else zipped({"offers.csv": bytes(200 * 2**20)})
    assert len(bomb) < 2**20   # 200 MiB in less than 1 MiB
    path = written(tmp_path / "offers.csv.gz", bomb)
    monkeypatch.setattr(snapshot, "MAX_OFFERS_CSV_BYTES", 2**20)
    tracemalloc.start()
    try:
        with pytest.raises(OffersSchemaError) as info:
            read_offers_csv(str(path), origin=str(path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert str(info.value).startswith(f"{path}: larger than 1 MiB once decompressed ({kind}); not an offers table")
    assert peak < 8 * 2**20   # the 1 MiB allowed, the file and a few buffers; not 200 MiB


def test_compressed_bytes_over_the_bound_are_refused(tmp_path, monkeypatch):
    # a whole gzip member, then zeros (padding gzip allows): little comes out, but the file is too large
    path = written(tmp_path / "offers.csv.gz", gzip.compress(G5.read_bytes()) + bytes(5000))
    monkeypatch.setattr(snapshot, "MAX_OFFERS_CSV_BYTES", 4000)
    with pytest.raises(OffersSchemaError, match=r"^.*: larger than 4,000 bytes compressed \(gzip\); not an offers"):
        read_offers_csv(path, origin=str(path))


def test_a_truncated_gzip_file_says_it_is_not_complete(tmp_path):
    whole = gzip.compress(G5.read_bytes())
    cut = written(tmp_path / "offers.csv.gz", whole[:-9])   # the last 8 bytes are the CRC and length
    with pytest.raises(OffersSchemaError) as info:
        read_offers_csv(str(cut), origin=str(cut))
    assert str(info.value) == (f"{cut}: not a complete gzip file: it ends after {len(whole) - 9:,} bytes, inside the "
                               f"compressed data (cut short by a download or a copy?){TAIL}")


@pytest.mark.parametrize("kind", ["bzip2", "xz", "lzma"])
def test_a_truncated_bzip2_or_xz_file_says_it_is_not_complete(tmp_path, kind):
    cut = written(tmp_path / "offers.csv.packed", COMPRESS[kind](G5.read_bytes())[:-20])
    with pytest.raises(OffersSchemaError, match=rf"^{cut}: not a complete {kind} file: it ends after "):
        read_offers_csv(str(cut), origin=str(cut))


def test_a_gzip_file_with_a_wrong_checksum_is_not_valid(tmp_path):
    whole = bytearray(gzip.compress(G5.read_bytes()))
    whole[-8] ^= 0xFF   # the CRC-32 of the text
    bad = written(tmp_path / "offers.csv.gz", bytes(whole))
    with pytest.raises(OffersSchemaError) as info:
        read_offers_csv(str(bad), origin=str(bad))
    assert str(info.value) == f"{bad}: not a valid gzip file (incorrect data check){TAIL}"


def test_a_zip_of_two_files_names_them(tmp_path):
    two = written(tmp_path / "offers.zip", zipped({"aws.csv": G5.read_bytes(), "azure.csv": G5.read_bytes()}))
    with pytest.raises(OffersSchemaError) as info:
        read_offers_csv(two, origin=str(two))
    assert str(info.value) == (f"{two}: a zip archive of 2 files ('aws.csv', 'azure.csv'); expected one holding a "
                               "single offers CSV")


def test_a_zip_from_a_mac_with_a_folder_reads_its_one_csv(tmp_path):
    archive = zipped({"prices/": b"", "prices/offers.csv": G5.read_bytes(), "__MACOSX/prices/._offers.csv": b"\0\5"})
    path = written(tmp_path / "prices.zip", archive)
    assert list(read_offers_csv(path, origin="o")["hourly_price"]) == [1.006]


def test_a_zip_of_many_entries_is_refused_before_zipfile_reads_them(tmp_path, monkeypatch):
    path = written(tmp_path / "offers.zip", zipped({f"{i}.csv": b"" for i in range(17)}))

    def read(*args, **kwargs):
        raise AssertionError("zipfile read the directory")

    monkeypatch.setattr(zipfile, "ZipFile", read)
    with pytest.raises(OffersSchemaError) as info:
        read_offers_csv(path, origin=str(path))
    assert str(info.value) == f"{path}: a zip archive of 17 entries; expected one holding a single offers CSV"


def test_a_cut_zip_says_it_is_not_complete(tmp_path):
    cut = written(tmp_path / "offers.zip", zipped({"offers.csv": G5.read_bytes()})[:-30])
    with pytest.raises(OffersSchemaError, match=rf"^{cut}: not a complete zip file: its directory, at the end"):
        read_offers_csv(cut, origin=str(cut))


def test_a_zstd_file_asks_to_be_decompressed_first(tmp_path):
    # a zstd frame's magic number (RFC 8878), then bytes that need not be read
    zst = written(tmp_path / "offers.csv.zst", b"\x28\xb5\x2f\xfd" + bytes(40))
    with pytest.raises(OffersSchemaError, match=rf"^{zst}: a Zstandard-compressed file .*decompress it first"):
        read_offers_csv(zst, origin=str(zst))


def test_a_gzipped_tar_is_named_as_a_tar(tmp_path):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        info = tarfile.TarInfo("offers.csv")
        info.size = G5.stat().st_size
        tar.addfile(info, io.BytesIO(G5.read_bytes()))
    tgz = written(tmp_path / "offers.tar.gz", gzip.compress(buf.getvalue()))
    with pytest.raises(OffersSchemaError) as info:
        read_offers_csv(tgz, origin=str(tgz))
    assert str(info.value) == (f"{tgz}: a tar archive (gzip-compressed); expected one CSV file: extract it "
                               "(tar -xf FILE) and name the offers CSV")


def scenario_on(tmp_path: Path, offers: bytes, name: str) -> Path:
    """examples/melange-toy.yaml in `tmp_path`, its prices.source the file `name` holding `offers`."""
    written(tmp_path / name, offers)
    text = (ROOT / "examples" / "melange-toy.yaml").read_text().replace("offers-melange-toy.csv", name)
    return written(tmp_path / "melange-toy.yaml", text.encode())


def test_a_scenario_plans_on_a_gzipped_offers_csv(tmp_path):
    csv = (ROOT / "examples" / "offers-melange-toy.csv").read_bytes()
    scenario = scenario_on(tmp_path, gzip.compress(csv), "offers.csv.gz")
    result = CliRunner().invoke(app, ["plan", str(scenario), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["total"] == pytest.approx(4891.00)


def test_a_scenario_on_a_truncated_gzip_exits_2_with_one_line(tmp_path):
    csv = (ROOT / "examples" / "offers-melange-toy.csv").read_bytes()
    scenario = scenario_on(tmp_path, gzip.compress(csv)[:-9], "offers.csv.gz")
    offers = tmp_path / "offers.csv.gz"
    for command in ("validate", "plan"):
        result = CliRunner().invoke(app, [command, str(scenario)])
        assert result.exit_code == 2 and "Traceback" not in result.output, result.output
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert f"{offers}: not a complete gzip file: it ends after " in result.stderr
