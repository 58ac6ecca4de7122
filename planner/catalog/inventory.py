"""What you already own: nvidia-smi output → card ids → the `onprem.existing` block of a scenario."""

from __future__ import annotations

import codecs
import csv
import re
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from planner.catalog import gpus as catalog
from planner.errors import PlannerError
from planner.fileio import open_for_reading
from planner.text import series

NVIDIA_SMI_ARGS = ["--query-gpu=name,memory.total,power.limit", "--format=csv,noheader"]
MEMORY_TOLERANCE = 0.15  # nvidia-smi reports usable MiB, a little under the marketed GB
# nvidia-smi prints about 100 bytes per GPU: 1 MB is 10,000 GPUs. Reading no more keeps `--from /dev/zero`
# (or a wrong, huge file) from filling memory.
MAX_INVENTORY_BYTES = 1_000_000
NVIDIA_SMI_COMMAND = "nvidia-smi " + " ".join(NVIDIA_SMI_ARGS)
# Lines listed in `Inventory.unknown`; the rest are counted. A wrong file of 1 MB holds ~180,000 short lines:
# a warning (and a did-you-mean) for each took 16 s and buried the first, telling one.
MAX_LISTED_UNKNOWN = 100
# Characters in one line. nvidia-smi prints about 50 per GPU for the three fields asked (some 100 with a
# long name); a query of many more fields stays far below this. A longer line is another file (a minified
# JSON, a log): refused in one message, before the csv module reads it (a field over 131,072 characters
# was its traceback, "field larger than field limit").
MAX_LINE_CHARS = 10_000

# memory.total as nvidia-smi prints it: "81920 MiB" (--format=csv), "81920" (csv,nounits: the header says
# [MiB]), or a bracketed reason for no value ("[N/A]", "[Not Supported]", "[Unknown Error]").
_MEMORY = re.compile(r"(?P<value>\d+(?:\.\d+)?)\s*(?P<unit>[A-Za-z]*)|\[(?P<reason>[^\]]*)\]")
# MiB per unit (case ignored). nvidia-smi prints MiB; the others are read at their true size, as a
# hand-edited or converted file may hold them (80 GiB = 81920 MiB; 81920 MB = 78125 MiB).
MIB_PER_UNIT = {"": 1.0, "mib": 1.0, "gib": 1024.0, "kib": 1 / 1024, "mb": 1e6 / 2**20, "gb": 1e9 / 2**20}


@dataclass
class Inventory:
    existing: Counter = field(default_factory=Counter)       # card id -> count
    # (line, why it was not counted): the first MAX_LISTED_UNKNOWN, then one line saying how many more
    unknown: list[tuple[str, str]] = field(default_factory=list)
    unlisted: int = 0                                          # lines not counted beyond those listed
    unpriced: frozenset = frozenset()                          # counted cards with no sourced catalog price

    def yaml_block(self, age_months: int | None = None, notes: dict[str, list[str]] | None = None) -> str:
        """The block to paste under a scenario's `onprem:`, each card as `{count, age_months}`, with the lines
        of `notes` (card id → what a scenario would say of it) as comments above it.

        nvidia-smi does not say when a card was bought. Without `age_months` the block says 0 (new, the
        highest resale value) and a comment asks the user to set each age: the short form `card: n` would
        silently count used cards as new."""
        if not self.existing:
            return "onprem:\n  existing: {}\n"
        age = 0 if age_months is None else int(age_months)
        lines = []
        for card, n in sorted(self.existing.items()):
            if card in self.unpriced:   # the plan warns too, but only once the block is pasted and planned
                lines += [f"    # {card}: no sourced price in the catalog, so its maintenance counts as 0 and the plan never",
                          f"    # sells it (its resale value unknown); set onprem.card_overrides.{card}.price (and currency)",
                          "    # from a quote or your books"]
            lines += [f"    # {card}: {note}" for note in (notes or {}).get(card, [])]
            lines.append(f"    {card}: {{count: {n}, age_months: {age}}}")
        if age_months is None:
            lines[:0] = ["    # nvidia-smi does not say when a card was bought: set each age_months (its age in months",
                         "    # at month 1 of the plan). 0 counts it as new, at its highest resale value."]
        return "onprem:\n  existing:\n" + "\n".join(lines) + "\n"


def read_nvidia_smi() -> str:
    """Run nvidia-smi; PlannerError in one line when it is missing or fails."""
    exe = shutil.which("nvidia-smi")
    if exe is None:
        raise PlannerError("nvidia-smi not found on this machine (no NVIDIA driver); "
                           "run it where the GPUs are and pass its output with --from FILE")
    try:
        done = subprocess.run([exe, *NVIDIA_SMI_ARGS], capture_output=True, text=True, timeout=30, check=True)
    except (subprocess.SubprocessError, OSError) as exc:
        raise PlannerError(f"nvidia-smi failed: {exc}") from None
    check_gpu_lines(done.stdout, "nvidia-smi")
    return done.stdout


def read_inventory_file(path: Path) -> str:
    """The text of saved nvidia-smi output; PlannerError when it cannot be read or is over MAX_INVENTORY_BYTES."""
    try:
        with open_for_reading(path) as f:   # a FIFO nobody writes to reads as empty
            data = f.read(MAX_INVENTORY_BYTES + 1)
    except OSError as exc:
        raise PlannerError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return inventory_text(data, str(path))


def read_inventory_stdin() -> str:
    """The text of nvidia-smi output piped to standard input (`--from -`), as `read_inventory_file` reads a file."""
    if sys.stdin is None:   # closed before start (`<&-`)
        raise PlannerError("standard input: closed; pipe the nvidia-smi output in, or give --from FILE")
    stream = getattr(sys.stdin, "buffer", None)
    try:
        if stream is None:   # a text stream put in its place (a notebook's): its text, as UTF-8
            data = sys.stdin.read(MAX_INVENTORY_BYTES + 1).encode("utf-8")
        else:
            data = stream.read(MAX_INVENTORY_BYTES + 1)
    except OSError as exc:
        raise PlannerError(f"standard input: cannot read: {exc.strerror or exc}") from None
    return inventory_text(data, "standard input")


def inventory_text(data: bytes, source: str) -> str:
    """`data`, read from `source` (a file name, "standard input"), as the text of nvidia-smi output; PlannerError
    naming `source` when it is over MAX_INVENTORY_BYTES (read one byte more to tell), not text, or has no GPU line."""
    if len(data) > MAX_INVENTORY_BYTES:
        raise PlannerError(f"{source}: more than {MAX_INVENTORY_BYTES:,} bytes; nvidia-smi output is about 100 bytes "
                           f"per GPU — is this the output of {NVIDIA_SMI_COMMAND}?")
    text = decode_inventory(data)
    if "\0" in text:
        raise PlannerError(f"{source}: holds NUL characters, not text; save the nvidia-smi output as UTF-8 "
                           "(or UTF-16 with its byte-order mark, as Windows PowerShell's `>` writes it)")
    check_gpu_lines(text, source)
    return text


def decode_inventory(data: bytes) -> str:
    """Text of saved nvidia-smi output: UTF-16 when it starts with a UTF-16 byte-order mark (Windows
    PowerShell's `>` and Out-File write that), else UTF-8 (a UTF-8 byte-order mark dropped)."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16", errors="replace")
    return data.decode("utf-8-sig", errors="replace")


def check_gpu_lines(text: str, source: str) -> None:
    """PlannerError (one line) when `text` holds no GPU line of nvidia-smi's shape (`name, memory, …`):
    an empty file, an error message or another file would otherwise give an empty block and exit 0; or
    when a line is longer than MAX_LINE_CHARS (named by its number)."""
    numbered = list(enumerate(text.removeprefix("\ufeff").splitlines(), 1))
    for number, line in numbered:
        if len(line) > MAX_LINE_CHARS:
            raise PlannerError(f"{source}: line {number}: not a GPU line ({len(line):,} characters; nvidia-smi "
                               f"prints about 100 per GPU) — is this the output of {NVIDIA_SMI_COMMAND}?")
    lines = [line.strip() for _, line in numbered if line.strip()]
    if any(_gpu_cells(line) is not None or _names_a_gpu(line) for line in lines):
        return
    seen = f"its first line is {lines[0][:80]!r}" if lines else "it is empty"
    raise PlannerError(f"{source}: no GPU lines ({seen}); expected lines like 'NVIDIA H200, 143771 MiB, 700.00 W' "
                       f"from {NVIDIA_SMI_COMMAND}")


def _gpu_cells(line: str) -> tuple[str, re.Match] | None:
    """(name, memory.total match) of a GPU line of nvidia-smi output, None for a line of another shape."""
    cells = _cells(line)
    if len(cells) < 2 or not cells[0] or cells[0].lower() == "name":
        return None
    memory = _MEMORY.fullmatch(cells[1])
    return None if memory is None else (cells[0], memory)


def _name_only_gpu(line: str) -> str | None:
    """The catalog GPU a line of `nvidia-smi --query-gpu=name` output names (no memory cell), else None."""
    cells = _cells(line)
    return catalog.resolve_gpu(cells[0]) if len(cells) == 1 and cells[0] else None


def _name_only_family(line: str) -> tuple[str, ...]:
    """The GPUs of the family a line of `nvidia-smi --query-gpu=name` output names (`NVIDIA A100`), else ()."""
    cells = _cells(line)
    return _family(cells[0]) if len(cells) == 1 and cells[0] else ()


def _names_a_gpu(line: str) -> bool:
    """Whether a line is `nvidia-smi --query-gpu=name` output naming a catalog GPU or family (its cells read once:
    a megabyte of lines that are not is read whole)."""
    cells = _cells(line)
    return len(cells) == 1 and bool(cells[0]) and (catalog.resolve_gpu(cells[0]) is not None or bool(_family(cells[0])))


def _cells(line: str) -> list[str]:
    """The comma-separated cells of one line, CSV quotes undone: nvidia-smi writes none, but a file saved
    from a spreadsheet quotes some ('"12288 MiB"' was not a memory cell while '"NVIDIA …"' was a name). A line
    over MAX_LINE_CHARS has none (check_gpu_lines refuses it; parse_inventory lists it as no GPU line)."""
    if len(line) > MAX_LINE_CHARS:
        return [""]
    return [c.strip() for c in next(csv.reader([line], skipinitialspace=True), [""])]


@lru_cache(maxsize=4096)
def _unknown_name_hint(name: str) -> str:
    """Why a GPU name maps to no card, with a did-you-mean (memoised: a file repeats its names)."""
    gpu = catalog.resolve_gpu(name)
    if gpu:
        return (f"GPU {gpu} has no on-prem card in planner/data/onprem_cards.csv; add the card as a custom card "
                "(onprem.custom_cards)")
    near = catalog.suggest_gpu(name)
    # said as a name the catalog has, not as a typo to fix: an RTX A4000 read "did you mean RTX-A6000?", another
    # card a user might then count it as
    return ("not in planner/data/gpus.csv" + (f" (the nearest name there is {near[0]}, another GPU unless this "
                                              "line misspells it); add the card as a custom card (onprem.custom_cards)"
                                              if near else "; add the card as a custom card (onprem.custom_cards)"))


def _memory_problem(name: str, memory: re.Match, nominal_mib: float, what: str, card: str) -> str | None:
    """Why a GPU line's memory.total does not show it is `what` (the card `card`), else None."""
    if memory["reason"] is not None:   # nvidia-smi could not read it: the size, so which card, is unknown
        return (f"memory.total is [{memory['reason']}], so it cannot be checked to be {what}; "
                f"if it is, count it under {card} by hand")
    memory_mib = _memory_mib(memory)
    if memory_mib is None:
        return _unit_problem(memory)
    if not _fits(memory_mib, nominal_mib):
        return f"{name} with {memory_mib:.0f} MiB is not {what}"
    return None


def _memory_mib(memory: re.Match) -> float | None:
    """A memory.total cell in MiB; None when nvidia-smi gave a reason for no value or the unit is not known."""
    unit = (memory["unit"] or "").lower()
    if memory["reason"] is not None or unit not in MIB_PER_UNIT:
        return None
    return float(memory["value"]) * MIB_PER_UNIT[unit]


def _unit_problem(memory: re.Match) -> str:
    return (f"memory.total {memory[0]!r}: unit {memory['unit']} not known; "
            "expected MiB as nvidia-smi prints it (or GiB, MB, GB)")


def _fits(memory_mib: float, nominal_mib: float) -> bool:
    """Whether nvidia-smi's `memory_mib` is a board of `nominal_mib` (NaN, a size not known: never)."""
    return abs(memory_mib - nominal_mib) <= MEMORY_TOLERANCE * nominal_mib


# ---------------------------------------------------------------------------------------------------
# A name that is a family of GPUs (`A100`, `NVIDIA A100`, `A100-80GB`): memory.total picks the member when one
# member's size is nearest to it, else the message lists the members to choose from, with their memory. Such a
# line was "not in gpus.csv" with one member (A100-40GB-SXM for `A100`) or another GPU (A10) as the nearest name.

# Words nvidia-smi prints before a GPU's name (`NVIDIA A100-SXM4-80GB`; older drivers `Tesla V100-SXM2-16GB`):
# gpus.csv writes its families without them.
_VENDOR_WORDS = re.compile(r"(?:nvidia\s+)?(?:tesla\s+)?", re.IGNORECASE)
COUNT_BY_HAND = ("count it by hand under the card of the one it is (as a custom card, onprem.custom_cards, "
                 "where it has none)")


def _family(name: str) -> tuple[str, ...]:
    """The catalog GPUs of the family `name` names when it names no one GPU, with or without the vendor's
    words before it (catalog.family_members), else ()."""
    if catalog.resolve_gpu(name) is not None:
        return ()
    bare = _VENDOR_WORDS.sub("", name, count=1)
    return catalog.family_members(name) or (catalog.family_members(bare) if bare and bare != name else ())


def _nominal_mib(gpu: str) -> float:
    return float(catalog.load_gpus().loc[gpu, "memory_gb"]) * 1024


def _members_text(members, cards) -> str:
    """'A100-80GB-PCIE (80 GB, card a100-80gb-pcie) and A100-80GB-SXM (80 GB, no on-prem card)'."""
    said = []
    for gpu in members:
        card = next(iter(cards.index[cards["gpu"] == gpu]), None)
        said.append(f"{gpu} ({_nominal_mib(gpu) / 1024:g} GB, " + (f"card {card})" if card else "no on-prem card)"))
    return series(said)


def _family_member(name: str, memory: re.Match, members: tuple[str, ...], cards) -> tuple[str | None, str | None]:
    """(member, None): the one member of the family `members` whose catalog memory is nearest to memory.total
    (within MEMORY_TOLERANCE); else (None, why no member can be picked, listing those to choose from: the
    members of the size nearest, or all of them when the memory is not read or fits none)."""
    memory_mib = _memory_mib(memory)
    if memory_mib is None:
        unread = (f"memory.total is [{memory['reason']}], which does not tell which one it is: {COUNT_BY_HAND}"
                  if memory["reason"] is not None else _unit_problem(memory))
        return None, f"{name} names a family of GPUs: {_members_text(members, cards)}; {unread}"
    gap = {gpu: abs(memory_mib - _nominal_mib(gpu)) for gpu in members if _fits(memory_mib, _nominal_mib(gpu))}
    nearest = [gpu for gpu, mib in gap.items() if mib == min(gap.values())]
    if len(nearest) == 1:
        return nearest[0], None
    if not nearest:
        return None, (f"{name} with {memory_mib:.0f} MiB is none of its family's GPUs: "
                      f"{_members_text(members, cards)}; add it as a custom card (onprem.custom_cards)")
    return None, (f"{name} names a family of GPUs, and {memory_mib:.0f} MiB fits more than one: "
                  f"{_members_text(nearest, cards)}; {COUNT_BY_HAND}")


def parse_inventory(text: str) -> Inventory:
    """Map each GPU line (`name, memory.total, power.limit`) to an on-prem card id.

    A header line (`name, memory.total [MiB], ...`) is skipped. A GPU of an 8-GPU HGX server maps to the
    HGX card row of its GPU (one unit per GPU, as the catalog counts them). A GPU is counted only when its
    memory.total matches the catalog's (names are shared across memory sizes: the RTX 3060 has 8 and 12 GB):
    a line whose memory is `[N/A]` or in a unit not known is listed in `unknown` with what to add by hand.
    """
    cards = catalog.load_cards()
    gpus = catalog.load_gpus()
    inv = Inventory()

    def listed() -> bool:
        """Whether one more line not counted is listed in `unknown` (else it is counted in `unlisted`)."""
        if len(inv.unknown) < MAX_LISTED_UNKNOWN:
            return True
        inv.unlisted += 1
        return False

    for raw in text.removeprefix("\ufeff").splitlines():
        line = raw.strip()
        if not line or _cells(line)[0].lower() == "name":
            continue  # blank, or the header of `--format=csv` (without noheader)
        found = _gpu_cells(line)
        if found is None:
            named = _name_only_gpu(line)   # `--query-gpu=name` output: a GPU, but which memory size is unknown
            if listed():
                card = next(iter(cards.index[cards["gpu"] == named]), None) if named else None
                members = () if named else _name_only_family(line)
                if members:
                    why = (f"{_cells(line)[0]} names a family of GPUs: {_members_text(members, cards)}; no memory.total "
                           f"on this line to tell which one it is: run {NVIDIA_SMI_COMMAND}, or {COUNT_BY_HAND}")
                elif not named:
                    why = f"not a GPU line of {NVIDIA_SMI_COMMAND} (name, memory.total, power.limit)"
                elif card is None:   # the memory would not help: no card to count it under
                    why = _unknown_name_hint(_cells(line)[0])
                else:
                    why = (f"no memory.total on this line, so it cannot be checked to be the "
                           f"{gpus.loc[named, 'memory_gb']:g} GB {named} of the catalog; run {NVIDIA_SMI_COMMAND}, "
                           f"or if it is, count it under {card} by hand")
                inv.unknown.append((line, why))
            continue
        name, memory = found
        gpu = catalog.resolve_gpu(name)
        members = () if gpu else _family(name)
        if members:
            gpu, why = _family_member(name, memory, members, cards)
            if why:
                if listed():
                    inv.unknown.append((line, why))
                continue
        matches = list(cards.index[cards["gpu"] == gpu]) if gpu else []
        if not matches:
            if listed():   # the did-you-mean is the slow part: only for the lines listed
                inv.unknown.append((line, _unknown_name_hint(gpu if members else name)))
            continue
        nominal_gb = gpus.loc[gpu, "memory_gb"]
        problem = _memory_problem(name, memory, nominal_gb * 1024, f"the {nominal_gb:g} GB {gpu} of the catalog",
                                  matches[0])
        if problem:
            if listed():
                inv.unknown.append((line, problem))
            continue
        inv.existing[matches[0]] += 1
    inv.unpriced = frozenset(card for card in inv.existing if not cards.loc[card, "price"] > 0)   # NaN: empty
    if inv.unlisted:
        inv.unknown.append((f"… and {inv.unlisted:,} more lines not counted",
                            f"not listed; only the first {MAX_LISTED_UNKNOWN} are"))
    return inv
