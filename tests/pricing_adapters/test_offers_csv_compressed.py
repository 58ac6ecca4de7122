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


# Each member dated 23:59:58: its DOS time, 7d bf, is no UTF-8 (bf continues no lead byte). Dated at the time of the
# run, a zip damaged at its start was now and then all UTF-8 (a time whose bytes happened to be), and was read as CSV
# text ("not readable as CSV: Expected 1 fields in line 3, saw 4"), failing the test of what a damaged zip says.
ZIP_DATE_TIME = (2026, 12, 6, 23, 59, 58)


def zipped(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(zipfile.ZipInfo(name, date_time=ZIP_DATE_TIME), data, compress_type=zipfile.ZIP_DEFLATED)
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
    offers = " offers.csv.gz"   # as the scenario names it (was /tmp/…/offers.csv.gz)
    for command in ("validate", "plan"):
        result = CliRunner().invoke(app, [command, str(scenario)])
        assert result.exit_code == 2 and "Traceback" not in result.output, result.output
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert f"{offers}: not a complete gzip file: it ends after " in result.stderr


# -- damaged at the start: what used to be "not UTF-8 text", with no word of compression ---------------------------
# A gzip file begins 1f 8b 08 (magic, then method 8: deflate; RFC 1952) and, written with mtime=0, 00 00 00 00 00
# (flags, then the time); 0x8b is a UTF-8 continuation byte, so a file whose 1f became 1e is not UTF-8 at offset 1.

def gzip_of_g5() -> bytes:
    return gzip.compress(G5.read_bytes(), mtime=0)


@pytest.mark.parametrize("name", ["prices.csv.gz", "prices.csv"])
def test_a_gzip_file_with_its_first_byte_damaged_is_said_to_look_gzip_compressed(tmp_path, name):
    damaged = bytearray(gzip_of_g5())
    assert damaged[:8] == b"\x1f\x8b\x08\x00\x00\x00\x00\x00"
    damaged[0] = 0x1e
    path = written(tmp_path / name, bytes(damaged))
    with pytest.raises(OffersSchemaError) as info:
        read_offers_csv(str(path), origin=str(path))
    assert str(info.value) == (f"{path}: looks gzip-compressed but cannot be decompressed: it begins 1e 8b 08 00 00 "
                               "00, a byte off the 1f 8b 08 a gzip file begins with (damaged at its start), and it is "
                               "not UTF-8 text either (byte 0x8b at offset 1); expected a whole gzip file of an offers "
                               "CSV (download it again?), or the CSV itself")


def test_a_bzip2_or_zip_file_with_a_header_byte_damaged_looks_so(tmp_path):
    # bzip2: "BZh9", then the block magic 31 41 59 26 53 59; its "h" (68) made "x" (78)
    bz = bytearray(bz2.compress(G5.read_bytes()))
    assert bz[:10] == b"BZh91AY&SY"
    bz[2] = ord("x")
    path = written(tmp_path / "offers.csv", bytes(bz))
    with pytest.raises(OffersSchemaError, match=rf"^{path}: looks bzip2-compressed but cannot be decompressed: it begins "
                                                r"42 5a 78 39 31 41, a byte off the 42 5a 68 … 31 41 59 26 53 59 a bzip2 "
                                                r"file begins with \(damaged at its start\), and it is not UTF-8 text"):
        read_offers_csv(path, origin=str(path))
    # zip: "PK" 03 04 with 04 made 05
    zp = bytearray(zipped({"offers.csv": G5.read_bytes()}))
    zp[3] = 5
    path = written(tmp_path / "offers.zip", bytes(zp))
    with pytest.raises(OffersSchemaError, match=rf"^{path}: looks zip-compressed but cannot be decompressed: it begins "
                                                r"50 4b 03 05 14 00, a byte off the 50 4b 03 04 a zip file begins with"):
        read_offers_csv(path, origin=str(path))


def test_a_zip_whose_start_is_zeroed_is_known_by_its_directory_at_the_end(tmp_path):
    zp = zipped({"offers.csv": G5.read_bytes()})
    path = written(tmp_path / "offers.csv", bytes(16) + zp[16:])
    with pytest.raises(OffersSchemaError, match=rf"^{path}: looks zip-compressed but cannot be decompressed: it ends "
                                                r"with a zip's directory but begins 00 00 00 00 00 00, not 50 4b 03 04 "
                                                r"as a zip file does \(damaged at its start\)"):
        read_offers_csv(path, origin=str(path))


def test_a_file_named_gz_whose_whole_header_is_zeroed_is_named_by_its_suffix(tmp_path):
    # the 10-byte header zeroed: nothing of gzip left at the start, nor a directory at the end, but its name
    zeroed = bytes(10) + gzip_of_g5()[10:]
    named = written(tmp_path / "prices.csv.gz", zeroed)
    with pytest.raises(OffersSchemaError) as info:
        read_offers_csv(named, origin=str(named))
    said = str(info.value)
    assert said.startswith(f"{named}: named .gz but neither gzip-compressed (a gzip file begins 1f 8b 08; this one 00 "
                           "00 00 00 00 00) nor UTF-8 text (byte 0x")
    assert said.endswith("): perhaps a gzip file damaged at its start; expected a whole gzip file of an offers CSV "
                         "(download it again?), or the CSV itself")
    # the same bytes under a plain name: nothing says gzip, so nothing is guessed
    plain = written(tmp_path / "prices.csv", zeroed)
    with pytest.raises(OffersSchemaError, match=rf"^{plain}: not UTF-8 text \(byte 0x[0-9a-f]{{2}} at offset [0-9]+\); "
                                                r"expected an offers CSV file in UTF-8$"):
        read_offers_csv(plain, origin=str(plain))


@pytest.mark.parametrize("kind, cut, shown, magic, a", [
    ("gzip", 1, "1f", "1f 8b", "a gzip"),
    ("bzip2", 3, "42 5a 68", "42 5a 68 31-39", "a bzip2"),   # "BZh" without its block size: read as a CSV header
    ("xz", 5, "fd 37 7a 58 5a", "fd 37 7a 58 5a 00", "an xz"),
    ("zip", 2, "50 4b", "50 4b 03 04", "a zip"),
])
def test_a_file_cut_short_inside_its_magic_number_says_so(tmp_path, kind, cut, shown, magic, a):
    path = written(tmp_path / "offers.csv", COMPRESS[kind](G5.read_bytes())[:cut])
    with pytest.raises(OffersSchemaError) as info:
        read_offers_csv(path, origin=str(path))
    assert str(info.value) == (f"{path}: looks {kind}-compressed but is cut short: it holds only {cut} "
                               f"byte{'s' if cut > 1 else ''} ({shown}), the start of the {magic} {a} file begins with "
                               f"(cut short by a download or a copy?); expected a whole {kind} file of an offers CSV, "
                               "or the CSV itself")


def test_a_single_printable_character_is_not_taken_for_a_cut_magic_number(tmp_path):
    # "B" begins bzip2's magic, and a CSV header: it is read as the header it is
    path = written(tmp_path / "offers.csv", b"B")
    with pytest.raises(OffersSchemaError, match=rf"^{path}: missing columns"):
        read_offers_csv(path, origin=str(path))


def test_a_file_compressed_twice_says_so(tmp_path):
    path = written(tmp_path / "offers.csv.gz", gzip.compress(gzip_of_g5(), mtime=0))
    with pytest.raises(OffersSchemaError) as info:
        read_offers_csv(path, origin=str(path))
    assert str(info.value) == (f"{path}: gzip-compressed, and what that decompresses to is gzip-compressed again "
                               "(compressed twice?); expected an offers CSV compressed once: decompress it once and "
                               "name the file that gives")


def test_a_gzipped_latin_1_csv_is_said_to_be_not_utf_8_once_decompressed(tmp_path):
    # "offer_id\n" is 9 bytes, then é in Latin-1 (e9), which UTF-8 never has alone
    path = written(tmp_path / "offers.csv.gz", gzip.compress(b"offer_id\n\xe9\n"))
    with pytest.raises(OffersSchemaError) as info:
        read_offers_csv(path, origin=str(path))
    assert str(info.value) == (f"{path}: gzip-compressed, but what that decompresses to is not UTF-8 text (byte 0xe9 "
                               "at offset 9); expected an offers CSV file in UTF-8")


def test_a_plain_latin_1_csv_is_told_where_it_stops_being_utf_8_from_the_start_of_the_file(tmp_path):
    # 9 + 200,000 × 2 bytes before the é: past the chunk pandas decodes at once (its error said offset 0)
    path = written(tmp_path / "offers.csv", b"offer_id\n" + b"x\n" * 200_000 + b"\xe9\n")
    with pytest.raises(OffersSchemaError) as info:
        read_offers_csv(path, origin=str(path))
    assert str(info.value) == (f"{path}: not UTF-8 text (byte 0xe9 at offset 400,009); expected an offers CSV file "
                               "in UTF-8")


def test_a_zstd_file_without_zst_in_its_name_is_told_how_zstd_decompresses_it(tmp_path):
    # `zstd -d FILE` refuses a name without .zst ("unknown suffix … Specify it with -o dstFileName")
    zst = written(tmp_path / "offers.csv", b"\x28\xb5\x2f\xfd" + bytes(40))
    with pytest.raises(OffersSchemaError) as info:
        read_offers_csv(zst, origin=str(zst))
    assert str(info.value) == (f"{zst}: a Zstandard-compressed file (zstd), which the planner cannot read (Python's "
                               "standard library has no zstd before 3.14); decompress it first (its name lacks .zst, "
                               "which zstd -d FILE needs: rename it FILE.zst first, or zstd -d FILE -o OUT.csv) and "
                               "name that CSV")


def test_a_scenario_on_a_gzip_file_damaged_at_its_start_exits_2_with_one_line(tmp_path):
    csv = (ROOT / "examples" / "offers-melange-toy.csv").read_bytes()
    damaged = bytearray(gzip.compress(csv, mtime=0))
    damaged[1] = 0x8c
    scenario = scenario_on(tmp_path, bytes(damaged), "offers.csv.gz")
    offers = " offers.csv.gz"   # as the scenario names it (was /tmp/…/offers.csv.gz)
    for command in ("validate", "plan"):
        result = CliRunner().invoke(app, [command, str(scenario)])
        assert result.exit_code == 2 and "Traceback" not in result.output, result.output
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert (f"{offers}: looks gzip-compressed but cannot be decompressed: it begins 1f 8c 08 00 00 00, a byte off "
                "the 1f 8b 08 a gzip file begins with") in result.stderr


@pytest.mark.parametrize("encoding,mark", [("utf-16-le", "UTF-16"), ("utf-16-be", "UTF-16"), ("utf-32-le", "UTF-32")])
def test_a_utf_16_or_32_csv_is_named_by_its_byte_order_mark(tmp_path, encoding, mark):
    # Excel's "Unicode Text" and PowerShell's `>` write UTF-16 with a byte order mark (ff fe little-endian, fe ff
    # big-endian; UTF-32's little-endian mark ff fe 00 00): the message said only "byte 0xff at offset 0"
    path = written(tmp_path / "offers.csv", "\ufeffoffer_id\n".encode(encoding))
    with pytest.raises(OffersSchemaError) as info:
        read_offers_csv(path, origin=str(path))
    assert str(info.value) == (f"{path}: not UTF-8 text: {mark} (it begins with {mark}'s byte order mark); "
                               "expected an offers CSV file in UTF-8: save it as UTF-8 (in Excel: CSV UTF-8)")
