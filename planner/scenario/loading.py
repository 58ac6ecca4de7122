"""Reading scenario files: YAML with the safe loader only (YAML 1.2's core schema: yaml_core), the line and
column of every node kept, the structure validated with pydantic and the names against the catalogs. One
`ScenarioError` lists every problem of a file: `file:line:col: field.path: what was expected, got what (did
you mean …)`.
"""

from __future__ import annotations

import bisect
import contextlib
import contextvars
import functools
import itertools
import json
import math
import os
import re
import stat
import typing
import unicodedata
import weakref
from collections.abc import Collection, Iterator, Mapping, MappingView, Sequence
from collections.abc import Set as AbstractSet
from pathlib import Path, PurePath
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticUndefined

from planner import catalog
from planner.catalog.gpus import CUSTOM_GPU_PREFIX, card_name_hint, family_members
from planner.catalog.prices import PRICE_SOURCE_WORDS
from planner.errors import PlannerError, ScenarioError
from planner.fileio import file_folder as file_folder  # re-exported: fileio says how a scenario names its files
from planner.fileio import file_problem, files_as_written, open_for_reading, written_path
from planner.fileio import named_as_written as named_as_written  # re-exported, as file_folder
from planner.months import HOURS_PER_MONTH, HOURS_PER_WEEK
from planner.scenario.fx_check import implausible_fx
from planner.scenario.model import (
    BUILTIN_PROFILES,
    CLOUD_KIND_LABEL,
    CURRENCY_PATTERN,
    DEFAULT_HORIZON_MONTHS,
    DEMAND_FIELDS,
    INVISIBLE,
    INVISIBLE_CHAR,
    INVISIBLE_NAMES,
    LOOKALIKE_NAMES,
    LOOKALIKE_SPACES,
    MAX_AGE_MONTHS,
    MAX_ENTRIES,
    MAX_LIFE_YEARS,
    MAX_MONEY,
    MAX_NAME_LENGTH,
    MAX_PATH_LENGTH,
    MAX_UNIT_PRICE,
    MAX_WORKLOADS,
    CardOverride,
    CustomCard,
    Frozen,
    GpuSpecs,
    OnPrem,
    OwnedCards,
    Prices,
    Scenario,
    Workload,
    _field_shape,  # "map" for a mapping to numbers (fx, a throughput table)
    _read_as,  # a value as the model reads a field: None where it refuses it
    currency_hint,
    demand_problem,
    gpu_or_specs,
    grown_demand_problem,
    idle_above_busy,
    iso_4217_codes,
    keys_as_shown,
    override_watts_problem,
    owned_age_problem,
    percent_meant,
    repeated_names,
    request_hours_problem,
)
from planner.scenario.profile_csv import read_profile_bytes, read_profile_csv
from planner.scenario.yaml_core import CoreLoader
from planner.text import counted, not_utf8, series, shortened
from pricing_adapters.signatures import binary_kind, not_the_file

# ---------------------------------------------------------------------------------------------------
# YAML with positions and limits

Path_ = tuple[Any, ...]

# Limits on what a scenario's YAML may hold. The largest packaged scenario is 3 KB with 131 nodes nested
# 5 deep; 100 workloads with 50-GPU throughput tables would be about 13,000 nodes, still 6 deep. So a
# file over the limits is an attack or an accident, and refusing it early is what keeps loading fast:
# - size: a scenario is a few KB; 1 MiB of text also stops `validate /dev/zero` reading until memory runs out;
# - nodes: counted while composing, an alias counting as every node it stands for, so a 271-byte
#   "billion laughs" (9 aliases of 9 aliases, 8 deep) is refused at its first lines, not expanded;
# - depth: the composer recurses per level; 100 stays far below Python's recursion limit.
MAX_SCENARIO_CHARS = 1024 * 1024
MAX_YAML_NODES = 100_000
MAX_YAML_DEPTH = 100
# Characters parsed again, in all, to find the syntax errors after a file's first one (each found blanks its line
# and parses the whole file again): a scenario of a few KB gets every one found; a file of 1 MiB with 25 broken
# lines took 47 s (each parse 2.5 s) and now reports its first error after one parse (review, 2026-12-05).
MAX_RETRY_CHARS = 256 * 1024


class YamlRefused(Exception):
    """The YAML is over a limit: reported at once, never retried line by line."""

    def __init__(self, mark: yaml.Mark | None, what: str):
        super().__init__(what)
        self.mark, self.what = mark, what

    def __reduce__(self):   # pickled as it was made: its args hold only the message
        return type(self), (self.mark, self.what)


def _children(node: yaml.Node) -> list[yaml.Node]:
    """The nodes directly under `node` (keys and values of a mapping)."""
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return list(node.value) if isinstance(node, yaml.SequenceNode) else []


# what a message calls a scalar of each implicit YAML tag whose value could not be made
_SCALAR_KINDS = {"tag:yaml.org,2002:timestamp": "date", "tag:yaml.org,2002:int": "number a scenario can hold",
                 "tag:yaml.org,2002:float": "number"}
_STR_TAG = "tag:yaml.org,2002:str"


def _key_text(node: yaml.Node) -> str:
    """A mapping key as written: a scalar's text (`true`, `~`, `1.50`), a list or mapping's source text on one line."""
    if isinstance(node, yaml.ScalarNode):
        return node.value
    start, end = node.start_mark, node.end_mark
    return " ".join(start.buffer[start.index:end.index].split()) if start.buffer is not None else node.id


# The free-text fields (model.Text: a description, where a quote came from; None stands for any card id). Their text is
# shown in a cell and never matched against a name, a code or a number, so an invisible character inside one changes
# nothing a plan computes, and may be meant: a soft hyphen marks where a long word may break, a zero-width joiner
# builds an emoji or a Persian word, a direction mark keeps Hebrew or Arabic in order. It is kept there, quoted or
# not; in a key, a name, a number or a code it is refused (two names would look the same, a code or number not read).
# The model's free-text fields (model.Frozen._free_text) are these: it refuses one that reaches it otherwise (an alias).
_FREE_TEXT = (("description",), ("onprem", "card_overrides", None, "source"), ("onprem", "custom_cards", None, "source"))
_KEY = object()   # the part of a path into the YAML standing for a mapping's key being composed


def _free_text(loc: Path_) -> bool:
    """Whether the field path `loc` is a free-text field's value (_FREE_TEXT)."""
    return any(len(loc) == len(free) and all(f is None or f == part for f, part in zip(free, loc)) for free in _FREE_TEXT)


class _InvisibleInScalar(typing.NamedTuple):
    """An invisible format character (_INVISIBLE) written inside a key or a value that is no free text, which YAML
    reads as part of it and no editor shows: `currency: U\\u200bSD` was "expected a currency code …, got
    'U\\u200bSD'", and `horizon\\u200b_months: 24` an unknown key printed as if it were spelt right."""

    mark: yaml.Mark   # of the first such character of the scalar
    loc: Path_        # the field path of the key (as read without them) or of the value
    char: str         # the first
    count: int        # of them in the scalar
    key: bool         # whether the scalar is a key (or inside one)


class _LimitedLoader(CoreLoader):
    """The safe loader reading YAML 1.2's core schema (yaml_core), composing under MAX_YAML_NODES and
    MAX_YAML_DEPTH, noting duplicate keys and reading every mapping key as the text written. With
    `find_invisible`, a key or value holding an invisible character (_INVISIBLE) written as itself (not as an escape)
    is read without it and noted in `invisible`, but in a free text (_FREE_TEXT)."""

    def __init__(self, stream: str, find_invisible: bool = True):
        super().__init__(stream)
        self.depth = 0                                  # nesting of the node being composed
        self.nodes = 0                                  # nodes so far, aliases expanded
        self.aliased = False
        self.shape: dict[int, tuple[int, int]] = {}     # id(finished node) -> (nodes expanded, levels)
        self.duplicates: list[tuple[str, yaml.Mark, yaml.Mark]] = []   # key, first, second
        self.find_invisible = find_invisible
        self.invisible: list[_InvisibleInScalar] = []
        self.path: list[Any] = []   # from the document's root (None) to the node being composed: keys, indices, _KEY

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node:
        """The composed node; refuses a node past the depth limit or the running count past the node limit."""
        mark = self.peek_event().start_mark
        alias = self.check_event(yaml.AliasEvent)
        if self.depth >= MAX_YAML_DEPTH:
            raise YamlRefused(mark, f"YAML nested deeper than {MAX_YAML_DEPTH} levels (a scenario needs fewer than 10)")
        self.depth += 1
        # a mapping composes each key with no index, then its value with the key's node; a list its items by number
        self.path.append(_KEY if isinstance(parent, yaml.MappingNode) and index is None
                         else _key_text(index) if isinstance(index, yaml.Node) else index)
        try:
            node = super().compose_node(parent, index)
        finally:
            self.depth -= 1
            self.path.pop()
        size, levels = self._measure(node, alias, mark)
        self.nodes += size if alias else 1        # a new node's children were counted as they were composed
        if self.nodes > MAX_YAML_NODES:
            what = "YAML aliases expand to" if self.aliased else "YAML has"
            raise YamlRefused(mark, f"{what} more than {MAX_YAML_NODES:,} nodes (a scenario never needs that many)")
        if self.depth + levels > MAX_YAML_DEPTH:
            raise YamlRefused(mark, f"YAML aliases nest deeper than {MAX_YAML_DEPTH} levels (a scenario needs fewer than 10)")
        return node

    def _measure(self, node: yaml.Node, alias: bool, mark: yaml.Mark) -> tuple[int, int]:
        """(nodes, levels) of `node` with aliases expanded: an alias's from the node it names, a new
        node's from its children (each measured once: memoised by node, so never walked per path)."""
        if alias:
            if id(node) not in self.shape:
                raise YamlRefused(mark, "YAML alias inside the node it names (a cycle; a scenario never needs one)")
            self.aliased = True
            return self.shape[id(node)]
        inner = [self.shape[id(child)] for child in _children(node)]
        self.shape[id(node)] = (1 + sum(n for n, _ in inner), 1 + max((d for _, d in inner), default=0))
        self._note_duplicates(node)
        return self.shape[id(node)]

    def compose_scalar_node(self, anchor: str | None) -> yaml.ScalarNode:
        """The scalar's node, read without the invisible characters written in it (_note_invisible)."""
        event = self.peek_event()
        if self.find_invisible and _INVISIBLE_CHAR.search(event.value):
            self._note_invisible(event)
        return super().compose_scalar_node(anchor)

    def _note_invisible(self, event: yaml.ScalarEvent) -> None:
        """Note the invisible characters written as themselves in the scalar of `event`, and take them out of its value
        (the type of an unquoted one is then read as it shows: `3\\u200b6` is the number 36), unless it is a free
        text's value. One written as an escape (`"\\u200b"`) shows, and stays."""
        start, end = event.start_mark, event.end_mark
        written = start.buffer[start.index:end.index]
        found = [m.start() for m in _INVISIBLE_CHAR.finditer(written)]
        path = self.path[1:]
        loc = tuple(itertools.takewhile(lambda part: part is not _KEY, path))
        key = len(loc) < len(path)
        if not found or (not key and _free_text(loc)):
            return
        event.value = _INVISIBLE_CHAR.sub("", event.value)
        if path[-1] is _KEY:
            loc += (event.value,)
        self.invisible.append(_InvisibleInScalar(_mark_within(start, written, found[0]), loc, written[found[0]],
                                                 len(found), key))

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        """The node's value; a scalar PyYAML cannot turn into one (`!!timestamp 2026-02-30`, an integer of more than
        the 4,300 digits Python converts) is refused at its line instead of raising a bare ValueError."""
        try:
            return super().construct_object(node, deep)
        except (ValueError, OverflowError) as exc:
            if not isinstance(node, yaml.ScalarNode):
                raise
            kind = _SCALAR_KINDS.get(node.tag, "value")
            why = "too many digits" if "digits" in str(exc) else str(exc)   # not Python's "use sys.set_int_max_…"
            raise YamlRefused(node.start_mark, f"{shortened(node.value, repr)} is not a {kind} ({why})") from None

    def construct_yaml_binary(self, node: yaml.Node) -> bytes:
        """`!!binary` is refused at its line: base64 bytes, which pydantic reads as the text they decode to, got
        past every check made on text — a `profile` or `prices.source` written so named any file of the
        server running the dashboard, whose cells the plan's error then showed (review, 2026-12-05)."""
        raise YamlRefused(node.start_mark, "!!binary data: a scenario holds text, numbers, lists and mappings; "
                                           "write the value as plain text")

    def _note_duplicates(self, node: yaml.Node) -> None:
        """Record keys given twice in one mapping: YAML keeps the last silently, which changes the plan. Keys
        are compared as the text they are read as (`flatten_mapping`): `1:` and `'1':` are one key."""
        if not isinstance(node, yaml.MappingNode):
            return
        seen: dict[str, yaml.Mark] = {}
        for key, _ in node.value:
            text = _key_text(key)
            first = seen.setdefault(text, key.start_mark)
            if first is not key.start_mark:
                self.duplicates.append((text, first, key.start_mark))

    def flatten_mapping(self, node: yaml.MappingNode) -> None:
        """Merge keys (`<<`) as the safe loader merges them, then every key read as the text written: a scenario's
        keys are names, and `true:`, `null:` or `4090:` read as YAML types reached pydantic as True, None and 4090
        ("Keys should be strings" at line 1, True as index [1]). As text, each is an unknown key, card or GPU
        at its own line, with "did you mean", as any misspelt name is."""
        super().flatten_mapping(node)
        node.value = [(key if isinstance(key, yaml.ScalarNode) and key.tag == _STR_TAG
                       else yaml.ScalarNode(_STR_TAG, _key_text(key), key.start_mark, key.end_mark), value)
                      for key, value in node.value]


_LimitedLoader.add_constructor("tag:yaml.org,2002:binary", _LimitedLoader.construct_yaml_binary)


class _Positions:
    """(line, column), 1-based, of a field path in the composed YAML: the key of a mapping entry, an item
    of a list, or with a last part "<value>" the value of a mapping entry. Found by following the path
    through the nodes, never by listing every path (aliases make that list exponentially long)."""

    def __init__(self, root: yaml.Node):
        self.root = root
        # id(mapping node) -> {key text: (key node, value node)}, built at a mapping's first lookup: a scan of
        # its keys per lookup made a table of 10,000 bad entries take 5 s to report (each error is placed)
        self._keys: dict[int, dict[str, tuple[yaml.Node, yaml.Node]]] = {}
        self.editor: _EditorLines | None = None   # set by _parse_yaml: where an editor shows each position

    def _entry(self, node: yaml.MappingNode, key: str) -> tuple[yaml.Node, yaml.Node] | None:
        """(key node, value node) of `key` in `node`, the last one where a key is given twice (YAML keeps it)."""
        index = self._keys.get(id(node))
        if index is None:
            index = self._keys[id(node)] = {k.value: (k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode)}
        return index.get(key)

    def get(self, path: Path_) -> tuple[int, int] | None:
        """The position of `path`, or None when the YAML has no such path."""
        want_value = bool(path) and path[-1] == "<value>"
        parts = path[:-1] if want_value else path
        node, mark = self.root, self.root.start_mark
        for k, part in enumerate(parts):
            if isinstance(node, yaml.MappingNode):
                pair = self._entry(node, str(part))
                if pair is None:
                    return None
                node, mark = pair[1], (pair[1] if want_value and k == len(parts) - 1 else pair[0]).start_mark
            elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
                node = node.value[part]
                mark = node.start_mark
            else:
                return None
        return mark.line + 1, mark.column + 1

    def _mapping_at(self, path: Path_) -> yaml.MappingNode | None:
        """The mapping node at `path`, or None when the YAML has no mapping there."""
        node = self.root
        for part in path:
            if isinstance(node, yaml.MappingNode) and (pair := self._entry(node, str(part))) is not None:
                node = pair[1]
            elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
                node = node.value[part]
            else:
                return None
        return node if isinstance(node, yaml.MappingNode) else None

    def mapping_span(self, path: Path_) -> tuple[int, int, int] | None:
        """(first line, last line, column), 1-based, of the mapping at `path` (its keys' column); None when
        the YAML has no mapping there."""
        node = self._mapping_at(path)
        if node is None:
            return None
        return node.start_mark.line + 1, node.end_mark.line + 1, node.start_mark.column + 1

    def nested_spans(self, path: Path_) -> list[tuple[int, int]]:
        """(first line, last line), 1-based, of each mapping or list that is a value of the mapping at `path`,
        from its key's line (a blanked line between `onprem:` and the mapping's first key is the mapping's)."""
        node = self._mapping_at(path)
        return [] if node is None else [(k.start_mark.line + 1, v.end_mark.line + 1) for k, v in node.value
                                        if isinstance(v, (yaml.MappingNode, yaml.SequenceNode))]

    def __contains__(self, path: Path_) -> bool:
        return self.get(path) is not None

    def __getitem__(self, path: Path_) -> tuple[int, int]:
        found = self.get(path)
        if found is None:
            raise KeyError(path)
        return found


def _compose(source: str, find_invisible: bool = True) -> tuple[Any, Any, list[tuple[str, yaml.Mark, yaml.Mark]],
                                                                list[_InvisibleInScalar]]:
    """(data, positions, duplicate keys, invisible characters in keys and values) of one YAML document, parsed once
    under the limits; with `find_invisible`, each key and value but a free text's is read without the invisible
    characters written in it (_LimitedLoader)."""
    try:
        loader = _LimitedLoader(source, find_invisible)
    except yaml.reader.ReaderError as exc:   # a character YAML refuses; its reader says only the offset
        raise _refused_character(source, exc) from None
    try:
        node = loader.get_single_node()
        if node is None:
            return None, {}, [], []
        return loader.construct_document(node), _Positions(node), loader.duplicates, loader.invisible
    finally:
        loader.dispose()


def _mark_within(start: yaml.Mark, written: str, offset: int) -> yaml.Mark:
    """The mark of character `offset` of the text `written` that begins at `start` (lines counted as YAML counts them)."""
    breaks = list(_YAML_BREAKS.finditer(written, 0, offset))
    if not breaks:
        return yaml.Mark(start.name, start.index + offset, start.line, start.column + offset, None, None)
    return yaml.Mark(start.name, start.index + offset, start.line + len(breaks), offset - breaks[-1].end(), None, None)


def _invisible_said(found: _InvisibleInScalar, origin: str, editor: _EditorLines) -> str:
    """The problem of an invisible character inside a key or value, at the first of its scalar."""
    name = _PASTED_NAMES.get(found.char) or unicodedata.name(found.char, "character").lower()
    more = f" (and {counted(found.count - 1, 'more invisible character')})" if found.count > 1 else ""
    return (f"{_at(origin, found.mark, editor)}: {dotted(found.loc)}: {name} U+{ord(found.char):04X} inside the "
            f"{'key' if found.key else 'value'}{more}: an invisible character YAML reads as part of it; delete it "
            "(it often comes with text pasted from a web page or a chat)")


# The line breaks YAML counts in a mark's line: str.splitlines() also splits at \v, \f and \x1c-\x1e, which YAML
# refuses, so splitting with it turned them into breaks YAML never saw and moved every later line.
_YAML_BREAKS = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


class _EditorLines:
    """Where an editor shows YAML's (line, column): YAML also ends a line at NEL, U+2028 and U+2029, which
    editors (VS Code, vim, Emacs) show inside a line, so after one of them every line YAML counts is one
    below the editor's. Maps YAML's 0-based line and column to the editor's 1-based ones."""

    def __init__(self, text: str):
        self._line, self._offset = [0], [0]   # per YAML line: the editor's line (0-based), columns before it
        if not any(c in text for c in "\x85\u2028\u2029"):
            return
        start = 1 if text.startswith("\ufeff") else 0   # a byte order mark: no column, in YAML or an editor
        for brk in _YAML_BREAKS.finditer(text):
            inside = brk[0] not in ("\r\n", "\r", "\n")   # a break only YAML sees: the line goes on
            self._line.append(self._line[-1] + (0 if inside else 1))
            self._offset.append(self._offset[-1] + brk.end() - start if inside else 0)
            start = brk.end()

    def position(self, line: int, column: int) -> tuple[int, int]:
        """The editor's (line, column), 1-based, of YAML's 0-based `line` and `column`."""
        if len(self._line) == 1:
            return line + 1, column + 1
        at = min(max(line, 0), len(self._line) - 1)
        return self._line[at] + 1 + (line - at), self._offset[at] + column + 1


def _marks_at(source: str, positions: list[int]) -> list[yaml.Mark]:
    """The marks of the characters at the ascending `positions` of `source`, each line and column counted as the
    marks of YAML's own errors are (at YAML's line breaks; a byte order mark is no column), in one pass."""
    marks, line, start = [], 0, 0
    breaks = _YAML_BREAKS.finditer(source)
    brk = next(breaks, None)
    for pos in positions:
        while brk is not None and brk.end() <= pos:
            line, start = line + 1, brk.end()
            brk = next(breaks, None)
        column = pos - start - (1 if line == 0 and source.startswith("\ufeff") else 0)
        marks.append(yaml.Mark("<text>", pos, line, column, None, None))
    return marks


def _refused_character(source: str, exc: yaml.reader.ReaderError) -> yaml.MarkedYAMLError:
    """The reader's error at a character YAML refuses (NUL, \\x01, U+FFFE) as a syntax error with its line and
    column (_marks_at)."""
    char = chr(exc.character).encode("unicode_escape").decode("ascii")
    return yaml.MarkedYAMLError(
        problem=f"unacceptable character {char}: YAML allows no control characters but tab and line breaks; delete it",
        problem_mark=_marks_at(source, [exc.position])[0])


# Characters text pasted from a web page or a word processor brings that look like a space or show as nothing, or
# that editors show inside a line where YAML ends it. YAML reads a non-breaking space as a letter, so
# `horizon_months:\u00a024` is a key without its colon and an indentation of them none, and it ends a line at NEL,
# U+2028 and U+2029, so the text after one (in an unquoted value, in a comment) is read as a line of its own: each
# gave a wall of errors on the lines below, none naming the character. Where one stands in for a space or a line
# break YAML needs, or ends a line it should not, it is refused at its place; where it is text (in quotes, within an
# unquoted value's words, a space in a comment) it is kept as the text it is here. An invisible one inside a key or a
# value (`U\u200bSD`) is then refused where the YAML is composed, but in a free text (_InvisibleInScalar).
_LOOKALIKE_SPACES = LOOKALIKE_SPACES   # (model's: a dict's key holding one is refused there too)
# The format characters that show as nothing (model.INVISIBLE), which the model refuses too in any text but free text
_INVISIBLE = INVISIBLE
_INVISIBLE_CHAR = INVISIBLE_CHAR
_HIDDEN_BREAKS = "\x85\u2028\u2029"
_PASTED = re.compile(f"[{_LOOKALIKE_SPACES}{_INVISIBLE}{_HIDDEN_BREAKS}]")
_PASTED_NAMES = {**LOOKALIKE_NAMES, **INVISIBLE_NAMES,
                 "\x85": "next line character (NEL)", "\u2028": "line separator", "\u2029": "paragraph separator"}
# Scans of a file for where its pasted characters are (each scan error's line blanked and the file scanned again):
# as many as the syntax errors the retry loop reports, and no more characters in all than it parses again
MAX_CHARACTER_SCANS = 20


class PastedCharacter(yaml.MarkedYAMLError):
    """A pasted character where YAML needs a space or reads a line break editors do not show (read_yaml_value)."""


def _pasted_what(char: str) -> str:
    """What the message says of a pasted `char`: its name and code, and what to do instead."""
    name = _PASTED_NAMES.get(char) or unicodedata.name(char, "character").lower()
    code = f"U+{ord(char):04X}"
    if char in _HIDDEN_BREAKS:
        return f"{name} {code}: YAML ends a line there, editors do not show one; use a space or a normal line break"
    if _INVISIBLE_CHAR.fullmatch(char):
        return f"{name} {code}: an invisible character YAML reads as text; delete it"
    return f"{name} {code}: YAML does not read it as a space; use a normal space"


def _misread_characters(text: str) -> list[int]:
    """The indices of the pasted characters (_PASTED) of `text` that YAML reads otherwise than they show: outside
    quotes, each but a space within an unquoted value's words (a value's indentation counts as none) or in a
    comment, and but an invisible one beginning a word (_word_starts). Where they are is read from the tokens of
    `text` with each pasted character a space, as it shows."""
    found = [m.start() for m in _PASTED.finditer(text) if m.start() or m[0] != "\ufeff"]
    if not found:
        return []
    word_starts = _word_starts(text)
    found = [at for at in found if at not in word_starts]
    shown = _PASTED.sub(" ", text)
    if text.startswith("\ufeff"):   # a byte order mark: no column, and no space
        shown = "\ufeff" + shown[1:]
    shown = yaml.reader.Reader.NON_PRINTABLE.sub(" ", shown)   # a NUL is refused on its own; here it hid every token
    scalars = _scalar_spans(shown)
    lines = _ShownLines(shown, scalars)
    misread = []
    for at in found:
        style = lines.scalar_style(at)
        if style in ("'", '"'):
            continue
        # in a | or > block a line's content starts at the block's indentation: a pasted space after it is text
        indented = lines.in_indentation(at) and not (style in ("|", ">") and _in_block_text(text, lines.scalar_start(at), at))
        if text[at] in _HIDDEN_BREAKS or indented or (style is None and not lines.in_comment(at)):
            misread.append(at)
    return misread


def _word_starts(text: str) -> set[int]:
    """The indices of the invisible characters (_INVISIBLE) of `text` that begin a word: after a space, a tab or a line
    break, right before a letter, a digit or _. YAML reads them as that word's first letters, where the word shows
    (`\\u200bcurrency: USD` is the key `\\u200bcurrency` at column 1, `- \\u200ba` the item `\\u200ba`): inside a key
    or a value, as they are inside a word, not in place of a space."""
    return {at for run in re.finditer(f"[{_INVISIBLE}]+", text)
            if (run.start() == 0 or text[run.start() - 1] in " \t\r\n") and run.end() < len(text)
            and (text[run.end()].isalnum() or text[run.end()] == "_") for at in range(run.start(), run.end())}


def _in_block_text(text: str, start: int, at: int) -> bool:
    """Whether index `at` of `text`, in the indentation of a content line of the block scalar whose indicator (| or >) is
    at index `start`, is at or past the block's indentation (YAML reads it as text), as YAML reads the block: a digit in
    its header counts from its key's column, else the real spaces before the first line holding anything else set it,
    at least one more than the key's column."""
    line_start = text.rfind("\n", 0, start) + 1
    key_column = re.match(r"(?:[ ]*-[ ]+)*[ ]*", text[line_start:start]).end()   # `- name: |`: the key after the dash
    digit = re.match(r"[|>][-+]?([1-9]?)", text[start:])[1]
    indentation = key_column + int(digit) if digit else max(key_column + 1, _first_text_indentation(text, start))
    return at - (text.rfind("\n", 0, at) + 1) >= indentation


def _first_text_indentation(text: str, start: int) -> int:
    """The real spaces (U+0020) before the first line after index `start` of `text` holding anything else, at least
    those of the empty lines before it (as YAML finds a block scalar's indentation)."""
    spaces, line_start = 0, text.find("\n", start) + 1
    while line_start:   # line by line, not the rest of the file split: a file may hold many blocks
        end = text.find("\n", line_start)
        line = text[line_start:end if end >= 0 else len(text)].rstrip("\r")
        spaces = max(spaces, len(line) - len(line.lstrip(" ")))
        if line.strip(" "):
            return spaces
        line_start = end + 1
    return spaces


_TEXT_LINE_ENDS = re.compile("\r\n|[\r\n]")


class _ShownLines:
    """Where an index of a text (`shown`: its pasted characters made spaces) is: in which scalar, in a line's
    indentation, in a comment. Each line is looked at once, when first asked about (a file of 1 MiB on one line
    holding a million non-breaking spaces is read in one pass, not once per character)."""

    def __init__(self, shown: str, scalars: list[tuple[int, int, str]]):
        self.shown, self.scalars = shown, scalars
        self.scalar_starts = [start for start, _, _ in scalars]
        self.line_starts = [0, *(m.end() for m in _TEXT_LINE_ENDS.finditer(shown))]
        self._text_from: dict[int, int] = {}      # line -> index of its first character that is no space
        self._comment_from: dict[int, float] = {}  # line -> index of the `#` starting its comment (inf: none)

    def scalar_style(self, at: int) -> str | None:
        """The style of the scalar holding index `at` (' " | > or "plain"), None outside every scalar."""
        k = bisect.bisect_right(self.scalar_starts, at) - 1
        return self.scalars[k][2] if k >= 0 and at < self.scalars[k][1] else None

    def scalar_start(self, at: int) -> int:
        """The index at which the scalar holding index `at` starts (its indicator, for a block)."""
        return self.scalars[bisect.bisect_right(self.scalar_starts, at) - 1][0]

    def _line(self, at: int) -> tuple[int, int, int]:
        """(line, its first index, the index after it) of index `at`."""
        line = bisect.bisect_right(self.line_starts, at) - 1
        end = self.line_starts[line + 1] if line + 1 < len(self.line_starts) else len(self.shown)
        return line, self.line_starts[line], end

    def in_indentation(self, at: int) -> bool:
        """Whether index `at` is before the first character of its line that is no space."""
        line, start, end = self._line(at)
        if line not in self._text_from:
            segment = self.shown[start:end]
            self._text_from[line] = start + len(segment) - len(segment.lstrip())
        return at < self._text_from[line]

    def in_comment(self, at: int) -> bool:
        """Whether index `at` follows a `#` on its line that no scalar holds (YAML scanned past it: a comment)."""
        line, start, end = self._line(at)
        if line not in self._comment_from:
            hashes = (m.start() for m in re.finditer("#", self.shown[start:end]))
            self._comment_from[line] = next((start + h for h in hashes if self.scalar_style(start + h) is None),
                                            math.inf)
        return at > self._comment_from[line]


def _scalar_spans(shown: str) -> list[tuple[int, int, str]]:
    """(start, end, style) of each scalar YAML scans in `shown`, sorted: style ' or " for quoted, | or > for a block,
    "plain" for unquoted. After a scan error its line is blanked (to spaces: indices kept) and the text scanned
    again, MAX_CHARACTER_SCANS times at most; the scalars after the last error are not found."""
    spans: set[tuple[int, int, str]] = set()
    scanned = 0
    for _ in range(MAX_CHARACTER_SCANS):
        scanned += len(shown)
        loader = yaml.SafeLoader(shown)
        try:
            while loader.check_token():
                token = loader.get_token()
                if isinstance(token, yaml.ScalarToken):
                    spans.add((token.start_mark.index, token.end_mark.index, token.style or "plain"))
            break
        except yaml.MarkedYAMLError as exc:
            spans.update((t.start_mark.index, t.end_mark.index, t.style or "plain") for t in loader.tokens
                         if isinstance(t, yaml.ScalarToken))
            blanked = _blank_error_line(shown, exc)
            if blanked == shown or scanned > MAX_RETRY_CHARS:
                break
            shown = blanked
        finally:
            loader.dispose()
    return sorted(spans)


def _blank_error_line(shown: str, exc: yaml.MarkedYAMLError) -> str:
    """`shown` with the line of the scan error `exc` (its problem's, or its context's where that line is blank)
    made spaces."""
    for mark in (exc.problem_mark, exc.context_mark):
        if mark is None:
            continue
        start = max(shown.rfind("\n", 0, mark.index), shown.rfind("\r", 0, mark.index)) + 1
        end = min((i for i in (shown.find("\n", mark.index), shown.find("\r", mark.index)) if i >= 0),
                  default=len(shown))
        if shown[start:end].strip():
            return shown[:start] + " " * (end - start) + shown[end:]
    return shown


def _pasted_characters(text: str, origin: str) -> tuple[str, list[str]]:
    """(`text` with each pasted character YAML misreads made a space, as it shows; one problem per editor line
    holding such characters, at the first: what it is and what to write instead)."""
    misread = _misread_characters(text)
    if not misread:
        return text, []
    fixed = list(text)
    for at in misread:
        fixed[at] = " "
    fixed_text = "".join(fixed)
    editor = _EditorLines(fixed_text)
    line_starts = [0, *(m.end() for m in _TEXT_LINE_ENDS.finditer(fixed_text))]
    by_line: dict[int, list[int]] = {}
    for at in misread:
        by_line.setdefault(bisect.bisect_right(line_starts, at) - 1, []).append(at)
    firsts = [found[0] for found in by_line.values()]
    problems = []
    for found, mark in zip(by_line.values(), _marks_at(fixed_text, firsts)):
        more = f" (and {counted(len(found) - 1, 'more such character')} on this line)" if len(found) > 1 else ""
        problems.append(f"{_at(origin, mark, editor)}: {_pasted_what(text[found[0]])}{more}")
    return fixed_text, problems


def read_yaml_value(text: str) -> Any:
    """The value of a short YAML text, under the same limits as a file (raises YamlRefused or YAMLError)."""
    if len(text) > MAX_SCENARIO_CHARS:
        raise YamlRefused(None, f"longer than {MAX_SCENARIO_CHARS:,} characters")
    misread = _misread_characters(text)
    if misread:   # a non-breaking space where YAML needs a space: refused at it, as a NUL is
        raise PastedCharacter(problem=_pasted_what(text[misread[0]]), problem_mark=_marks_at(text, misread[:1])[0])
    # read as written: a value with no field (a --vary value) cannot be told from a free text, and the field's check
    # quotes one it refuses with its invisible characters escaped; an upload's refuse_files check reads no names
    return _compose(text, find_invisible=False)[0]


# the line breaks an editor shows: str.splitlines() also splits at NEL, U+2028/9, \v, \f and \x1c-\x1e
_EDITOR_BREAKS = re.compile("\r\n|[\r\n]")


def editor_lines(text: str) -> list[str]:
    """The lines of `text` as an editor shows them (the first is line 1)."""
    return _EDITOR_BREAKS.split(text)


def _place(mark: yaml.Mark | None, editor: _EditorLines) -> str:
    """"line:column", 1-based, where an editor shows `mark` ("1:1" for none)."""
    if mark is None:
        return "1:1"
    line, column = editor.position(mark.line, mark.column)
    return f"{line}:{column}"


def editor_place(text: str, mark: yaml.Mark | None) -> str:
    """"line:column", 1-based, where an editor shows `mark` of a YAML error in `text` (_EditorLines)."""
    return _place(mark, _EditorLines(text))


def _at(origin: str, mark: yaml.Mark | None, editor: _EditorLines) -> str:
    return f"{origin}:{_place(mark, editor)}"


# the key a line sets (`  name: …` or `  "name": …` → name, its column 3), for a line blanked after a syntax error
_LINE_KEY = re.compile(r"^\s*(?:-\s+)?([\"']?)([A-Za-z_][\w-]*)\1\s*:")
# … and the key of a line that lacks its ':' ("  pue 1.3", "  - name a")
_LINE_KEY_WITHOUT_COLON = re.compile(r"^\s*(?:-\s+)?()([A-Za-z_][\w-]*)\s+[^\s:#]")
_ITEM_DASH = re.compile(r"^\s*-(?=\s)")
# a line that holds a list item, or a key whose value is on the lines below (`workloads:`)
_OPENS_BLOCK = re.compile(r"^(\s*)(?:-(?:\s|$)|[^\s#].*:\s*(?:#.*)?$)")

Blanked = tuple[int, int, str]   # (line, column of its key, the key), 1-based: a line blanked after a syntax error


# a line that is a key opening a block (`  workloads:`, `\tonprem:  # …`): no dash, nothing after its ':' but a comment
_OPENER = re.compile(r"^[ \t]*((?:([\"'])[A-Za-z_][\w-]*\2|[A-Za-z_][\w-]*)\s*:\s*(?:#.*)?)$")


def _indentation(text: str) -> int | None:
    """The spaces that indent `text`, None where a tab is among them."""
    body = text.lstrip(" \t")
    return None if "\t" in text[:len(text) - len(body)] else len(text) - len(body)


def _reindented_opener(lines: list[str], line: int) -> str | None:
    """`lines[line]`, a key opening a block that failed for its indentation (a tab, or one space too many), at the
    indentation its block's lines show it meant: the deepest of the blocks open above it that is less indented than
    the line below it (`onprem:` over `  pue: 1.3`); None where that is no other indentation or cannot be told."""
    opener = _OPENER.match(lines[line])
    written = [(k, _indentation(text)) for k, text in enumerate(lines) if text.strip() and not text.lstrip().startswith("#")]
    below = next((indent for k, indent in written if k > line), None)
    if opener is None or below is None or below == 0:
        return None
    open_above: list[int] = []
    for indent in reversed([indent for k, indent in written if k < line]):
        if indent is not None and (not open_above or indent < open_above[-1]):
            open_above.append(indent)
    meant = max((indent for indent in open_above if indent < below), default=None)
    if meant is None or meant == _indentation(lines[line]):
        return None
    return " " * meant + opener[1]


def _astray_said(what: str, lines: list[str], block_first: int | None, editor: _EditorLines) -> str:
    """PyYAML's "expected <block end>, but found …" (a line indented less than the block above it but more than the
    key that opens that block: it belongs to neither) in a user's words."""
    item = "found '-'" in what or "<block sequence start>" in what
    block = (f" (from line {editor.position(block_first, 0)[0]})" if block_first is not None else "")
    return (f"{'a list item' if item else 'a key'} cannot start here: this line is indented less than the lines of the "
            f"block above it{block} but more than the key that opens that block, so it belongs to neither; line it up "
            f"with the {'items' if item else 'keys'} it belongs with")


def _run_above(lines: list[str], line: int) -> int | None:
    """The first of the lines just above `lines[line]` indented as the nearest of them (comments and blank lines
    aside): the first line of the block PyYAML has just left when it finds `line` indented wrong."""
    written = [k for k in range(line) if lines[k].strip() and not lines[k].lstrip().startswith("#")]
    if not written:
        return None
    indent = _indentation(lines[written[-1]])
    first = written[-1]
    for k in reversed(written[:-1]):
        if _indentation(lines[k]) != indent:
            break
        first = k
    return first


def _first_of_block_astray(lines: list[str], first: int, later: int) -> tuple[yaml.Mark, str, str] | None:
    """(where, what, the line re-indented) where `lines[first]`, the first line of a block (the first key under
    `prices:`, the first item under `workloads:`), is indented other than the lines below it that belong with it,
    found by PyYAML at line `later`: a key whose next two lines, `later` the first, share another indentation, or a
    list item whose next item's dash is a space left or right of its own. None where not so."""
    written = [(k, _indentation(text)) for k, text in enumerate(lines)
               if text.strip() and not text.lstrip().startswith("#")]
    above = [indent for k, indent in written if k < first]
    below = [(k, indent) for k, indent in written if k > first]
    mine = _indentation(lines[first])
    if (above and above[-1] is None) or mine is None or not below or below[0][0] != later:
        return None
    opened = next((k for k, _ in reversed(written) if k < first), None)   # None: the file's first line
    if opened is not None and not _OPENER.match(lines[opened]) and not re.match(r"^\s*-\s+\S.*:\s*(?:#.*)?$",
                                                                             lines[opened]):
        return None
    if _ITEM_DASH.match(lines[first]):
        # the item's own lines are further in than its dash (one space further, where the dash is); the next item
        # of the list has a dash of its own
        sibling = next(((k, indent) for k, indent in below if indent is not None
                        and (_ITEM_DASH.match(lines[k]) or indent <= mine)), None)
        if sibling is None or not _ITEM_DASH.match(lines[sibling[0]]) or abs(sibling[1] - mine) != 1:
            return None
        meant, by = sibling[1], f"the next item's dash (line {sibling[0] + 1})"
    else:
        if len(below) < 2 or below[0][1] is None or below[0][1] != below[1][1] or below[0][1] == mine or (
                abs(below[0][1] - mine) != 1 and opened is not None):
            return None   # (two spaces or more: as likely a list item's dash left out, `  name: a` for `  - name: a`;
            # not so for the file's first line)
        meant, by = below[0][1], f"the keys below it (lines {below[0][0] + 1} and {below[1][0] + 1})"
    if above and meant <= above[-1]:
        return None
    where = yaml.Mark("", 0, first, mine, None, None)
    what = (f"this line is indented {counted(abs(mine - meant), 'space')} {'more' if mine > meant else 'less'} than "
            f"{by} of the same block: line it up with them")
    return where, what, " " * meant + lines[first].lstrip(" ")


class _IndentedStart(typing.NamedTuple):
    """The file's first lines indented (_indented_start): where to say it, what to say, and the spaces to take off
    each line (line → spaces) to read them at the top level."""

    first: int
    spaces: int
    said: str
    cuts: dict[int, int]
    # said before a block astray (_first_of_block_astray) would be: the key PyYAML found after them is indented too,
    # and a line below is at column 1 (`    name:` over `  horizon_months:` over `workloads:`)
    before_astray: bool


def _indented_start(lines: list[str], top: int, editor: _EditorLines) -> _IndentedStart | None:
    """The file's first lines, all indented at least `spaces` (the first one's), where PyYAML finds line `top`, a key
    indented less, after them ("expected '<document start>'"): the user meant them at the top level too. Blanking
    line `top` instead let the next top-level block join theirs, and each later top-level key failed in turn (`name:`
    and `description:` indented two spaces gave 20 errors, a review, 2026-12-07). Line `top` may be indented itself
    (`    name:` over `  horizon_months:`): then the lines from it to the first at column 1 are the file's top-level
    keys too, or, where no line is at column 1, the lines above are lined up with it. None where a line above is
    indented with a tab or less than the first, or a line below `top` is indented less than it but not at column 1."""
    top_spaces = _indentation(lines[top]) if top < len(lines) else None
    if top_spaces is None:
        return None
    shown = [text.removeprefix("\ufeff") for text in lines]   # a byte order mark is no column (a Windows editor's)
    written = [k for k, text in enumerate(shown) if text.strip() and not text.lstrip().startswith("#")]
    above = [k for k in written if k < top]
    spaces = _indentation(shown[above[0]]) if above else None
    if not spaces or spaces <= top_spaces or any((_indentation(shown[k]) or 0) < spaces for k in above):
        return None
    numbers = {k: editor.position(k, 0)[0] for k in written}
    indented = counted(spaces, "space")
    if top_spaces == 0:   # the first lines indented, the top-level keys from line `top` at column 1
        said = _indented_said(numbers[above[0]], numbers[above[-1]], indented,
                              f"the file's top-level keys start at column 1 (as on line {numbers[top]})")
        return _IndentedStart(above[0], spaces, said, dict.fromkeys(above, spaces), False)
    zero = next((k for k in written if k > top and (_indentation(shown[k]) or 0) < top_spaces), None)
    if zero is None:   # no line at column 1: the lines above lined up with line `top`, as the keys below it are
        cut = spaces - top_spaces
        said = _indented_said(numbers[above[0]], numbers[above[-1]], indented,
                              f"the next top-level key (line {numbers[top]}) is indented {top_spaces}: the file's top-level keys "
                              f"all start at one column", f"take {counted(cut, 'space')} off")
        return _IndentedStart(above[0], spaces, said, dict.fromkeys(above, cut), False)
    if _indentation(shown[zero]) != 0:
        return None
    last = max(k for k in written if k < zero)
    said = _indented_said(numbers[above[0]], numbers[last], f"{indented}, then {top_spaces} from line {numbers[top]}",
                          f"the file's top-level keys start at column 1 (as on line {numbers[zero]})")
    return _IndentedStart(above[0], spaces, said, {**dict.fromkeys(above, spaces),
                                                   **dict.fromkeys(range(top, zero), top_spaces)}, True)


def _indented_said(first: int, last: int, amounts: str, expected: str, remedy: str = "take the spaces off") -> str:
    """What _indented_start found, in a user's words: lines `first`–`last` (the editor's numbers) indented by
    `amounts`, but `expected`; what to do with them."""
    these = f"line {first} is" if first == last else f"lines {first}–{last} are"
    return f"{these} indented {amounts}, but {expected}: {remedy} {these.rsplit(' ', 1)[0]}"


def _dedented(text: str, spaces: int) -> str:
    """`text`, a line, with the first `spaces` spaces of its indentation taken off (after a byte order mark), if it has
    as many."""
    mark = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(mark):]
    return mark + body[spaces:] if body.startswith(" " * spaces) else text


def _dash_left_out(lines: list[str], first: yaml.Mark, second: yaml.Mark) -> bool:
    """Whether the key given twice at `second` may be a list item written without its dash (`    name: b` for
    `  - name: b`): it repeats the key its item's dash starts (at `first`), at the column of that item's keys, with no
    dash of its own. YAML reads the item's keys as more of the item above, each of them a duplicate key."""
    column = second.column
    return (first.column == column and first.line < second.line < len(lines)
            and re.fullmatch(r"[ \t]*-[ \t]+", lines[first.line][:column]) is not None
            and not lines[second.line][:column].strip())


def _second_key_line(lines: list[str], dash: int, column: int) -> int:
    """The line of the second key of the list item whose dash is on line `dash`, its keys at `column`: the first line
    below with a key at that column; len(lines) where the item ends first (a line indented less, or a dash)."""
    for k in range(dash + 1, len(lines)):
        text = lines[k]
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        if text[:column].strip():
            return len(lines)
        if text[column] not in " \t":
            return k
    return len(lines)


def _duplicates_said(duplicates: list[tuple[str, yaml.Mark, yaml.Mark]], lines: list[str], origin: str,
                     editor: _EditorLines) -> list[str]:
    """The problems of the keys given twice in a mapping (YAML keeps the last silently, which changes the plan): a list
    item whose dash is left out (_dash_left_out) once, at its first line, not each of its keys as a duplicate of the
    item above's; every other key given twice at itself."""
    # an item's first key repeated after its second (`- name: a` then `  name: b` is as likely a name given twice);
    # each item's second key found once (a file of thousands of keys given twice is not read in quadratic time)
    second_key = functools.cache(lambda dash, column: _second_key_line(lines, dash, column))
    starts = {second.line: (first, second) for _, first, second in duplicates
              if _dash_left_out(lines, first, second) and second_key(first.line, first.column) < second.line}
    ordered = sorted(starts)   # (bisected, likewise)

    def of_item_without_dash(first: yaml.Mark, second: yaml.Mark) -> bool:
        # a key of the item started at the nearest such line above, repeating one of the item(s) above it
        at = bisect.bisect_right(ordered, second.line) - 1
        start = ordered[at] if at >= 0 else None
        return start is not None and second.column == starts[start][1].column and (
            starts[start][0].line <= first.line < start)

    said = []
    for key, first, second in duplicates:
        if not of_item_without_dash(first, second):
            said.append(f"{_at(origin, second, editor)}: duplicate key '{key}' (first on line "
                        f"{editor.position(first.line, first.column)[0]}); YAML keeps only the last — remove one")
    for at, line in enumerate(ordered):
        first, second = starts[line]
        # the item above: the one its dash starts, or the item just above of the same list, also without its dash
        above = ordered[at - 1] if at and starts[ordered[at - 1]][0].line == first.line else first.line
        meant = (lines[first.line][:first.column] + lines[line][second.column:]).rstrip()
        said.append(f"{_at(origin, second, editor)}: YAML syntax: a new list item needs its dash: the keys from line "
                    f"{editor.position(line, 0)[0]} on repeat those of the item above (started on line "
                    f"{editor.position(above, 0)[0]}), so YAML reads them as that item's keys given twice; write "
                    f"`{meant}`")
    return said


def _blanked_line(lines: list[str], line: int) -> str:
    """What is left of `lines[line]`, blanked after a syntax error: its list item's dash (`  - name: a: b` →
    `  -`) where the line is a list item that follows an item at its indentation or a key that opens a block
    (so the item's other lines stay one item), else nothing. A dash kept anywhere else would join the value
    above (`horizon_months: 12` then `  - a: b: c` read as "12 -")."""
    dash = _ITEM_DASH.match(lines[line])
    if not dash or dash[0] == lines[line]:
        return ""
    indent = len(dash[0]) - 1
    tabbed = "\t" in dash[0]
    # a list item indented with a tab (its error), or a space more or less than the item before it: where the nearest
    # item indented with spaces has its dash
    items = [len(m[0]) - 1 for text in [*reversed(lines[:line]), *(lines[line + 1:] if tabbed else [])]
             if (m := _ITEM_DASH.match(text)) and "\t" not in m[0]]
    if tabbed and not items:
        # the list's only item: its dash two spaces left of its other lines, as `- ` puts them
        further = next((n for text in lines[line + 1:] if text.strip() and (n := _indentation(text)) is not None), None)
        if further is None or further < 2:
            return ""
        items = [further - 2]
    if items and (tabbed or abs(items[0] - indent) == 1):
        indent = items[0]
    # the nearest line above indented no further than the dash (the lines of the item before it are further in)
    above = next((text for text in reversed(lines[:line]) if text.strip() and not text.lstrip().startswith("#")
                  and len(text) - len(text.lstrip(" ")) <= indent and not text.startswith("\t")), "")
    opens = _OPENS_BLOCK.match(above)
    if not opens:
        return ""
    at = len(opens[1])
    is_item = above.lstrip().startswith("-")
    return " " * indent + "-" if (is_item and at == indent) or (not is_item and at <= indent) else ""


# PyYAML's context of an error inside a quote or bracket left open, and what a message calls it
_OPENERS = {"while scanning a quoted scalar": "the quote", "while parsing a flow sequence": "the [",
            "while parsing a flow mapping": "the {"}


def _left_open(exc: yaml.MarkedYAMLError, lines: list[str]) -> bool:
    """Whether the error `exc` is a quote or bracket left open (its context opened on an earlier line): a quote
    that meets the end of the file, or a bracket whose error is on a line indented no further than the line
    it opened on (the next key, swallowed); not an error inside a bracket closed later (a continuation line
    is indented further)."""
    start, end = exc.context_mark, exc.problem_mark
    if start is None or end is None or start.line >= end.line:
        return False
    if exc.context == "while scanning a quoted scalar":
        return "end of stream" in (exc.problem or "")

    def indent(line: int) -> int:
        return len(lines[line]) - len(lines[line].lstrip(" ")) if line < len(lines) else 0

    # the opening line's key, past a list item's dash (`  - name: [a`: its item's next keys are at `name`'s column)
    key = _LINE_KEY.match(lines[start.line]) if start.line < len(lines) else None
    opened = key.start(2) - (key[1] != "") if key else indent(start.line)
    return end.line >= len(lines) or indent(end.line) <= opened


# a line that reads as a key and its value with the colon left out ("pue 1.3", "- name w")
_KEY_WITHOUT_COLON = re.compile(r"(-?\s*[A-Za-z_][\w.-]*)\s+([^\s:#][^:#]*?)\s*")


def _scalar_before(source: str, at: int) -> yaml.ScalarToken | None:
    """The last scalar PyYAML scans before index `at` of `source`, where it stopped at an error: the plain scalar a
    misplaced ':' ends ("mapping values are not allowed here"), which may have begun lines above."""
    loader = yaml.SafeLoader(source)
    scanned: list = []
    try:
        while loader.check_token():
            scanned.append(loader.get_token())
    except yaml.YAMLError:
        scanned += loader.tokens   # the tokens scanned but not yet handed out
    finally:
        loader.dispose()
    found = [t for t in scanned if isinstance(t, yaml.ScalarToken) and t.start_mark.index < at]
    return found[-1] if found else None


def _misplaced_colon(source: str, lines: list[str], mark: yaml.Mark,
                     editor: _EditorLines) -> tuple[yaml.Mark, str, int | None]:
    """(where to say it, what) of PyYAML's "mapping values are not allowed here" at `mark`, a ': ' where no key may
    start, in a user's words. PyYAML finds it at the colon, which is on the line to fix where the value before it
    is on that line (`name: a: b`: quote the value) or where the line is indented further than the key above it, so
    that YAML read it as more of that key's value (the third item: the line of that key, 0-based); but where that
    plain text began on an earlier line with no key (`pue 1.3`), the line to fix is that earlier one, which lacks its
    ':'."""
    start = _scalar_before(source, mark.index)
    if start is None or start.start_mark.line >= mark.line:
        return mark, ("a `key: value` cannot start here: a value holding ': ' needs quotes "
                      "(e.g. name: 'a: b'), or this key belongs on a line of its own"), None
    first = start.start_mark
    before = lines[first.line][:first.column] if first.line < len(lines) else ""
    if not before.strip() or before.strip() == "-":   # the text starts its line: a key whose ':' is left out
        written = lines[first.line].strip()
        key = _KEY_WITHOUT_COLON.fullmatch(written)
        return first, "no ':' after the key on this line" + (f"; did you mean '{key[1]}: {key[2]}'?" if key else ""), None
    line = lines[mark.line]
    where = yaml.Mark(mark.name, mark.index - mark.column + len(line) - len(line.lstrip(" ")), mark.line,
                      len(line) - len(line.lstrip(" ")), None, None)
    above = _LINE_KEY.match(lines[first.line])
    number = editor.position(first.line, 0)[0]
    key = f"the key '{above[2]}' above it (line {number})" if above else f"line {number} above it"
    return where, (f"a `key: value` cannot start here: this line is indented more than {key}, so YAML reads it as "
                   "part of that value; line it up with its keys (or quote a value holding ': ')"), first.line


def _parse_yaml(text: str, origin: str) -> tuple[Any, Any, list[str], frozenset[Blanked]]:
    """Parse with the safe loader. A syntax error is reported, its line blanked and parsing retried,
    so one broken line does not hide the file's other problems. YAML over a limit is refused at once.
    Returns (data, positions, syntax problems, the lines blanked and the keys they set)."""
    if len(text) > MAX_SCENARIO_CHARS:
        return None, {}, [f"{origin}: longer than {MAX_SCENARIO_CHARS:,} characters (a scenario is a few KB)"], frozenset()
    text, syntax = _pasted_characters(text, origin)   # each made a space: the rest is read as it shows
    lines = _YAML_BREAKS.split(text)
    editor = _EditorLines(text)
    blanked: set[Blanked] = set()
    reindented: set[int] = set()   # the lines of keys opening a block read at another indentation (_reindented_opener)
    reparsed = -len(text)   # the first parse is not a retry
    for _ in range(20):
        source = "\n".join(lines)
        reparsed += len(source)
        if syntax and reparsed > MAX_RETRY_CHARS:
            syntax[-1] += (f" (the rest of this file of {len(text):,} characters is checked once this is fixed: "
                           "each syntax error found costs a parse of the whole file)")
            break
        try:
            data, positions, duplicates, invisible = _compose(source)
            syntax += _duplicates_said(duplicates, lines, origin, editor)
            syntax += [_invisible_said(found, origin, editor) for found in invisible]
            if isinstance(positions, _Positions):
                positions.editor = editor
            return data, positions, syntax, frozenset(blanked)
        except YamlRefused as exc:
            return None, {}, syntax + [f"{_at(origin, exc.mark, editor)}: {exc.what}"], frozenset(blanked)
        except yaml.MarkedYAMLError as exc:
            block_first: int | None = None   # the first line of the block an indentation error is in, where known
            mark = exc.problem_mark or exc.context_mark
            what = exc.problem or "invalid YAML"
            opener = _OPENERS.get(exc.context or "")
            if opener and _left_open(exc, lines):
                # a quote or bracket left open: PyYAML finds out where the file or the next key ends, but the
                # mistake is where it opened, and that line is the one to blank
                if "end of stream" in what or "<stream end>" in what:
                    what = f"{opener} opened here is never closed: the file ends first"
                else:
                    what = (f"{opener} opened here is not closed before line "
                            f"{editor.position(mark.line, mark.column)[0]} ({what})")
                mark = exc.context_mark
            elif exc.context == "while scanning a simple key" and exc.context_mark is not None:
                # a key with no ':' after it ("pue 1.3"): PyYAML finds out on a later line, but the mistake — and the
                # line to blank — is where the key starts (blanking the later line failed again on each next one)
                mark = exc.context_mark
                written = lines[mark.line].strip() if mark.line < len(lines) else ""
                key = _KEY_WITHOUT_COLON.fullmatch(written)
                what = "no ':' after the key on this line" + (f"; did you mean '{key[1]}: {key[2]}'?" if key else "")
            elif what == "mapping values are not allowed here" and mark is not None and not exc.context:
                mark, what, block_first = _misplaced_colon(source, lines, mark, editor)
            elif exc.context:
                what = f"{what} ({exc.context})"
            if block_first is None and what.startswith("expected <block end>") and mark is not None:
                block_first = _run_above(lines, mark.line)
                what = _astray_said(what, lines, block_first, editor)
            elif block_first is None and what.startswith("expected '<document start>'") and mark is not None:
                block_first = _run_above(lines, mark.line)   # the file's first lines indented, the next not
                what = ("a key cannot start here: the lines above it are indented further than this one, but the "
                        "file's top-level keys all start at column 1: take the spaces off the lines above")
            astray = (_first_of_block_astray(lines, block_first, mark.line)
                      if block_first is not None and mark is not None and block_first not in reindented else None)
            start = (_indented_start(lines, mark.line, editor)
                     if mark is not None and (exc.problem or "").startswith("expected '<document start>'") else None)
            if start is not None and (astray is None or start.before_astray):
                # the file's first lines indented, its top-level keys not: said once, at the first, and read at the
                # top level, so that the blocks below stay their own (_indented_start). Where the key found is
                # indented too and a line below is not, not the block astray: it told `    name:` over
                # `  horizon_months:` to line up with it, and then that both are indented
                where = yaml.Mark("", 0, start.first, start.spaces, None, None)
                syntax.append(f"{_at(origin, where, editor)}: YAML syntax: {start.said}")
                for k, spaces in start.cuts.items():
                    lines[k] = _dedented(lines[k], spaces)
                continue
            if astray is not None:
                # the first line of a block indented other than the lines below it: PyYAML finds out on the next
                # line, but the line to fix is the first, and reading it at their indentation reads the rest
                mark, what, lines[block_first] = astray
                reindented.add(block_first)
                said = f"{_at(origin, mark, editor)}: YAML syntax: {what}"
                if said not in syntax:
                    syntax.append(said)
                continue
            line = mark.line if mark else 0
            hint = (" — check the indentation" if ("indent" in what or "mapping" in what or "block" in what)
                    and "`key: value`" not in what and "line it up" not in what else "")
            if "'\\t'" in what:
                what, hint = "a tab here", " — indent with spaces: YAML does not allow tabs"
            said = f"{_at(origin, mark, editor)}: YAML syntax: {what}{hint}"
            if said not in syntax:   # a line blanked to its list item's dash may fail again where it did
                syntax.append(said)
            if line >= len(lines) or not lines[line].strip():
                break
            if "another document" in what:   # the rest is another document: its keys are not this one's duplicates
                lines = lines[:line]
                continue
            opener = _reindented_opener(lines, line) if line not in reindented else None
            if opener is not None:
                # a key that opens a block, indented with a tab or too far: read at the indentation its block's lines
                # show it meant, so that its block is still its own (blanked, its lines joined the mapping above)
                reindented.add(line)
                lines[line] = opener
                continue
            key = _LINE_KEY.match(lines[line])
            if not key and what.startswith("no ':' after the key"):
                key = _LINE_KEY_WITHOUT_COLON.match(lines[line])
            if key:
                # a key indented with a tab has no column it can be told to be at: 0 stands for any
                tabbed = "\t" in lines[line][:key.start(1)]
                blanked.add((line + 1, 0 if tabbed else key.start(1) + 1, key[2]))
            left = _blanked_line(lines, line)
            if key and left:   # the item's keys are where its dash, kept at its siblings' indentation, puts them
                blanked.discard((line + 1, 0 if tabbed else key.start(1) + 1, key[2]))
                blanked.add((line + 1, len(left) + 2, key[2]))
            lines[line] = left if left != lines[line] else ""   # its dash alone failing again: blank it whole
        except yaml.YAMLError as exc:  # an error without a place (a refused character has one: _refused_character)
            syntax.append(f"{origin}: YAML: {exc}")
            break
    return None, {}, syntax, frozenset(blanked)


def _source_given(got: Any) -> str:
    """What a `prices.source` that is no text holds, as its message says it: an offers table given as a pandas DataFrame
    (a notebook's) is named so, with the way to give it."""
    if isinstance(got, _Table):
        return ("a pandas DataFrame (prices are read from a file: write the offers with "
                "offers.to_csv('offers.csv', index=False) and give that path)")
    return got.isoformat() if hasattr(got, "isoformat") else _shown(got)


def dotted(loc: Path_) -> str:
    """A field path as the scenario's problems name it: `workloads[0].reference_gpu`, `onprem.existing.l40s`; "(file)"
    for the file as a whole (no field)."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{shortened(str(part))}" if out else shortened(str(part)))
    return out or "(file)"


def _shown(value: Any) -> str:
    """`value` as a message shows what was got, in YAML's words where Python's differ (`name:` left empty was "got
    None", `true` "got True"): nothing for an empty value, true or false for a yes/no value, .inf and .nan; else its
    repr, a long one cut (`shortened`)."""
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a yes/no value)"
    if isinstance(value, float) and not math.isfinite(value):
        return ".nan" if math.isnan(value) else ".inf" if value > 0 else "-.inf"
    # an integer of 999 digits came back whole ("expected a number ≤ 120, got 9999…"): any repr is cut as a text is
    return shortened(value, repr) if isinstance(value, str) else shortened(repr(value))


# Typographic quotes, which a word processor puts round a value pasted from it: YAML quotes with " and ' only, so
# `currency: “USD”` is the five characters “USD”, no code
_CURLY_QUOTES = "“”„‟‘’‚‛«»"


def _curly_quoted(value: Any) -> str:
    """"; did you mean "USD" or USD? …" for a text `value` wrapped in typographic quotes (“USD”, ‘spot’), else ""."""
    if not (isinstance(value, str) and len(value) > 2 and value[0] in _CURLY_QUOTES and value[-1] in _CURLY_QUOTES):
        return ""
    inner = value[1:-1]
    return (f"; did you mean \"{shortened(inner)}\" or {shortened(inner)}? YAML quotes only with \" and ', and keeps "
            f"{value[0]} {value[-1]} as part of the text")


def _placed(origin: str, positions: Any, loc: Path_, value: bool = True) -> str:
    """"ORIGIN:LINE:COL" of `loc` (its value's, when `value`) or of the nearest part of it the YAML has, as the
    editor shows it; plain "ORIGIN" where the scenario has no lines (a dict, a Scenario object, overrides: no
    positions), where "<dict>:1:1" sent the reader to a line that is not there."""
    editor = getattr(positions, "editor", None) or _EditorLines("")
    for cut in range(len(loc), -1, -1):
        key = tuple(loc[:cut])
        found = (positions.get(key + ("<value>",)) if value and cut == len(loc) else None) or positions.get(key)
        if found is not None:
            line, col = editor.position(found[0] - 1, found[1] - 1)
            return f"{origin}:{line}:{col}"
    return origin


def _model_at(loc: Path_) -> type[BaseModel] | None:
    """The pydantic model that holds the mapping at `loc` (for did-you-mean on unknown keys)."""
    model: Any = Scenario
    map_key = False          # the next part is a key of a dict[str, Model] (a card id): skip it
    for part in loc:
        if isinstance(part, int) or map_key:
            map_key = False
            continue
        field = model.model_fields.get(part) if isinstance(model, type) and issubclass(model, BaseModel) else None
        if field is None:
            return None
        ann = field.annotation
        inner = [a for a in getattr(ann, "__args__", ()) if isinstance(a, type) and issubclass(a, BaseModel)]
        if typing.get_origin(ann) is dict and inner:      # dict[str, Model]: the next part is a key
            model, map_key = inner[-1], True
        elif isinstance(ann, type) and issubclass(ann, BaseModel):
            model = ann
        elif inner:
            model = inner[0]
        else:
            args = getattr(ann, "__args__", ())
            # dict[str, CardOverride]: skip the key level
            if args and isinstance(args[-1], type) and issubclass(args[-1], BaseModel):
                model, map_key = args[-1], True
            else:
                return None
    return model


@functools.cache
def _all_fields() -> dict[str, list[str]]:
    """field name -> dotted parents where it is allowed (for 'belongs under …' hints); made once (a file of
    30,000 unknown keys walked the models 30,000 times: 5 of its 8 s). Callers must not change it."""
    out: dict[str, list[str]] = {}

    def walk(model: type[BaseModel], prefix: str) -> None:
        for name, field in model.model_fields.items():
            out.setdefault(name, []).append(prefix or "(top level)")
            ann = field.annotation
            for cand in (ann, *getattr(ann, "__args__", ())):
                if isinstance(cand, type) and issubclass(cand, BaseModel):
                    walk(cand, f"{prefix}.{name}" if prefix else name)
    walk(Scenario, "")
    return out


_BOUNDS = {"greater_than_equal": ("≥", "ge"), "greater_than": (">", "gt"), "less_than_equal": ("≤", "le"),
           "less_than": ("<", "lt")}   # pydantic's bound errors: the sign and the ctx key holding the bound


# A field bounded above by at most this holds a ratio (the shares, ≤ 1, and the PUE, ≤ 3): a value above its bound
# whose hundredth it accepts was typed in percent (availability 97 for 0.97, pue 140 for 1.4), as was an "8%" there.
MAX_RATIO_BOUND = 3.0
# Shares with no upper bound to know them by: growth_per_month 1 doubles demand every month, so 2 % may be 2
UNBOUNDED_SHARES = frozenset({"growth_per_month"})
# The units a number may be typed with in a field whose name ends in a unit, and the size of each in the field's:
# "6kW" in power_cap_kw is 6, "6000W" 6. A GPU's memory is sold in GB that are GiB (an "80GB" A100 has 80 GiB,
# gpus.csv's 80), and nvidia-smi counts it in MiB: both GB and GiB are the field's unit, MB and MiB 1/1024 of it.
UNITS_BY_SUFFIX = {
    "_kw": {"kw": 1.0, "w": 1e-3, "mw": 1e3},
    "_watts": {"w": 1.0, "kw": 1e3},
    "_gb": {"gb": 1.0, "gib": 1.0, "mb": 1 / 1024, "mib": 1 / 1024},
    "_months": {"months": 1.0, "month": 1.0, "mo": 1.0, "years": 12.0, "year": 12.0, "y": 12.0},
    "_years": {"years": 1.0, "year": 1.0, "y": 1.0, "months": 1 / 12, "month": 1 / 12},
}
_NUMBER_AND_UNIT = re.compile(r"\s*([-+]?(?:\d+(?:\.\d*)?|\.\d+))\s*([A-Za-z]+|%)\s*")
# A number written with thousands separators ("1,500", "12 000", "1'500": one separator throughout, groups of three
# after a first group that does not start with 0), or with a decimal comma ("0,12"), which YAML reads as text
_GROUPED = re.compile(r"\s*[-+]?[1-9]\d{0,2}([,'_ \u00a0\u202f])\d{3}(?:\1\d{3})*(?:\.\d+)?\s*")
_DECIMAL_COMMA = re.compile(r"\s*([-+]?\d+),(\d+)\s*")
# thousands separated by dots, as German writes an amount ("2.500 €", "1.250.000,50 €"): read so in an amount with its
# currency, where a figure of three decimals is rare, when the field takes that number
_DOT_GROUPED = re.compile(r"\s*[-+]?[1-9]\d{0,2}(?:\.\d{3})+(?:,\d+)?\s*")
# An amount written with its currency ("0.28 EUR", "EUR 0.28", "$1900", "1900 €", "60,000 EUR") or in cents
# ("25 ct"), and per the unit the field's name ends in ("0.12 $/kWh" in electricity_per_kwh): a money field (bounded
# by MAX_MONEY or MAX_UNIT_PRICE) holds the number alone, in the scenario's currency (a card's own `currency`)
CURRENCY_SYMBOLS = {"$": ("USD",), "€": ("EUR",), "£": ("GBP",), "¥": ("JPY", "CNY")}   # ¥: the yen's and the yuan's
CENTS = ("ct", "cent", "cents", "¢")
_CURRENCY = rf"([A-Z]{{3}}|[{''.join(CURRENCY_SYMBOLS)}]|{'|'.join(CENTS)})"
_FIGURE = r"([-+]?(?:\d[\d,.' \u00a0\u202f]*|\.\d+))"
_PER_UNIT = r"(?:(?:/|\bper\b)\s*([A-Za-z][A-Za-z/ _-]*?))?"   # "/kWh", "per kW month"
_WITH_CURRENCY = re.compile(rf"\s*(?:{_CURRENCY}\s*{_FIGURE}|{_FIGURE}\s*{_CURRENCY})\s*{_PER_UNIT}\s*")
# How often, in words, in a field of months between events (purchase_every_months: quarterly is 3)
EVERY_MONTHS = {"monthly": 1, "quarterly": 3, "half-yearly": 6, "semiannually": 6, "semi-annually": 6, "yearly": 12,
                "annually": 12, "annual": 12}
# "80k", "1.5M": thousands and millions, in a field whose name carries no unit (a budget, a price, a demand); not
# "m" (milli or million?) and not where the name ends in a unit ("8k" in power_cap_kw)
MULTIPLIERS = {"k": 1e3, "K": 1e3, "M": 1e6}
# Mappings to a ratio a number typed in percent was meant as: a currency's rate (fx: {USD: 92%}: 0.92) and a GPU's
# relative speed (throughput: {L40S: 80%}: 0.8)
PERCENT_MAPS = frozenset({"fx", "throughput"})


def _number_meant(loc: Path_, got: Any, data: dict | None = None) -> str:
    """"; did you mean …?" for a number typed in percent or with a unit, naming the value the field `loc` takes
    for it when the field accepts that value, else "": "8%" or 8 for a share (0.08), "6kW" in power_cap_kw (6),
    "6000W" there (6, converted), "80GB" in min_gpu_memory_gb (80). Whether a field holds a ratio is read from
    its upper bound (MAX_RATIO_BOUND), its unit from its name's end (UNITS_BY_SUFFIX). An entry of a mapping to
    numbers is read as that entry ("0,92" in fx.USD: 0.92; "92%" there, PERCENT_MAPS: 0.92). `data`: the scenario,
    whose currency and rates an amount written in a currency is converted at."""
    data = _mapping(data)
    model = _model_at(loc[:-1]) if loc else None
    name = str(loc[-1]) if loc else ""
    info = model.model_fields.get(name) if model else None

    def read(value: Any) -> Any:   # `value` as the field reads it, else None
        return _read_as(model, name, value)

    outer = _model_at(loc[:-2]) if info is None and len(loc) >= 2 else None
    if outer is not None and str(loc[-2]) in outer.model_fields and _field_shape(outer, str(loc[-2])) == "map":
        # an entry of a mapping to numbers (fx: {USD: 0,92}, a throughput table): read as that entry of the mapping
        model, name, info = outer, str(loc[-2]), outer.model_fields[str(loc[-2])]

        def read(value: Any) -> Any:
            entry = _read_as(model, name, {loc[-1]: value})
            return None if entry is None else next(iter(entry.values()))
    if info is None or isinstance(got, bool):
        return ""
    ratio = name in UNBOUNDED_SHARES or any(
        bound is not None and bound <= MAX_RATIO_BOUND for c in info.metadata for bound in (getattr(c, "le", None),
                                                                                            getattr(c, "lt", None)))
    if _number(got):   # a percent is at most 100 × the bound: no other number is divided (10**999 / 100 overflows)
        fits = ratio and abs(got) <= 100 * MAX_RATIO_BOUND and read(got / 100) is not None
        # 1.5 of the book value is most likely a sale above it (150 %), which "did you mean 0.015 (1.5 %)?" alone hid
        above_book = (": a buyer pays at most the whole book value (1), and a resale above it cannot be given"
                      if name == "share_of_book" and 1 < got < 10 else "")
        return above_book + (percent_meant(got) if fits else "")
    if isinstance(got, str) and (grouped := _GROUPED.fullmatch(got)):
        meant = read(float(got.strip().replace(grouped[1], "")))
        if meant is not None:   # written plainly: "did you mean 1,500?" would hold the separator it asks to drop
            return f"; did you mean {_unseparated(meant)}? (a number without thousands separators)"
    # a decimal comma; "1,400" too where 1400 is out of the field's range (a PUE of 1.4)
    if isinstance(got, str) and (comma := _DECIMAL_COMMA.fullmatch(got)):
        meant = read(float(f"{comma[1]}.{comma[2]}"))
        return f"; did you mean {_figure(meant)}? (a decimal point, not a comma)" if meant is not None else ""
    money = any(getattr(c, "le", None) in (MAX_MONEY, MAX_UNIT_PRICE) for c in info.metadata)
    if money and isinstance(got, str) and (amount := _WITH_CURRENCY.fullmatch(got)):
        return _amount_meant(amount, model, name, read, _section(data, loc[:-1]), data)
    if isinstance(got, str) and name.endswith("_every_months") and got.strip().lower() in EVERY_MONTHS:
        meant = read(EVERY_MONTHS[got.strip().lower()])
        return f"; did you mean {meant}? ({got.strip()})" if meant is not None else ""
    typed = _NUMBER_AND_UNIT.fullmatch(got) if isinstance(got, str) else None
    if typed is None:
        return ""
    number, unit = float(typed[1]), typed[2]
    if unit == "%":   # a rate or a relative speed in percent (fx: {USD: 92%}, throughput: {L40S: 80%}) too
        return percent_meant(number) if (ratio or name in PERCENT_MAPS) and read(number / 100) is not None else ""
    if unit in MULTIPLIERS and not any(name.endswith(suffix) for suffix in UNITS_BY_SUFFIX):
        meant = read(round(number * MULTIPLIERS[unit], 9))
        return f"; did you mean {_unseparated(meant)}? ({_figure(number)}{unit})" if meant is not None else ""
    size = next((units.get(unit.lower()) for suffix, units in UNITS_BY_SUFFIX.items() if name.endswith(suffix)), None)
    meant = None if size is None else read(round(number * size, 9))
    if meant is None:
        return ""
    return f"; did you mean {_figure(meant)}?" if size == 1 else f"; did you mean {_figure(meant)} ({_figure(number)} {unit})?"


def _amount_meant(amount: re.Match, model: type[BaseModel], name: str, read: typing.Callable[[Any], Any],
                  section: dict, data: dict) -> str:
    """"; did you mean …?" for a money field's value written with its currency or in cents (`amount`, a match of
    _WITH_CURRENCY), else "": the number alone, in the field's currency; an amount in another currency is converted
    at the scenario's rate for it (fx) where the field is in the scenario's currency, and otherwise said to need
    converting. `section` holds the field (a card's own `currency`), `data` the scenario."""
    sign, figure, per = amount[1] or amount[4], amount[2] or amount[3], amount[5]
    if per and per.lower().replace(" ", "").replace("/", "").replace("-", "").replace("_", "") != \
            name.partition("_per_")[2].replace("_", ""):   # "/MWh" in electricity_per_kwh: not the field's unit
        return ""
    number = _plain_figure(figure)
    # "2.500 €" as German writes an amount of 2,500 EUR ("did you mean 2.5?" was a thousandth of it); not a price per
    # unit, whose three decimals are common: 1.500 USD a kWh is 1.5
    unit_price = any(getattr(c, "le", None) == MAX_UNIT_PRICE for c in model.model_fields[name].metadata)
    if not unit_price and _DOT_GROUPED.fullmatch(figure) \
            and read(dotted := float(figure.replace(".", "").replace(",", "."))) is not None:
        number = dotted
    if number is None:
        return ""
    scenario_currency = _currency_meant(data.get("currency", "USD"))
    own = _currency_meant(section.get("currency")) if model in (CardOverride, CustomCard) else None
    field_currency = own or (None if model is CardOverride else scenario_currency)   # an override's: its catalog card's
    whose = {CardOverride: "the override's `currency`, else the catalog card's",
             CustomCard: "the card's `currency`, else the scenario's"}.get(model, "the scenario's")
    if sign in CENTS:
        meant = read(round(number / 100, 12))
        return (f"; did you mean {_unseparated(meant)}? ({_figure(number)} {sign}: an amount is the number alone, in whole "
                f"units of {whose} currency)" if meant is not None else "")
    codes = CURRENCY_SYMBOLS.get(sign, (sign,))
    if field_currency is None or field_currency in codes or _currency_meant(codes[0]) is None:   # "KWH": no currency
        meant = read(number)
        return (f"; did you mean {_unseparated(meant)}? (an amount is the number alone, in {whose} currency)"
                if meant is not None else "")
    written = f"{_figure(number)} {' or '.join(codes)}"
    rates = _rates(data)
    # a rate implausible_fx warns of converts nothing (its warning says it)
    rate = (rates.get(codes[0]) if len(codes) == 1 and field_currency == scenario_currency
            and ("fx", codes[0]) not in {tuple(at) for at, _ in implausible_fx(scenario_currency, rates)} else None)
    if model is CustomCard and own is None and len(codes) == 1 and (meant := read(number)) is not None:
        # a card may be priced in a currency of its own: that is the mend that keeps the number
        converted = read(round(number * rate, 12)) if _number(rate) else None
        return (f"; did you mean {_unseparated(meant)} with `currency: {codes[0]}` on the card? (an amount is the number "
                f"alone, in the card's `currency`, else the scenario's, {field_currency}"
                + (f"; or {_unseparated(converted)}: {written} at your fx.{codes[0]} {_figure(rate)}" if converted else "")
                + ")")
    if _number(rate):
        meant = read(round(number * rate, 12))
        if meant is not None:
            return (f"; did you mean {_unseparated(meant)}? (the field is in {field_currency}, the scenario's currency: "
                    f"{written} at your fx.{codes[0]} {_figure(rate)} is {_figure(meant)} {field_currency}; an amount is "
                    f"the number alone)")
    sign_said = f"{sign} is {' or '.join(codes)}, and " if len(codes) > 1 else ""
    return f"; {sign_said}the field is in {field_currency}: write {written} converted to {field_currency}, the number alone"


def _plain_figure(figure: str) -> float | None:
    """The number a figure written with thousands separators or a decimal comma is ("60,000": 60000, "0,25": 0.25),
    or as written ("0.12"); None for no number."""
    text = figure.strip()
    if grouped := _GROUPED.fullmatch(text):
        return float(text.replace(grouped[1], ""))
    if comma := _DECIMAL_COMMA.fullmatch(text):
        return float(f"{comma[1]}.{comma[2]}")
    try:
        return float(text)
    except ValueError:
        return None


def _section(data: Any, loc: Path_) -> dict:
    """The mapping at `loc` in the scenario's `data`, else {}."""
    for part in loc:
        data = data[part] if isinstance(data, dict) and part in data or isinstance(data, list) and isinstance(part, int) \
            and 0 <= part < len(data) else None
    return _mapping(data)


def _unseparated(x: float) -> str:
    """`x` as YAML takes it, without thousands separators (a hint that held them would ask for what it refuses)."""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def _field_of(err: dict) -> tuple:
    """The path of the field a validation error is about: a check across fields names it, Scenario's model
    validators in ctx["loc"] (from the top), a nested model's (CustomCard, a workload's demand) in ctx["field"]
    (below where the error was raised)."""
    ctx = err.get("ctx") or {}
    return tuple(ctx.get("loc") or (*err["loc"], *ctx.get("field", ())))


def _describe(err: dict, positions: Any, origin: str, data: dict | None = None) -> str:
    """The problem `err` (pydantic's) says, at its place in the file; `data`: the scenario, for hints that read it."""
    ctx = err.get("ctx") or {}
    loc = _field_of(err)
    kind = err["type"]
    got = err.get("input")
    on_key = bool(loc) and loc[-1] == "[key]"   # a mapping's key failed (fx: {EURO: 1.1}): it names the entry
    if on_key:
        loc = (*loc[:-2], str(loc[-2]))          # a key 1 is entry `fx.1`, not item `fx[1]`
    if kind == "invalid_key":   # a key that is no text, in a dict (YAML keys are read as text): loc holds 1 for True
        loc = (*loc[:-1], str(got))
        return f"{_placed(origin, positions, loc, value=False)}: {dotted(loc)}: expected a key that is text, got {_shown(got)}"
    if kind == "extra_forbidden":
        key = loc[-1]
        model = _model_at(loc[:-1])
        choices = list(model.model_fields) if model else []
        near = catalog.suggest(str(key), choices)
        hint = f"; did you mean '{near[0]}'?" if near else ""
        elsewhere = [p for p in _all_fields().get(str(key), []) if p != dotted(loc[:-1])]
        if not near and elsewhere:
            hint = f"; '{key}' belongs under {elsewhere[0]} — check the indentation"
        hint = _curly_quoted(key) or hint
        allowed = f" (allowed: {', '.join(choices)})" if choices and not near else ""
        return f"{_placed(origin, positions, loc, value=False)}: {dotted(loc)}: unknown key{hint}{allowed}"
    if kind == "missing":
        return f"{_placed(origin, positions, loc[:-1])}: {dotted(loc)}: required field is missing"
    if kind == "lookalike_space":   # a key no field is, holding a no-break space (model.Frozen._lookalike_keys): at the key
        return f"{_placed(origin, positions, loc, value=False)}: {dotted(loc)}: {err['msg']}"
    # pydantic's own wording ("Tuple should have…", "Value error, …") becomes "expected …, got …"
    msg = err["msg"]
    hint = ctx.get("hint", "")   # a check's "; did you mean …", after what was got
    if kind.startswith(("float_", "int_", "bool_")) and "parsing" in kind:
        expected = {"float": "a number", "int": "a whole number", "bool": "true or false"}[kind.split("_")[0]]
        msg = f"expected {expected}, got {_shown(got)}"
        hint = hint or _number_meant(loc, got, data)   # "8%", "6kW": did you mean 0.08, 6?
    elif kind == "int_from_float":
        msg = f"expected a whole number, got {_shown(got)}"
    elif kind in ("float_type", "int_type", "bool_type"):   # pydantic's "Input should be a valid number"
        expected = {"float": "a number", "int": "a whole number", "bool": "true or false"}[kind.split("_")[0]]
        # a date is shown as written, not as Python's datetime.date(2026, 1, 1)
        msg = f"expected {expected}, got " + (f"{got.isoformat()} (YAML read it as a date)" if hasattr(got, "isoformat")
                                              else _shown(got))
    elif kind == "string_unicode":   # a lone surrogate (\ud800 in a double-quoted YAML string) is no character
        msg = f"expected a text, got {_shown(got)}, which holds a lone surrogate: no character"
    elif kind == "string_type":
        msg = f"expected a text, got {got.isoformat() if hasattr(got, 'isoformat') else _shown(got)}"
        if not on_key and isinstance(got, bool):   # "got true (a yes/no value)" says how YAML read it
            hint = "; put it in quotes to make it text"
        elif not on_key and (isinstance(got, (int, float)) or hasattr(got, "isoformat")):
            # YAML reads 2024 as a number, and 2024-01-01 tagged !!timestamp as a date
            hint = f"; YAML read it as {'a date' if hasattr(got, 'isoformat') else 'a number'}: put it in quotes"
        if loc == ("prices", "source") and not on_key and not isinstance(got, (bool, int, float)):
            msg = f"expected snapshot, store or the path of an offers CSV; got {_source_given(got)}"
    elif kind == "too_long":
        # pydantic gives no actual_length for a mapping it stopped reading at the limit
        most, count = ctx["max_length"], ctx.get("actual_length")
        if count is None and hasattr(got, "__len__"):
            count = len(got)
        msg = f"expected at most {most:,} entries, got {'more' if count is None else f'{count:,}'}"
    elif kind == "finite_number":
        msg = f"expected a finite number, got {_shown(got)}"
    elif kind in _BOUNDS:   # "Input should be greater than or equal to 0" reads "expected a number ≥ 0"
        sign, key = _BOUNDS[kind]
        bound = ctx[key]
        if isinstance(bound, (int, float)):   # whole bounds in full (1000000000, not 1e+09)
            shown = str(int(bound)) if float(bound).is_integer() and abs(bound) < 1e15 else f"{bound:g}"
            msg = f"expected a number {sign} {shown}, got {_shown(got)}"
            hint = hint or _number_meant(loc, got, data)   # a share typed in percent: 97 for 0.97
    elif kind == "literal_error":
        expected = err.get("ctx", {}).get("expected", "")
        near = [] if _curly_quoted(got) else catalog.suggest(str(got), re.findall(r"'([^']+)'", expected))
        msg = f"expected one of {expected}, got {_shown(got)}" + (f"; did you mean '{near[0]}'?" if near else "")
    elif kind == "too_short":
        least, count = ctx["min_length"], ctx["actual_length"]
        msg = f"expected at least {counted(least, 'item')}, got {count or 'none'}"
    elif kind in ("list_type", "tuple_type", "dict_type", "model_type", "model_attributes_type"):
        expected = "a list" if kind in ("list_type", "tuple_type") else "a mapping of fields"
        msg = f"expected {expected}, got {'nothing' if got is None else _shown(got)}"
    elif kind == "string_too_short":
        msg = f"expected a non-empty text, got {_shown(got)}"
    elif kind == "string_too_long":
        msg = f"expected at most {ctx['max_length']} characters, got {_shown(got)}"
    elif kind == "string_pattern_mismatch" and ctx.get("pattern") == CURRENCY_PATTERN:
        msg = f"expected a currency code of three capital letters (ISO 4217), got {_shown(got)}"
        if isinstance(got, str) and re.fullmatch(CURRENCY_PATTERN, got.strip().upper()):
            hint = currency_hint(got.strip().upper())   # 'eur': EUR; 'eue': EUR, not the EUE it spells
        elif isinstance(got, str) and (codes := CURRENCY_SYMBOLS.get(got.strip())):   # '€': EUR; '¥': JPY or CNY
            hint = f"; did you mean {' or '.join(codes)}?" + (f" ({got.strip()} is the sign of each)" if len(codes) > 1 else "")
    else:
        if kind == "value_error":   # a plain ValueError of a validator: its text without "Value error, "
            msg = str(ctx.get("error", msg))
        if got is not None and not isinstance(got, (dict, list)):
            msg = f"{msg}, got {got.isoformat() if hasattr(got, 'isoformat') else _shown(got)}"   # a date as written
    hint = _curly_quoted(got) or hint   # a value pasted in “ ”: the same value in YAML's quotes
    return f"{_placed(origin, positions, loc, value=not on_key)}: {dotted(loc)}: {msg}{hint}"


# ---------------------------------------------------------------------------------------------------
# Catalog checks: names that pydantic cannot know


def _mapping(value: Any) -> dict:
    """`value` when it is a mapping, else {} (pydantic reports a section of the wrong shape)."""
    return value if isinstance(value, dict) else {}


def _names(value: Any) -> list:
    """The items of a list that can be names (a nested list or mapping is pydantic's to report), else []."""
    return [v for v in value if not isinstance(v, (list, dict))] if isinstance(value, list) else []


def _oversized(data: dict) -> bool:
    """Whether a list or table the catalog checks read is over its limit: pydantic reports it, and the
    checks are skipped, since they would read it as empty (501 custom cards made each card that names
    one an 'unknown card')."""
    workloads = data.get("workloads")
    if isinstance(workloads, list) and len(workloads) > MAX_WORKLOADS:
        return True
    onprem, cons = _mapping(data.get("onprem")), _mapping(data.get("constraints"))
    tables = [data.get("fx"), *(onprem.get(k) for k in ("cards", "card_overrides", "custom_cards", "existing")),
              *(cons.get(k) for k in ("min_units", "max_units"))]
    tables += [w.get("throughput") for w in workloads if isinstance(w, dict)] if isinstance(workloads, list) else []
    return any(isinstance(t, (list, dict)) and len(t) > MAX_ENTRIES for t in tables)


def _named_family(name: str) -> str | None:
    """The problem when `name` names a family of GPUs rather than one (`A100-80GB`: PCIe and SXM, whose speeds
    differ), naming every member, else None."""
    members = family_members(name)
    if not members:
        return None
    return f"{_shown(name)} names a family: {series(members)}; give one of them"


def _check_names(data: dict, positions: Any, origin: str, base_dir: Path | None,
                 check_files: bool = True, blanked_lines: frozenset[Blanked] = frozenset()) -> list[str]:
    problems: list[str] = []
    if _oversized(data):
        return problems
    cards = catalog.card_rows()   # card id -> text row of onprem_cards.csv (no pandas: validate stays light)
    card_ids = list(cards)

    def bad_card(card: str, loc: Path_, value: bool) -> None:
        near = catalog.suggest(card, card_ids)
        hint = _curly_quoted(card) or card_name_hint(card) or (f"; did you mean '{near[0]}'?" if near
                                                               else f" (known cards: {', '.join(card_ids)})")
        problems.append(f"{_placed(origin, positions, loc, value)}: {dotted(loc)}: unknown card {_shown(card)}{hint}")

    def check_gpu(name: str, loc: Path_, value: bool = True, lacked: str = "") -> None:
        """An unknown GPU or a family at `loc`; `lacked`: what to do for a GPU the catalog lacks."""
        if family := _named_family(str(name)):
            problems.append(f"{_placed(origin, positions, loc, value)}: {dotted(loc)}: {family}")
        elif catalog.resolve_gpu(str(name)) is None:
            near = catalog.suggest_gpu(str(name), same_model=True)
            hint = _curly_quoted(name) or (f"; did you mean '{near[0]}'?" if near
                                           else f" (see `fleetplan offers` or planner/data/gpus.csv{lacked})")
            problems.append(f"{_placed(origin, positions, loc, value)}: {dotted(loc)}: unknown GPU {_shown(str(name))}{hint}")

    onprem = _mapping(data.get("onprem"))
    custom = _mapping(onprem.get("custom_cards"))
    problems += _check_custom_cards(custom, cards, positions, origin, check_files)
    card_ids += [str(c) for c in custom if c not in cards]   # a custom card is named like a catalog card
    listed = onprem.get("cards")
    for i, card in enumerate(listed if isinstance(listed, list) else ()):
        if not isinstance(card, (list, dict)) and card not in cards and card not in custom:
            bad_card(str(card), ("onprem", "cards", i), True)
    for section, mapping in (("onprem", "card_overrides"), ("onprem", "existing"),
                             ("constraints", "min_units"), ("constraints", "max_units")):
        for card in _mapping(_mapping(data.get(section)).get(mapping)):
            if mapping == "card_overrides" and card in custom and card not in cards:
                loc = (section, mapping, card)
                problems.append(f"{_placed(origin, positions, loc, False)}: {dotted(loc)}: '{card}' is a custom card; "
                                f"set its figures in onprem.custom_cards.{card} instead")
            elif card not in cards and card not in custom:
                bad_card(str(card), (section, mapping, card), False)
    workloads = data.get("workloads")
    workloads = workloads if isinstance(workloads, list) else []
    # the model's check too, reported here for every repeat (the model reports the first, and only when
    # every field is valid)
    for i, problem in repeated_names([_mapping(w).get("name") for w in workloads]):
        problems.append(f"{_placed(origin, positions, ('workloads', i, 'name'))}: workloads[{i}].name: {problem}")
    for i, w in enumerate(workloads):
        if not isinstance(w, dict):
            continue
        if "reference_gpu" in w:
            check_gpu(w["reference_gpu"], ("workloads", i, "reference_gpu"))
            problems += _check_reference_figure(w, i, positions, origin)
        problems += _check_demand(w, i, custom, positions, origin, blanked_lines)
        problems += _check_grown_demand(w, i, data, positions, origin, blanked_lines)
        problems += _check_request_hours(w, i, custom, data, positions, origin, blanked_lines)
        named: dict = {}   # the GPU each key names -> the first key naming it
        for gpu in _mapping(w.get("throughput")):
            if gpu not in custom:   # a custom card's id names its GPU
                check_gpu(gpu, ("workloads", i, "throughput", gpu), value=False,
                          lacked="; for a GPU it lacks, describe a card with it in onprem.custom_cards (gpu_specs) "
                                 "and give the card's id here")
            canonical = gpu if gpu in custom else catalog.resolve_gpu(str(gpu))
            if canonical is None:
                continue
            if canonical in named:   # T4 and t4: the table would keep one of the two speeds, by key order
                problems.append(f"{_placed(origin, positions, ('workloads', i, 'throughput', gpu))}: "
                                f"workloads[{i}].throughput: {_shown(gpu)} and {_shown(named[canonical])} both name "
                                f"{canonical}; give its speed once")
            named.setdefault(canonical, gpu)
        profile = w.get("profile", "flat")   # one too long is pydantic's to report, once
        if isinstance(profile, str) and profile not in BUILTIN_PROFILES and len(profile) <= MAX_PATH_LENGTH:
            path = Path(profile) if base_dir is None else (base_dir / profile)
            if not profile.endswith(".csv"):
                near = catalog.suggest(profile, BUILTIN_PROFILES)
                hint = _curly_quoted(profile) or (f"; did you mean '{near[0]}'?" if near else "")
                problems.append(f"{_placed(origin, positions, ('workloads', i, 'profile'))}: "
                                f"workloads[{i}].profile: expected one of {', '.join(BUILTIN_PROFILES)} "
                                f"or a .csv file, got {_shown(profile)}{hint}")
            elif not check_files:   # a saved plan's scenario: shown, never planned again (its files may have moved)
                pass
            elif problem := file_problem(path):
                problems.append(f"{_placed(origin, positions, ('workloads', i, 'profile'))}: "
                                f"workloads[{i}].profile: profile {problem}: {shortened(str(path))}"
                                f"{_looked_in(path, base_dir)}{_file_meant(profile, base_dir, problem, '.csv')}")
            else:   # read now with the engine's rules, so `validate` refuses what `plan` would; named as the
                # file wrote it (weights/w.csv:169), not as the path read (/home/u/plans/…)
                problems += [f"{_placed(origin, positions, ('workloads', i, 'profile'))}: "
                             f"workloads[{i}].profile: {p}" for p in _profile_problems(path, _as_written(profile, base_dir))]
        framework = w.get("framework")
        if isinstance(framework, str) and "==" in framework and len(framework) <= MAX_NAME_LENGTH:
            msg = catalog.framework_problem(framework)
            if msg:
                problems.append(f"{_placed(origin, positions, ('workloads', i, 'framework'))}: "
                                f"workloads[{i}].framework: {msg}")
    problems += _memory_problems(data, positions, origin)
    problems += _check_rates(data, cards, custom, positions, origin)
    problems += _check_owned_ages(onprem, cards, custom, positions, origin)
    problems += _check_override_watts(onprem, positions, origin)
    cons = _mapping(data.get("constraints"))
    lo, hi = _mapping(cons.get("min_units")), _mapping(cons.get("max_units"))
    for card in set(lo) & set(hi):
        if isinstance(lo[card], int) and isinstance(hi[card], int) and lo[card] > hi[card]:
            problems.append(f"{_placed(origin, positions, ('constraints', 'min_units', card), False)}: "
                            f"constraints.min_units.{card}: {lo[card]} > max_units {hi[card]}")
    source = _mapping(data.get("prices")).get("source", "snapshot")
    if (check_files and isinstance(source, str) and source not in PRICE_SOURCE_WORDS
            and len(source) <= MAX_PATH_LENGTH):
        path = Path(source) if base_dir is None else base_dir / source
        if not source.strip():   # else the scenario's own folder, "not a regular file"
            problems.append(f"{_placed(origin, positions, ('prices', 'source'))}: prices.source: expected "
                            f"snapshot, store or the path of an offers CSV, got {_shown(source)}")
        elif problem := file_problem(path):
            # `SNAPSHOT` or `store ` is a misspelt word more likely than a missing file
            near = catalog.suggest(source.strip().lower(), list(PRICE_SOURCE_WORDS)) if source.strip() else []
            hint = _curly_quoted(source) or (f"; did you mean '{near[0]}'?" if near else _file_meant(source, base_dir, problem))
            problems.append(f"{_placed(origin, positions, ('prices', 'source'))}: prices.source: expected "
                            f"snapshot, store or the path of an offers CSV; {problem}: {shortened(str(path))}"
                            f"{_looked_in(path, base_dir)}{hint}")
    return problems


# Entries of a folder read for a "did you mean" of a file or folder it lacks: a scenario's folder holds a few files,
# and one of many thousands (a home folder, /tmp) is read no further than this; only the folders along the path
# named are read, never every folder inside one
MAX_FOLDER_ENTRIES = 300
# the characters a path is split into folders at, as the scenario writes it
_PATH_SEPARATORS = re.compile(f"([{re.escape(os.sep + (os.altsep or ''))}]+)")


def _file_meant(written: str, base_dir: Path | None, problem: str, suffix: str | tuple[str, ...] = "") -> str:
    """"; did you mean 'weights/prof.csv'?" for a file the scenario names as `written` (relative to `base_dir`, else to
    the working folder) that is not found, when each folder and the file it names is there or spelt like one there (a
    file ending in `suffix`); "" otherwise. The path meant is written as the scenario wrote it, each name it misspelt
    replaced. One folder is read per name misspelt (MAX_FOLDER_ENTRIES of its entries at most), and only along the
    path: a misspelt name with nothing spelt like it ends the search."""
    if problem != "file not found" or written.endswith(("/", os.sep)):
        return ""
    pieces = _PATH_SEPARATORS.split(written)   # names at even places, the separators between them at odd ones
    names: list[str | None] = pieces[0::2]
    folder = Path(Path(written).anchor) if os.path.isabs(written) else (base_dir or Path("."))
    try:
        for k, name in enumerate(names[:-1]):
            if name not in ("", ".", "..") and not (folder / name).is_dir():   # "": before an absolute path's first /
                names[k] = _entry_like(folder, name, lambda entry: entry.is_dir())
                if names[k] is None:
                    return ""
            folder = folder / names[k]
        if not (folder / names[-1]).is_file():
            names[-1] = _entry_like(folder, names[-1], lambda entry: entry.name.endswith(suffix) and entry.is_file())
    except (OSError, ValueError):   # a folder that may not be read
        return ""
    if names[-1] is None:
        return ""
    pieces[0::2] = names
    meant = "".join(pieces)
    return f"; did you mean '{meant}'?" if meant != written else ""


def _entry_like(folder: Path, name: str, wanted: typing.Callable[[os.DirEntry], bool]) -> str | None:
    """The name of the entry of `folder` spelt most like `name` among its first MAX_FOLDER_ENTRIES, of those `wanted`;
    None when none is."""
    with os.scandir(folder) as entries:
        names = [entry.name for entry in itertools.islice(entries, MAX_FOLDER_ENTRIES) if wanted(entry)]
    # spelt alike by what precedes a suffix both share: "nothere.yaml" and "powercap.yaml" were alike for ".yaml"; and
    # ".yml" is ".yaml": "team.yml" is the "team.yaml" beside it, not "teamB.yaml" (spelt closer to "team.yaml" whole)
    def stem(n: str) -> str:
        end = Path(n).suffix.lower()
        return n[:-len(end)] if end and _SAME_SUFFIX.get(end, end) == _SAME_SUFFIX.get(suffix, suffix) else n

    suffix = Path(name).suffix.lower()
    by_stem = {stem(n): n for n in names}
    typed = stem(name)
    # the same name but for its suffix or case first: suggest puts "teamB" (begins with "team") before "team"
    same = [n for s, n in by_stem.items() if s.lower() == typed.lower()]
    near = same or [by_stem[s] for s in catalog.suggest(typed, list(by_stem))]
    return near[0] if near else None


# suffixes that name the same kind of file, for a "did you mean" of a file not found
_SAME_SUFFIX = {".yml": ".yaml"}


def _looked_in(path: Path, base_dir: Path | None) -> str:
    """Where a file the scenario names and that cannot be read was looked for, when the scenario has no folder
    (`base_dir` None: given as YAML text or a dict) and the path is relative: the working folder, as the plan
    reads it too; "" otherwise (the path said is then where it looked)."""
    if base_dir is not None or path.is_absolute():
        return ""
    return (f" (looked for in the working folder, {_working_folder()}: a scenario given as YAML text or a dict names "
            f"its files relative to the working folder; only a scenario loaded from its file names them relative to "
            f"its folder)")


def _working_folder() -> str:
    """The working folder, as a message names it where a relative path was looked for."""
    try:
        return shortened(os.getcwd())
    except OSError:   # the working folder was removed: no relative path names a file
        return "which no longer exists"


# How many folders up from the working folder a scenario path not found is looked for, as the README's
# "scenarios/startup-hybrid.yaml" (relative to the repository's root) is from notebooks/ or a folder a little deeper
MAX_FOLDERS_UP = 3
# The folder holding the planner package: the repository's root in a checkout or an editable install (its
# scenarios/ there), site-packages in a wheel's install, whose example scenarios are fleetplan_dashboard's package
# data (pyproject.toml): only their path is known here, the planner imports no dashboard
_PACKAGES_FOLDER = Path(__file__).resolve().parents[2]
_PACKAGED_FOLDERS = (_PACKAGES_FOLDER, _PACKAGES_FOLDER / "fleetplan_dashboard")


def _found_up(written: str) -> str:
    """"; did you mean '../scenarios/x.yaml'?" for a relative path `written`, not found in the working folder, that
    names a file from one of the MAX_FOLDERS_UP folders above it, else from the folder of the packages (the
    repository's root; an installed package's example scenarios), said by its absolute path; "" otherwise. One
    look a folder, none inside one."""
    if os.path.isabs(written):
        return ""
    tried = [os.path.normpath(os.path.join(*[os.pardir] * up, written)) for up in range(1, MAX_FOLDERS_UP + 1)]
    tried += [str(folder / written) for folder in _PACKAGED_FOLDERS]
    found = next((path for path in tried if file_problem(path) is None), None)
    return f"; did you mean '{found}'?" if found else ""


def _check_reference_figure(w: dict, i: int, positions: Any, origin: str) -> list[str]:
    """A datasheet throughput_metric needs the reference GPU's figure in gpus.csv, or a throughput table
    naming it: planning asks it (engine.workloads.check_reference_metrics), so `validate` refuses it too."""
    metric = w.get("throughput_metric")
    if metric not in catalog.THROUGHPUT_METRICS or w.get("throughput_unit", "relative_speed") != "relative_speed":
        return []
    ref = catalog.resolve_gpu(str(w["reference_gpu"]))
    row = catalog.gpu_rows().get(ref) if ref else None
    if row is None or row[metric].strip():
        return []
    if ref in {catalog.resolve_gpu(str(g)) for g in _mapping(w.get("throughput"))}:
        return []
    has = [m for m in catalog.THROUGHPUT_METRICS if row[m].strip()]
    return [f"{_placed(origin, positions, ('workloads', i, 'throughput_metric'))}: workloads[{i}].throughput_metric: "
            f"{metric}: the reference GPU {ref} has no {metric} figure in the GPU catalog, so no GPU's speed can be "
            f"taken relative to it; give a throughput table naming {ref}, or another throughput_metric"
            + (f" (it has {', '.join(has)})" if has else "")]


def _check_rates(data: dict, cards: dict, custom: dict, positions: Any, origin: str) -> list[str]:
    """Money in a card's own currency needs a rate to the scenario currency, and cloud prices one from USD: one
    problem per currency without a rate, naming all that is priced in it, at the first field that names that
    currency (a card override's or custom card's `currency`), else at `fx`, else where the first of them is named.
    A currency written in small letters is read as the code pydantic suggests for it (`eur`: EUR), so its rate is
    asked with that suggestion, not once the suggestion is taken; any other currency that is no code is not
    checked: pydantic reports it, and a rate for it means nothing."""
    currency = _currency_meant(data.get("currency", "USD"))
    if currency is None:
        return []
    onprem = _mapping(data.get("onprem"))
    fx = {_currency_meant(code) for code in _mapping(data.get("fx"))}
    overrides = _mapping(onprem.get("card_overrides"))
    used = (set(_names(onprem.get("cards"))) | set(_mapping(onprem.get("existing")))
            | set(_mapping(_mapping(data.get("constraints")).get("min_units"))))
    listed = _names(onprem.get("cards"))
    # currency without a rate -> (what is priced in it, the field naming the currency or None, where else to place it)
    needs: dict[str, list[tuple[_Priced, Path_ | None, Path_]]] = {}

    def need(written: Any, what: _Priced, named: Path_ | None, fallback: Path_) -> None:
        cur = _currency_meant(written)
        if cur is not None and cur != currency and cur not in fx:
            needs.setdefault(cur, []).append((what, named, fallback))

    def named_at(card: str) -> Path_:
        """Where the file names catalog card `card`: in onprem.cards, onprem.existing or constraints.min_units."""
        if card in listed:
            return ("onprem", "cards", listed.index(card))
        return ("onprem", "existing", card) if card in _mapping(onprem.get("existing")) else (
            "constraints", "min_units", card)

    # The snapshot's and the store's cloud prices are in USD; a scenario that allows no cloud provider
    # (`prices.providers: []`) uses none. An offers CSV says its own currencies: `plan` checks those of the
    # offers the scenario allows (catalog.offers.cloud_rows), which needs the file read.
    prices = _mapping(data.get("prices"))
    providers = prices.get("providers")
    source = prices.get("source", "snapshot")   # not text (a DataFrame): pydantic reports it
    if (not isinstance(providers, list) or providers) and isinstance(source, str) and source in PRICE_SOURCE_WORDS:
        need("USD", _Priced("cloud offers", plural=True), None, ("currency",))
    for card in sorted(c for c in used if c in cards):
        override, own = _mapping(overrides.get(card)), cards[card]["currency"]
        given = override.get("currency")
        at = ("onprem", "card_overrides", card, "currency")
        if given is None:
            need(own, _Priced(card=card), None, named_at(card))
            continue
        need(given, _Priced(card=card), at, at)
        # An override's currency covers only the amounts it gives (planner.catalog.offers.site_card_rows):
        # a catalog price or host cost it leaves is still converted at the catalog currency's rate.
        kept = [f for f in ("price", "host_cost_per_card") if override.get(f) is None]
        if kept and _currency_meant(given) not in (None, own):
            need(own, _Priced(f"the catalog's {' and '.join(kept)} of card '{card}' (its override's "
                              f"{_currency_meant(given)} covers only the amounts the override gives)",
                              plural=len(kept) > 1), None, at)
    for card, spec in sorted(((str(c), _mapping(v)) for c, v in custom.items() if c not in cards), key=lambda kv: kv[0]):
        if spec.get("currency") is not None:   # else in the scenario currency
            at = ("onprem", "custom_cards", card, "currency")
            need(spec["currency"], _Priced(card=card), at, at)
    problems = []
    # a rate given under the scenario's own currency (fx: {EUR: 1.087} in EUR) is one turned round, the other
    # currency's per 1 of the scenario's, where one currency lacks a rate: its inverse, to the digits given, is meant
    own = _rates(data).get(currency)
    for cur, found in needs.items():
        named = [loc for _, loc, _ in found if loc is not None]
        at = (min(named, key=lambda loc: positions.get(loc) or (math.inf, math.inf)) if named
              else ("fx",) if "fx" in data else found[0][2])
        turned = (f"; did you mean fx: {{{cur}: {_figure(1 / own, _significant_digits(own))}}}? (fx.{currency} "
                  f"{_figure(own)} looks like {cur} per 1 {currency}, the rate turned round: rates are {currency} per "
                  f"1 {cur}, 1 / {_figure(own)})" if own and own != 1 and len(needs) == 1 else "")
        problems.append(f"{_placed(origin, positions, at)}: fx: {_priced_in([what for what, _, _ in found])} {cur}; "
                        f"add its rate, e.g. fx: {{{cur}: <{currency} per 1 {cur}>}}{turned}")
    return problems


def _significant_digits(x: float) -> int:
    """The significant digits `x` is written with (1.087: 4; 0.92: 2; 1500: 2), at least 2."""
    mantissa = f"{x:.15g}".split("e")[0].replace("-", "").replace(".", "")
    return max(2, len(mantissa.strip("0")))


class _Priced(typing.NamedTuple):
    """Something priced in a currency: a card (by id) or what `text` names (cloud offers, a card's catalog amounts)."""
    text: str = ""
    plural: bool = False
    card: str | None = None


def _priced_in(found: list[_Priced]) -> str:
    """"cloud offers and cards 'a' and 'b' are priced in": the things `found`, cards named together."""
    cards = [f"'{what.card}'" for what in found if what.card is not None]
    parts = [what.text for what in found if what.card is None]
    if cards:   # after the cloud offers, before a card's catalog amounts
        parts.insert(int(found[0].text == "cloud offers"), f"card {cards[0]}" if len(cards) == 1 else f"cards {series(cards)}")
    plural = len(parts) > 1 or len(cards) > 1 or any(what.plural for what in found)
    return f"{series(parts)} {'are' if plural else 'is'} priced in"


def _currency_meant(value: Any) -> str | None:
    """The ISO 4217 code `value` is, or is meant as where it is written in small letters, with spaces or in
    typographic quotes (`eur`, `“EUR”`: EUR, the code the error suggests); None for a value that is no code either
    way (`EUE`: the model's error names the code meant, and a rate for it means nothing)."""
    if _curly_quoted(value):   # “CNY”: the code the error suggests, so its rate is not asked again
        value = value[1:-1]
    code = value.strip().upper() if isinstance(value, str) else None
    return code if code is not None and code in iso_4217_codes() else None


def _number(value: Any) -> bool:
    """Whether `value` is a finite int or float (not a bool; an int of 999 digits is finite, not a float's overflow)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return isinstance(value, int) or math.isfinite(value)


def _check_owned_ages(onprem: dict, cards: dict, custom: dict, positions: Any, origin: str) -> list[str]:
    """Owned cards as old as their life or older: no service left (the engine refuses them too, without
    a line). The life is the custom card's, the override's, or the catalog's; figures pydantic refuses
    are left to it."""
    problems = []
    overrides = _mapping(onprem.get("card_overrides"))
    for card, owned in _mapping(onprem.get("existing")).items():
        owned = _mapping(owned)   # the short form `card: count` is new cards
        count, age = owned.get("count"), owned.get("age_months")
        # an age out of its bounds is pydantic's to report, once
        if not (_number(count) and count > 0 and isinstance(age, int) and not isinstance(age, bool)
                and 0 <= age <= MAX_AGE_MONTHS):
            continue
        is_custom = card in custom and card not in cards
        if is_custom:
            life = _mapping(custom[card]).get("life_years")
        elif card in cards:
            life = _mapping(overrides.get(card)).get("life_years")
            if life is None:
                try:
                    life = float(cards[card]["life_years"])
                except ValueError:   # an empty catalog cell: the engine's to refuse
                    continue
        else:
            continue   # an unknown card: reported by _check_names
        if not (_number(life) and 0 < life <= MAX_LIFE_YEARS):   # pydantic reports a life out of bounds
            continue
        problem = owned_age_problem(str(card), age, life, is_custom)
        if problem:
            loc = ("onprem", "existing", card, "age_months")
            problems.append(f"{_placed(origin, positions, loc)}: {dotted(loc)}: {problem}")
    return problems


def _check_demand(w: dict, i: int, custom: dict, positions: Any, origin: str,
                  blanked_lines: frozenset[Blanked] = frozenset()) -> list[str]:
    """A workload's demand fields (the model's check too, reported once even when other fields fail; not where
    the field's line was blanked after a syntax error), and with throughput_unit requests_per_second its
    reference GPU in the throughput table: demand is counted in reference GPUs, rate ÷ the requests/s one
    reference GPU sustains."""
    problems = []
    found = demand_problem(w)
    if found and not _on_blanked_line(("workloads", i, found[0]), positions, blanked_lines):
        loc = ("workloads", i, found[0])
        problems.append(f"{_placed(origin, positions, loc)}: {dotted(loc)}: {found[1]}")
    table = w.get("throughput")
    ref = catalog.resolve_gpu(str(w.get("reference_gpu")))
    if w.get("throughput_unit") == "requests_per_second" and isinstance(table, dict) and table and ref:
        named = {custom.get(k, {}).get("gpu") if k in custom and isinstance(custom.get(k), dict)
                 else catalog.resolve_gpu(str(k)) for k in table}
        if ref not in named:
            loc = ("workloads", i, "throughput")
            problems.append(f"{_placed(origin, positions, loc, False)}: {dotted(loc)}: reference GPU {ref} is not in "
                            f"the table; with throughput_unit requests_per_second it must give the requests/s one "
                            f"{ref} sustains (demand is counted in reference GPUs)")
    return problems


def _check_grown_demand(w: dict, i: int, data: dict, positions: Any, origin: str,
                        blanked_lines: frozenset[Blanked] = frozenset()) -> list[str]:
    """Demand grown above its limit within the horizon (grown_demand_problem: the model's check too, the same
    text reported once), also when other fields fail; not when an input is invalid (the problem reported is
    that one), nor when horizon_months was on a line blanked after a syntax error (the default 36 is no
    horizon the file gave)."""
    if _on_blanked_line(("horizon_months",), positions, blanked_lines):
        return []
    problem = grown_demand_problem(w, data.get("horizon_months", DEFAULT_HORIZON_MONTHS))
    if not problem:
        return []
    loc = ("workloads", i, "growth_per_month")
    return [f"{_placed(origin, positions, loc)}: {dotted(loc)}: {problem}"]


def _check_request_hours(w: dict, i: int, custom: dict, data: dict, positions: Any, origin: str,
                         blanked_lines: frozenset[Blanked] = frozenset()) -> list[str]:
    """A requests/s demand whose reference-GPU-hours go above what the model holds in some month (request_hours_problem:
    the model's check too, the same text reported once), also when other fields fail; not when horizon_months was on a
    line blanked after a syntax error (as _check_grown_demand)."""
    if _on_blanked_line(("horizon_months",), positions, blanked_lines):
        return []
    # custom card id -> its GPU as the file names it (a card of gpu_specs: a custom GPU, never a reference GPU)
    custom_gpus = {k: str(v.get("gpu")) if v.get("gpu_specs") is None else f"{CUSTOM_GPU_PREFIX}{k}"
                   for k, v in custom.items() if isinstance(v, dict)}
    problem = request_hours_problem(w, custom_gpus, data.get("horizon_months", DEFAULT_HORIZON_MONTHS))
    if not problem:
        return []
    loc = ("workloads", i, problem[0])
    return [f"{_placed(origin, positions, loc)}: {dotted(loc)}: {problem[1]}"]


def _check_custom_cards(custom: dict, cards: dict, positions: Any, origin: str, check_files: bool = True) -> list[str]:
    """Problems of onprem.custom_cards that pydantic cannot know: an id the catalog already uses or a cloud
    baseline is named by (CLOUD_KIND_LABEL: its baseline's label would be a card's), an id holding ':' (it separates
    the parts of an offer id, onprem:onprem:<card id>:purchase, and the reports tell a reservation from a card by
    it; not refused in a saved plan's scenario, `check_files` False, which an older version planned with it), a GPU
    id that gpus.csv lacks; and idle above busy watts, both or neither of gpu and gpu_specs, also when other fields
    fail (bounds are the model's)."""
    problems = []
    for card, spec in custom.items():
        loc = ("onprem", "custom_cards", card)
        if card in cards:
            problems.append(f"{_placed(origin, positions, loc, False)}: {dotted(loc)}: '{card}' is already a catalog "
                            f"card; pick another id for your card, or change the catalog one with "
                            f"onprem.card_overrides.{card}")
        elif card in CLOUD_KIND_LABEL.values():
            problems.append(f"{_placed(origin, positions, loc, False)}: {dotted(loc)}: '{card}' names a cloud "
                            f"baseline (only {card}); pick another id for your card")
        elif ":" in str(card) and check_files:
            problems.append(f"{_placed(origin, positions, loc, False)}: {dotted(loc)}: expected a card id without ':', "
                            f"which separates the parts of an offer id (onprem:onprem:<card id>:purchase), got "
                            f"{_shown(str(card))}")
        watts = idle_above_busy(_mapping(spec).get("idle_watts"), _mapping(spec).get("busy_watts"))
        if watts:   # the model's check too: the same text, reported once, even when other fields fail
            problems.append(f"{_placed(origin, positions, (*loc, 'idle_watts'))}: {dotted((*loc, 'idle_watts'))}: {watts}")
        if isinstance(spec, dict):
            either = gpu_or_specs(spec.get("gpu") is not None, spec.get("gpu_specs") is not None)
            if either:   # the model's check too, reported once
                problems.append(f"{_placed(origin, positions, (*loc, 'gpu'))}: {dotted((*loc, 'gpu'))}: {either}")
        gpu = _mapping(spec).get("gpu")
        if isinstance(gpu, str) and (family := _named_family(gpu)):
            problems.append(f"{_placed(origin, positions, (*loc, 'gpu'))}: {dotted((*loc, 'gpu'))}: {family}")
        elif isinstance(gpu, str) and gpu not in catalog.gpu_rows():
            canonical = catalog.resolve_gpu(gpu)
            near = [canonical] if canonical else catalog.suggest_gpu(gpu, same_model=True)
            hint = (f"; did you mean '{near[0]}'?" if near else
                    "; for a GPU the catalog lacks, describe it in gpu_specs instead of gpu (memory_gb and the "
                    "datasheet figures you have: docs/scenario-format.md, onprem.custom_cards.CARD.gpu_specs)")
            problems.append(f"{_placed(origin, positions, (*loc, 'gpu'))}: {dotted((*loc, 'gpu'))}: "
                            f"unknown GPU {_shown(str(gpu))}: expected a GPU id of planner/data/gpus.csv{hint}")
    return problems


def _check_override_watts(onprem: dict, positions: Any, origin: str) -> list[str]:
    """Card overrides that leave a catalog card's idle watts above its busy watts (override_watts_problem: the
    model's check too, the same text reported once), also when other fields fail; watts pydantic refuses
    are left to it."""
    problems = []
    for card, given in _mapping(onprem.get("card_overrides")).items():
        given = _mapping(given)
        found = override_watts_problem(str(card), given.get("busy_watts"), given.get("idle_watts"))
        if found:
            loc = ("onprem", "card_overrides", card, found[0])
            problems.append(f"{_placed(origin, positions, loc)}: {dotted(loc)}: {found[1]}")
    return problems


# ---------------------------------------------------------------------------------------------------


# The Scenarios this loader validated with their files, by identity (an entry goes with its scenario): frozen, they
# hold what was checked, so plan() takes them as they are (engine.run.checked_scenario). One made otherwise —
# pydantic's model_copy(update=…), which checks nothing, Scenario(...), one unpickled — is another object, not in it.
_VALIDATED: weakref.WeakValueDictionary[int, Scenario] = weakref.WeakValueDictionary()


def validated_here(scenario: Any) -> bool:
    """Whether `scenario` is a Scenario this loader validated, the files it names included."""
    return _VALIDATED.get(id(scenario)) is scenario


def mark_validated(scenario: Scenario) -> Scenario:
    """`scenario`, noted as validated by this loader: one it made, or a copy of one made in this process or its
    own worker's (a sweep's points, pickled until solved: engine.run.checked_scenario need not check it again)."""
    _VALIDATED[id(scenario)] = scenario
    return scenario


class NotPlainData(Exception):
    """A value of a scenario's data that no file can hold: one that holds itself, or one nested deeper than a file
    may nest (MAX_YAML_DEPTH); `at` is its field path, `what` says which."""

    def __init__(self, at: Path_, what: str):
        super().__init__(what)
        self.at, self.what = at, what


class _Table:
    """A pandas DataFrame given as a scenario value, held so that pydantic refuses it as what it is: no scenario value
    is a table, and pydantic read one given for a list as its column labels (`onprem.cards=df`: cards named like its
    columns, a KeyError in the engine)."""

    def __repr__(self) -> str:
        return "a pandas DataFrame"


def _is_dataframe(value: Any) -> bool:
    kind = type(value)
    return kind.__name__ == "DataFrame" and kind.__module__.startswith("pandas")   # no pandas imported to ask


def plain_data(value: Any) -> Any:
    """`value`, a scenario's data or a part of it given in Python, in the shapes a file's YAML gives and every check
    reads: each mapping (a MappingProxyType, a scenario's ReadOnlyDict) a dict; each sequence but text (a tuple, as
    model_dump gives its lists), set, iterator, numpy array or pandas Series — all of which pydantic reads as a list
    — a list; UTF-8 bytes and a Path their text; a pandas DataFrame a _Table, which pydantic refuses; and each model
    of a scenario in it (a Workload, Prices …; one changed by model_copy(update=…), which checks nothing) a dict of
    the fields it was given — a default left out stays out, as a file leaves it (Prices.options_given) — and of the
    keys that are no field (model_copy keeps them; pydantic refuses them). Made once, before any check: a tuple or
    a model slipped past the catalog's name checks, which read lists and dicts, to a silent wrong total or a
    KeyError in the engine. An iterator is read to MAX_YAML_NODES items at most (an endless one is no list a file
    holds). NotPlainData for a value that holds itself or is nested deeper than MAX_YAML_DEPTH, as no file's can be
    (the model's checks recursed until Python stopped them: a RecursionError)."""
    return _plain(value, None, 0, set())


# The types a scenario's values mostly are, taken as they are without a further look (one took 6 µs a value)
_AS_GIVEN = frozenset({str, int, float, bool, type(None)})
# Where a value sits: None at the top, else (where its holder sits, its key or index); made a path only for a problem
_At = tuple[Any, Any] | None


def _path(at: _At) -> Path_:
    keys = []
    while at is not None:
        at, key = at
        keys.append(key)
    return tuple(reversed(keys))


def _plain(value: Any, at: _At, depth: int, holders: set[int]) -> Any:
    """plain_data of `value`, at `at`, `depth` levels down, inside the containers whose ids are `holders`."""
    kind = type(value)
    if kind in _AS_GIVEN:
        return value
    own = id(value)
    if kind is dict or kind is list or kind is tuple:
        mapping = kind is dict
    else:
        if isinstance(value, bytes):   # text, as pydantic reads UTF-8 bytes where text belongs (b"rtx-4090": the card)
            try:
                return value.decode("utf-8")
            except UnicodeDecodeError:
                return value   # pydantic's to refuse
        if isinstance(value, PurePath):   # a path as text, as a file writes it: prices.source=Path("offers.csv")
            return str(value)
        if isinstance(value, (str, bytearray, memoryview)):
            return value
        if _is_dataframe(value):
            return _Table()
        if isinstance(value, Frozen):
            fields = kind.model_fields
            value = {key: item for key, item in vars(value).items() if key in value.model_fields_set or key not in fields}
        elif isinstance(value, Iterator):
            value = list(itertools.islice(value, MAX_YAML_NODES + 1))
        elif getattr(value, "ndim", 0) and callable(getattr(value, "tolist", None)):   # numpy's, pandas' (no DataFrame)
            value = value.tolist()   # its items as Python's numbers and text, as pydantic reads them
        mapping = isinstance(value, Mapping)
        if not mapping and not isinstance(value, (Sequence, AbstractSet, MappingView)):
            return value
    if own in holders:
        raise NotPlainData(_path(at), "the value holds itself (a list or mapping inside itself); no scenario value can")
    if depth >= MAX_YAML_DEPTH:   # said at its first levels: a scenario's deepest field (custom_cards.ID.gpu_specs.X) is 4
        raise NotPlainData(_path(at)[:6], f"the value is nested more than {MAX_YAML_DEPTH} deep; no scenario value is")
    holders.add(own)
    try:
        if mapping:
            return {(_plain(key, at, depth, holders) if isinstance(key, (bytes, PurePath)) else key):
                    _plain(item, (at, key), depth + 1, holders) for key, item in value.items()}
        return [_plain(item, (at, i), depth + 1, holders) for i, item in enumerate(value)]
    finally:
        holders.discard(own)


def parse_scenario(data: Any, positions: Any = None, origin: str = "scenario",
                   base_dir: Path | None = None, syntax: list[str] | None = None,
                   check_files: bool = True, blanked_lines: frozenset[Blanked] = frozenset()) -> Scenario:
    """The validated Scenario of already-parsed data; raises ScenarioError listing every problem.
    `positions[path]` is the (line, column) of a field path (a dict, or the positions of a parsed file).
    `check_files=False` skips reading the files it names (offers and profile CSVs): for a scenario kept
    only to be shown, such as a saved plan's, whose files may have moved since it was planned.
    `blanked_lines`: the lines blanked after a syntax error and their keys (_parse_yaml): not also "missing"."""
    scenario, problems = _validated(data, positions or {}, origin, base_dir, list(syntax or []), check_files,
                                    blanked_lines)
    if problems or scenario is None:
        raise ScenarioError(problems, origin)
    return scenario


def _validated(data: Any, positions: Any, origin: str, base_dir: Path | None, problems: list[str],
               check_files: bool, blanked_lines: frozenset[Blanked]) -> tuple[Scenario | None, list[str]]:
    """(the Scenario, None when it has a problem; its problems after those given, in the file's order, syntax errors
    first: in_file_order) of already-parsed data: parse_scenario's, without raising."""
    try:
        data = plain_data(data)
    except NotPlainData as exc:
        return None, [*problems, f"{_placed(origin, positions, exc.at)}: {dotted(exc.at)}: {exc.what}"]
    if not isinstance(data, dict):
        if not problems:
            got = ("nothing (the file is empty or only comments)" if data is None
                   else "a list" if isinstance(data, list) else f"a single value, {_shown(data)}")
            problems.append(f"{origin}:1:1: expected a mapping of scenario fields (name, workloads, …), got {got}")
        return None, problems
    scenario, errors = _model_validated(data)
    if keyed := _invisible_keys(errors):
        # a key holding one (a dict's `horiz\u200bon_months`, a YAML escape's; a file's YAML reads one written as itself
        # without it): one problem naming the character, at the key, and the rest read as the key shows, so that it
        # causes no other ("unknown key", "missing")
        problems += [f"{_placed(origin, positions, loc, value=False)}: {dotted(shown)}: {said}"
                     for loc, shown, said in keyed]
        data = functools.reduce(_key_as_shown, [loc for loc, _, _ in keyed], data)
        scenario, errors = _model_validated(data)
    # a key holding a no-break space, read by the model as the field it stands for (Frozen._lookalike_keys): read so by
    # the checks below too, which would say the field is missing
    for err in errors:
        if err["type"] == "lookalike_space" and (meant := (err.get("ctx") or {}).get("meant")):
            data = _key_as_shown(data, tuple(err["loc"]), functools.partial(_key_renamed, key=err["loc"][-1], meant=meant))
    if errors:
        # A list whose items failed also reports "too short"; the item errors say it better.
        nested = {tuple(e["loc"][:i]) for e in errors for i in range(1, len(e["loc"]))}
        # A line with a YAML syntax error was blanked to parse the rest: a key left with no value there
        # ("workloads: expected a list, got nothing") follows from the syntax error, which says it better.
        blanked = any(": YAML syntax: " in p for p in problems)
        # … and so does any error of a key set on such a line: "name: required field is missing" under the
        # syntax error of the line `name: a: b` said the line was not there
        problems += [_describe(e, positions, origin, data) + (_after_syntax(problems) if e["type"] in _SHAPES else "")
                     for e in errors
                     if not (e["type"] == "too_short" and tuple(e["loc"]) in nested)
                     and not (blanked and e["type"] != "missing" and e.get("input", "") is None)
                     and not _on_blanked_line(_field_of(e), positions, blanked_lines)]
    problems += _check_names(data, positions, origin, base_dir, check_files, blanked_lines)
    if problems or scenario is None:
        return None, in_file_order(problems)
    return mark_validated(scenario) if check_files else scenario, []


# the errors of a value of the wrong shape ("expected a list, got {…}"): after a YAML syntax error, often the broken
# parse's (a list item's dash left out, or a line blanked)
_SHAPES = ("list_type", "tuple_type", "dict_type", "model_type", "model_attributes_type")


def _after_syntax(problems: list[str]) -> str:
    """What a value of the wrong shape's problem adds where `problems` hold a YAML syntax error: that it may follow
    from it (the first one's line); "" where they hold none."""
    lines = [_line_key(p)[0] for p in problems if ": YAML syntax: " in p]
    return f" (this may follow from the YAML syntax error on line {min(lines)}: fix that first)" if lines else ""


def _model_validated(data: dict) -> tuple[Scenario | None, list[dict]]:
    """(the Scenario of `data`, []), or (None, pydantic's errors)."""
    try:
        return Scenario.model_validate(data), []
    except ValidationError as exc:
        return None, exc.errors()


def _invisible_keys(errors: list[dict]) -> list[tuple[Path_, Path_, str]]:
    """(path, path as it shows, what the model says) of each key no field is that holds an invisible format character
    (INVISIBLE), which the model names (Frozen._no_invisible_keys): only a dict can give one, or a YAML escape; a file's
    YAML reads one written as itself without it. The model reads the keys above it as they show, and so does the path."""
    keyed = []
    for err in errors:
        key = (err.get("ctx") or {}).get("key") if err["type"] == "invisible_character" and err["loc"] else None
        if isinstance(key, str):
            keyed.append(((*err["loc"][:-1], key), tuple(err["loc"]), err["msg"]))
    return keyed


def _key_as_shown(data: Any, loc: Path_, read: typing.Callable[[dict], dict] = lambda m: keys_as_shown(m)[0]) -> Any:
    """A copy of `data` with the keys of the mapping holding the key at `loc` read as they show (model.keys_as_shown;
    or as `read` reads that mapping), `loc` read as the keys above it show (each mapping's keys are read so in the order
    the model names them, the outer first). The caller's dict is left as it is."""
    if not isinstance(data, (dict, list, tuple)) or not loc:
        return data
    head, rest = loc[0], loc[1:]
    if not rest:
        return read(data) if isinstance(data, dict) else data
    try:
        inside = _key_as_shown(data[head], rest, read)
    except (KeyError, IndexError, TypeError):   # a path through a union's choice (pydantic names it): left as given
        return data
    copy = dict(data) if isinstance(data, dict) else list(data)
    copy[head] = inside
    return copy


def _key_renamed(mapping: dict, key: str, meant: str) -> dict:
    """A copy of `mapping` with `key` read as `meant`, the field it stands for, unless that is given too."""
    if key not in mapping or meant in mapping:
        return mapping
    return {meant if k == key else k: v for k, v in mapping.items()}


def in_file_order(problems: list[str]) -> list[str]:
    """`problems` ("FILE:LINE:COL: …"; "FILE: …") each once: the YAML syntax errors first, then the rest, each by
    line and column ("FILE: …" first). A field's problem may follow from a syntax error below it (a key missing at
    line 1 whose line was read wrong), so the error to fix first is said first."""
    return sorted(dict.fromkeys(problems), key=lambda problem: (not _is_syntax(problem), *_line_key(problem)))


def _is_syntax(problem: str) -> bool:
    """Whether `problem` is a YAML syntax error (_parse_yaml's words)."""
    return ": YAML syntax: " in problem or ": YAML: " in problem


def _on_blanked_line(loc: Path_, positions: Any, blanked: frozenset[Blanked]) -> bool:
    """Whether the field `loc` (reported missing, or wrong without its value) was on a line blanked after a
    syntax error: a blanked line set its key, in the mapping that lacks it — at that mapping's column, from the
    line before its first (a list item's own line, whose dash alone was kept) to its last; or indented further
    (the indentation was the line's error: `  workloads:` under top-level keys), on a line of that mapping
    that no mapping or list inside it holds (there, a key of theirs)."""
    span = positions.mapping_span(tuple(loc[:-1])) if blanked and isinstance(positions, _Positions) else None
    if not loc or span is None:
        return False
    first, last, column = span
    nested = positions.nested_spans(tuple(loc[:-1]))

    def sets_it(line: int, at: int) -> bool:
        if at == column:
            return first - 1 <= line <= last
        if at == 0 or at < column:
            # indented with a tab (no column: the line before its first too), or less than the mapping's keys: a line
            # in it, or the line after its last (PyYAML ended the mapping there), in no mapping or list inside it
            return first - (at == 0) <= line <= last + 1 and not any(a <= line <= b for a, b in nested)
        return at > column and first <= line <= last and not any(a <= line <= b for a, b in nested)

    return any(key == str(loc[-1]) and sets_it(line, at) for line, at, key in blanked)


def _line_key(problem: str) -> tuple[int, int]:
    m = re.search(r":(\d+):(\d+): ", problem)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def load_scenario_file(path: str | Path) -> Scenario:
    """Read and validate a scenario YAML file (safe loader), with file:line:col errors."""
    return read_scenario_file(path)[0]


def read_scenario_file(path: str | Path) -> tuple[Scenario, str]:
    """(the scenario, the text it was validated from) of the YAML file at `path`, as load_scenario_file reads it:
    a check made after loading places its field in that text (text_places), never in the file read again, which
    may have been rewritten since (a wrong line, said without a doubt) or be a pipe (read once)."""
    checked = check_scenario_file(path)
    if checked.scenario is None:
        raise ScenarioError(checked.problems, str(path))
    return checked.scenario, checked.text


def check_scenario_file(path: str | Path) -> ScenarioCheck:
    """The scenario of the YAML file at `path` and its problems, as read_scenario_file finds them, without raising
    for them (`validate` goes on to check what it can of a file that does not load); ScenarioError when the
    file cannot be read as text."""
    path = Path(path)
    text, regular = _read_scenario_text(path)
    checked = check_scenario_text(text, str(path), scenario_folder(path, regular))
    if checked.scenario is not None:
        checked.scenario._file = path.absolute()   # named so after a change of the working folder too
    return checked


def loaded_from(scenario: Any) -> Path | None:
    """The scenario file `scenario` was read from (absolute, as given: not resolved), kept by apply_overrides' and
    checked_scenario's copies: a plan of it may not write over it (reports.tables.files_planned_from); None for a
    scenario made otherwise (a dict, YAML text)."""
    return getattr(scenario, "_file", None)


def _read_scenario_text(path: Path) -> tuple[str, bool]:
    """(text, whether it is a regular file) of the scenario file at `path`, line ends as a text file reads
    them and at most MAX_SCENARIO_CHARS + 1 characters; ScenarioError when it cannot be read as UTF-8 text."""
    origin = str(path)
    try:
        # a FIFO nobody writes to reads as empty (open_for_reading); never more than the limit: `validate /dev/zero`
        with open_for_reading(path) as f:
            regular = stat.S_ISREG(os.fstat(f.fileno()).st_mode)
            data = f.read(4 * (MAX_SCENARIO_CHARS + 1))   # UTF-8: at most 4 bytes a character
    except FileNotFoundError:   # a scenario file spelt like one beside it: "did you mean" (its folder read no further
        # than MAX_FOLDER_ENTRIES entries)
        meant = _file_meant(origin, None, "file not found", SCENARIO_SUFFIXES) or _found_up(origin)
        # a relative path names the folder it was looked in: from notebooks/, "scenarios/x.yaml" is not the root's
        looked = "" if path.is_absolute() else f" (looked for in the working folder, {_working_folder()})"
        raise ScenarioError([f"{origin}: file not found{looked}{meant}"], origin) from None
    except IsADirectoryError:
        raise ScenarioError([f"{origin}: is a folder; expected a scenario YAML file"], origin) from None
    except OSError as exc:
        raise ScenarioError([f"{origin}: cannot read: {exc.strerror or exc}"], origin) from None
    except ValueError:   # a NUL character: no file has that name (fileio.file_problem says it so too)
        shown = shortened(repr(origin))
        raise ScenarioError([f"{shown}: file not found (the name holds a NUL character)"], shown) from None
    # the file given by mistake (a plan's workbook, the price store, a compressed copy), said by what it is, where "not
    # UTF-8 text (byte 0x8f) … often a Latin-1 accent" sent the user to their editor's encoding
    if found := binary_kind(data, whole=len(data) < 4 * (MAX_SCENARIO_CHARS + 1)):
        raise ScenarioError([not_the_file(origin, found, "a scenario YAML file")], origin)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if len(data) < 4 * (MAX_SCENARIO_CHARS + 1) or exc.start < len(data) - 3:
            raise ScenarioError([f"{origin}:{not_utf8(exc)}"], origin) from None
        text = data[:exc.start].decode("utf-8")   # a character cut at the limit: refused as too long anyway
    # line ends as a text file reads them (universal newlines: \r\n and a lone \r are \n)
    text = text.replace("\r\n", "\n").replace("\r", "\n")[:MAX_SCENARIO_CHARS + 1]
    # a plan's output given for its scenario (review/plan.json, summary.md): said so, where a plan.json read as YAML
    # gave 44 schema errors ("name: missing", "version: unknown key") and a summary 20 syntax errors
    if found := saved_output_kind(text, origin):
        raise ScenarioError([not_the_file(origin, found, "a scenario YAML file")], origin)
    return text, regular


# The top-level keys that tell a plan saved by `fleetplan plan` (plan_to_json, `plan --out`'s plan.json) or its
# result without a fleet (cli.console.infeasible): `status` and one of these, as `compare` tells a saved plan from a
# scenario (reports.compare._holds_plan). None is a scenario's field: a scenario file (JSON is YAML too) never has them
SAVED_PLAN_KEYS = frozenset({"fleet", "total", "scenario_inputs", "reason"})

# The first lines of a plan's summary (reports.markdown.plan_to_markdown): "# <scenario name>", maybe its description,
# then "Planned with fleetplan <version> at <time> (UTC), prices from …" — at the line's start, where a scenario's
# YAML could hold it in no place (a plain scalar beside a mapping, or a comment, starts otherwise)
_SUMMARY_MADE = re.compile(r"Planned with fleetplan \S+ at (\S+)")


def summary_header(text: str) -> tuple[str, str] | None:
    """(the scenario's name, when the plan was made) of `text`, the start of a plan's Markdown summary (its "# name"
    title, its signs unescaped, and within the next 7 lines its "Planned with fleetplan … at TIME" line); None for
    any other text."""
    lines = text.lstrip("\ufeff \t\n").split("\n", 8)[:8]
    made = next((found for line in lines[1:] if (found := _SUMMARY_MADE.match(line))), None)
    if not (lines[0].startswith("# ") and made):
        return None
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", lines[0][2:].strip()), made[1]   # its signs as typed (escaped there)


def saved_output_kind(text: str, origin: str = "plan.json") -> tuple[str, str] | None:
    """(what the file is, what to do instead), as binary_kind gives them for not_the_file, when the text `text` of a
    file given as a scenario is a plan's output: a saved plan's JSON (plan_to_json: `plan -o x.json --format json`,
    `plan --out`'s plan.json; or the JSON of a plan that found no fleet) or a plan's Markdown summary (summary.md);
    None otherwise. A JSON cut at MAX_SCENARIO_CHARS is judged by the keys before the cut; `origin`: the file, as
    the words name it."""
    head = text.lstrip("\ufeff \t\n")
    if head.startswith("{"):
        return saved_plan_kind(_top_level_keys(head), origin)
    summary = summary_header(head)
    if summary is not None:
        name = summary[0]
        return ("a Markdown file (a plan's summary, written by `fleetplan plan`)",
                f"`plan` and `validate` take a scenario YAML file: give the one the plan of {name!r} was made from")
    return None


def saved_plan_kind(keys: Mapping, origin: str = "plan.json") -> tuple[str, str] | None:
    """saved_output_kind's words for a saved plan's JSON of top-level `keys` (each key → its value, where read: a
    file's, or the dict json.load made of it); None where they are not a saved plan's."""
    if not ("status" in keys and keys.keys() & SAVED_PLAN_KEYS):
        return None
    kind = "a plan saved by `fleetplan plan` (JSON)"
    remedy = ("`plan` and `validate` take a scenario YAML file; `compare` reads saved plans (fleetplan compare "
              f"SCENARIO.yaml {origin})")
    if "scenario_inputs" in keys:
        remedy += "; the scenario it was planned from is in its `scenario_inputs`"
    elif isinstance(keys.get("scenario_file"), str):   # a plan that found no fleet names the file it read
        kind = "the result of `fleetplan plan` that found no fleet (JSON)"
        remedy = f"`plan` and `validate` take a scenario YAML file: it was planned from {keys['scenario_file']}"
    return kind, remedy


def _top_level_keys(text: str) -> dict[str, Any]:
    """The keys of the JSON object `text` begins with → their values, read in order until the text ends or is no
    JSON: a file cut at the limit still tells its first keys."""
    decoder = json.JSONDecoder()
    found: dict[str, Any] = {}
    space = re.compile(r"\s*")
    at = space.match(text, 1).end()
    key = None
    try:
        while at < len(text) and text[at] == '"':
            key = None
            key, at = decoder.raw_decode(text, at)
            at = space.match(text, at).end()
            if text[at:at + 1] != ":":
                break
            value, at = decoder.raw_decode(text, space.match(text, at + 1).end())
            found[key] = value
            at = space.match(text, at).end()
            if text[at:at + 1] != ",":
                break
            at = space.match(text, at + 1).end()
    except ValueError:   # cut, or no JSON: the keys read so far, and one whose value is cut
        if isinstance(key, str):
            found.setdefault(key, None)
    return found


# What a scenario file is named: the ends its "did you mean" offers for one not found
SCENARIO_SUFFIXES = (".yaml", ".yml")

def text_places(text: str, origin: str, fields: list[Path_], value: bool = True) -> list[str]:
    """"ORIGIN:LINE:COL" of each field path in `fields` (("prices", "regions", 1): that list item) in a scenario's
    `text` named `origin` — the text it was validated from (read_scenario_file, an upload's) — as its problems
    are placed; plain "ORIGIN" for a field the text does not hold (a default) or for no field (None or ()). For
    a check made after loading, such as a region no offer has (PricesRefuteScenario.field). `value=False`: a
    mapping entry's key, not its value (the entry that names a card: `l40s` of `existing: {l40s: 2}`)."""
    if not any(fields):
        return [origin] * len(fields)
    try:
        _, positions, _, _ = _parse_yaml(text, origin)
    except ScenarioError:
        return [origin] * len(fields)

    # a syntax error's line is blanked (or the rest of another document cut) and the text parsed again, and a
    # duplicate key is kept as YAML keeps it: every other line keeps its number, so the fields found are placed
    def place(field: Path_) -> str:
        exact = bool(field) and isinstance(positions, _Positions) and field in positions
        return _placed(origin, positions, field, value) if exact else origin

    return [place(tuple(field or ())) for field in fields]


def scenario_folder(path: Path, regular: bool) -> Path:
    """The folder a scenario's relative paths (offers and profile CSVs) are resolved against: its file's (a
    named FIFO's too: it sits in a folder). Read through /dev/stdin or /dev/fd/N (`regular`: whether that is a
    file), the redirected file's (`/dev/stdin < examples/s.yaml`), else — a pipe, `<(cat s.yaml)` — the working
    folder's, as the shell user means them, not /dev/fd's."""
    if path.is_absolute() and path.parts[1:2] in (("dev",), ("proc",)):
        return Path(os.path.realpath(path)).parent if regular else Path.cwd()
    return path.parent


def load_scenario_text(text: str, origin: str = "<text>", base_dir: Path | None = None) -> Scenario:
    """Validate scenario YAML given as text (uploads, notebooks)."""
    # a plan's output given as text (a plan.json or summary.md read, uploaded or piped): the one message its file gets
    # (_read_scenario_text), where it gave 45 schema errors or 20 syntax errors
    if found := saved_output_kind(text, _file_named(origin)):
        raise ScenarioError([not_the_file(origin, found, "a scenario YAML file")], origin)
    checked = check_scenario_text(text, origin, base_dir)
    if checked.scenario is None:
        raise ScenarioError(checked.problems, origin)
    return checked.scenario


class ScenarioCheck(typing.NamedTuple):
    """What checking a scenario's text found (check_scenario_text, check_scenario_file): the scenario, None when
    the text has a problem; its problems ("FILE:LINE:COL: …", in the file's order, syntax errors first:
    in_file_order); the text checked (a check made after loading places its fields in it: text_places); the mapping
    its YAML holds, as written (None when it holds none), for the checks that read the values as written where the
    scenario does not load (prices_as_written, plausibility_warnings_as_written); and the folder its relative paths
    are resolved against."""

    scenario: Scenario | None
    problems: list[str]
    text: str
    data: dict | None
    base_dir: Path | None


def check_scenario_text(text: str, origin: str = "<text>", base_dir: Path | None = None) -> ScenarioCheck:
    """The scenario of YAML `text` and its problems (none when it loads), as load_scenario_text finds them."""
    data, positions, syntax, blanked = _parse_yaml(text, origin)
    scenario, problems = _validated(data, positions or {}, origin, base_dir, syntax, True, blanked)
    if problems:
        problems = _flow_decimal_commas(text, origin) + problems
    if scenario is not None and base_dir is not None:
        written = scenario
        scenario = _resolve_paths(scenario, base_dir)
        scenario._folder = Path(os.path.realpath(base_dir))
        scenario._files_as_written = _named_as_written_by(written, scenario, base_dir)
        mark_validated(scenario)   # a copy with its paths made absolute: another object
    return ScenarioCheck(scenario, problems, text, data if isinstance(data, dict) else None, base_dir)


# `key: 0,92` inside a flow mapping on one line (`fx: {USD: 0,92}`): YAML reads USD: 0 and a key 92 with no value
_FLOW_LINE = re.compile(r"^\s*(?:-\s+)?([\w.-]+)\s*:\s*\{(.*)\}\s*(?:#.*)?$")
_FLOW_DECIMAL_COMMA = re.compile(r"([\w.-]+)\s*:\s*(\d+),(\d+)\s*(?=[,}]|$)")


def _flow_decimal_commas(text: str, origin: str) -> list[str]:
    """A decimal comma inside a flow mapping (`fx: {USD: 0,92}`), said first where the file does not load: YAML reads
    it as USD: 0 and a key 92 with no value, and the problems of those ("fx.USD: expected a number ≥ 1e-09, got 0",
    "fx.92: expected a currency code") never named the comma, whose hint a block mapping's "0,92" gets."""
    said = []
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        flow = _FLOW_LINE.match(line)
        if flow is None:
            continue
        path = _block_keys_above(lines, number - 1) + [flow[1]]
        for entry in _FLOW_DECIMAL_COMMA.finditer(flow[2]):
            column = flow.start(2) + entry.start(2) + 1
            whole, decimals = entry[2], entry[3]
            # three digits after the comma may be thousands (min_units: {l40s: 1,000}), as outside { } they are read
            meant = (f"{whole}{decimals}? (a number without thousands separators; {whole}.{decimals} if the comma is a "
                     "decimal one)" if len(decimals) == 3 and whole[0] != "0" else
                     f"{whole}.{decimals}? (a decimal point, not a comma)")
            said.append(f"{origin}:{number}:{column}: {'.'.join(path)}.{entry[1]}: {whole},{decimals} inside {{ }} is read as "
                        f"{whole}, and {decimals} as a key of its own (a comma separates the entries there); did you mean "
                        f"{meant}")
    return said


def _block_keys_above(lines: list[str], index: int) -> list[str]:
    """The block mapping keys and list items that hold line `index`, outermost first, as the problems name them:
    `constraints:` above `  min_units: {…}` gives [constraints]; the first item of `workloads:` above its
    `    throughput: {…}` gives [workloads[0]]. Stops at a line it cannot read as either."""
    keys, indent = [], len(lines[index]) - len(lines[index].lstrip())
    item = None   # the index of the list item the lines so far are in, once one is met
    for k in range(index - 1, -1, -1):
        line = lines[k]
        stripped = line.lstrip()
        own = len(line) - len(stripped)
        if not stripped or stripped.startswith("#") or own > indent:
            continue
        if own == indent and item is None:
            continue
        if own == indent:   # another item of the same list above
            item += stripped.startswith("- ")
            continue
        if stripped.startswith("- "):   # the item that holds the lines below: count the items above it
            item, indent = 0, own
            continue
        key = re.match(r"([\w.-]+):\s*(?:#.*)?$", stripped)
        if key is None:
            break
        keys.insert(0, key[1] if item is None else f"{key[1]}[{item}]")
        item, indent = None, own
    return keys


def file_fields(scenario: Scenario) -> dict[str, str]:
    """Each field of `scenario` that names a file, by the path overrides and `compare` give it (`workloads.NAME.profile`,
    `prices.source`) → the path it holds."""
    files = {f"workloads.{w.name}.profile": w.profile for w in scenario.workloads if w.profile not in BUILTIN_PROFILES}
    if scenario.prices.source not in PRICE_SOURCE_WORDS:
        files["prices.source"] = scenario.prices.source
    return files


def _named_as_written_by(written: Scenario, resolved: Scenario, base_dir: Path) -> dict[str, tuple[str, str]]:
    """files_as_written of `resolved` (`written`, the scenario as its file wrote it, after _resolve_paths against
    `base_dir`): each file field's path, and it as `written` gives it (_as_written)."""
    held = file_fields(resolved)
    return {field: (held[field], _as_written(given, base_dir)) for field, given in file_fields(written).items()}


# Within profiles_parsed_once: (path, name, the file's bytes) → the problems of parsing them (read_profile_csv)
_PARSED_PROFILES: contextvars.ContextVar[dict | None] = contextvars.ContextVar("parsed_profiles", default=None)


@contextlib.contextmanager
def profiles_parsed_once() -> Iterator[None]:
    """Within it (in this thread), a profile CSV that validation reads is parsed once per content: a sweep's check of
    its values validates a scenario per value (and per point), each reading the same files, and parsing them was 4
    of each 5 seconds of the check of a scenario with two profile CSVs (a 168-line file parsed 2 × 10,000 times for
    10,000 values). Each file is still read every time, so one changed meanwhile is checked as it now is."""
    token = _PARSED_PROFILES.set({})
    try:
        yield
    finally:
        _PARSED_PROFILES.reset(token)


def _profile_problems(path: Path, named: str) -> list[str]:
    """The problems of the profile CSV at `path` read with the engine's rules (read_profile_csv), naming it `named`;
    [] when it reads."""
    return _profile_read(path, named)[1]


def _profile_read(path: Path, named: str) -> tuple[list[float] | None, list[str]]:
    """(the weights as written, None when the file does not read; its problems, naming it `named`) of the profile CSV
    at `path`, read with the engine's rules (read_profile_csv), parsed once per content within profiles_parsed_once."""
    try:
        data = read_profile_bytes(path, named)
    except ScenarioError as exc:
        return None, exc.problems
    parsed = _PARSED_PROFILES.get()
    key = (str(path), named, data)
    if parsed is None or key not in parsed:
        try:
            read: tuple[list[float] | None, list[str]] = (read_profile_csv(path, data, named=named), [])
        except ScenarioError as exc:
            read = (None, exc.problems)
        if parsed is None:
            return read
        parsed[key] = read
    weights, problems = parsed[key]
    return (None if weights is None else list(weights)), list(problems)


def _as_written(given: str, base_dir: Path | None) -> str:
    """A file path a scenario's file wrote (`given`: a profile or offers CSV) as messages and reports name that file:
    absolute as written; relative, relative to the folder `base_dir` once both are resolved, with "/" between its
    parts (fileio.written_path: `./w.csv` is w.csv); as given where there is no folder (YAML text, a dict)."""
    if base_dir is None or os.path.isabs(given):
        return given
    return written_path(str((base_dir / given).resolve()), base_dir)


def names_after_overrides(scenario: Any, changed: Scenario, given: Collection[str]) -> dict[str, tuple[str, str]]:
    """files_as_written of `changed`, `scenario` with overrides applied that set the file fields `given`: a path an
    override gave absolute as given (the scenario holds it so); every other field as `scenario` names it, where it
    holds the same path. A relative path an override gave, read against the working folder, is in neither: it is
    named as a path no field of a file holds (fileio.named_as_written)."""
    held = file_fields(changed)
    kept = {field: entry for field, entry in files_as_written(scenario).items()
            if field not in given and held.get(field) == entry[0]}
    return {**kept, **{field: (held[field], held[field]) for field in given
                       if field in held and os.path.isabs(held[field])}}


def _resolve_paths(scenario: Scenario, base_dir: Path) -> Scenario:
    """Profile CSV paths become absolute so a scenario object is usable from any working directory."""
    workloads = tuple(
        w if w.profile in BUILTIN_PROFILES else w.model_copy(update={"profile": str((base_dir / w.profile).resolve())})
        for w in scenario.workloads)
    source = scenario.prices.source
    prices = scenario.prices
    if source not in PRICE_SOURCE_WORDS:
        prices = prices.model_copy(update={"source": str((base_dir / source).resolve())})
    return scenario.model_copy(update={"workloads": workloads, "prices": prices})


def files_read(scenario: Scenario) -> list[Path]:
    """The files planning `scenario` reads besides the scenario itself: its profile CSVs and its offers CSV
    (paths as the scenario holds them: absolute once loaded from a file)."""
    paths = [w.profile for w in scenario.workloads if w.profile not in BUILTIN_PROFILES]
    if scenario.prices.source not in PRICE_SOURCE_WORDS:
        paths.append(scenario.prices.source)
    return [Path(p) for p in dict.fromkeys(paths)]


def scenario_json_schema() -> dict:
    """JSON Schema of a scenario file (what `fleetplan schema` writes)."""
    schema = Scenario.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "GPU fleet planner scenario"
    return schema


def load_scenario(source: str | Path | dict[str, Any] | Scenario) -> Scenario:
    """A validated Scenario from a file path, a dict, YAML text, or a Scenario (returned as is); ScenarioError for
    anything else (None, a number, undecoded bytes), saying what it got."""
    if isinstance(source, Scenario):
        return source
    if isinstance(source, Mapping):   # a dict, or any mapping (a MappingProxyType): made plain by the loader
        if found := saved_plan_kind(source):   # json.load of a saved plan: as its file is told
            raise ScenarioError([not_the_file("<dict>", found, "a scenario")], "<dict>")
        return parse_scenario(source, origin="<dict>")
    if isinstance(source, os.PathLike) and not isinstance(source, Path):   # a PurePath, a path-like of the caller's
        source = Path(os.fspath(source))
    if not isinstance(source, (str, Path)):   # None or 5 raised "expected str, bytes or os.PathLike object"
        raise _not_a_scenario(source)
    if isinstance(source, str) and not source.strip():   # Path("") is ".", which was "is a folder"
        raise ScenarioError(["<text>: empty; expected a scenario file's path or its YAML text"], "<text>")
    if isinstance(source, Path) or names_a_file(str(source)):
        return load_scenario_file(source)
    return load_scenario_text(str(source))


def _file_named(origin: str) -> str:
    """`origin` as the file a message's command names ("fleetplan compare SCENARIO.yaml FILE"): plan.json for text
    or a dict ("<text>", "<dict>"), which is no file."""
    return "plan.json" if origin.startswith("<") else origin


def check_not_a_plan(source: Any, call: str = "load_scenario") -> None:
    """ScenarioError where `source`, given to `call` (plan, sweep, load_scenario) as a scenario, is a plan's result
    (a Plan, a saved plan: what carries its `scenario`), saying to pass its scenario: `plan(p)` of a Plan said only
    "got Plan(…); expected a Scenario, …"."""
    if isinstance(source, Scenario) or not hasattr(source, "scenario"):
        return
    args = "p.scenario, vary" if call == "sweep" else "p.scenario"
    raise ScenarioError([f"got a {type(source).__name__}, a plan's result, where a scenario is expected; pass its "
                         f"scenario: {call}({args})"])


def _not_a_scenario(source: Any) -> ScenarioError:
    """The error for a `source` load_scenario cannot read as a scenario (None, a number, bytes), saying what it got
    and what it reads."""
    check_not_a_plan(source)
    accepted = "expected a Scenario, a scenario YAML file's path (a str or Path), its YAML text (a str) or a dict"
    if isinstance(source, (bytes, bytearray, memoryview)):   # open(f, "rb").read(): text not decoded
        data = bytes(source)
        start = repr(data[:40]) + ("…" if len(data) > 40 else "")
        return ScenarioError([f"got {counted(len(data), 'byte')} ({start}); {accepted}: decode them first "
                              f"(data.decode('utf-8')) or pass the file's path"])
    got = "None" if source is None else f"{shortened(repr(source))} ({type(source).__name__})"
    return ScenarioError([f"got {got}; {accepted}"])


PATH_MAX = 4096   # Linux's longest path: a longer string is no file's name


def names_a_file(text: str) -> bool:
    """Whether a string given as a scenario is a file's path rather than YAML text: one line that ends in
    .yaml or .yml (any case: `Plan.YAML`), names an existing file, or holds no colon and is no flow mapping or
    list (`scenario.txt`, a path to a file that is not there: its reader says so, where the YAML reader said
    "got a single value")."""
    if "\n" in text or len(text) > PATH_MAX:
        return False
    if text.strip().lower().endswith((".yaml", ".yml")):
        return True
    try:
        if Path(text).is_file():
            return True
    except (OSError, ValueError):   # a name too long for the system, or holding NUL: not a file
        return False
    # compact JSON or YAML flow text (`{"name":"t",…}`, `{name: t}`) is text; a name without any colon a path
    return not text.lstrip().startswith(("{", "[")) and ":" not in text


# ---------------------------------------------------------------------------------------------------
# Plausibility: values valid as typed that are likely in another unit. Warnings, not errors: each can be real.

# No GPU draws under 10 W busy: boards are rated 70-1,000 W (gpus.csv: T4 to B200) and the catalog's cards,
# with their host's share, draw 297-1,313 W; so a busy_watts under 10 is kilowatts typed as watts (0.45).
MIN_BUSY_WATTS = 10.0
# None idles under 1 W: the catalog's idle at 25-105 W. An idle_watts above 0 and under 1 is kilowatts (0.07);
# 0 itself is left alone, a deliberate "no idle draw".
MIN_IDLE_WATTS = 1.0
# Grid electricity costs about 0.03-0.90 USD a kWh around the world (industrial tariffs to island households):
# over 2 USD it was typed per MWh (120 for 0.12) or in the currency's minor unit (cents: 12 for 0.12). Compared in
# USD through the scenario's own rate for USD, so 30 JPY (0.20 USD) or 8 INR passes; without that rate the
# currency's size is unknown (30 is a normal price in yen, 30 euros is not) and nothing is said, rather than
# guessing from a list of currencies.
MAX_USD_PER_KWH = 2.0
# Currencies whose ISO 4217 minor unit is not the hundredth (ISO 4217 list one, SIX Group, 2026-01-01, as
# pricing_adapters/data/currencies.csv gives it; the units of account CLF and UYW left out): a price cannot be typed
# in cents of a yen or won, and a dinar's minor unit is its thousandth (fils, millimes). Every other code but
# MINOR_UNIT_UNUSED's is taken to have cents.
NO_MINOR_UNIT = frozenset({"BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND",
                           "VUV", "XAF", "XOF", "XPF"})
THOUSANDTHS_MINOR_UNIT = frozenset({"BHD", "JOD", "KWD", "LYD", "OMR", "TND"})
# Currencies with a minor unit in ISO 4217 that no price is written in, told per MWh alone as the yen is: "in
# cents" would have a user pricing in rupiah divide by 100 for a unit nobody uses. Unicode CLDR 45 writes the
# first kind without decimals (supplemental currencyData, digits 0, where ISO says 2, or 3 for IQD); the rupiah's
# sen and the forint's fillér (withdrawn in 1999) circulate no more (CLDR cashDigits 0) and prices are in whole
# units or their decimals (a tariff of 1,444.70 IDR a kWh), never in sen. Not SEK, NOK or CZK, whose cents have no
# coins either: Nordic electricity is quoted in öre a kWh.
MINOR_UNIT_UNUSED = frozenset({"AFN", "ALL", "HUF", "IDR", "IQD", "IRR", "LAK", "LBP", "MGA", "MMK", "RSD", "SOS",
                               "SYP", "YER"})
# A cap on installed IT power above 1,000 kW (a data hall's, where a closet's 4 kW typed in watts lands) that is
# also above 20 kW for each reference GPU the demand asks at its peak month and each owned card: a card draws at
# most about 1.8 kW with its host's share (the catalog's busiest 1,313 W; B200, 1,000 W × 1.8) and a slower card takes
# more than one per reference GPU, so no fleet serving that demand at its busiest hour comes near such a cap. The
# busiest hour is the mean's times the profile's peak (PEAK_TO_MEAN): a built-in's own, and a CSV profile's largest
# weight over its mean (a nightly one-hour batch peaks at 24 times its mean: "a few times", as this once assumed,
# warned of a right 1,300 kW cap, an audit, 2026-12-07). A CSV that does not read (its own error) is taken at the
# most a week's hour can carry, all 168 hours' weight in one, and the warning says "at most": 168 times hid a
# 6,000 kW cap on 10 reference GPUs peaking at 24 times (240, 4,800 kW) where the file was there to read.
MIN_SUSPECT_CAP_KW = 1000.0
SUSPECT_KW_PER_REFERENCE_GPU = 20.0
# busiest hour / weekly mean of each built-in profile (engine.profiles): business hours 4 against 1, 45 of 168 hours
PEAK_TO_MEAN = {"flat": 1.0, "business_hours": 4 * 168 / (45 * 4 + 123), "deadline_peaks": 1.75}
_DEMAND_UNITS = {"gpu_hours_per_month": "reference-GPU hours a month", "reference_gpus": "reference GPUs busy on average",
                 "requests_per_second": "requests per second"}


# A growth_per_month above 1 (more than doubling demand every month) but at most 100 is a share typed in percent
# (2 for 0.02): no demand grows like that month after month. One that overflows demand is an error, saying the same.
MAX_GROWTH_AS_SHARE = 1.0


def plausibility_warnings(scenario: Scenario) -> list[tuple[Path_, str]]:
    """(field path, warning) for each value of a valid `scenario` that looks typed in another unit: watts in kW,
    electricity in cents, a power cap in watts, growth in percent, a memory in MiB (where an offers CSV may give
    it; an error otherwise: _memory_problems), no demand at all, a rate for the scenario's own currency, a yuan rate
    turned round (fx_check). Each warning starts with the field's dotted path and says the value, why it looks wrong
    and the unit expected; `validate` places them in the file (text_places), a plan lists the texts. Its profile
    CSVs are read as the engine reads them: a relative path (a scenario not loaded from a file) in the working folder."""
    return plausibility_warnings_as_written(scenario.model_dump(), Path(".")) + regions_of_providers_left_out(scenario)


def regions_of_providers_left_out(scenario: Scenario) -> list[tuple[Path_, str]]:
    """(prices.regions item, warning) for each region the scenario lists where only providers it leaves out have
    offers (us-east-1 beside `providers: [azure]`: an AWS region), as its prices say. check_regions errs only on a
    region no provider has (a typo), so such a region passed without a word and added no offer. Read as validate
    reads the prices for its regions (catalog.price_coverage: the packaged snapshot without pandas, a store or an
    offers CSV from price_table's cache); a price source that does not read is left to the price checks."""
    p = scenario.prices
    if not p.regions:
        return []
    try:
        coverage, provenance = catalog.price_coverage(p.source, None, p.snapshot)
    except PlannerError:
        return []
    offered: dict[str, set[str]] = {}   # region -> the providers with an offer there
    for provider, region in zip(coverage["provider"], coverage["region"]):
        offered.setdefault(region, set()).add(provider)
    allowed = ", ".join(p.providers) or "none"
    named = catalog.offers.prices_named(scenario, provenance["source"])
    found = []
    for i, region in enumerate(p.regions):
        owners = sorted(offered.get(region, set()) - {"onprem"})
        if owners and not set(owners) & set(p.providers):
            whose = " and ".join(owners)
            found.append((("prices", "regions", i),
                          f"prices.regions[{i}]: {shortened(region)} is a region of {whose} (its offers in the {named} "
                          f"prices), and prices.providers ({allowed}) does not include {whose}: the region adds no "
                          f"offer; add {owners[0]} to prices.providers to plan on it, or remove the region"))
    return found


def plausibility_warnings_as_written(data: dict, base_dir: Path | None = None) -> list[tuple[Path_, str]]:
    """plausibility_warnings of a scenario's mapping: one dumped from a Scenario, or as written in a file that does
    not load (ScenarioCheck.data), whose values are read as the model reads their fields: a value it refuses is
    the error reported, and a warning that needs it is left out. `base_dir`: the folder its relative profile CSV
    paths are read against (ScenarioCheck.base_dir); None: such a CSV is not read (the power cap check then takes the
    most its busiest hour can be)."""
    try:
        data = plain_data(data)   # a dump's tuples as lists, as a file's YAML gives them
    except NotPlainData:   # no scenario: its problem is said where it is loaded
        return []
    found = []   # in the order of the scenario's fields
    currency = _currency_meant(data.get("currency", "USD"))
    fx = _rates(data)
    own_rate = fx.get(currency) if currency else None
    if own_rate is not None and own_rate != 1:   # not an error: a sweep over currencies carries one fx for all
        found.append((("fx", currency),
                      f"fx.{currency}: {own_rate:g} is ignored: {currency} is the scenario's currency, "
                      f"1 by definition (rates are {currency} per 1 unit of another currency)"))
    doubted = implausible_fx(currency, fx)   # a yuan rate turned round (planner.scenario.fx_check)
    found += doubted
    # the checks that convert with a rate warned of leave it out, as a missing one: "0.25 EUR a kWh (27.17 USD) is
    # more than grid electricity costs" at fx.USD 0.0092 blamed the price for the rate (an audit, 2026-12-07)
    trusted = {code: rate for code, rate in fx.items() if ("fx", code) not in {tuple(at) for at, _ in doubted}}
    found += _implausible_electricity(data, currency, trusted)
    found += _implausible_card_prices(data, currency, trusted)
    found += _implausible_power_cap(data, base_dir)
    found += _implausible_watts(data)
    found += _implausible_memory(data)
    found += _implausible_growth(data)
    found += _overhead_without_spot(data)
    found += _group_without_serving(data)
    found += _groups_written_alike(data)
    return found + _no_demand(data)


def _given(model: type[BaseModel], field: str, section: Any) -> Any:
    """`section[field]` as `model` reads it (`section`: a mapping of a scenario, dumped or as written); the field's
    default when the mapping lacks it; None when the model refuses it, or the field is required and missing."""
    section = _mapping(section)
    if field not in section:
        default = model.model_fields[field].get_default(call_default_factory=True)
        return None if default is PydanticUndefined else default
    return _read_as(model, field, section[field])


def _rates(data: dict) -> dict[str, float]:
    """The scenario's fx rates that the model reads, entry by entry (a refused entry left out)."""
    rates: dict[str, float] = {}
    for code, rate in _mapping(data.get("fx")).items():
        if not isinstance(rate, bool):
            rates.update(_read_as(Scenario, "fx", {code: rate}) or {})
    return rates


def _workloads(data: dict) -> list:
    """The scenario's workloads as given (each a mapping, or what pydantic refuses), else []."""
    workloads = data.get("workloads")
    return list(workloads) if isinstance(workloads, (list, tuple)) else []


def _demand(w: Any) -> tuple[str, float] | None:
    """(demand field, month-1 amount) of a workload; None when its demand fields do not fit together
    (demand_problem) or the model refuses the amount."""
    w = _mapping(w)
    if not w or demand_problem(w):
        return None
    field = next(f for f in DEMAND_FIELDS if w.get(f) is not None)
    amount = _given(Workload, field, w)
    return None if amount is None else (field, float(amount))


def _implausible_watts(data: dict) -> list[tuple[Path_, str]]:
    """busy_watts under MIN_BUSY_WATTS and idle_watts in (0, MIN_IDLE_WATTS) of custom cards and overrides."""
    onprem = _mapping(data.get("onprem"))
    given = [(("onprem", "custom_cards", str(card)), CustomCard, spec)
             for card, spec in _mapping(onprem.get("custom_cards")).items()]
    given += [(("onprem", "card_overrides", str(card)), CardOverride, spec)
              for card, spec in _mapping(onprem.get("card_overrides")).items()]
    found = []
    for at, model, spec in given:
        for field, least, draw in (("busy_watts", MIN_BUSY_WATTS, "draw at work (boards are rated 70-1,000 W)"),
                                   ("idle_watts", MIN_IDLE_WATTS, "idle draw (cards idle at 25-105 W)")):
            watts = _given(model, field, spec)
            if watts is not None and 0 < watts < least:
                found.append(((*at, field), f"{dotted((*at, field))}: {_figure(watts)} W is below any GPU's {draw}; "
                                            f"expected watts per card: for {_figure(watts)} kW, write "
                                            f"{_figure(watts * 1000)}"))
    return found


def _implausible_electricity(data: dict, currency: str | None, fx: dict[str, float]) -> list[tuple[Path_, str]]:
    """electricity_per_kwh above MAX_USD_PER_KWH once in USD (when the scenario has a rate for USD)."""
    price = _given(OnPrem, "electricity_per_kwh", data.get("onprem"))
    per_usd = 1.0 if currency == "USD" else fx.get("USD")   # scenario currency per 1 USD
    if price is None or currency is None or per_usd is None or price / per_usd <= MAX_USD_PER_KWH:
        return []
    in_usd = "" if currency == "USD" else f" ({_figure(price / per_usd, 4)} USD)"
    at = ("onprem", "electricity_per_kwh")
    return [(at, f"{dotted(at)}: {_figure(price)} {currency} a kWh{in_usd} is more than grid electricity costs "
                 f"anywhere (under 1 USD a kWh); expected {currency} per kWh, such as {_figure(0.12 * per_usd, 2)}: "
                 + _electricity_unit_guesses(price, currency))]


# A card's quote this many times its catalog price (or a catalog price this many times the quote), both in one currency,
# looks typed in another unit (cents: 100 times; thousands: 1/1,000): the dearest sourced card is an 8-GPU board's GPU
# at about 40,000 USD, the cheapest about 2,500 CNY, so no real quote of the same card is 20 times another.
SUSPECT_PRICE_RATIO = 20
# Where the catalog has no price for the card (or for a custom card): a price per card above this many USD is more than
# any GPU sells for (the dearest sourced per-GPU price in the catalog, hgx-h100-8gpu, is 39,625 USD, 2024-08-22).
MAX_USD_PER_CARD = 200_000
# … and below this many USD, less than any GPU sells for (the cheapest catalog card, rtx-3060-12gb, is 2,500 CNY, about
# 340 USD; an old data-centre card second-hand is more than this)
MIN_USD_PER_CARD = 50


def _implausible_card_prices(data: dict, currency: str | None, fx: dict[str, float]) -> list[tuple[Path_, str]]:
    """A card_overrides or custom_cards price SUSPECT_PRICE_RATIO times its catalog card's price (or 1/that), both in the
    scenario's currency; without a catalog price, one above MAX_USD_PER_CARD once in USD. Skipped where a rate is
    missing (fx problems are said elsewhere)."""
    if currency is None:
        return []
    onprem = _mapping(data.get("onprem"))
    rows = catalog.card_rows()
    per_usd = 1.0 if currency == "USD" else fx.get("USD")   # scenario currency per 1 USD

    def rate(code: str) -> float | None:   # scenario currency per 1 unit of `code`
        return 1.0 if code == currency else fx.get(code)

    found = []
    for section, model in (("card_overrides", CardOverride), ("custom_cards", CustomCard)):
        for card, spec in _mapping(onprem.get(section)).items():
            price = _given(model, "price", spec)
            row = rows.get(str(card)) if section == "card_overrides" else None
            quoted_in = _given(model, "currency", spec) or (row["currency"] if row else currency)
            quote_rate = rate(str(quoted_in))
            same = bool(row) and row["currency"] == quoted_in   # quoted in the catalog's currency: compared with no rate
            if price is None or price < 0 or quote_rate is None and not same:
                continue
            at = ("onprem", section, str(card), "price")
            amount = f"{_figure(price)} {quoted_in}"
            if price == 0:   # free cards: the plan buys as many as help (an audit's 0 bought 104 A100s without a word)
                found.append((at, f"{dotted(at)}: 0 {quoted_in} a card: the plan takes such cards as free and buys "
                                  "as many as save anything; expected the price of one card (leave it out for the "
                                  "catalog's)"))
                continue
            listed = _catalog_price(row)
            listed_rate = rate(row["currency"]) if listed else None
            board = catalog.board_gpus(str(card)) if row else 1   # custom cards: one at a time
            if listed and (listed_rate or same):
                ratio = price / listed if same else price * quote_rate / (listed * listed_rate)
                if board > 1 and board / 2 <= ratio <= 2 * board:   # a whole board's price where one GPU's is meant
                    found.append((at, f"{dotted(at)}: {amount} is {_figure(ratio, 3)} times the catalog's price of "
                                      f"{card} ({_figure(listed)} {row['currency']} a GPU, {row['as_of'] or 'undated'}), "
                                      f"about a whole {board}-GPU board's: the price is per GPU (the plan buys {board} at "
                                      f"a time); for a board at {amount}, write {_figure(price / board).replace(',', '')}"))
                    continue
                if 1 / SUSPECT_PRICE_RATIO < ratio < SUSPECT_PRICE_RATIO:
                    continue
                times = f"{_figure(ratio, 3)} times" if ratio > 1 else f"1/{_figure(1 / ratio, 3)} of"
                found.append((at, f"{dotted(at)}: {amount} is {times} the catalog's price of {card} "
                                  f"({_figure(listed)} {row['currency']}, {row['as_of'] or 'undated'}); expected the "
                                  f"price of one card in {quoted_in}" + _price_unit_guesses(price, ratio)))
                continue
            in_usd = price * quote_rate / per_usd if per_usd and quote_rate else None
            said_usd = "" if quoted_in == "USD" or in_usd is None else f" ({_figure(in_usd, 4)} USD)"
            if in_usd is not None and in_usd > MAX_USD_PER_CARD:
                found.append((at, f"{dotted(at)}: {amount}{said_usd} for one card is more than any GPU sells for (the "
                                  f"dearest in the catalog is about 40,000 USD a GPU); expected the price of one card "
                                  f"in {quoted_in}" + _price_unit_guesses(price, 100.0)))
            elif in_usd is not None and in_usd < MIN_USD_PER_CARD:
                found.append((at, f"{dotted(at)}: {amount}{said_usd} for one card is less than any GPU sells for (the "
                                  f"cheapest in the catalog is about 340 USD); expected the price of one card in "
                                  f"{quoted_in}" + _price_unit_guesses(price, 1 / 1000)))
    return found


def _catalog_price(row: dict | None) -> float | None:
    """A catalog card row's sourced price, None where it has none."""
    try:
        value = float(row["price"]) if row and str(row.get("price") or "").strip() else None
    except ValueError:
        return None
    return value if value and value > 0 else None


def _price_unit_guesses(price: float, ratio: float) -> str:
    """What a card price `ratio` times the expected was likely typed in, and the value to write (', if it is in cents,
    write 7900; …'), where that value is itself plausible (within SUSPECT_PRICE_RATIO of the expected: 500 for a
    11,500 USD card is no price in thousands, whose 500,000 would be 43 times it); '' where no unit explains it."""
    if ratio >= 1:   # the value to write as YAML reads it: no thousands separators
        cents = f"if it is in cents, write {_figure(price / 100).replace(',', '')}; " if ratio / 100 > 1 / SUSPECT_PRICE_RATIO \
            and ratio / 100 < SUSPECT_PRICE_RATIO else ""
        return f": {cents}if it is for a server of several cards, give one card's"
    if ratio * 1000 > 1 / SUSPECT_PRICE_RATIO and ratio * 1000 < SUSPECT_PRICE_RATIO:
        return f": if it is in thousands, write {_figure(price * 1000).replace(',', '')}"
    return ""


def _electricity_unit_guesses(price: float, currency: str) -> str:
    """What an electricity `price` in `currency` per kWh was likely typed in, and the value to write for it:
    per MWh, and in the currency's minor unit where prices are written in one (cents; a dinar's thousandths are
    per MWh's factor too)."""
    per_mwh = _figure(price / 1000)
    if currency in NO_MINOR_UNIT | MINOR_UNIT_UNUSED:
        return f"if it is per MWh, write {per_mwh}"
    if currency in THOUSANDTHS_MINOR_UNIT:
        return f"if it is in thousandths of a {currency} or per MWh, write {per_mwh}"
    return f"if it is in cents, write {_figure(price / 100)}; if per MWh, {per_mwh}"


def _implausible_power_cap(data: dict, base_dir: Path | None) -> list[tuple[Path_, str]]:
    """A power_cap_kw above MIN_SUSPECT_CAP_KW and SUSPECT_KW_PER_REFERENCE_GPU × the peak demand (and owned
    cards); nothing when a workload's demand in reference GPUs, its growth, the horizon or an owned count is
    unknown. A CSV profile is read against `base_dir` (_csv_peak_to_mean)."""
    onprem = _mapping(data.get("onprem"))
    cap = _given(OnPrem, "power_cap_kw", onprem)
    if cap is None or cap <= MIN_SUSPECT_CAP_KW:
        return []
    gpus = _owned_cards(onprem)
    horizon = _given(Scenario, "horizon_months", data)
    workloads = _workloads(data)
    if gpus is None or horizon is None or not workloads:
        return []
    custom = _mapping(onprem.get("custom_cards"))
    unread = []   # the profiles taken at HOURS_PER_WEEK: CSVs not read
    for i, w in enumerate(workloads):
        month_one, growth = _reference_gpus(w, custom), _given(Workload, "growth_per_month", w)
        if month_one is None or growth is None:
            return []
        profile = w.get("profile", "flat")
        peak = PEAK_TO_MEAN.get(profile) if isinstance(profile, str) else None
        if peak is None:
            peak = _csv_peak_to_mean(profile, base_dir)
        if peak is None:
            peak = float(HOURS_PER_WEEK)
            unread.append(("workloads", i, "profile"))
        try:
            gpus += month_one * peak * max(1.0, (1 + growth) ** (horizon - 1))
        except OverflowError:   # demand without bound (an error of its own): no cap is too large for it
            return []
    if cap <= SUSPECT_KW_PER_REFERENCE_GPU * gpus:
        return []
    at = ("onprem", "power_cap_kw")
    asks, unread_said = ("asks at most", f"; {series([dotted(u) for u in unread])} not read: all of a week's demand "
                                          "taken in one hour") if unread else ("asks", "")
    return [(at, f"{dotted(at)}: {_figure(cap)} kW is more than {SUSPECT_KW_PER_REFERENCE_GPU:g} kW for each of the "
                 f"{_figure(gpus, 3)} reference GPUs the demand {asks} at its busiest hour (and owned cards{unread_said}): "
                 f"no fleet serving it comes near such a cap; expected kilowatts: for {_figure(cap)} W, write "
                 f"{_figure(cap / 1000)}")]


def _csv_peak_to_mean(profile: Any, base_dir: Path | None) -> float | None:
    """A CSV profile's busiest hour over its mean: its largest weight over their mean, the weights read as the
    engine reads them (_profile_read; engine.profiles scales them to mean 1). None where it is not read: not a
    .csv path, a relative one with no `base_dir` to read it against (Path("."): the working folder, as the engine
    reads a scenario's), or a file that is not a regular one (a FIFO would block) or does not read with the
    engine's rules (each an error of its own)."""
    if not isinstance(profile, str) or not profile.endswith(".csv") or len(profile) > MAX_PATH_LENGTH:
        return None
    if base_dir is None and not os.path.isabs(profile):
        return None
    path = Path(profile) if base_dir is None else base_dir / profile
    if file_problem(path):
        return None
    weights, _ = _profile_read(path, profile)
    if weights is None:
        return None
    top = max(weights)   # > 0: weights all 0 do not read; divided by it first, as the engine does, so none overflows
    return len(weights) / math.fsum(w / top for w in weights)


def _owned_cards(onprem: dict) -> int | None:
    """Cards owned in all (onprem.existing: the short form `card: count` or `{count: …}`); None when a count is refused."""
    total = 0
    for owned in _mapping(onprem.get("existing")).values():
        count = _read_as(OwnedCards, "count", owned.get("count") if isinstance(owned, dict) else owned)
        if count is None:
            return None
        total += count
    return total


def _reference_gpus(w: Any, custom: dict) -> float | None:
    """A workload's month-1 demand in reference GPUs busy on average; None when its demand is refused, or for
    requests/s whose reference GPU's rate the throughput table does not give."""
    demand = _demand(w)
    if demand is None:
        return None
    field, amount = demand
    if field == "gpu_hours_per_month":
        return amount / HOURS_PER_MONTH
    if field == "reference_gpus":
        return amount
    ref = catalog.resolve_gpu(str(w.get("reference_gpu")))
    rates = [rate for key, rate in _mapping(w.get("throughput")).items()
             if (_mapping(custom[key]).get("gpu") if key in custom else catalog.resolve_gpu(str(key))) == ref]
    rate = _read_as(Workload, "throughput", {"gpu": rates[0]}) if ref and rates and not isinstance(rates[0], bool) else None
    return amount / rate["gpu"] if rate else None


def _prices_are_the_catalogs(data: dict) -> bool:
    """Whether the offers a scenario plans on have the catalog's memory per GPU: those of the packaged snapshot or the
    price store (nominal GB of the GPU they name: docs/offers-contract.md, Memory), not an offers CSV's, whose rows
    give their own gpu_memory_gb."""
    return _mapping(data.get("prices")).get("source", "snapshot") in PRICE_SOURCE_WORDS


def _memory_problems(data: dict, positions: Any, origin: str) -> list[str]:
    """A workload's min_gpu_memory_gb above the most memory of any GPU (_memory_beyond_every_gpu): an error where the
    offers have the catalog's memory (plan is certain to find the workload infeasible); a warning otherwise
    (plausibility_warnings: an offers CSV's row may give more)."""
    if not _prices_are_the_catalogs(data):
        return []
    return [f"{_placed(origin, positions, loc)}: {text}" for loc, text in _memory_beyond_every_gpu(data)]


def _implausible_memory(data: dict) -> list[tuple[Path_, str]]:
    """_memory_beyond_every_gpu, a warning where the prices are an offers CSV (an error otherwise: _memory_problems)."""
    if _prices_are_the_catalogs(data):
        return []
    return _memory_beyond_every_gpu(data, " unless a row of the offers CSV (prices.source) gives more")


def _memory_beyond_every_gpu(data: dict, unless: str = "") -> list[tuple[Path_, str]]:
    """A workload's min_gpu_memory_gb above the most memory of any GPU (the catalog's, and the custom cards'
    gpu_specs): no GPU can run it, and the plan is infeasible (`unless`: what could still give one). MiB typed as
    GB (81920 for 80) most often."""
    most, holder = _most_gpu_memory(data)
    found = []
    for i, w in enumerate(_workloads(data)):
        memory = _given(Workload, "min_gpu_memory_gb", w)
        if memory is None or memory <= most:
            continue
        at = ("workloads", i, "min_gpu_memory_gb")
        gb = memory / 1024
        meant = f"; did you mean {_figure(gb)} ({_figure(memory)} MiB)?" if 1 <= gb <= most else ""
        found.append((at, f"{dotted(at)}: {_figure(memory)} GB is more memory than any GPU has (the most: "
                          f"{_figure(most)} GB, {holder}), so no GPU can run the workload{unless}; expected GB per "
                          f"GPU{meant}"))
    return found


def _most_gpu_memory(data: dict) -> tuple[float, str]:
    """(GB, which GPU) of the GPU with the most memory: the catalog's, or a custom card's gpu_specs."""
    most, holder = _catalog_most_memory()
    for card, spec in _mapping(_mapping(data.get("onprem")).get("custom_cards")).items():
        memory = _given(GpuSpecs, "memory_gb", _mapping(spec).get("gpu_specs"))
        if memory is not None and memory > most:
            most, holder = memory, f"custom card '{card}'"
    return most, holder


@functools.cache
def _catalog_most_memory() -> tuple[float, str]:
    """(GB, GPU id) of the GPU catalog's largest memory (gpus.csv's text rows: no pandas)."""
    sizes = []
    for gpu, row in catalog.gpu_rows().items():
        try:
            sizes.append((float(row["memory_gb"]), gpu))
        except ValueError:   # an empty cell: unknown
            continue
    return max(sizes, key=lambda size: size[0])


def _implausible_growth(data: dict) -> list[tuple[Path_, str]]:
    """A growth_per_month above MAX_GROWTH_AS_SHARE and at most 100: a share typed in percent (2 for 0.02). Not
    where the demand it grows overflows (grown_demand_problem: an error, with the same did-you-mean)."""
    horizon = data.get("horizon_months", DEFAULT_HORIZON_MONTHS)
    found = []
    for i, w in enumerate(_workloads(data)):
        growth = _given(Workload, "growth_per_month", w)
        if growth is None or not MAX_GROWTH_AS_SHARE < growth <= 100 or grown_demand_problem(_mapping(w), horizon):
            continue
        at = ("workloads", i, "growth_per_month")
        found.append((at, f"{dotted(at)}: {_figure(growth)} is growth of {_figure(growth * 100)} % a month (demand × "
                          f"{_figure(1 + growth)} every month); expected a share a month{percent_meant(growth)}"))
    return found


def _overhead_without_spot(data: dict) -> list[tuple[Path_, str]]:
    """An interruption_overhead above 0 on a workload that is not interruptible: it applies only to spot work, which
    such a workload never gets, so it has no effect (an audit's was ignored without a word)."""
    found = []
    for i, w in enumerate(_workloads(data)):
        overhead = _given(Workload, "interruption_overhead", w)
        # (a flag the model refuses is an error of its own: no warning then)
        if overhead and _mapping(w).get("interruptible", False) is False:
            at = ("workloads", i, "interruption_overhead")
            found.append((at, f"{dotted(at)}: {_figure(overhead)} has no effect: the workload is not interruptible, "
                              "so it never runs on spot, the only work the overhead applies to; set interruptible: true "
                              "to let spot serve it at that overhead"))
    return found


def _group_without_serving(data: dict) -> list[tuple[Path_, str]]:
    """A serving_group on a workload that is not serving: groups share whole serving capacity only, so it has no
    effect (a workload meant to serve, its `serving: true` forgotten, plans as divisible GPU-hours)."""
    found = []
    for i, w in enumerate(_workloads(data)):
        w = _mapping(w)
        if w.get("serving_group") is not None and w.get("serving", False) is False:
            at = ("workloads", i, "serving_group")
            found.append((at, f"{dotted(at)}: has no effect: the workload is not serving (divisible GPU-hours); set "
                              "serving: true for whole instances and cards shared within its group"))
    return found


def _groups_written_alike(data: dict) -> list[tuple[Path_, str]]:
    """Two serving_group names that differ only in case or punctuation ('llama-8b', 'Llama_8B'): most likely one
    group written two ways, which plans two models that never share a GPU. (Names a letter or digit apart are left
    alone: llama-7b and llama-8b are two models.)"""
    first: dict = {}   # the name made plain -> (workload index, the name as written) of its first use
    found = []
    for i, w in enumerate(_workloads(data)):
        name = _mapping(w).get("serving_group")
        if not isinstance(name, str):
            continue
        plain = "".join(ch for ch in name.casefold() if ch.isalnum())
        j, other = first.setdefault(plain, (i, name))
        if other != name:
            at = ("workloads", i, "serving_group")
            found.append((at, f"{dotted(at)}: '{name}' is written like '{other}' (workloads[{j}]) but is another group: "
                              "workloads of different groups never share a GPU; give them the same serving_group if "
                              "they serve one model"))
    return found


def _figure(x: float, digits: int = 15) -> str:
    """`x` to `digits` significant digits (default: as given) as a reader writes it: thousands separated, no
    exponent (1e+06 reads as a typo of its own in a message about typos), no trailing zeros: 6,000; 130.4; 0.0025."""
    if not x:
        return "0"
    places = digits - 1 - math.floor(math.log10(abs(x)))
    text = f"{round(x, places):,.{max(0, places)}f}"
    return text.rstrip("0").rstrip(".") if places > 0 else text


def _no_demand(data: dict) -> list[tuple[Path_, str]]:
    """A warning when no workload asks anything (every demand 0: growth keeps it 0); nothing when a demand is refused."""
    workloads = _workloads(data)
    demands = [_demand(w) for w in workloads]
    if not demands or None in demands or any(amount > 0 for _, amount in demands):
        return []
    why = "so the plan has nothing to serve and buys nothing (its total is what owned cards cost)"
    if len(workloads) == 1:
        at = ("workloads", 0, demands[0][0])
        return [(at, f"{dotted(at)}: 0 is the only workload's demand, {why}; expected the "
                     f"{_DEMAND_UNITS[demands[0][0]]} it needs in month 1")]
    return [(("workloads",), f"workloads: the demand of all {len(workloads)} workloads is 0, {why}; expected each "
                             f"one's demand in month 1 (gpu_hours_per_month: reference-GPU hours a month)")]


def prices_as_written(data: dict, base_dir: Path | None) -> Prices | None:
    """The prices section of a scenario that does not load (ScenarioCheck.data), as far as `validate` checks its
    regions against the prices (catalog.check_regions reads these two fields alone): its source, a path resolved as
    a loaded scenario's, and its regions as written (None: all). Not validated: built from the values only where
    both are what the model takes; None otherwise (the source is no text or no readable file, a region is no
    text, the list is too long), as the scenario's problems say."""
    prices = _mapping(data.get("prices"))
    source, regions = prices.get("source", "snapshot"), prices.get("regions")
    if not isinstance(source, str) or not source.strip() or len(source) > MAX_PATH_LENGTH:
        return None
    if source not in PRICE_SOURCE_WORDS:
        path = Path(source) if base_dir is None else base_dir / source
        if file_problem(path):
            return None
        source = str(path.resolve()) if base_dir is not None else source
    if regions is not None and not (isinstance(regions, list) and len(regions) <= MAX_ENTRIES
                                    and all(isinstance(r, str) for r in regions)):
        return None
    return Prices.model_construct(source=source, regions=None if regions is None else tuple(regions))
