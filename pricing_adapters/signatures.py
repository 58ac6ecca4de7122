"""What a file is, by its first bytes: the formats' published signatures ("magic numbers"), in one table for every
reader of a file a user gives — a scenario and its profile CSVs (planner.scenario), an offers CSV (snapshot), the
price store (store) and the dashboard's upload — so that the same wrong file is called the same thing wherever it is
given. The standard library only: the planner uses it as the adapters do, as the adapters may not import the planner.

Sources: RFC 1952 (gzip), bzip2's file format, the xz and .lzma file formats, RFC 8878 (zstd), PKWARE's APPNOTE (zip),
ISO 32000 (PDF), the 7-Zip, Compound File Binary (MS-CFB), SQLite, PNG, JPEG (JFIF), GIF, ELF, pickle (PEP 3154) and
Parquet format documents; the Office Open XML and OpenDocument package layouts (ECMA-376, OASIS ODF)."""

from __future__ import annotations

SQLITE_MAGIC = b"SQLite format 3\x00"   # the first 16 bytes of every SQLite database file

# The compressed files an offers CSV may come as, by their first bytes (snapshot reads the first four kinds and a zip of
# one file). bzip2's is "BZh" and the block size, 1-9; .lzma (LZMA-alone) has no magic: 5d 00 00 are its usual
# properties and dictionary size.
COMPRESSED = {"gzip": (b"\x1f\x8b",), "bzip2": tuple(b"BZh%d" % n for n in range(1, 10)),
              "xz": (b"\xfd7zXZ\x00",), "lzma": (b"\x5d\x00\x00",),
              "zip": (b"PK\x03\x04", b"PK\x05\x06"), "zstd": (b"\x28\xb5\x2f\xfd",)}
# A damaged file is held against the first bytes of its kind: those of COMPRESSED and the byte after them where the
# format fixes it (gzip's method, 08: deflate), bzip2's with its block magic (31 41 59 26 53 59, the digits of pi)
# after "BZh" and the block size. A file that is not UTF-8 and begins with all of them but a byte is that kind, damaged
# at its start. (offset, bytes) each.
DAMAGE_SIGNATURES = {"gzip": ((0, b"\x1f\x8b\x08"),), "bzip2": ((0, b"BZh"), (4, b"1AY&SY")),
                     "xz": ((0, b"\xfd7zXZ\x00"),), "zip": ((0, b"PK\x03\x04"),), "zstd": ((0, b"\x28\xb5\x2f\xfd"),)}
# what follows bzip2's "BZh" and block size: a block (the digits of pi) or, in a file of nothing, the end of the stream
# (the digits of the square root of pi)
BZIP2_AFTER_HEADER = (b"1AY&SY", b"\x17rE8P\x90")

# The first bytes of files given by mistake for a text file (a plan's workbook, the price store, a compressed copy):
# none is text a scenario or CSV starts with (each holds a control character or a byte that is no UTF-8, or starts as
# no YAML can: `%PDF-` is no YAML directive). (mark, what the file is as a message names it, what to do instead or "");
# `{wanted}` in what to do is what the reader expected ("the scenario's YAML file").
DECOMPRESS = "decompress it first"
SIGNATURES = (
    (b"%PDF-", "a PDF document", ""),
    (b"\x1f\x8b", "a gzip-compressed file", DECOMPRESS),
    (b"\xfd7zXZ\x00", "an xz-compressed file", DECOMPRESS),
    (b"BZh", "a bzip2-compressed file", DECOMPRESS),   # with a block size and what BZIP2_AFTER_HEADER says: binary_kind
    (b"\x5d\x00\x00", "an lzma-compressed file", DECOMPRESS),   # never text: a NUL
    (b"\x28\xb5\x2f\xfd", "a zstd-compressed file", DECOMPRESS),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive", ""),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old-format Microsoft Office file (.xls, .doc)", ""),
    (SQLITE_MAGIC, "an SQLite database", "a price store is given with --store (plan(store=…) in Python)"),
    (b"\x89PNG\r\n\x1a\n", "a PNG image", ""),
    (b"\xff\xd8\xff", "a JPEG image", ""),
    (b"GIF87a", "a GIF image", ""),
    (b"GIF89a", "a GIF image", ""),
    (b"\x7fELF", "a program (ELF)", ""),
)
ZIP = "a zip file"
# What a zip file is, by the folder its first entries are in (Office Open XML and OpenDocument files are zip files)
ZIPPED = ((b"xl/", "an Excel workbook (a zip file)"), (b"word/", "a Word document (a zip file)"),
          (b"ppt/", "a PowerPoint presentation (a zip file)"),
          (b"mimetypeapplication/vnd.oasis.opendocument.spreadsheet", "an OpenDocument spreadsheet (a zip file)"),
          (b"mimetypeapplication/vnd.oasis.opendocument.text", "an OpenDocument text (a zip file)"))
ZIPPED_BYTES = 64 * 1024   # read for the entries' names


def compressed_kind(data: bytes) -> str | None:
    """The kind of compressed file (a key of COMPRESSED) whose magic number `data` begins with, or None."""
    return next((kind for kind, magics in COMPRESSED.items() if data.startswith(magics)), None)


def binary_kind(data: bytes, whole: bool, wanted: str = "the scenario's YAML file") -> tuple[str, str] | None:
    """(what the file is, as a message names it: "an Excel workbook (a zip file)"; what to do instead, or "") of the
    file whose first bytes are `data`, when its signature is one of a common binary format; None otherwise (text, or
    a format not known here: the UTF-8 check says what it can). `whole`: whether `data` is the whole file (Parquet is
    known by its last bytes too). `wanted`: what the reader expected, as what to do instead names it."""
    if data.startswith(COMPRESSED["zip"]):
        return next((kind for mark, kind in ZIPPED if mark in data[:ZIPPED_BYTES]), ZIP), ""
    if data.startswith(b"BZh") and not (data[3:4].isdigit() and data[4:10] in BZIP2_AFTER_HEADER):
        return None
    if data[:1] == b"\x80" and data[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05"):   # its protocol's number
        return "a Python pickle", f"unpickle it in Python, or give {wanted}"
    if whole and len(data) >= 8 and data.startswith(b"PAR1") and data.endswith(b"PAR1"):
        return "a Parquet file", ""
    return next(((kind, remedy) for mark, kind, remedy in SIGNATURES if data.startswith(mark)), None)


def not_the_file(origin: str, found: tuple[str, str], expected: str) -> str:
    """The message for the file `origin` that binary_kind found to be `found`, where `expected` ("a scenario YAML file")
    was: "offers.csv: is a PDF document, not an offers CSV file"; and what to do instead, when there is something."""
    kind, remedy = found
    return f"{origin}: is {kind}, not {expected}{f'; {remedy}' if remedy else ''}"
