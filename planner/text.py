"""Text a user supplied (a scenario's names, a price file's cells, a file name) made inert for a reader:
`visible` shows its control characters as \\xNN; and the words for counts (`counted`) and a solver's gap
(`gap_text`). Plain Python: the console, the engine, the reports and the dashboard all import it.

Control characters would act on the terminal that prints or `cat`s the text: ESC [ 31 m recolours it,
ESC ] retitles it or makes a hyperlink, BS and CR overwrite what was printed, and VT, FF, FS-RS and NEL end a
line for a reader that splits lines on them. C0 but tab and line feed, DEL and C1 are shown as \\xNN, so the
text stays readable and names what is in the file; a carriage return is dropped, as rich drops it
(rich.control.STRIP_CONTROL_CODES), so a CRLF line end reads as one. Line and paragraph separators,
bidirectional controls and zero-width characters are shown as \\uNNNN.
"""

import re

# the planner's messages quote and count as the adapters' do
from pricing_adapters.shown import counted, plural, series, shortened  # noqa: F401

_CONTROLS = {c: f"\\x{c:02x}" for c in (*range(0x09), *range(0x0b, 0x20), 0x7f, *range(0x80, 0xa0))}
_CONTROLS[0x0d] = None
# Characters that change how the text around them reads without being seen: the line and paragraph
# separators (a reader that splits lines on them sees a new line), the bidirectional marks, embeddings,
# overrides and isolates (U+202E shows "evil" as "live" and reorders what follows), and the zero-width
# ones. Shown as \uNNNN.
_FORMATS = (0x061c, *range(0x200b, 0x2010), 0x2028, 0x2029, *range(0x202a, 0x202f), *range(0x2060, 0x2065),
            *range(0x2066, 0x206a), 0xfeff)
_CONTROLS.update({c: f"\\u{c:04x}" for c in _FORMATS})


def visible(text: str) -> str:
    """`text` with its control characters shown as \\xNN, its invisible format characters as \\uNNNN (a
    carriage return dropped)."""
    return text.translate(_CONTROLS)


def one_line(text: str) -> str:
    """`visible(text)` with its line feeds shown as \\n too: for a name printed inside a line of the tool's own
    (a plan's headline), where a scenario named "Entry\\nTOTAL: 0 USD" would start a line that reads as the
    tool's. Tables keep a line feed (a cell of two lines stays inside its box), and so do the planner's own
    multi-line messages."""
    return visible(text).replace("\n", "\\n")


def not_utf8(exc: UnicodeDecodeError) -> str:
    """Where bytes that are not UTF-8 begin, as `line:column: …` (1-based, the column in characters), with the
    byte, for a file read as text: Python's "can't decode byte 0xe9 in position 9" named no line. A byte
    from 0x80 on in a file that is otherwise text is mostly Latin-1 or Windows-1252 (é is 0xe9 there)."""
    data = exc.object   # the bytes decoded (after a byte order mark "utf-8-sig" skipped)
    before = data[:exc.start]
    breaks = list(re.finditer(rb"\r\n|\r|\n", before))   # line ends as a text file reads them
    line_start = breaks[-1].end() if breaks else 0
    if line_start == 0 and before.startswith(b"\xef\xbb\xbf"):   # a byte order mark is no column, in an editor
        line_start = 3
    line, column = len(breaks) + 1, len(before[line_start:].decode("utf-8", "replace")) + 1
    for mark, encoding in ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe", "UTF-16"),
                           (b"\xfe\xff", "UTF-16")):   # UTF-32's mark first: its little-endian one begins as UTF-16's
        if data.startswith(mark):   # Windows editors, PowerShell's `>`
            return (f"{line}:{column}: not UTF-8 text: {encoding} (it begins with {encoding}'s byte order mark); "
                    "save the file as UTF-8")
    return (f"{line}:{column}: not UTF-8 text (byte 0x{data[exc.start]:02x}); save the file "
            "as UTF-8 (a byte like this is often a Latin-1 or Windows-1252 accent)")


def number_text(x: float, places: int = 2) -> str:
    """`x` as a reader writes it: thousands separated, at most `places` decimals, no trailing zeros, never "-0":
    1,512.5; 756; 0.0025 (places 4)."""
    text = f"{round(x, places) + 0.0:,.{places}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def gap_text(gap: float | None) -> str:
    """A solve's relative gap (the JSON's `solver.gap`, a fraction) as a reader takes it: a percentage, "0" for a
    proven optimum, and what None means: the CLI's solver line, the Markdown summary and a plan's warning when its
    solve stopped unproven (engine.run.unproven_warning) — they printed 0.05870101452765761."""
    if gap is None:   # a time limit stopped the solve before it proved any bound
        return "unknown (stopped before it proved any bound)"
    if gap == 0:
        return "0"
    if gap < 1e-4:
        return "under 0.01 %"   # never "1.2e-05 %"
    return f"{gap * 100:.3g} %" if gap < 10 else f"{gap * 100:,.0f} %"   # nor "1.25e+03 %" (a bound far below zero)


def offer_words(offer) -> tuple[str, str]:
    """An offer's unit_id ("aws:eu-west-1:g5.xlarge:spot") as ("g5.xlarge spot", "aws eu-west-1"); ("", "") for
    none (a card no cloud offer matches)."""
    if not isinstance(offer, str) or offer.count(":") < 3:
        return (offer if isinstance(offer, str) else "", "")
    provider, region, rest = offer.split(":", 2)
    sku, _, option = rest.rpartition(":")
    return f"{sku} {option}", f"{provider} {region}"
