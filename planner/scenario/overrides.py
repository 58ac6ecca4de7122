"""Dotted-path overrides of a scenario, validated like a file, and the scenario flattened to path/value
rows (for assumptions sheets and comparisons).

Overrides are dotted paths into the scenario file's structure; workloads are addressed by name
(`workloads.prototyping.gpu_hours_per_month`; a name with dots as it is, `workloads.team.a.growth_per_month`
for workload `team.a`), dict entries by key (`onprem.existing.rtx-4090`,
`onprem.card_overrides.a100-80gb-pcie.price`). The changed scenario's dump is modified and parsed
again by `parse_scenario`, so every check of a file applies. The CLI, the dashboard's widgets and the
library all go through `apply_overrides`.

A relative file path given as an override (a `profile` CSV, an offers CSV as `prices.source`) is resolved
against the working folder, as any path typed on a command line or in a notebook is: a path with no scenario
file behind it (`--vary workloads.w.profile=weekly.csv`) has no other folder to be relative to, and the shell
completed it from there. Only paths written in the scenario file are relative to that file's folder
(loading.scenario_folder). The path is made absolute as the override is applied, as loading makes a file's,
so a sweep's Dask worker or a later change of folder reads the same file.
"""

from __future__ import annotations

import copy
import os
import re
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from pydantic import BaseModel

from planner import catalog
from planner.catalog.prices import PRICE_SOURCE_WORDS
from planner.errors import ScenarioError
from planner.fileio import file_problem
from planner.scenario.loading import (
    NotPlainData,
    PastedCharacter,
    YamlRefused,
    loaded_from,
    names_after_overrides,
    parse_scenario,
    plain_data,
    read_yaml_value,
)
from planner.scenario.model import BUILTIN_PROFILES, INVISIBLE_CHAR, ReadOnlyDict, Scenario, defaults_left_out
from planner.scenario.yaml_core import dump_yaml
from planner.text import shortened

if TYPE_CHECKING:
    import pandas as pd

# ---------------------------------------------------------------------------------------------------
# Overrides: dotted paths, validated like a file

ORIGIN = "overrides"


def _unwrap(ann: Any) -> Any:
    """`X | None` → X (the annotation without its None option)."""
    origin = typing.get_origin(ann)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(ann) if a is not type(None)]
        return args[0] if len(args) == 1 else ann
    return ann


def _is_model(ann: Any) -> bool:
    return isinstance(ann, type) and issubclass(ann, BaseModel)


def _child_schema(ann: Any) -> tuple[str, Any]:
    """What sits under a field: ("model", cls), ("models", cls) for a tuple of models addressed by
    name, ("dict", value annotation) for a free mapping, or ("leaf", None)."""
    ann = _unwrap(ann)
    if _is_model(ann):
        return "model", ann
    origin, args = typing.get_origin(ann), typing.get_args(ann)
    if origin in (tuple, list) and args and _is_model(args[0]):
        return "models", args[0]
    if origin is dict:
        return "dict", args[1] if len(args) == 2 else Any
    return "leaf", None


def _is_list(ann: Any) -> bool:
    """Whether a field of annotation `ann` holds a list of values (`onprem.cards`, `prices.regions`)."""
    return typing.get_origin(_unwrap(ann)) in (tuple, list)


def _whole_list(path: str, field: str, now: Any) -> ScenarioError:
    """The problem of `path` going into the list `field` (`onprem.cards.0`): an override gives a list whole, as YAML
    flow text on a command line; the example is the list the scenario holds now, when it holds one."""
    example = f"{shortened(_display(now))} (its value now)" if isinstance(now, (list, tuple)) and now else "[A, B]"
    return _problem(path, f"{field} is a list; give the whole list, e.g. {field}={example}")


# A path segment naming an item as a message does, `cards[0]`, or an item's item, `workloads[0][1]`
_BRACKETED = re.compile(r"([^\[\]]+)((?:\[\d+\])+)")
# what a field that is no list is, said where a path gives it an item number (`profile[2]`, `fx[0]`)
_NOT_NUMBERED = {"leaf": "a value (not a list)", "dict": "a mapping (its entries have keys, not numbers)",
                 "model": "a section (its fields have names, not numbers)"}


def _bracketed(path: str, done: list[str], name: str, indices: list[int], annotation: Any, now: Any,
               rest: list[str]) -> ScenarioError:
    """The problem of `path` giving field `name` of the section `done` with item numbers (`name[i]`, `name[i][j]`), as a
    file's message names a list's item: a workload is `workloads.INDEX` or `workloads.NAME`, a list is given whole, and
    nothing else has items; "did you mean" the path meant."""
    field = ".".join([*done, name])
    kind, schema = _child_schema(annotation)
    if kind == "models":
        return _item_by_dots(path, field, indices, now, rest, schema)
    if _is_list(annotation):
        return _whole_list(path, field, now)
    why, tail = _not_numbered(field, indices[0], kind, rest)
    return _problem(path, f"{why}; did you mean {field}{tail}?")


def _not_numbered(field: str, index: int, kind: str, rest: list[str]) -> tuple[str, str]:
    """(why item `[index]` of `field`, of `kind` leaf, dict or model, names nothing; what follows `field` in the path
    meant: nothing after a value, else `rest` or a placeholder for the key or field to name)."""
    tail = "" if kind == "leaf" else "." + (".".join(rest) or ("KEY" if kind == "dict" else "FIELD"))
    return f"[{index}] names nothing in {field}, {_NOT_NUMBERED[kind]}", tail


def _item_by_dots(path: str, field: str, indices: list[int], items: Any, rest: list[str],
                  model: type[BaseModel]) -> ScenarioError:
    """The problem of `path` naming a workload as a file's message does (`workloads[0].profile`): an override
    addresses one by 0-based index or by name with dots, so the message gives both spellings of the path meant.
    A further item number names nothing, after the workload (`workloads[0][1]`: its fields have names) or after
    its field (`workloads[0].profile[2]`): the message says so first."""
    names = [item.get("name") if isinstance(item, dict) else None for item in items] if isinstance(items, list) else []
    index = indices[0]
    why, tail = "", ".".join(rest) or "FIELD"
    inner = _BRACKETED.fullmatch(rest[0]) if rest and rest[0] not in model.model_fields else None
    if len(indices) > 1:
        why = f"[{indices[1]}] names nothing in {field}[{index}], a workload (its fields have names, not numbers); "
    elif inner and inner[1] in model.model_fields:
        annotation = model.model_fields[inner[1]].annotation
        if _is_list(annotation):
            now = items[index].get(inner[1]) if index < len(names) and isinstance(items[index], dict) else None
            return _whole_list(path, f"{field}.{index}.{inner[1]}", now)
        reason, after = _not_numbered(f"{field}.{index}.{inner[1]}", _item_numbers(inner[2])[0],
                                      _child_schema(annotation)[0], rest[1:])
        why, tail = f"{reason}; ", inner[1] + after
    elif rest and rest[0] not in model.model_fields:   # a misspelt field: the path meant names the field meant
        why, tail = _field_meant(rest, list(model.model_fields))
    if index >= len(names):
        known = ", ".join(map(str, names)) or "none"
        return _problem(path, f"no workload at index {index} (0-based; known: {known}); "
                              f"a workload's field is {field}.INDEX.{tail} or {field}.NAME.{tail}")
    example = "" if rest else f", e.g. {field}.{index}.gpu_hours_per_month"
    return _problem(path, f"{why}did you mean {field}.{index}.{tail} (or {field}.{names[index]}.{tail}){example}?")


def _field_meant(rest: list[str], fields: list[str]) -> tuple[str, str]:
    """(why, the path's tail meant) for a workload's field `rest[0]` that is none of `fields`: the nearest field in
    its place (`profil` → `profile`, what follows kept), else a placeholder and the fields allowed."""
    near = catalog.suggest(rest[0], fields)
    if near:
        return "", ".".join([near[0], *rest[1:]])
    return f"unknown key '{rest[0]}' of a workload (allowed: {', '.join(fields)}); ", "FIELD"


def _item_numbers(brackets: str) -> list[int]:
    """The item numbers of `[0][1]`: [0, 1]."""
    return [int(n) for n in re.findall(r"\[(\d+)\]", brackets)]


def _copied(path: str, value: Any) -> Any:
    """A deep copy of an override's `value`, in the shapes a file gives (loading.plain_data: a tuple a list, a
    Workload the dict of its fields), as the scenario's dump it is set in holds them; ScenarioError naming `path` for
    one no scenario field can hold that copy cannot take either: a generator ("cannot pickle 'generator' object"
    before) or a mapping nested 100,000 deep (a RecursionError), or that holds itself."""
    try:
        return plain_data(copy.deepcopy(value))
    except RecursionError:
        raise _problem(path, "the value is nested too deep to be a scenario value") from None
    except (TypeError, copy.Error):
        raise _problem(path, f"expected a number, text, list or mapping, got {type(value).__name__}") from None
    except NotPlainData as exc:
        raise _problem(path, exc.what) from None


def _problem(path: str, msg: str) -> ScenarioError:
    return ScenarioError([f"{path}: {msg}"], ORIGIN)


def _item_at(parts: list[str], k: int, names: list[Any]) -> tuple[int | None, int]:
    """(index of the workload that `parts[k:end]` names, end): a name may hold dots (`team.a`), so the
    longest run of segments from `k` that is a name wins, one leaving a field after it first
    (`workloads.team.a.gpu_hours_per_month` is workload `team.a` when there is one, even next to a `team`);
    else a 0-based index. (None, k) when neither."""
    for end in [*range(len(parts) - 1, k, -1), len(parts)]:
        name = ".".join(parts[k:end])
        if name in names:
            return names.index(name), end
    if parts[k].isdigit() and int(parts[k]) < len(names):
        return int(parts[k]), k + 1
    return None, k


def _workload_span(parts: list[str], data: dict) -> tuple[int, int]:
    """(first, end) of the segments of `parts` that name a workload of the scenario dump `data` (as _set_path
    reads them), else (0, 0)."""
    workloads = data.get("workloads")
    if len(parts) < 2 or parts[0] != "workloads" or not isinstance(workloads, list):
        return 0, 0
    idx, end = _item_at(parts, 1, [w.get("name") if isinstance(w, dict) else None for w in workloads])
    return (1, end) if idx is not None else (0, 0)


def path_keys(path: str, workload_names) -> list[str]:
    """The keys of a dotted override `path`, a workload's name as one key however many dots it holds
    (`workloads.team.a.growth_per_month` → workloads, team.a, growth_per_month when `team.a` is one of
    `workload_names`), read as `apply_overrides` reads it."""
    parts = path.split(".")
    if len(parts) > 1 and parts[0] == "workloads":
        _, end = _item_at(parts, 1, list(workload_names))
        if end > 1:
            return ["workloads", ".".join(parts[1:end]), *parts[end:]]
    return parts


def _field_keys(names: list[str], path: str) -> tuple[str, ...]:
    """The keys a dotted path sets, a workload named as it is however the path addresses it (by name or
    by 0-based index: `workloads.0.x` is `workloads.training.x` when training is the first)."""
    keys = path_keys(str(path), names)
    if len(keys) > 1 and keys[0] == "workloads" and keys[1] not in names and keys[1].isdigit() \
            and int(keys[1]) < len(names):
        keys[1] = names[int(keys[1])]
    return tuple(keys)


def overlapping_paths(scenario: Scenario, paths: list[str]) -> list[tuple[str, str, bool]]:
    """(earlier path, later path, True) per path that sets the same field as an earlier one under another
    spelling (`workloads.0.x` and `workloads.training.x`), and (outer path, inner path, False) per path that
    sets a field inside a mapping another path sets whole (`fx` and `fx.CNY`): one value would silently
    replace the other."""
    names = [w.name for w in scenario.workloads]
    first: dict[tuple[str, ...], str] = {}
    out = []
    for path in paths:
        keys = _field_keys(names, path)
        if keys in first:
            out.append((first[keys], path, True))
            continue
        inside = next((p for k, p in first.items() if k[:len(keys)] == keys or keys[:len(k)] == k), None)
        if inside is not None:
            outer, inner = (inside, path) if len(_field_keys(names, inside)) < len(keys) else (path, inside)
            out.append((outer, inner, False))
        first[keys] = path
    return out


def _set_path(data: dict, path: str, value: Any, keyword: bool = False) -> None:
    """Set `value` at dotted `path` in a scenario dump, checking each step against the models; `keyword`: the path
    came from a keyword argument of plan() (`__` for `.`), which cannot spell a workload name holding a `-` or a space."""
    parts = path.split(".")
    # an empty segment is no key, except inside a workload's name (`team.a..v2`, `v2.` pass validation: the
    # path of a slider or a sweep over such a workload was refused)
    named = _workload_span(parts, data)
    if not path or any(p == "" and not named[0] <= i < named[1] for i, p in enumerate(parts)):
        raise _problem(path, "expected a dotted path such as onprem.electricity_per_kwh")
    node: Any = data
    kind, schema = "model", Scenario
    done: list[str] = []
    k = 0
    while k < len(parts):
        part = parts[k]
        last = k == len(parts) - 1
        where = ".".join(done) or "(top level)"
        if kind == "leaf":
            raise _problem(path, f"{'.'.join(done)} is a value, not a section; cannot go into '{part}'")
        if kind == "models":                       # workloads, by name (or by 0-based index)
            names = [item.get("name") for item in node]
            idx, end = _item_at(parts, k, names)
            if idx is None:
                shown = [str(n) for n in names]
                near = catalog.suggest(part, shown)
                hint = f"; did you mean '{near[0]}'?" if near else f" (known: {', '.join(shown)})"
                if keyword and near:
                    hint += _named_in_overrides(data, parts[:k], near[0], shown.index(near[0]), parts[k + 1:], value)
                raise _problem(path, f"no workload named '{part}' in {where}{hint}")
            if end == len(parts):
                raise _problem(path, f"name a field of the workload, e.g. {path}.gpu_hours_per_month")
            node, kind, done, k = node[idx], "model", done + [".".join(parts[k:end])], end
            continue
        if kind == "model":
            fields = schema.model_fields
            item = _BRACKETED.fullmatch(part)   # onprem.cards[0], workloads[0][1]: as a message names a list's item
            if part not in fields and item and item[1] in fields:
                raise _bracketed(path, done, item[1], _item_numbers(item[2]), fields[item[1]].annotation,
                                 node.get(item[1]), parts[k + 1:])
            if part not in fields:
                near = catalog.suggest(part, list(fields))
                hint = f"; did you mean '{near[0]}'?" if near else f" (allowed: {', '.join(fields)})"
                if part.split("__")[0] in fields:   # plan()'s keyword spelling in a dotted path (a sweep's vary)
                    hint = _dotted_for_underscores(data, parts[:k], part, parts[k + 1:], value)
                raise _problem(path, f"unknown key '{part}' under {where}{hint}")
            annotation = fields[part].annotation
        else:                                      # a free mapping: any key; the parser checks names
            annotation = schema
        child_kind, child_schema = _child_schema(annotation)
        if last:
            node[part] = _merged(node.get(part), value, child_kind, child_schema)
            return
        child = node.get(part)
        if child_kind == "leaf" and (_is_list(annotation) or isinstance(child, list)):
            raise _whole_list(path, ".".join(done + [part]), child)
        if child is None and child_kind != "leaf":   # a leaf left out (a default: defaults_left_out) stays out
            child = {}
            node[part] = child
        elif isinstance(child, ReadOnlyDict):   # a scenario's own mapping, given whole by an earlier path
            child = node[part] = dict(child)
        if child_kind == "leaf" or not isinstance(child, (dict, list)):
            raise _problem(path, f"{'.'.join(done + [part])} is a value, not a section; "
                                 f"cannot go into '{parts[k + 1]}'")
        node, kind, schema, done, k = child, child_kind, child_schema, done + [part], k + 1


def _dotted_for_underscores(data: dict, before: list[str], part: str, after: list[str], value: Any) -> str:
    """The hint for a key `part` spelt as plan()'s keyword arguments spell a path (`onprem__electricity_per_kwh`, `__`
    for `.`) in a dotted path (an overrides mapping, a sweep's vary, --vary): the dotted path meant, or its problem. A
    dotted path keeps `__` as written, since a workload's name may hold it."""
    dotted = ".".join([*before, part.replace("__", "."), *after])
    try:
        _set_path(copy.deepcopy(data), dotted, value)
    except ScenarioError as exc:
        said = exc.problems[0].removeprefix(f"{dotted}: ")
        return f"; '__' stands for '.' in plan()'s keyword arguments only, and {dotted} is no path either: {said}"
    return f"; did you mean '{dotted}'? ('__' stands for '.' in plan()'s keyword arguments only)"


def _named_in_overrides(data: dict, before: list[str], name: str, index: int, after: list[str], value: Any) -> str:
    """How to give a workload's field when a keyword argument cannot spell its `name` (`llm-finetune`: a keyword
    holds no `-`): the overrides mapping, and the keyword naming the workload by its 0-based `index`; "" where it can
    (a `.` in a name is `__` in a keyword), and where that path is no path of `data` either (the name's `-` written as
    `__`, `workloads__llm__finetune__…`, leaves `finetune` in it: advice that would be refused is none)."""
    keyword = "__".join([*before, name.replace(".", "__"), *after])
    if keyword.isidentifier():
        return ""
    dotted = ".".join([*before, name, *after])
    try:
        _set_path(copy.deepcopy(data), dotted, value)
    except ScenarioError:
        return ""
    return (f" A keyword argument cannot spell that name: give overrides={{{dotted!r}: {shortened(repr(value))}}}, or "
            f"name the workload by its position, {'__'.join([*before, str(index), *after])}={shortened(repr(value))}")


def _merged(now: Any, value: Any, kind: str, schema: Any) -> Any:
    """What a section of the models (`onprem`, `constraints`, `onprem.card_overrides.CARD`) holds once `value` is
    given for it: a mapping given for one is merged into what it holds, field by field and into its own sections, so
    `{"onprem": {"pue": 1.5}}` changes the PUE alone, as `onprem.pue` does (it had dropped the scenario's cards, owned
    cards, quotes and caps without a word: a notebook audit, 2026-12-07); a field given None is None, as its dotted
    path given None is. A mapping of names (`fx`, `card_overrides`, `existing`), a list or a value is replaced whole: giving
    one is how entries are removed."""
    if kind != "model" or not isinstance(value, Mapping) or not isinstance(now, Mapping):
        return value
    out = dict(now)
    fields = schema.model_fields
    for key, given in value.items():
        if key in fields:
            sub_kind, sub_schema = _child_schema(fields[key].annotation)
            out[key] = _merged(out.get(key), given, sub_kind, sub_schema)
        else:   # an unknown key: the parser names it, with its "did you mean"
            out[key] = given
    return out


def _index_to_name(problem: str, data: dict) -> str:
    """`workloads[1].x` in a parser message → `workloads.<name>.x`; drop the origin (data, with no lines)."""
    problem = problem.removeprefix(f"{ORIGIN}: ")
    workloads = data.get("workloads")   # an override may have set it to anything: the parser says what
    names = [w.get("name") for w in workloads if isinstance(w, dict)] if isinstance(workloads, list) else []

    def repl(m: re.Match) -> str:
        i = int(m.group(1))
        if i < len(names) and isinstance(names[i], str) and INVISIBLE_CHAR.search(names[i]):
            return f"workloads.{i}"   # a name holding an invisible character (refused) would show as another
        return f"workloads.{names[i]}" if i < len(names) else m.group(0)
    return re.sub(r"workloads\[(\d+)\]", repl, problem)


def normalise_overrides(overrides: Mapping[str, Any] | None = None, **kwargs: Any) -> dict[str, Any]:
    """One dict of dotted path → value from a dict and keyword arguments (`__` stands for `.`); ScenarioError
    when a keyword argument names a path the dict gives too (one would silently replace the other)."""
    if overrides is not None and not isinstance(overrides, Mapping):
        raise ScenarioError([f"overrides: expected a mapping of dotted path → value, e.g. {{'horizon_months': 24}}; "
                             f"got {type(overrides).__name__}"], ORIGIN)
    out = dict(overrides or {})
    given_twice = [k for k in kwargs if k.replace("__", ".") in out]
    if given_twice:
        raise ScenarioError([f"{k.replace('__', '.')}: given both in overrides and as the keyword argument {k}; "
                             "give it once" for k in given_twice], ORIGIN)
    out.update({k.replace("__", "."): v for k, v in kwargs.items()})
    return out


def path_problems(scenario: Scenario, path: str, value: Any = None) -> list[str]:
    """The problems of a dotted path alone (unknown keys, unknown workloads, going into a value), without
    validating any value at it: [] when the path exists in the scenario's structure."""
    try:
        _set_path(scenario.model_dump(mode="json"), str(path), value)
    except ScenarioError as exc:
        return exc.problems
    return []


def apply_overrides(scenario: Scenario, overrides: Mapping[str, Any] | None = None, **kwargs: Any) -> Scenario:
    """A new Scenario with the dotted-path overrides applied, validated like a file.

    Raises ScenarioError listing the problems: unknown paths (with "did you mean"), and every value
    the scenario model or the catalog checks reject.
    """
    changes = normalise_overrides(overrides, **kwargs)
    if not changes:
        return scenario
    from_keywords = {key.replace("__", ".") for key in kwargs}
    data = defaults_left_out(scenario, scenario.model_dump(mode="json"))
    own_files = {value for _, value in _file_fields(data)}   # absolute once the scenario was loaded from a file
    problems: list[str] = []
    good: list[str] = []
    for path, value in changes.items():
        try:
            _set_path(data, str(path), _copied(str(path), value), keyword=path in from_keywords)
            good.append(str(path))
        except ScenarioError as exc:
            problems += exc.problems
    # the same field twice (`workloads.1.x` and `workloads.prototyping.x`): the last would win without a word
    problems += [f"{a} and {b} are the same field; give it once" if same else
                 f"{a} and {b}: {b} is a field of {a}; give one of them (the field alone, or the whole {a} with the "
                 "field in it)" for a, b, same in overlapping_paths(scenario, good)]
    folder = _working_folder()
    given_files = [(where, value) for where, value in _file_fields(data) if value not in own_files]
    try:
        # against the working folder: a file not found is then named by the path searched (`/home/u/weekly.csv`)
        changed = parse_scenario(data, origin=ORIGIN, base_dir=folder)
    except ScenarioError as exc:   # report bad paths and bad values together
        problems += [_index_to_name(p, data) for p in exc.problems]
    if problems:
        problems = _with_folder_said(problems, [value for _, value in given_files], folder)
        raise ScenarioError(list(dict.fromkeys(problems)), ORIGIN)
    changed = _files_made_absolute(changed, given_files, folder)
    # the files it keeps are named as its file wrote them, those the overrides give as given (fileio.files_as_written)
    changed._files_as_written = names_after_overrides(scenario, changed, _file_fields_set(scenario, good, changed))
    changed._file = loaded_from(scenario)   # a plan of the copy is made from that file too: its exports may not replace it
    return changed


def _file_fields_set(scenario: Scenario, paths: list[str], changed: Scenario) -> set[str]:
    """The fields of `changed` naming a file (loading.file_fields: `workloads.NAME.profile`, `prices.source`) that one
    of the override `paths` into `scenario` sets, alone or in a section holding it (`prices`, `workloads.NAME`),
    whatever path it gives: the scenario's own file given by its absolute path is named as given too."""
    names = [w.name for w in scenario.workloads]
    keys = [_field_keys(names, path) for path in paths]
    fields = {("prices", "source"): "prices.source",
              **{("workloads", w.name, "profile"): f"workloads.{w.name}.profile" for w in changed.workloads}}
    return {field for at, field in fields.items() if any(at[:len(k)] == k for k in keys)}


def _file_fields(data: dict) -> list[tuple[tuple, str]]:
    """(where, path) of each relative file path a scenario dump names: a workload's CSV `profile` (where:
    ("workloads", index)) and an offers CSV as `prices.source` (("prices",)). Built-in names, misspelt ones
    (`busines_hours`, no .csv: the parser says what is expected) and absolute paths are left out."""
    workloads = data.get("workloads")
    fields: list[tuple[tuple, Any]] = [(("workloads", i), w.get("profile")) for i, w in
                                       enumerate(workloads if isinstance(workloads, list) else ()) if isinstance(w, dict)]
    prices = data.get("prices")
    if isinstance(prices, dict) and isinstance(prices.get("source"), str) and prices["source"] not in PRICE_SOURCE_WORDS:
        fields.append((("prices",), prices.get("source")))
    return [(where, value) for where, value in fields
            if isinstance(value, str) and value.strip() and not Path(value).is_absolute()
            and (where[0] == "prices" or (value not in BUILTIN_PROFILES and value.endswith(".csv")))]


def _working_folder() -> Path | None:
    """The working folder, or None when it no longer exists (a relative path then names no file)."""
    try:
        return Path(os.getcwd())
    except OSError:
        return None


def _with_folder_said(problems: list[str], given: list[str], folder: Path | None) -> list[str]:
    """`problems`, each saying a file given as an override is missing followed by where relative paths in
    overrides are resolved: the user may have meant the scenario's folder."""
    if folder is None:
        return problems
    missing = {f"{why}: {shortened(str(folder / value))}" for value in given
               if (why := file_problem(folder / value)) is not None}
    note = (f" (a relative path given as an override is resolved against the working folder, {folder}; "
            f"only paths written in the scenario file are relative to its folder)")
    for m in missing:   # right after the path: at the end, or before a "did you mean"
        problems = [re.sub(re.escape(m) + "(?=;|$)", lambda found: found.group(0) + note, p, count=1) for p in problems]
    return problems


def _files_made_absolute(scenario: Scenario, given: list[tuple[tuple, str]], folder: Path | None) -> Scenario:
    """`scenario` with the relative file paths the overrides gave made absolute against `folder`."""
    if folder is None or not given:
        return scenario
    workloads = list(scenario.workloads)
    prices = scenario.prices
    for where, value in given:
        path = str((folder / value).resolve())
        if where[0] == "workloads":
            workloads[where[1]] = workloads[where[1]].model_copy(update={"profile": path})
        else:
            prices = prices.model_copy(update={"source": path})
    return scenario.model_copy(update={"workloads": tuple(workloads), "prices": prices})


def parse_value(text: str) -> Any:
    """A command-line value as YAML would read it: 0.2 → float, 3 → int, true → bool, [a, b] → list.
    Raises ScenarioError for a value over the limits of a scenario file (an alias bomb in `--vary`)."""
    if not text.strip():
        return text
    try:
        return read_yaml_value(text)
    except YamlRefused as exc:
        raise ScenarioError([f"{text[:40]!r}: {exc.what}"], "--vary") from None
    except PastedCharacter as exc:   # `[a,\u00a0b]` was the text '[a, b]', "expected a list"
        raise ScenarioError([f"{text[:40]!r}: column {exc.problem_mark.column + 1}: {exc.problem}"], "--vary") from None
    except yaml.YAMLError:
        return text


def split_values(text: str) -> list[str]:
    """Split `V1,V2,…` on commas outside brackets, braces and YAML quotes (so `[aws, azure],[aws]` is two
    values, and so is `"a,b",c`). A quote opens where a YAML scalar can start: at a value's start or after
    `[`, `{`, `,` or `:` (`it's` is plain text); `\"` inside double quotes and `''` inside single ones do not
    close them."""
    out, depth, cur, quote, escaped, closed = [], 0, "", None, False, False
    for ch in text:
        reopened = closed and ch == "'"   # '' inside single quotes: the quote closed by the first goes on
        closed = False
        if quote is not None:
            if escaped:
                escaped = False
            elif ch == "\\" and quote == '"':
                escaped = True
            elif ch == quote:
                quote, closed = None, ch == "'"
        elif reopened or (ch in "'\"" and (not cur.strip() or cur.rstrip()[-1] in "[{,:")):
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0 and quote is None:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    out.append(cur.strip())
    return out


# ---------------------------------------------------------------------------------------------------
# Flattened scenarios and compare


def _display(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return dump_yaml(list(value), default_flow_style=True, width=10_000).strip()
    return value


def scenario_leaves(scenario: Scenario) -> list[tuple[str, Any]]:
    """(path, value) of every assumption of `scenario`: the override path (workloads by name) and its JSON-mode value
    (a list as a list; unset optional fields None)."""
    rows: list[tuple[str, Any]] = []

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(f"{prefix}.{k}" if prefix else str(k), v)
        elif prefix == "workloads" and isinstance(value, list):
            for w in value:
                walk(f"workloads.{w['name']}", {k: v for k, v in w.items() if k != "name"})
        else:
            rows.append((prefix, value))
    walk("", scenario.model_dump(mode="json"))
    return rows


def flatten_scenario(scenario: Scenario) -> pd.DataFrame:
    """Every assumption as a row: `path` (the override path, workloads by name) and `value`
    (lists shown as YAML flow text, e.g. `[aws, azure]`; unset optional fields as None)."""
    rows = [(path, _display(value)) for path, value in scenario_leaves(scenario)]
    import pandas as pd  # here, not at import: loading and validating a scenario needs no pandas

    return pd.DataFrame(rows, columns=["path", "value"], dtype=object)


def _same(a: Any, b: Any) -> bool:
    """Equal as scenario values (JSON-mode dumps: numbers, strings, bools, None, list text)."""
    return a == b and isinstance(a, bool) == isinstance(b, bool)


def diff_inputs(a: Scenario, b: Scenario) -> pd.DataFrame:
    """The assumptions that differ: path, a, b (None where one side does not set it)."""
    fa = dict(flatten_scenario(a).itertuples(index=False))
    fb = dict(flatten_scenario(b).itertuples(index=False))
    paths = list(fa) + [p for p in fb if p not in fa]
    rows = [(p, fa.get(p), fb.get(p)) for p in paths if not _same(fa.get(p), fb.get(p))]
    import pandas as pd

    return pd.DataFrame(rows, columns=["path", "a", "b"], dtype=object)   # keep None, ints and text as given
