"""The YAML dialect of scenario files: YAML 1.2's core schema for plain scalars, as the editors that check a
scenario against its JSON Schema read it (yaml-language-server, in VS Code and others), not PyYAML's YAML 1.1.

YAML 1.1 reads numbers a person did not mean: `horizon_months: 036` is octal, 30 months; `0100` is 64;
`1:00` is base 60, sixty; `yes`, `no`, `on` and `off` are booleans (a workload named `no` became False).
In the core schema an integer is decimal (`036` is 36), `0o17` octal or `0x1F` hexadecimal, a float is
decimal with an optional exponent (`1e5`) or `.inf`/`.nan`, a boolean is `true`, `True` or `TRUE` (and
`false` likewise), and everything else (`=` too, which YAML 1.1 reads as a "value" tag) is text, which
the scenario's model then checks (`1:00` for a number is an error at its line). The core schema has no
dates either: YAML 1.1 read `as_of: 2026-11-20` (the date of a card override's quote) as a date, which the
text field refused, and an impossible `2026-11-31` stopped the whole file at its line; as text, the model
checks it as an ISO date with the file's other fields. An explicit `!!timestamp` still makes a date.

`CoreLoader` and `CoreDumper` resolve plain scalars this way; `dump_yaml` writes with the dumper, which
quotes text that either YAML 1.2 or YAML 1.1 would read as something else (a workload named `1e5`, `no`
or `0b101`), so that what it writes reads the same here, in PyYAML's safe_load and in older versions.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

_BOOL = "tag:yaml.org,2002:bool"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_VALUE = "tag:yaml.org,2002:value"   # YAML 1.1's `=`, which the safe loader has no constructor for
_STR = "tag:yaml.org,2002:str"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"   # YAML 1.1's dates, which the core schema reads as text
MAX_INT_CHARS = 1000   # an integer longer than this is no figure a scenario holds (decimal is also Python's limit)

# (tag, pattern, first characters) of YAML 1.2's core schema (yaml.org/spec/1.2.2, 10.3.2)
_CORE = [
    (_BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), "tTfF"),
    (_INT, re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"), "-+0123456789"),
    (_FLOAT, re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
                        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"), "-+.0123456789"),
]


def _core_resolvers(base: dict) -> dict:
    """`base` (a class's yaml_implicit_resolvers) with YAML 1.1's booleans, integers and floats replaced by the
    core schema's, and its dates and `=` left to be text."""
    out = {first: [(tag, rx) for tag, rx in pairs if tag not in (_BOOL, _INT, _FLOAT, _VALUE, _TIMESTAMP)]
           for first, pairs in base.items()}
    for tag, rx, firsts in _CORE:
        for first in firsts:
            out.setdefault(first, []).append((tag, rx))
    return out


class CoreLoader(yaml.SafeLoader):
    """The safe loader reading plain scalars by YAML 1.2's core schema."""

    yaml_implicit_resolvers = _core_resolvers(yaml.SafeLoader.yaml_implicit_resolvers)

    def construct_core_int(self, node: yaml.ScalarNode) -> int:
        """An integer as the core schema writes it: decimal (leading zeros and all), 0o octal, 0x hexadecimal."""
        text = str(self.construct_scalar(node))
        if len(text) > MAX_INT_CHARS:   # 0x and 5,000 Fs made an integer no message could show (repr refuses it)
            raise ValueError("too many digits")
        if text.startswith(("0o", "0x")):
            return int(text[2:], 8 if text[1] == "o" else 16)
        return int(text, 10)


CoreLoader.add_constructor(_INT, CoreLoader.construct_core_int)


def _tag_of(table: dict, value: str) -> str | None:
    """The tag `table` (yaml_implicit_resolvers) reads plain `value` as, as PyYAML's resolver finds it."""
    for tag, rx in [*table.get(value[0] if value else "", []), *table.get(None, [])]:
        if rx.match(value):
            return tag
    return None


class CoreDumper(yaml.SafeDumper):
    """The safe dumper quoting the text that CoreLoader, or a YAML 1.1 reader, would read as something else."""

    yaml_implicit_resolvers = _core_resolvers(yaml.SafeDumper.yaml_implicit_resolvers)

    def resolve(self, kind, value, implicit):
        tag = super().resolve(kind, value, implicit)
        if kind is yaml.ScalarNode and implicit[0] and tag == _STR:
            # text YAML 1.1 reads as a boolean or number (`no`, `0b101`, `1_000`): its tag, so it is quoted
            return _tag_of(yaml.SafeDumper.yaml_implicit_resolvers, value) or tag
        return tag


def dump_yaml(data: Any, **kwargs: Any) -> str:
    """`yaml.safe_dump(data, **kwargs)` as a scenario file is read back (CoreDumper)."""
    return yaml.dump(data, Dumper=CoreDumper, **kwargs)
