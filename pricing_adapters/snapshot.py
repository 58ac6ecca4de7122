"""The packaged price snapshot: the embedded default offers table, readable offline.

The `snapshot_file` of each registry row that has one (`snapshots/aws.csv`, `snapshots/azure.csv`) holds
offers-table rows (see `schema.OFFER_COLUMNS`) built by `scripts/build_snapshot.py` from public price
data; `snapshots/manifest.json` says what they were built from and the `as_of` range of each file.
"""

from __future__ import annotations

import bz2
import difflib
import io
import json
import lzma
import os
import re
import warnings
import zipfile
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO

import pandas as pd

from pricing_adapters import PACKAGE_DIR, registry
from pricing_adapters.schema import (
    OFFER_COLUMNS,
    OffersSchemaError,
    known_flags,
    missing_columns,
    name_rows,
    shown_cell,
    validate_offers,
    whole_months,
)
from pricing_adapters.shown import counted, plural
from pricing_adapters.signatures import COMPRESSED, DAMAGE_SIGNATURES, ZIP, binary_kind, compressed_kind, not_the_file

SNAPSHOT_PROVIDERS = tuple(p.name for p in registry.providers() if p.snapshot_file)  # ("aws", "azure")
_TEXT = [c for c, t in OFFER_COLUMNS.items() if t == "string"]
_NUMERIC = [c for c, t in OFFER_COLUMNS.items() if t == "float64"]


def _snapshot_dir():
    return PACKAGE_DIR / "snapshots"


def _read_csv(f: IO[str] | str) -> pd.DataFrame:
    """CSV text as read, not yet checked: empty text cells stay "", empty numeric cells become NaN."""
    return pd.read_csv(
        f,
        dtype={**dict.fromkeys(_TEXT, "string"), "gpu_known": "bool", "term_months": "int64"},
        keep_default_na=False,
        na_values={c: [""] for c in _NUMERIC},
    )



# A row of an offers CSV is about 320 bytes (the packaged snapshot's 1,897 rows: 228 to 437, 324 on average).
# Every GPU offer of AWS and Azure, in every region and purchase option, is at most some 100,000 rows: 32 MB
# (44 MB were every row as long as the longest). 64 MiB holds twice that (200,000 average rows) and stops a
# wrong or endless file before pandas parses it: a 147 MB CSV of 400,000 rows was read whole, 595 MB of memory.
MAX_OFFERS_CSV_BYTES = 64 * 1024 * 1024


# An offers CSV may come compressed, as pandas read it (by its name) before the file was read with a bound:
# told by its first bytes, whatever its name. The bound is on what decompressing gives (what memory holds),
# counted as it comes: a gzip of 64 KB can give 64 MiB (deflate gives at most about 1,000 bytes a byte), a
# bzip2 of 785 bytes 1 GiB (of zeros). The compressed bytes are bounded too (a file of empty gzip members).
# Their first bytes (COMPRESSED) and those a damaged one is held against (DAMAGE_SIGNATURES): pricing_adapters.signatures.
# what a name ending so says a file is: the suffixes gzip, bzip2, xz, zip and zstd give what they write
_SUFFIXES = {".gz": "gzip", ".tgz": "gzip", ".bz2": "bzip2", ".tbz2": "bzip2", ".xz": "xz", ".txz": "xz",
             ".lzma": "lzma", ".zip": "zip", ".zst": "zstd"}
_DECOMPRESSOR = {"gzip": lambda: zlib.decompressobj(wbits=16 + zlib.MAX_WBITS), "bzip2": bz2.BZ2Decompressor,
                 "xz": lzma.LZMADecompressor, "lzma": lzma.LZMADecompressor}
_DECOMPRESS_ERRORS = (zlib.error, OSError, lzma.LZMAError)   # bz2 says OSError("Invalid data stream")
_CHUNK_BYTES = 1024 * 1024
# a zip of one CSV has one entry (a few more with its folder, or macOS's __MACOSX copies); zipfile reads every
# entry of the directory first: 800,000 empty ones, a 64 MiB file, took 440 MB and 3.6 s
MAX_ZIP_ENTRIES = 16


def _limit() -> str:
    return f"{MAX_OFFERS_CSV_BYTES // 2**20} MiB" if MAX_OFFERS_CSV_BYTES % 2**20 == 0 else f"{MAX_OFFERS_CSV_BYTES:,} bytes"


def _too_large(origin: str, how: str = "") -> OffersSchemaError:
    return OffersSchemaError(f"{origin}: larger than {_limit()}{how}; not an offers table (every GPU offer of AWS "
                             "and Azure, in every region and purchase option, is at most about 45 MB)")


def _bounded(f: IO | str | os.PathLike, origin: str) -> tuple[bytes | str, str | None]:
    """(the offers CSV `f`, a path or an open stream, read to at most MAX_OFFERS_CSV_BYTES, one more to tell,
    decompressed when its bytes are gzip, bzip2, xz, lzma or a zip of one file; the kind it was compressed with,
    None for a plain file). OffersSchemaError when it is longer (a text stream's characters counted as bytes), or
    a compressed file that is damaged, cut short or of a kind not read (zstd)."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as fh:
            return _bounded(fh, origin)
    head = f.read(6)   # the longest magic (xz)
    kind = compressed_kind(head) if isinstance(head, bytes) else None
    if kind in _DECOMPRESSOR:
        data = _decompressed(_compressed_chunks(f, head, kind, origin), kind, origin)
    elif kind == "zip":
        data = head + f.read(MAX_OFFERS_CSV_BYTES + 1 - len(head))
        if len(data) > MAX_OFFERS_CSV_BYTES:
            raise _too_large(origin, " compressed (zip)")
        if (found := binary_kind(data, whole=True)) and found[0] != ZIP:   # a workbook: said as a scenario's reader says it
            raise OffersSchemaError(not_the_file(origin, found, "an offers CSV file"))
        data = _unzipped(data, origin)
    elif kind == "zstd":
        how = ("zstd -d FILE writes FILE without .zst" if _name_of(f, origin).lower().endswith(".zst") else
               "its name lacks .zst, which zstd -d FILE needs: rename it FILE.zst first, or zstd -d FILE -o OUT.csv")
        raise OffersSchemaError(f"{origin}: a Zstandard-compressed file (zstd), which the planner cannot read (Python's "
                                f"standard library has no zstd before 3.14); decompress it first ({how}) and name "
                                "that CSV")
    else:
        data = head + f.read(MAX_OFFERS_CSV_BYTES + 1 - len(head))
        if isinstance(data, bytes) and (cut := _cut_before_magic(data)):
            magic = "42 5a 68 31-39" if cut == "bzip2" else _hex(COMPRESSED[cut][0])   # "BZh" and the block size, 1-9
            raise OffersSchemaError(f"{origin}: looks {cut}-compressed but is cut short: it holds only "
                                    f"{counted(len(data), 'byte')} ({_hex(data)}), the start of the {magic} "
                                    f"{_a_file(cut)} begins with (cut short by a download or a copy?); {_whole(cut)}")
        # a PDF, the price store, an image, …: said by what it is, as the scenario's and the profiles' readers say it
        whole = len(data) <= MAX_OFFERS_CSV_BYTES
        if isinstance(data, bytes) and (found := binary_kind(data, whole, wanted="an offers CSV file")):
            raise OffersSchemaError(not_the_file(origin, found, "an offers CSV file"))
    if len(data) > MAX_OFFERS_CSV_BYTES:
        raise _too_large(origin, f" once decompressed ({kind})" if kind else "")
    if data[257:262] in (b"ustar", "ustar"):   # a .tar.gz: pandas would read the tar's headers as the CSV's text
        raise OffersSchemaError(f"{origin}: a tar archive{f' ({kind}-compressed)' if kind else ''}; expected one "
                                "CSV file: extract it (tar -xf FILE) and name the offers CSV")
    return data, kind


def _name_of(f: IO | str | os.PathLike, origin: str) -> str:
    """The file name of `f` (a path or an open stream) as given, else `origin`: what its suffix says it is."""
    name = f if isinstance(f, (str, os.PathLike)) else getattr(f, "name", None)
    return os.fspath(name) if isinstance(name, (str, os.PathLike)) else origin


def _hex(data: bytes) -> str:
    """Bytes as a message shows them: `1f 8b 08`."""
    return data.hex(" ")


def _a_file(kind: str) -> str:
    """"a gzip file", "an xz file"."""
    return f"{'an' if kind == 'xz' else 'a'} {kind} file"


def _whole(kind: str, again: bool = False) -> str:
    """What a damaged or cut-short `kind` file is asked to be instead; `again`: ask whether to download it again."""
    hint = " (download it again?)" if again else ""
    if kind == "zstd":   # not read even whole
        return f"expected the offers CSV itself, from a whole zstd file{hint} (zstd -d FILE -o OUT.csv)"
    return f"expected a whole {kind} file of an offers CSV{hint}, or the CSV itself"


def _cut_before_magic(data: bytes) -> str | None:
    """The kind of compressed file whose magic number `data`, a whole file, is only the start of: a file cut short
    before its magic number was whole, which no offers CSV is (but a single printable character: "B" starts a
    CSV's header as well as bzip2's magic); else None."""
    if not data or (len(data) == 1 and 0x20 <= data[0] < 0x7f):
        return None
    return next((kind for kind, magics in COMPRESSED.items() for magic in magics
                 if len(data) < len(magic) and magic.startswith(data)), None)


def _damaged_start(data: bytes) -> tuple[str, str] | None:
    """(the kind of compressed file `data` is, damaged at its start, and what tells: "it begins …, a byte off …"):
    its first bytes all those of a kind but one, or a zip directory at its end; else None."""
    head = _hex(data[:6])
    for kind, parts in DAMAGE_SIGNATURES.items():
        wrong = sum(a != b for at, part in parts for a, b in zip(data[at:at + len(part)], part))
        if len(data) >= max(at + len(part) for at, part in parts) and wrong <= 1:
            want = " … ".join(_hex(part) for _, part in parts)
            return kind, f"it begins {head}, a byte off the {want} {_a_file(kind)} begins with"
    if _zip_entries(data) is not None:   # a zip's directory is at its end: what zip tools read first
        return "zip", f"it ends with a zip's directory but begins {head}, not 50 4b 03 04 as a zip file does"
    return None


def _not_utf8(origin: str, name: str, data: bytes, kind: str | None, bad: str) -> OffersSchemaError:
    """Why the offers file `data` (decompressed from `kind`, or as read: None), named `name`, is not UTF-8 text,
    where `bad` says the first byte that is not: a compressed file damaged at its start (its first bytes all but
    one a kind's, a zip directory at its end, or its name one's suffix), one compressed twice, or a CSV in another
    encoding."""
    if kind is not None:
        inner = compressed_kind(data)
        if inner is not None:
            return OffersSchemaError(f"{origin}: {kind}-compressed, and what that decompresses to is {inner}-compressed "
                                     f"again (compressed twice?); expected an offers CSV compressed once: decompress "
                                     "it once and name the file that gives")
        return OffersSchemaError(f"{origin}: {kind}-compressed, but what that decompresses to is not UTF-8 text ({bad}); "
                                 "expected an offers CSV file in UTF-8")
    if (mark := _byte_order_mark(data)) is not None:   # Excel's "Unicode Text", PowerShell's `>`
        return OffersSchemaError(f"{origin}: not UTF-8 text: {mark} (it begins with {mark}'s byte order mark); "
                                 "expected an offers CSV file in UTF-8: save it as UTF-8 (in Excel: CSV UTF-8)")
    if (damaged := _damaged_start(data)) is not None:
        looks, tell = damaged
        return OffersSchemaError(f"{origin}: looks {looks}-compressed but cannot be decompressed: {tell} (damaged at "
                                 f"its start), and it is not UTF-8 text either ({bad}); {_whole(looks, again=True)}")
    suffix = Path(name).suffix.lower()
    if (named := _SUFFIXES.get(suffix)) is not None:
        want = _hex(DAMAGE_SIGNATURES.get(named, ((0, COMPRESSED[named][0]),))[0][1])
        return OffersSchemaError(f"{origin}: named {suffix} but neither {named}-compressed ({_a_file(named)} begins "
                                 f"{want}; this one {_hex(data[:6])}) nor UTF-8 text ({bad}): perhaps {_a_file(named)} "
                                 f"damaged at its start; {_whole(named, again=True)}")
    return OffersSchemaError(f"{origin}: not UTF-8 text ({bad}); expected an offers CSV file in UTF-8")


# UTF-32's little-endian mark first: it begins as UTF-16's does (planner.text says the same of scenario files; the
# adapters do not import the planner)
_BYTE_ORDER_MARKS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe", "UTF-16"),
                     (b"\xfe\xff", "UTF-16"))


def _byte_order_mark(data: bytes) -> str | None:
    """The encoding a UTF-16 or UTF-32 byte order mark at the start of `data` names, or None."""
    return next((encoding for mark, encoding in _BYTE_ORDER_MARKS if data.startswith(mark)), None)


def _first_bad_byte(data: bytes, exc: UnicodeDecodeError) -> str:
    """Where `data` stops being UTF-8, `byte 0xe9 at offset 1,204` (from its start: pandas' error counts from the
    chunk it was decoding), else where `exc` says."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as whole:
        exc = whole
    return f"byte 0x{exc.object[exc.start]:02x} at offset {exc.start:,}"


def _compressed_chunks(f: IO[bytes], head: bytes, kind: str, origin: str) -> Iterator[bytes]:
    """`head`, then the rest of `f` a chunk at a time; OffersSchemaError past MAX_OFFERS_CSV_BYTES of them."""
    size, chunk = 0, head
    while chunk:
        size += len(chunk)
        if size > MAX_OFFERS_CSV_BYTES:
            raise _too_large(origin, f" compressed ({kind})")
        yield chunk
        chunk = f.read(_CHUNK_BYTES)


def _decompressed(chunks: Iterator[bytes], kind: str, origin: str) -> bytes:
    """The bytes that the `kind` stream `chunks` (gzip, bzip2, xz or lzma) decompresses to, one member after
    the other (as gzip and xz read a file of several); OffersSchemaError as soon as they pass
    MAX_OFFERS_CSV_BYTES, or when the stream is damaged or cut short."""
    out, d, size = bytearray(), _DECOMPRESSOR[kind](), 0
    for chunk in chunks:
        size += len(chunk)
        while chunk:
            if d.eof:
                chunk = chunk.lstrip(b"\0")   # zeros after a member are padding (gzip and xz allow them)
                if not chunk:
                    break
                d = _DECOMPRESSOR[kind]()
            try:
                # at most one byte over the bound: the output stops there, whatever the input holds
                out += d.decompress(chunk, max_length=MAX_OFFERS_CSV_BYTES + 1 - len(out))
            except _DECOMPRESS_ERRORS as exc:
                raise _damaged(origin, kind, exc) from None
            if len(out) > MAX_OFFERS_CSV_BYTES:
                raise _too_large(origin, f" once decompressed ({kind})")
            chunk = d.unused_data if d.eof else b""
    if not d.eof:
        raise OffersSchemaError(f"{origin}: not a complete {kind} file: it ends after {size:,} bytes, inside the "
                                "compressed data (cut short by a download or a copy?); expected a whole "
                                f"{kind} file of an offers CSV, or the CSV itself")
    return bytes(out)


def _unzipped(data: bytes, origin: str) -> bytes:
    """The one file of the zip archive `data`, read to at most MAX_OFFERS_CSV_BYTES, one more to tell;
    OffersSchemaError for an archive of no file or several, encrypted, damaged or cut short."""
    entries = _zip_entries(data)
    if entries is not None and entries > MAX_ZIP_ENTRIES:
        raise OffersSchemaError(f"{origin}: a zip archive of {entries:,}{' or more' if entries == 0xFFFF else ''} "
                                "entries; expected one holding a single offers CSV")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            files = [i for i in archive.infolist() if not i.is_dir() and not i.filename.startswith("__MACOSX/")]
            if len(files) != 1:
                names = ", ".join(shown_cell(i.filename) for i in files[:5]) + (", …" if len(files) > 5 else "")
                raise OffersSchemaError(f"{origin}: a zip archive of {counted(len(files), 'file')}"
                                        f"{' (' + names + ')' if files else ''}; expected one holding a single "
                                        "offers CSV")
            if files[0].flag_bits & 0x1:
                raise OffersSchemaError(f"{origin}: a zip archive whose file {shown_cell(files[0].filename)} is "
                                        "encrypted; expected one that is not (zip without -e)")
            if files[0].compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                # zipfile bounds what a deflated or stored file gives per read, not a bzip2 or lzma one
                raise OffersSchemaError(f"{origin}: a zip archive whose file is compressed with method "
                                        f"{files[0].compress_type}; expected deflate, what zip tools write "
                                        "(or gzip the CSV)")
            with archive.open(files[0]) as member:
                return member.read(MAX_OFFERS_CSV_BYTES + 1)
    except OffersSchemaError:
        raise
    # a damaged directory can also make zipfile seek before the start (ValueError) or name a version it lacks
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, NotImplementedError) as exc:
        if str(exc) == "File is not a zip file":   # no directory: it is at the end of a zip
            raise OffersSchemaError(f"{origin}: not a complete zip file: its directory, at the end of a zip, is "
                                    "missing (cut short by a download or a copy?); expected a whole zip of an "
                                    "offers CSV, or the CSV itself") from None
        raise _damaged(origin, "zip", exc) from None


def _damaged(origin: str, kind: str, exc: Exception) -> OffersSchemaError:
    reason = str(exc).rpartition("while decompressing data: ")[2]   # zlib's "Error -3 while decompressing data: …"
    return OffersSchemaError(f"{origin}: not a valid {kind} file ({reason}); expected a whole {kind} file of an "
                             "offers CSV, or the CSV itself")


def _zip_entries(data: bytes) -> int | None:
    """The count of entries the end record of the zip archive `data` gives (0xFFFF: Zip64, 65,535 or more),
    read before zipfile reads them all; None when there is no end record (zipfile then says so)."""
    end = data.rfind(b"PK\x05\x06", max(0, len(data) - 22 - 0xFFFF))   # 22 bytes and a comment of up to 64 KiB
    return int.from_bytes(data[end + 10:end + 12], "little") if end >= 0 and len(data) >= end + 12 else None


def read_offers_csv(f: IO | str | os.PathLike, origin: str = "offers CSV") -> pd.DataFrame:
    """An offers table from CSV text, validated: empty text cells stay "", empty numeric cells become NaN.

    A user's file, so every cell is read as text first and each number or flag checked on its own: a bad
    cell raises OffersSchemaError naming the file, the row (its offer), the column and what was expected,
    where a typed read would stop at the first one with pandas' words (or an OverflowError). A file over
    MAX_OFFERS_CSV_BYTES is refused before it is parsed; a gzip, bzip2, xz or lzma file, or a zip of one
    file (told by their first bytes, not their names), is decompressed first, and refused as soon as it gives
    more than MAX_OFFERS_CSV_BYTES."""
    data, kind = _bounded(f, origin)
    text = io.BytesIO(data) if isinstance(data, bytes) else io.StringIO(data)
    try:
        with warnings.catch_warnings():
            # a data row longer than the header: pandas would warn and drop the extra fields
            warnings.simplefilter("error", pd.errors.ParserWarning)
            raw = pd.read_csv(text, dtype=str, keep_default_na=False, index_col=False)
    except pd.errors.EmptyDataError:   # pandas says "No columns to parse from file", naming no file
        raise OffersSchemaError(f"{origin}: the file is empty; expected a header line naming the offers columns "
                                "(offer_id, provider, region, sku, … as docs/offers-contract.md lists them) and a "
                                "row per offer") from None
    except UnicodeDecodeError as exc:
        raise _not_utf8(origin, _name_of(f, origin), data, kind, _first_bad_byte(data, exc)) from None
    except pd.errors.ParserWarning:
        raise OffersSchemaError(f"{origin}: the data rows have more fields than the header line has columns (an "
                                "unquoted comma in a text cell?); expected one field per header column") from None
    except pd.errors.ParserError as exc:
        text = str(exc).removeprefix("Error tokenizing data. C error: ").strip()
        raise OffersSchemaError(f"{origin}: not readable as CSV: {text}") from None
    _check_header(list(raw.columns), origin)
    lines = _row_lines(data)
    lines = lines if len(lines) == len(raw) else None   # (a reading that differs from pandas': rows are numbered)
    offers = validate_offers(_typed(raw, origin, lines), origin=origin, lines=lines)
    if lines is not None:   # for the checks a planner makes of the file's rows later (catalog.offers)
        offers.attrs[FILE_LINES] = lines
    return offers


# the key of an offers table's attrs that holds the file line of each row, where it was read from a CSV
FILE_LINES = "file_lines"


def _row_lines(data: str | bytes) -> list[int]:
    """The file line each data row of CSV `data` starts on, as pandas reads its rows: after the header line, blank
    lines (or of spaces and tabs alone) skipped, a quoted cell over several lines one row. [] where the text is not
    UTF-8 or not CSV."""
    import csv

    try:
        text = data.decode("utf-8-sig") if isinstance(data, bytes) else data
        reader, starts, at, header = csv.reader(io.StringIO(text)), [], 1, False
        for record in reader:
            # a line of blanks alone (spaces, a tab: one cell of them) is skipped as pandas skips it; " , " is a row
            blank = not record or (len(record) == 1 and not record[0].strip())
            if not blank and header:   # nor the header (the first line that is not blank)
                starts.append(at)
            header = header or not blank
            at = reader.line_num + 1
    except (UnicodeDecodeError, csv.Error):
        return []
    return starts


# how close an unknown header name must be to a contract column to be taken for a misspelling of it (difflib's
# ratio: "asof" and "as_of" 0.89, "hourly_usd" and "hourly_price" 0.64)
NEAR_COLUMN = 0.8


def _check_header(columns: list[str], origin: str) -> None:
    """OffersSchemaError for a contract column given twice — pandas reads the second `hourly_price` as
    `hourly_price.1`, which validate_offers then ignored, so the first copy priced the plan without a word —
    and for an unknown column that is a contract column misspelt (`asof`: the dates were read as missing), when
    that column is not there too. Other columns (a comment of the user's, `notes` beside `note`) are ignored,
    as before."""
    known = list(OFFER_COLUMNS)
    twice = sorted({m[1] for c in columns if (m := re.fullmatch(r"(.+)\.[0-9]+", c)) and m[1] in known})
    if twice:
        raise OffersSchemaError(f"{origin}: columns given twice {twice}; expected each once")
    near = {c: close[0] for c in columns if c not in known
            and (close := difflib.get_close_matches(c.strip().lower(), known, n=1, cutoff=NEAR_COLUMN))
            and close[0] not in columns}   # `notes` beside `note`: a column of the user's own
    if near:
        raise OffersSchemaError(f"{origin}: unknown {plural(len(near), 'column')} "
                                + ", ".join(f"{shown_cell(c)} (did you mean {m!r}?)" for c, m in near.items())
                                + "; expected the columns of docs/offers-contract.md")


def _typed(raw: pd.DataFrame, origin: str, lines: Sequence[int] | None = None) -> pd.DataFrame:
    """`raw` (every cell text) with its number and flag columns typed; OffersSchemaError naming every cell
    that is not what its column holds. Empty number cells become NaN (validate_offers names the required ones)."""
    out = raw.copy()
    problems = pd.Series([""] * len(raw), index=raw.index, dtype=object)

    def flag(mask: pd.Series, text) -> None:
        for i in mask[mask].index:
            problems[i] = ", ".join(x for x in (problems[i], text(raw.at[i, col])) if x)

    for col in [c for c in _NUMERIC if c in raw.columns]:
        cells = raw[col].fillna("").str.strip()   # a short row leaves its last cells NaN
        numbers = pd.to_numeric(cells.mask(cells == ""), errors="coerce").astype("float64")   # 1e400: inf, flagged later
        # pandas reads an integer of 310 to 4,300 digits as inf but one of more as NaN (Python's int limit): inf too
        huge = numbers.isna() & cells.str.fullmatch(r"[+-]?[0-9]+")
        numbers[huge] = [float(v) for v in cells[huge]]
        flag((cells != "") & numbers.isna() & (cells.str.lower() != "nan"),
             lambda v, col=col: f"{col} {shown_cell(v)} is not a number")
        out[col] = numbers.astype("float64")
    # as validate_offers reads them from text, in the same words (a short row leaves its last cells NaN: empty)
    for col, typed in (("term_months", whole_months), ("gpu_known", known_flags)):
        if col in raw.columns:
            out[col], said = typed(raw[col].fillna(""))
            problems = pd.Series([", ".join(x for x in (p, s) if x) for p, s in zip(problems, said)], index=raw.index,
                                 dtype=object)
    if (problems != "").any():   # with the missing columns: every problem of the file in one message
        missing = missing_columns(raw.columns)
        raise OffersSchemaError(f"{origin}: " + "; ".join([f"missing columns {missing}"] if missing else [])
                                + ("; " if missing else "")
                                + name_rows(raw.reset_index(drop=True), problems.reset_index(drop=True), lines))
    return out


def load_snapshot(providers: Sequence[str] | None = None) -> pd.DataFrame:
    """The packaged offers of `providers` (default: every registry row with a snapshot file), validated,
    in registry order (aws, then azure)."""
    packaged = [p for p in registry.providers() if p.snapshot_file]
    have = [p.name for p in packaged]
    wanted = list(have if providers is None else providers)
    unknown = sorted(set(wanted) - set(have))
    if unknown:
        raise ValueError(f"no packaged snapshot for {plural(len(unknown), 'provider')} {unknown}; have {have}")
    frames, names = [], []
    for provider in packaged:
        if provider.name in wanted:
            with (_snapshot_dir() / provider.snapshot_file).open("r", encoding="utf-8") as f:
                frames.append(_read_csv(f))
            names.append(provider.snapshot_file)
    if not frames:
        return validate_offers(pd.DataFrame({c: [] for c in OFFER_COLUMNS}), origin="snapshot")
    # checked once, all files together (each file alone would be checked again after the concat)
    return validate_offers(pd.concat(frames, ignore_index=True), origin=f"snapshot {' + '.join(names)}")


def snapshot_info() -> dict:
    """What the packaged snapshot holds: `built_at`, `built_from`, and per provider the row count, the
    `as_of` range (`as_of_min`, `as_of_max`; ISO dates, None when no row states a date) and the undated
    rows (`rows_without_as_of`); `commitments` (which reserved / savings-plan options have prices, per
    provider and region) and `retired_sizes_dropped` (size, series, GPU, retired_on, rows dropped, source)."""
    manifest = json.loads((_snapshot_dir() / "manifest.json").read_text(encoding="utf-8"))
    providers = {p.name: manifest["files"][p.snapshot_file] for p in registry.providers()
                 if p.snapshot_file in manifest["files"]}
    return {"built_at": manifest["built_at"], "built_from": manifest["built_from"], "providers": providers,
            "commitments": manifest.get("commitments", {"priced": {}}),
            "retired_sizes_dropped": manifest.get("retired_sizes_dropped", [])}
