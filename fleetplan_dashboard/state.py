"""Which scenario the dashboard shows, the edits made to it with the widgets, uploads, plans, sharing.

The session holds:
- `scenario_id`: the id of the scenario being edited, `file:NAME` (an example scenario, `SCENARIO_DIR`) or
  `upload:NAME:HASH` (an uploaded file, its text kept in `uploads`);
- `edits`: the values of the Plan page's edit widgets (see `default_edits`), by edit name: those set since the
  scenario was opened, the others the file's;
- `links_known`: the URL queries this session wrote or opened, the last `LINKS_KEPT`: only a query not among them is a
  shared link to open (`link_is_known`), never the session's own older one that a browser sends while the newer is on
  its way.

The scenario and the edits are in keys no widget owns: the Plan page's widgets (`base`, the scenario picker;
`edit:NAME`, one per edit) show them and write a new value back (`keep_edit`), and the Compare and Export pages, which
draw no such widgets, read them. Streamlit drops the value of a widget its page did not draw; held in the widgets and
handed back to the session on every run, which a fragment's run (the Plan page's `run_every` timer) does not do, the
edits were lost by a visit to Export after one (Streamlit issue #10805).

Edits become dotted overrides (`workloads.NAME.gpu_hours_per_month` — or the workload's own demand field,
`requests_per_second` or `reference_gpus` —, `onprem.pue`, `onprem.cards`, a card's quote
`onprem.card_overrides.CARD.price` with the scenario's `currency` beside it …) applied by
`planner.scenario.apply_overrides`, the function the library and the CLI use, with its checks; only
the values that differ from the file are changed, so an untouched scenario is exactly the file's.
The same overrides are the URL's query (`share_params`), so a link reopens the same plan, and they can
be written into the scenario's own text, comments kept (`edited_text`).

Plans are cached in this process, pickled, keyed on the scenario's JSON and a stamp of its price source.
The recommended plan (`recommended`, what the page waits for) is usually found made: the plans of the
values the user will probably pick next are made in worker processes (`plan_ahead`: the slider's next
step at normal priority, the other guesses at a low one); otherwise it is made here. Its baselines are
solved in a third worker while the page draws (`baselines_future`), and once the page is drawn, what each
decision of the plan is worth in a fourth, at the lowest priority (`decisions_future`: some thirty re-solves,
seconds of work). Each worker takes one job at a time
from a list that the next page run replaces (`_Lane`), so work for values the user has left behind is
dropped, not queued. Worker processes, not threads: the engine's Python parts would hold the GIL.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import math
import multiprocessing
import os
import pickle
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, InvalidStateError, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from importlib.resources import files
from pathlib import Path
from typing import Any, get_args

import streamlit as st
import yaml

from fleetplan_dashboard.jobs import (
    Decisions,
    Outcome,
    baselines_job,
    decisions_job,
    end_worker,
    hide_store_path,
    pickled,
    prepared_job,
    recommended_job,
    worker_start,
)
from planner.catalog.gpus import board_gpus, card_rows, suggest
from planner.catalog.offers import quote_currency
from planner.catalog.prices import PRICE_SOURCE_WORDS, utc_today
from planner.engine.baselines import with_loose_bound_warnings
from planner.engine.decisions import DEMAND_FIELDS, LEFT_UNDONE, NOT_CHEAPEST, baseline_notes
from planner.engine.inputs import Inputs
from planner.engine.run import baseline_speeds
from planner.engine.solve import DEFAULT_SOLVER
from planner.errors import MAX_PROBLEMS_SHOWN, PlannerError, PriceStoreLocked, ScenarioError
from planner.fileio import file_stamp
from planner.reports.markdown import FILE_OWN, Edited
from planner.scenario import (
    BUILTIN_PROFILES,
    PurchaseOption,
    Scenario,
    YamlRefused,
    apply_overrides,
    diff_inputs,
    editor_lines,
    editor_place,
    load_scenario_text,
    path_keys,
    read_yaml_value,
)
from planner.scenario.loading import plausibility_warnings, text_places
from planner.scenario.model import CardOverride, OnPrem, defaults_left_out
from planner.scenario.yaml_core import dump_yaml
from planner.text import not_utf8, one_line, shortened
from pricing_adapters import registry
from pricing_adapters.signatures import binary_kind, not_the_file

# The example scenarios are package data, `fleetplan_dashboard/scenarios/`: in the repository a link to its
# top-level `scenarios/` folder, in an installed package a copy in site-packages (pyproject.toml).
SCENARIO_DIR = Path(str(files("fleetplan_dashboard") / "scenarios"))
DEFAULT_SCENARIO = "startup-hybrid.yaml"
# An upload's size: 1 MB, the least the upload widget can be told (`max_upload_size`, whole MB), which refuses a
# larger file in the browser with "File must be 1.0MB or smaller." — its MB is 10^6 bytes (2^20 on Windows, where a
# file in between is refused here) — so the label, the widget and this check say one limit; it was 256 KB here under a
# widget that said 1 MB. A scenario is a few KB; the YAML loader's node limit bounds the work a 1 MB file asks (about
# 2.5 s to refuse one of plain values: docs/reliability.md).
MAX_UPLOAD_BYTES = 1_000_000
UPLOAD_SUFFIXES = (".yaml", ".yml")
# Workloads an upload may have: each has two sliders, and every page run goes over them all (the slider that
# moved, the values planned ahead); the command line (`fleetplan plan FILE`) plans larger files.
MAX_UPLOAD_WORKLOADS = 50
# Custom cards an upload may quote (the catalog holds 17 cards): each adds integer purchases to every solve and a
# few re-solves to what each decision is worth; 60 alike with min/max units ran past 300 s and 1.2 GB (review,
# 2026-12-05). The command line plans larger files.
MAX_UPLOAD_CUSTOM_CARDS = 20
MAX_UPLOADS = 5          # uploads a session keeps (each up to MAX_UPLOAD_BYTES of text), the oldest dropped
SCENARIO_KEY = "scenario_id"   # the scenario on screen (its id)
EDITS_KEY = "edits"            # its edits: edit name -> value
BASE_WIDGET = "base"           # the Plan page's scenario picker
# An upload refused: (file name, problems), shown on the Plan page until the user acts on something else (forget_rejected)
REJECTED_UPLOAD = "upload_problems"
EDIT_PREFIX = "edit:"          # the Plan page's edit widgets, `edit:NAME`
LINKS_KEY = "links_known"
# The URL queries a session remembers as its own (`know_link`): the newest 100. A run carries the query the browser
# had when it asked for the run, older than the page's newest only by the queries the page wrote since the browser last
# heard from it: one per run, each run at least tens of milliseconds (the page's own drawing), so a handful within a
# browser's round trip, even with a key held down on a slider (its presses' runs merge while one runs). 100 leaves a
# wide margin and bounds what a long session keeps (every query it wrote, one per value a user gave) to 100 small
# sets of short strings.
LINKS_KEPT = 100
PROVIDERS: tuple[str, ...] = registry.cloud_providers()
PURCHASE_OPTIONS: tuple[str, ...] = get_args(PurchaseOption)
# The catalog's on-prem cards (onprem_cards.csv), in its order: what the card picker offers (onprem.cards)
CATALOG_CARDS: tuple[str, ...] = tuple(card_rows())
PRICE_PREFIX = "price:"   # the edit of a card's price override, `price:CARD` (onprem.card_overrides.CARD.price)


# ---------------------------------------------------------------------------------------------------
# Scenario sources: files in scenarios/ and uploads


def scenario_files() -> list[str]:
    """Names of the scenario files in `scenarios/`, sorted."""
    return sorted(p.name for p in SCENARIO_DIR.glob("*.y*ml") if p.suffix in (".yaml", ".yml"))


def default_base_id() -> str:
    files = scenario_files()
    name = DEFAULT_SCENARIO if DEFAULT_SCENARIO in files else (files[0] if files else DEFAULT_SCENARIO)
    return f"file:{name}"


def base_label(base_id: str) -> str:
    kind, _, rest = base_id.partition(":")
    if kind == "upload":
        return f"{rest.rsplit(':', 1)[0]} (uploaded)"
    return rest


def upload_id(name: str, text: str) -> str:
    return f"upload:{name}:{hashlib.sha256(text.encode()).hexdigest()[:8]}"


@st.cache_data(show_spinner=False, max_entries=64)
def _load_text(text: str, origin: str, base_dir: str | None) -> tuple[Scenario | None, tuple[str, ...]]:
    try:
        return load_scenario_text(text, origin=origin, base_dir=Path(base_dir) if base_dir else None), ()
    except ScenarioError as exc:   # the first MAX_PROBLEMS_SHOWN, as the error's message shows them
        shown = exc.problems[:MAX_PROBLEMS_SHOWN]
        more = len(exc.problems) - len(shown)
        return None, tuple(shown + ([f"… and {more:,} more"] if more else []))


def load_file(name: str) -> tuple[Scenario | None, tuple[str, ...]]:
    """A scenario file of `scenarios/` (validated; cached until the file changes)."""
    path = SCENARIO_DIR / name
    try:
        data = path.read_bytes()
        if found := binary_kind(data, whole=True):   # as the command line says it (loading._read_scenario_text)
            return None, (not_the_file(f"scenarios/{name}", found, "a scenario YAML file"),)
        text = data.decode("utf-8")
    except OSError as exc:
        return None, (f"scenarios/{name}: cannot read: {exc.strerror or exc}",)
    except UnicodeDecodeError as exc:
        return None, (f"scenarios/{name}:{not_utf8(exc)}",)
    return _load_text(text, f"scenarios/{name}", str(SCENARIO_DIR))


def _line_of(text: str, key: str, value: str) -> int:
    """1-based line of `key: value` in YAML text (the first match), else 1."""
    pattern = re.compile(rf"\b{re.escape(key)}\s*:\s*['\"]?{re.escape(value)}")
    for i, line in enumerate(editor_lines(text), 1):
        if pattern.search(line):
            return i
    return 1


def read_upload(name: str, data: bytes) -> tuple[Scenario | None, list[str], str]:
    """Validate an uploaded scenario file: (scenario or None, problems, text).

    Read as text with YAML's safe loader only (nothing in it is executed), at most `MAX_UPLOAD_BYTES`, from a file
    named .yaml or .yml (checked here, not by the upload widget, which would refuse another in the browser and leave
    the page saying why the file before it was not loaded). Problems are `name:line:col: field.path: message` lines,
    all of them at once. An upload cannot carry the files a scenario may point to, so a profile or price source
    naming a file is refused before validation, which would look the file up on this server and say whether it
    exists.
    """
    # a workbook, a PDF, the price store or a compressed copy renamed .yaml: said by what it is, as the command line
    # says it (loading._read_scenario_text), where "not UTF-8 text (byte 0x8b)" sent the user to their editor's encoding;
    # an image or a workbook under its own name too ("chart.png: is a PNG image, not a scenario YAML file"), before its
    # name is looked at
    if found := binary_kind(data, whole=True):
        return None, [not_the_file(name, found, "a scenario YAML file")], ""
    if not name.lower().endswith(UPLOAD_SUFFIXES):
        return None, [f"{name}: not a scenario file: expected a YAML file named .yaml or .yml"], ""
    if len(data) > MAX_UPLOAD_BYTES:
        return None, [f"{name}: file is {len(data):,} bytes; the limit is {upload_limit_text()} "
                      f"({MAX_UPLOAD_BYTES:,} bytes)"], ""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return None, [f"{name}:{not_utf8(exc)}"], ""
    if not text.strip():
        return None, [f"{name}:1:1: the file is empty"], text
    refused = refuse_files(name, text)
    if refused:
        return None, refused, text
    scenario, problems = _load_text(text, name, None)
    return scenario, list(problems), text


def placed(name: str, problems: list[str]) -> bool:
    """Whether any of an upload's `problems` is placed at a line of the file `name` (`name:line:column: …`): else they
    are about the file as a whole (not YAML text, too large), which has no lines to fix."""
    at_line = re.compile(rf"{re.escape(name)}:\d+:\d+: ")
    return any(at_line.match(p) for p in problems)


def upload_limit_text() -> str:
    """The upload size limit as the upload widget says it: "1 MB" (its MB: 10^6 bytes)."""
    return f"{MAX_UPLOAD_BYTES / 1e6:g} MB"


def refuse_files(name: str, text: str) -> list[str]:
    """Why the raw YAML `text` may not be validated on this server: its syntax error (the validator
    would blank the line and go on, checking the rest), more workloads or custom cards than the dashboard
    takes, or each profile and `prices.source` that names a file rather than a built-in. The messages never
    depend on the file system."""
    try:
        data = read_yaml_value(text)      # the scenario loader's limits: no alias bomb, no deep nesting
    except YamlRefused as exc:
        return [f"{name}:{editor_place(text, exc.mark)}: {exc.what}"]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        return [f"{name}:{editor_place(text, mark)}: YAML syntax: {getattr(exc, 'problem', None) or exc}"]
    if not isinstance(data, dict):
        return []
    refused = []
    workloads = data.get("workloads")
    if isinstance(workloads, list) and len(workloads) > MAX_UPLOAD_WORKLOADS:
        line = next((i for i, t in enumerate(editor_lines(text), 1) if t.startswith("workloads")), 1)
        return [f"{name}:{line}:1: workloads: {len(workloads):,} workloads; the dashboard takes at most "
                f"{MAX_UPLOAD_WORKLOADS} (two sliders each) — plan a larger file with the command line: "
                f"fleetplan plan {name}"]
    custom = data["onprem"].get("custom_cards") if isinstance(data.get("onprem"), dict) else None
    if isinstance(custom, dict) and len(custom) > MAX_UPLOAD_CUSTOM_CARDS:
        line = next((i for i, t in enumerate(editor_lines(text), 1) if t.lstrip().startswith("custom_cards")), 1)
        return [f"{name}:{line}:1: onprem.custom_cards: {len(custom):,} cards; the dashboard takes at most "
                f"{MAX_UPLOAD_CUSTOM_CARDS} — plan a larger file with the command line: fleetplan plan {name}"]
    for i, w in enumerate(workloads if isinstance(workloads, list) else ()):
        profile = w.get("profile") if isinstance(w, dict) else None
        if isinstance(profile, str) and profile not in BUILTIN_PROFILES:
            refused.append(f"{name}:{_line_of(text, 'profile', profile)}:1: workloads[{i}].profile: an uploaded "
                           f"scenario can use only the built-in profiles ({', '.join(BUILTIN_PROFILES)}), "
                           f"not a file ({profile!r})")
    source = data["prices"].get("source") if isinstance(data.get("prices"), dict) else None
    if isinstance(source, str) and source not in PRICE_SOURCE_WORDS:
        refused.append(f"{name}:{_line_of(text, 'source', source)}:1: prices.source: an uploaded scenario can "
                       f"use snapshot or store, not a file ({source!r})")
    return refused


def keep_upload(uploads: dict[str, str], base_id: str, text: str) -> None:
    """Keep an upload's text in the session's `uploads` (base id -> text) as the newest one, dropping the
    oldest beyond `MAX_UPLOADS`."""
    uploads.pop(base_id, None)
    uploads[base_id] = text
    while len(uploads) > MAX_UPLOADS:
        del uploads[next(iter(uploads))]


def load_base(base_id: str, uploads: dict[str, str] | None = None) -> tuple[Scenario | None, tuple[str, ...]]:
    """The scenario behind a base id (a file or an upload kept in the session)."""
    kind, _, rest = base_id.partition(":")
    if kind == "file":
        return load_file(rest)
    text = (uploads or {}).get(base_id)
    if text is None:
        return None, (f"{base_label(base_id)}: the upload is no longer in this session; upload it again",)
    return _load_text(text, rest.rsplit(":", 1)[0], None)


def implausible_values(scenario: Scenario, base: Scenario, text: str | None, origin: str) -> list[str]:
    """The values of `scenario` that look mistaken (typed in another unit, no demand at all:
    `plausibility_warnings`), one line each as `fleetplan validate` prints them: `origin:line:column: field:
    message` for a value the file holds (its warning is `base`'s too), placed in the file's `text`; `origin
    (edited): field: message` for one an edit made; `origin: field: message` when the file does not hold the
    field (a default) or its text is gone."""
    found = plausibility_warnings(scenario)
    if not found:
        return []
    in_file = {message for _, message in plausibility_warnings(base)}
    # placed as validate places them (scenario.loading.text_places): the text loaded, so it parses
    places = text_places(text, origin, [field for field, _ in found]) if text is not None else [origin] * len(found)
    return [f"{place}: {message}" if message in in_file else f"{origin} (edited): {message}"
            for place, (_, message) in zip(places, found)]


# ---------------------------------------------------------------------------------------------------
# Edits made with the Plan page's widgets


def default_edits(s: Scenario) -> dict[str, Any]:
    """The widget values that reproduce `s` exactly. Growth in % per month; money in s.currency."""
    values: dict[str, Any] = {
        "horizon_months": int(s.horizon_months),
        "electricity_per_kwh": float(s.onprem.electricity_per_kwh),
        "pue": float(s.onprem.pue),
        "capex_budget": None if s.onprem.capex_budget is None else float(s.onprem.capex_budget),
        "power_cap_kw": None if s.onprem.power_cap_kw is None else float(s.onprem.power_cap_kw),
        "providers": list(s.prices.providers),
        "purchase_options": list(s.prices.purchase_options),
        "cards": list(s.onprem.cards),
    }
    for card in CATALOG_CARDS:   # a quote typed in: the file's override price, else none (the catalog's price)
        override = s.onprem.card_overrides.get(card)
        values[PRICE_PREFIX + card] = None if override is None or override.price is None else float(override.price)
    for w in s.workloads:
        values[f"demand:{w.name}"] = w.demand_amount      # in the unit of its demand field
        values[f"growth:{w.name}"] = float(w.growth_per_month) * 100
    return values


def _ordered(values, universe: tuple[str, ...]) -> list[str]:
    chosen = set(values)
    return [v for v in universe if v in chosen]


def card_choices(s: Scenario) -> list[str]:
    """The cards the picker offers: the catalog's, and any card the file lists that the catalog lacks."""
    return [*CATALOG_CARDS, *(c for c in s.onprem.cards if c not in CATALOG_CARDS)]


def _cards_chosen(s: Scenario, chosen) -> list[str]:
    """The cards picked, as a file would list them: the file's own in its order, then the others in the catalog's."""
    picked = set(chosen)
    return [c for c in s.onprem.cards if c in picked] + [c for c in CATALOG_CARDS if c in picked and c not in s.onprem.cards]


def catalog_price(card: str) -> tuple[float, str, str] | None:
    """(price, currency, as_of — '' when undated) of catalog card `card` as onprem_cards.csv sources it; None when it
    has no sourced price (or host share), which a plan cannot buy without a quote (offers.unpriced_card_rows)."""
    row = card_rows().get(card)
    if row is None or not row["price"].strip() or not row["host_cost_per_card"].strip():
        return None
    return float(row["price"]), row["currency"], row["as_of"].strip()


def price_currency(s: Scenario, card: str) -> str:
    """The currency of the price override of `card`: the file's override's own (its `currency`, or the catalog's for an
    override giving an amount without one: offers.quote_currency), so the figures it already gives keep their meaning;
    else the scenario's, which the download then writes as the override's `currency`."""
    override = s.onprem.card_overrides.get(card)
    if override is not None and override.currency:
        return override.currency
    return quote_currency(s, card) or s.currency


def _price_needs_currency(s: Scenario, card: str) -> bool:
    """Whether a price typed for `card` needs `currency:` written beside it: the file's override says none and gives
    no amount in the catalog's (price_currency is then the scenario's, which the engine would not assume)."""
    override = s.onprem.card_overrides.get(card)
    return not (override is not None and override.currency) and quote_currency(s, card) is None


# widget -> (dotted override path, widget value -> scenario value)
_SCALAR_EDITS = {
    "horizon_months": ("horizon_months", int),
    "electricity_per_kwh": ("onprem.electricity_per_kwh", float),
    "pue": ("onprem.pue", float),
    "capex_budget": ("onprem.capex_budget", lambda v: v),
    "power_cap_kw": ("onprem.power_cap_kw", lambda v: v),
    "providers": ("prices.providers", lambda v: _ordered(v, PROVIDERS)),
    "purchase_options": ("prices.purchase_options", lambda v: _ordered(v, PURCHASE_OPTIONS)),
}


def edits_to_overrides(s: Scenario, values: dict[str, Any]) -> dict[str, Any]:
    """The dotted overrides of the widget values that differ from `s` (growth: % per month → share)."""
    defaults = default_edits(s)
    paths = edit_paths(s)
    overrides: dict[str, Any] = {}
    cards = values.get("cards", defaults["cards"])
    for key, value in values.items():
        if key not in defaults or value == defaults[key]:
            continue
        kind, _, name = key.partition(":")
        if key == "cards":
            if set(value) != set(defaults[key]):   # the same cards picked in another order are the file's
                overrides[paths[key]] = _cards_chosen(s, value)
        elif kind + ":" == PRICE_PREFIX:
            if name not in cards:   # a quote for a card not picked: its box is not shown, so it sets nothing
                continue
            overrides[paths[key]] = None if value is None else float(value)
            if value is not None and _price_needs_currency(s, name):
                overrides[f"onprem.card_overrides.{name}.currency"] = s.currency
        elif kind == "demand":
            overrides[paths[key]] = float(value)
        elif kind == "growth":
            overrides[paths[key]] = float(value) / 100
        else:
            path, convert = _SCALAR_EDITS[key]
            overrides[path] = convert(value)
    return overrides


def _amount(x: float) -> str:
    """A quote as typed in the box: 1,234.5, 700 (its cents left out when there are none)."""
    said = f"{x:,.2f}"
    return said.removesuffix(".00")


def refused_quote(s: Scenario, card: str, price: float | None) -> str | None:
    """What is wrong with `price`, typed as the quote for `card` in `s`, or None: a price below 0 or above the model's
    bound, which the scenario loader refuses in a file (CardOverride.price: 0 to MAX_MONEY) and the plan does not take
    (above the bound only the loader's words showed, in the main area). A quote of 0 is taken, with the loader's
    warning (the plan takes such cards as free), as a file's is."""
    most = _bound(CardOverride, "price")
    if price is None or 0 <= price <= most:
        return None
    currency, board = price_currency(s, card), board_gpus(card)
    one = "one card" if board <= 1 else f"one GPU ({card} is sold as {board}-GPU boards)"
    empty = "the catalog's price" if catalog_price(card) else "none: the card is not bought"
    if price > 0:
        return (f"onprem.card_overrides.{card}.price: your quote for {card} is {_amount(price)} {currency}, above "
                f"{_amount(most)}, the most a scenario takes; expected the price of {one} in {currency}, 0 to "
                f"{_amount(most)}. (An empty box: {empty}.)")
    return (f"onprem.card_overrides.{card}.price: your quote for {card} is {_amount(price)} {currency}; expected the "
            f"price of {one} in {currency}, 0 or more — did you mean {_amount(-price)}? (An empty box: {empty}.)")


def _bound(model: type, name: str) -> float:
    """The largest figure the scenario model `model` takes in its field `name`: the field's `le`."""
    return next(m.le for m in model.model_fields[name].metadata if getattr(m, "le", None) is not None)


def cap_bound(name: str) -> float:
    """The scenario model's largest figure for the cap `name` ("capex_budget", "power_cap_kw")."""
    return _bound(OnPrem, name)


def refused_cap(s: Scenario, name: str, value: float | None) -> str | None:
    """What is wrong with `value`, typed in the cap box `name` ("capex_budget", "power_cap_kw") of `s`, or None: a
    figure below 0 or above the scenario model's bound (cap_bound), which the scenario loader refuses in a file. With a
    min_value the browser kept it in the box under its own range error and sent nothing, the plan made with the cap
    before (as a negative quote did: an audit); above the bound only the loader's words showed, in the main area."""
    if value is None or 0 <= value <= cap_bound(name):
        return None
    field, unit = {"capex_budget": ("onprem.capex_budget", f"{s.currency} of new hardware as paid"),
                   "power_cap_kw": ("onprem.power_cap_kw", "kW of installed IT power")}[name]
    if value > 0:
        return (f"{field}: {_amount(value)} is above {_amount(cap_bound(name))}, the most a scenario takes; expected "
                f"{unit}, 0 to {_amount(cap_bound(name))}. (An empty box: no cap.)")
    # no "did you mean" the figure without its sign: a cap of 5 for a typed -5 is no fix (an audit); a cap is the user's
    return f"{field}: {_amount(value)} is below 0; expected {unit}, 0 or more. (An empty box: no cap.)"


def refused_caps(s: Scenario, values: dict[str, Any]) -> list[str]:
    """refused_cap of each cap box in `values`."""
    return [said for name in _OPTIONAL_EDITS if (said := refused_cap(s, name, values.get(name))) is not None]


def refused_quotes(s: Scenario, values: dict[str, Any]) -> list[str]:
    """refused_quote of each card picked in `values` (a quote for a card not picked sets nothing: edits_to_overrides)."""
    cards = values.get("cards", list(s.onprem.cards))
    return [said for card in cards if (said := refused_quote(s, card, values.get(PRICE_PREFIX + card))) is not None]


def apply_edits(s: Scenario, values: dict[str, Any]) -> Scenario:
    """`s` with the widget values that differ from the file's applied (through `apply_overrides`);
    raises ScenarioError when the result is not a valid scenario, in the page's words for a quote or a cap below 0
    (refused_quotes, refused_caps) rather than the loader's."""
    refused = refused_caps(s, values) + refused_quotes(s, values)
    if refused:
        raise ScenarioError(refused, origin="your edits")
    overrides = edits_to_overrides(s, values)
    return apply_overrides(s, overrides) if overrides else s


def edit_key(name: str) -> str:
    """The key of the widget of edit `name`."""
    return EDIT_PREFIX + name


def base_id() -> str:
    """The id of the scenario on screen (the default file's before one is opened)."""
    return st.session_state.get(SCENARIO_KEY) or default_base_id()


def forget_rejected() -> None:
    """No more message about an upload refused before: the user acted on something else (another scenario opened, an
    edit made or reset). Kept while nothing changed, so it can be read: an audit found it on screen after the user had
    fixed things in the sidebar, about a file no longer relevant."""
    st.session_state.pop(REJECTED_UPLOAD, None)


def open_base(new_id: str, values: dict[str, Any] | None = None) -> None:
    """Show scenario `new_id` with `values` edited (by edit name; none: the file's values)."""
    st.session_state[SCENARIO_KEY] = new_id
    st.session_state[EDITS_KEY] = dict(values or {})
    st.session_state.pop(DROPPED_EDITS, None)
    forget_rejected()


def clear_edits() -> None:
    """The file's values for every edit (the Reset button's on_click): the user's own act on this scenario, so the
    edits dropped before it opened are no longer said (`moved_on`)."""
    st.session_state[EDITS_KEY] = {}
    moved_on()


def moved_on() -> None:
    """The user acted on the scenario on screen (an edit made or reset): no more notice of the edits dropped when it
    was opened (DROPPED_EDITS), nor of an upload refused before (forget_rejected). The notice stayed on screen until
    another scenario was opened (an audit), above a scenario edited since, its way back leading away from these edits."""
    st.session_state.pop(DROPPED_EDITS, None)
    forget_rejected()


def keep_edit(name: str) -> None:
    """The value of edit `name`'s widget, just changed, made the edit's (its on_change); nothing where the widget's key
    holds no value (a widget Streamlit dropped). Noted for `undo_default_flood`."""
    key = edit_key(name)
    if key not in st.session_state:
        return
    _note_change(key)   # before moved_on: a flood of defaults taken back brings the notice back (undo_default_flood)
    st.session_state[EDITS_KEY] = {**st.session_state.get(EDITS_KEY, {}), name: st.session_state[key]}
    moved_on()


def pick_base() -> None:
    """The scenario picker's on_change: the scenario picked opened with the file's values, where it is another than the
    one open (a picker that says the open one again changes nothing: its edits are kept), the edits of the one left
    noted (`open_instead`). Noted for `undo_default_flood`."""
    picked = st.session_state.get(BASE_WIDGET)
    if picked is None or picked == base_id():
        return
    _note_change(BASE_WIDGET)
    open_instead(picked)


# The edits a scenario had when the user opened another in its place (the picker, an upload): (its id, its edits, how
# many). Each scenario opens with its file's values, so picking another dropped the edits without a word (an audit, in
# a real browser); the Plan page now says so, with a button back to the scenario left and its edits (`back_to_dropped`).
# Kept until the user moves on: another scenario opened, or the one opened edited or reset (`moved_on`).
DROPPED_EDITS = "dropped_edits"


def edits_count(s: Scenario, values: dict[str, Any]) -> int:
    """How many of the Plan page's inputs `values` set away from the file `s` (a quote and the currency written beside
    it are one)."""
    return sum(1 for path in edits_to_overrides(s, values) if not _QUOTE_CURRENCY.fullmatch(path))


def open_instead(new_id: str) -> None:
    """Scenario `new_id` opened, with its file's values, in place of the one on screen; the edits of the one left noted
    (DROPPED_EDITS) where it had any."""
    left_id, edits = base_id(), dict(st.session_state.get(EDITS_KEY) or {})
    count = 0
    if edits and new_id != left_id:
        left, _ = load_base(left_id, st.session_state.get("uploads"))
        count = edits_count(left, current_values(left)) if left is not None else 0
    open_base(new_id)
    if count:
        st.session_state[DROPPED_EDITS] = (left_id, edits, count)


def dropped_edits() -> tuple[str, dict[str, Any], int] | None:
    """(the scenario left, its edits, how many) where the last scenario opened in its place dropped edits and it can
    still be opened (an upload the session no longer keeps cannot), else None."""
    dropped = st.session_state.get(DROPPED_EDITS)
    return dropped if dropped is not None and dropped[0] in base_options() else None


def back_to_dropped() -> None:
    """The scenario whose edits were dropped opened again with them (the Plan page's button's on_click); the edits of the
    one left in turn noted, so the way back is a way back too."""
    dropped = st.session_state.get(DROPPED_EDITS)
    if dropped is None:
        return
    open_instead(dropped[0])
    st.session_state[EDITS_KEY] = dict(dropped[1])


def base_options() -> list[str]:
    """The scenario picker's options: the example files, then the uploads of this session."""
    return [f"file:{n}" for n in scenario_files()] + list(st.session_state.get("uploads") or {})


# Why the Plan page's callbacks are checked (an audit, in a real browser): a number typed in a sidebar box, then a click
# on another page in the menu before Enter, starts two runs at once (the box's, the page switch's); the browser was left
# showing the Plan page with widgets that had lost their values, and the next run it sent (the `run_every` fragment's,
# some seconds later) reported each widget at Streamlit's default: the picker at its first option (entry.yaml), each
# slider at its minimum, each list empty, each box empty. Each on_change took its value as the user's: another scenario
# with every input at its minimum, in the page and the URL. A user changes one widget per run; a run in which two or
# more widgets changed, each to its widget's default, is that loss: `undo_default_flood` puts back what was before.
CHANGES_KEY = "widget_changes"   # this run's callbacks: the scenario and edits before the first, the widget keys changed


def _note_change(key: str) -> None:
    log = st.session_state.get(CHANGES_KEY)
    if log is None:
        log = {"before": (st.session_state.get(SCENARIO_KEY), dict(st.session_state.get(EDITS_KEY, {}))), "keys": [],
               "dropped": st.session_state.get(DROPPED_EDITS)}
        st.session_state[CHANGES_KEY] = log
    log["keys"].append(key)


def widget_defaults(s: Scenario | None) -> dict[str, Any]:
    """By widget key, the value Streamlit gives each Plan page widget of `s` where the browser holds none of its own:
    the picker's first option, a slider's minimum, an empty list or box."""
    options = base_options()
    defaults: dict[str, Any] = {BASE_WIDGET: options[0]} if options else {}
    if s is None:
        return defaults
    lows = {spec.name: spec.low for spec in slider_specs(s)}
    for name, value in default_edits(s).items():
        defaults[edit_key(name)] = lows.get(name, [] if isinstance(value, list) else None)
    return defaults


def undo_default_flood() -> bool:
    """Before each page run (the callbacks have run): where the callbacks of this run changed two widgets or more, each
    to its widget's default (see CHANGES_KEY), the scenario and edits as before them; True then. The widgets are set
    back to them by the Plan page's next run (show_base_in_picker, show_edits_in_widgets)."""
    log = st.session_state.get(CHANGES_KEY)
    if log is None:
        return False
    del st.session_state[CHANGES_KEY]
    keys = set(log["keys"])
    if len(keys) < 2:
        return False
    before_id, before_edits = log["before"]
    base, _ = load_base(before_id or default_base_id(), st.session_state.get("uploads"))
    defaults = widget_defaults(base)
    if not all(key in defaults and st.session_state.get(key, _NONE) == defaults[key] for key in keys):
        return False
    if before_id is None:
        st.session_state.pop(SCENARIO_KEY, None)
    else:
        st.session_state[SCENARIO_KEY] = before_id
    st.session_state[EDITS_KEY] = before_edits
    # the picker's change noted the edits it dropped: none were (open_instead)
    if log.get("dropped") is None:
        st.session_state.pop(DROPPED_EDITS, None)
    else:
        st.session_state[DROPPED_EDITS] = log["dropped"]
    return True


def current_values(s: Scenario) -> dict[str, Any]:
    """The value of every edit of `s`: the one set, else the file's."""
    kept = st.session_state.get(EDITS_KEY, {})
    return {name: kept.get(name, default) for name, default in default_edits(s).items()}


_NONE = object()


def show_base_in_picker() -> None:
    """The scenario picker set to the scenario on screen, where it shows another or none (a page that drew no picker
    left none: Streamlit dropped its value)."""
    if st.session_state.get(BASE_WIDGET, _NONE) != base_id():
        st.session_state[BASE_WIDGET] = base_id()


def show_edits_in_widgets(s: Scenario) -> None:
    """Each edit widget of `s` set to its edit's value where it shows another or none. Only there: a value set so is
    sent to the browser, and sent on every run it would move a slider's thumb back under a user still stepping it."""
    for name, value in current_values(s).items():
        if st.session_state.get(edit_key(name), _NONE) != value:
            st.session_state[edit_key(name)] = value


@dataclass
class Current:
    """The scenario on screen: the base (file or upload) and the base with the widget edits."""

    base_id: str
    base: Scenario | None
    edited: Scenario | None
    problems: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return base_label(self.base_id)


def current() -> Current:
    """The current base and edited scenario, from the session (usable on every page); why the edits make no valid
    scenario in the sidebar's words (in_widget_words)."""
    shown_id = base_id()
    base, problems = load_base(shown_id, st.session_state.get("uploads"))
    if base is None:
        return Current(shown_id, None, None, list(problems))
    try:
        edited = apply_edits(base, current_values(base))
    except ScenarioError as exc:
        return Current(shown_id, base, None, [in_widget_words(base, p) for p in exc.problems])
    return Current(shown_id, base, edited)


def in_widget_words(s: Scenario, problem: str) -> str:
    """A problem the sliders' edits of `s` make (`workloads.pretraining.growth_per_month: demand … grows above …;
    lower growth_per_month or horizon_months`), as the sidebar names its sliders: the field it is about by its slider's
    label, the field's path in brackets, and the fields it asks to change by their sliders' labels (“pretraining:
    growth, % per month”, “Horizon, months”), its formula's growth in percent as the slider holds it. Others as they
    are: a quote's or a cap's are in the page's words already (refused_quote, refused_cap)."""
    by_path = {path: name for name, path in edit_paths(s).items()}
    path, sep, rest = problem.partition(": ")
    name = by_path.get(path)
    if not sep or name not in {spec.name for spec in slider_specs(s)}:
        return problem
    words = {"horizon_months": edit_words(s, "horizon_months")}
    kind, _, workload = name.partition(":")
    if kind in ("demand", "growth"):
        words["growth_per_month"] = edit_words(s, f"growth:{workload}")
    for field_name, label in words.items():   # the bare field, not within a path (workloads.x.growth_per_month)
        rest = re.sub(rf"(?<![.\w]){field_name}\b", f"“{label}”", rest)
    if kind in ("demand", "growth"):   # the growth in its slider's unit: "(1 + 10 %)^104", not a share "(1 + 0.1)"
        rest = _GROWTH_FACTOR.sub(lambda found: f"(1 + {float(found[1]) * 100:g} %)^", rest)
    return f"“{edit_words(s, name)}” [{path}]: {rest}"


# the monthly growth factor of a grown demand's formula (scenario.model.grown_demand_problem: "× (1 + 0.1)^104")
_GROWTH_FACTOR = re.compile(r"\(1 \+ (-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)\)\^")


# ---------------------------------------------------------------------------------------------------
# The Plan page's sliders: their ranges and steps, and the values one step away (planned ahead)


@dataclass(frozen=True)
class SliderSpec:
    name: str            # the edit's name (`demand:WORKLOAD`, `horizon_months` …)
    low: float
    high: float
    step: float


def _nice(x: float) -> float:
    """The smallest 1-2-5 × 10^k at or above x."""
    if x <= 0:
        return 1.0
    base = 10 ** math.floor(math.log10(x))
    return float(next(m * base for m in (1, 2, 5, 10) if m * base >= x - 1e-12))


# the unit of each demand field (Workload.demand_field), as the engine names it; the least top of its slider
DEMAND_UNITS = DEMAND_FIELDS
_DEMAND_SLIDER_TOP = {"gpu_hours_per_month": 100.0, "requests_per_second": 10.0, "reference_gpus": 1.0}


def slider_specs(s: Scenario) -> list[SliderSpec]:
    """The Plan page's sliders for scenario `s` (the file's values set the ranges; demand in the unit of the
    workload's demand field)."""
    specs = []
    for w in s.workloads:
        high = _nice(max(4 * w.demand_amount, _DEMAND_SLIDER_TOP[w.demand_field]))
        specs.append(SliderSpec(f"demand:{w.name}", 0.0, high, _nice(high / 400)))
        g = w.growth_per_month * 100
        specs.append(SliderSpec(f"growth:{w.name}", min(-5.0, math.floor(g)), max(10.0, math.ceil(g)), 0.5))
    specs.append(SliderSpec("horizon_months", 1, 120, 1))
    specs.append(SliderSpec("electricity_per_kwh", 0.0, max(1.0, s.onprem.electricity_per_kwh), 0.01))
    specs.append(SliderSpec("pue", 1.0, 3.0, 0.01))   # 0.01: the default 1.58 (and any file's two decimals) on the grid
    return specs


def moved(before: dict[str, Any] | None, after: dict[str, Any]) -> tuple[str, int] | None:
    """(edit name, +1 or −1) of the one slider value that changed between two runs, else None."""
    if not before:
        return None
    changed = [k for k, v in after.items() if k in before and before[k] != v]
    if len(changed) != 1 or not isinstance(after[changed[0]], (int, float)) or before[changed[0]] is None:
        return None
    name = changed[0]
    return name, (1 if after[name] > before[name] else -1)


# Values planned ahead per page run, at most: the slider just moved and a few neighbours, whatever the number
# of sliders (each is a copy of the widget values, then a scenario validated and planned in the background).
MAX_AHEAD = 24


def next_values(s: Scenario, values: dict[str, Any], last: tuple[str, int] | None, ahead: int = 3,
                limit: int = MAX_AHEAD) -> list[dict]:
    """Widget values the user will probably ask for next, at most `limit`: the slider just moved, `ahead`
    steps further the same way, then one step either way of the sliders in turn. Plans of these are made in
    the background."""
    specs = {spec.name: spec for spec in slider_specs(s)}

    def step(name: str, k: int) -> tuple[str, int | float] | None:
        spec, v = specs[name], values.get(name)
        if v is None:
            return None
        x = round(v + k * spec.step, 10)
        if not spec.low - 1e-9 <= x <= spec.high + 1e-9:
            return None
        return name, int(x) if isinstance(v, int) else float(x)

    def candidates():
        if last and last[0] in specs:
            yield from (step(last[0], k * last[1]) for k in range(1, ahead + 1))
        # the main sliders (horizon, electricity, demand) first, then growth and PUE
        main = ["horizon_months", "electricity_per_kwh"] + [n for n in specs if n.startswith("demand:")]
        minor = [n for n in specs if n.startswith("growth:")] + ["pue"]
        for name in main + minor:
            yield step(name, 1)
            yield step(name, -1)

    wanted: list[tuple[str, int | float]] = []
    for change in candidates():
        if change is not None and change not in wanted:
            wanted.append(change)
            if len(wanted) >= limit:
                break
    return [{**values, name: x} for name, x in wanted]   # copies of the widget values: `limit` at most


# ---------------------------------------------------------------------------------------------------
# Plans: the recommended plan at once (in this process, unless a worker has it made or under way), then
# its baselines and the plans of likely next values in worker processes, all cached per scenario JSON and
# price stamp


def prices_stamp(source: str) -> str:
    """Changes when the price data behind `source` changes (the packaged snapshot, the store, a CSV)."""
    if source == "snapshot":
        folder = files("pricing_adapters") / "snapshots"
        paths = [Path(str(folder / n)) for n in ("manifest.json", "aws.csv", "azure.csv")]
    elif source == "store":
        from planner.catalog import resolve_store

        paths = [resolve_store()]
    else:
        paths = [Path(source)]
    parts = [source]
    for p in paths:
        stamp = file_stamp(p)
        parts.append(f"{p}:missing" if stamp is None else f"{p}:{':'.join(map(str, stamp))}")
    return "|".join(parts)


# Worker processes, not threads: the engine's Python parts would hold the GIL that the page needs.
# FLEETPLAN_DASHBOARD_WORKERS=0 plans everything in the server's process (no baselines ahead of time,
# nothing planned ahead).
WORKERS = os.environ.get("FLEETPLAN_DASHBOARD_WORKERS", "1") != "0"
_MAX_PLANS = 512
_lock = threading.RLock()
# (kind, scenario JSON, price stamp, solver) -> Future of the pickled Outcome or baselines (`jobs.pickled`)
_plans: OrderedDict[tuple, Future] = OrderedDict()
_plan_seconds: dict[str, float] = {}   # scenario name -> seconds a recommended plan of it took lately


def profiles_stamp(scenario: Scenario) -> str:
    """Changes when a workload's profile CSV changes: the scenario names it by path only."""
    return "|".join(f"{w.profile}:{file_stamp(w.profile)}" for w in scenario.workloads
                    if w.profile not in BUILTIN_PROFILES)


def _key(kind: str, scenario: Scenario, solver: str) -> tuple:
    return (kind, scenario.model_dump_json(), prices_stamp(scenario.prices.source), profiles_stamp(scenario),
            solver)


def _remember(key: tuple, future: Future) -> None:
    with _lock:
        _plans[key] = future
        _plans.move_to_end(key)
        while len(_plans) > _MAX_PLANS:
            _plans.popitem(last=False)


def _usable(future: Future | None) -> bool:
    """Made, or under way (not failed, not cancelled)."""
    return future is not None and not (future.done() and (future.cancelled() or future.exception() is not None))


def _failed_for_good(future: Future | None) -> bool:
    """Failed with a PlannerError: the same inputs fail the same way (a solve stopped by the time limit), so the
    failure is kept and said, not solved again at every page run (a worker that died is tried again). But for a
    price store another process kept locked (a refresh saving): that passes, and the next page run plans again."""
    if future is None or not future.done() or future.cancelled():
        return False
    failed = future.exception()
    return isinstance(failed, PlannerError) and not isinstance(failed, PriceStoreLocked)


@dataclass
class _Job:
    """Work for a lane: `make()` gives (cache key, function, arguments), or None for values that make no
    valid scenario. `proxy`: the Future the callers already hold (in `_plans` under `key`), resolved with
    the worker's result."""

    make: Callable[[], tuple | None]
    key: tuple | None = None
    proxy: Future | None = None


def _forget(job: _Job) -> None:
    """Drop a job that will not run: its Future leaves the cache and is cancelled."""
    if job.proxy is None:
        return
    with _lock:
        if job.key is not None and _plans.get(job.key) is job.proxy:
            del _plans[job.key]
    job.proxy.cancel()


def _chain(source: Future, proxy: Future) -> None:
    def copy(done: Future) -> None:
        with contextlib.suppress(InvalidStateError):
            if done.exception() is not None:
                proxy.set_exception(done.exception())
            else:
                proxy.set_result(done.result())

    source.add_done_callback(copy)


class _Lane:
    """One worker process and the jobs waiting for it, submitted one at a time in order, so that a new list
    (the user has moved on) replaces the jobs still waiting instead of queueing behind them; a job in the
    worker finishes, and its result is cached."""

    def __init__(self, niceness: int) -> None:
        self.niceness = niceness
        self.pool: ProcessPoolExecutor | None = None
        self.waiting: list[_Job] = []
        self.busy = False   # a job is in the worker, or a thread is picking the next one

    def replace(self, jobs: list[_Job]) -> None:
        """Wait with `jobs` (in this order) instead of the jobs waiting now, which are dropped."""
        with _lock:
            dropped, self.waiting = self.waiting, list(jobs)
            kept = {id(job.proxy) for job in jobs}
            start = not self.busy
            self.busy = True
        for job in dropped:
            if id(job.proxy) not in kept:
                _forget(job)
        if start:
            threading.Thread(target=self._pump, args=(None,), name="fleetplan-lane", daemon=True).start()

    def _executor(self) -> ProcessPoolExecutor:
        if self.pool is None:
            self.pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=worker_start, initargs=(self.niceness,))
        return self.pool

    def _pump(self, done: Future | None) -> None:
        """Submit the next waiting job whose result is not cached or under way; called again when it is done.
        The lock is not held while a job makes its scenario (a validation)."""
        future = None
        try:
            while future is None:
                with _lock:
                    if not self.waiting:
                        return
                    job = self.waiting.pop(0)
                try:
                    made = job.make()
                except ScenarioError:
                    made = None
                if made is None:
                    _forget(job)
                    continue
                key, function, args = made
                with _lock:
                    known = _plans.get(key)
                    if known is not job.proxy and _usable(known):   # made, or under way elsewhere
                        if job.proxy is not None and job.proxy.set_running_or_notify_cancel():
                            _chain(known, job.proxy)
                        continue
                    if job.proxy is not None and not job.proxy.set_running_or_notify_cancel():
                        continue   # cancelled meanwhile
                    try:
                        future = self._executor().submit(pickled, function, *args)
                    except RuntimeError as exc:   # the server stops, or the worker died (BrokenProcessPool)
                        # the callers waiting for these jobs hear of it (the page then works without them), and
                        # a dead worker is replaced when the next job comes
                        if isinstance(exc, BrokenProcessPool):
                            self.pool = None
                        if job.proxy is not None:
                            job.proxy.set_exception(exc)
                        for waiting in self.waiting:
                            _forget(waiting)
                        self.waiting.clear()
                        return
                    if job.proxy is None:
                        _remember(key, future)
                    else:
                        _chain(future, job.proxy)
        finally:
            if future is None:
                with _lock:
                    self.busy = bool(self.waiting)
                    restart = self.busy
                if restart:   # jobs came while this thread was leaving
                    threading.Thread(target=self._pump, args=(None,), name="fleetplan-lane", daemon=True).start()
        future.add_done_callback(self._pump)


# `next`: normal priority, the plans of the next steps of the slider just moved; `baselines`: niceness 5,
# the baselines of the plan on screen; `ahead`: niceness 10, the other plans the user will probably ask for
# next; `decisions`: niceness 15, what each decision of the plan on screen is worth (seconds of re-solves,
# yielding the cores to everything else). Four processes: a stale job running in one (the user has moved on)
# delays no other kind of work.
_LANES = {"next": _Lane(0), "baselines": _Lane(5), "ahead": _Lane(10), "decisions": _Lane(15)}


def stop_workers() -> None:
    """End every worker process and the solver it runs (jobs.end_worker), and their pools. Called as the server's
    Python exits: concurrent.futures' own exit hook waits for each job under way to finish, so a server told to
    stop (SIGTERM, Ctrl-C on `make run`) stayed up for as long as a worker's solve ran (minutes, at a low
    priority)."""
    for lane in _LANES.values():
        pool = lane.pool
        if pool is None:
            continue
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            end_worker(process.pid)
        with contextlib.suppress(Exception):
            pool.shutdown(wait=False, cancel_futures=True)


# Before the interpreter joins its threads, where concurrent.futures waits for the jobs under way: threading's exit
# hooks run last registered first, so this one (registered after concurrent.futures.process was imported) runs before
# that one and leaves it no job to wait for. atexit's hooks run after the threads are joined: too late.
getattr(threading, "_register_atexit", lambda function: None)(stop_workers)


def _plan_job(scenario: Scenario | Callable[[], Scenario | None], solver: str) -> _Job:
    """A job making the recommended plan of `scenario` (or of the scenario a function makes, when its turn comes)."""
    def make() -> tuple | None:
        s = scenario() if callable(scenario) else scenario
        return None if s is None else (_key("plan", s, solver), recommended_job, (s, solver))

    return _Job(make)


def _note_seconds(scenario: Scenario, outcome: Outcome) -> None:
    if outcome.seconds:
        before = _plan_seconds.get(scenario.name, outcome.seconds)
        _plan_seconds[scenario.name] = 0.5 * before + 0.5 * outcome.seconds


def _made_elsewhere(future: Future, scenario: Scenario) -> Outcome | None:
    """The outcome of a plan under way in a worker (or another run), if it comes within about the time
    planning it here would take; None when it fails or takes longer."""
    wait = max(0.05, 1.5 * _plan_seconds.get(scenario.name, 0.2))
    try:
        return pickle.loads(future.result(timeout=wait))
    except FutureTimeout:
        return None
    except Exception:  # noqa: BLE001 - the worker failed: planning here gives the same result or raises its error
        return None


def prepared(scenario: Scenario, solver: str = DEFAULT_SOLVER) -> tuple[Inputs | None, str]:
    """What `recommended(scenario)` checks before it solves, done now (`jobs.prepared_job`: the prices read, the
    model's size checked): (its inputs, for `recommended(…, inputs=…)`, or None where its plan is made or under
    way already; "" or the message its plan would fail with, or did). The Compare page asks it of both sides
    before it solves either."""
    with _lock:
        future = _plans.get(_key("plan", scenario, solver))
    if _usable(future):
        made = pickle.loads(future.result()) if future.done() else None
        return None, "" if made is None or made.kind == "ok" else made.message
    return prepared_job(scenario)


def recommended(scenario: Scenario, solver: str = DEFAULT_SOLVER, inputs: Inputs | None = None) -> Outcome:
    """The recommended plan of `scenario` (no baselines): planned ahead, cached, or planned now (from `inputs`,
    its `prepared` inputs, where given)."""
    key = _key("plan", scenario, solver)
    with _lock:
        future = _plans.get(key)
    if _usable(future):
        # made, or under way (planned ahead in a worker): waiting for it beats starting again
        outcome = pickle.loads(future.result()) if future.done() else _made_elsewhere(future, scenario)
        if outcome is not None:
            with _lock:
                if key in _plans:
                    _plans.move_to_end(key)
            _forget_if_it_passes(key, future, outcome)
            return outcome
    future = Future()
    future.set_running_or_notify_cancel()
    _remember(key, future)
    try:
        outcome = recommended_job(scenario, solver, inputs)
    except BaseException as exc:
        future.set_exception(exc)
        raise
    _note_seconds(scenario, outcome)
    future.set_result(pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL))
    _forget_if_it_passes(key, future, outcome)
    return outcome


def _forget_if_it_passes(key: tuple, future: Future, outcome: Outcome) -> None:
    """Drop `outcome`'s entry from the plan cache where its failure passes (Outcome.passes: a locked price store),
    so that the next page run plans again rather than show the lock after the refresh has ended."""
    if outcome.passes:
        with _lock:
            if _plans.get(key) is future:
                del _plans[key]


def baselines_future(scenario: Scenario, outcome: Outcome, solver: str = DEFAULT_SOLVER) -> Future:
    """The baselines of `scenario` (whose recommended plan is `outcome`): a Future of their pickle, solving
    in a worker process (instead of the baselines that were still waiting for it)."""
    key = _key("baselines", scenario, solver)
    with _lock:
        future = _plans.get(key)
        if _usable(future) or _failed_for_good(future):
            return future
        future = Future()
        solved = _solved_scenario(scenario, outcome)
        if not WORKERS:
            try:
                future.set_result(pickled(baselines_job, solved, outcome.plan.total, solver, outcome.plan.status))
            except Exception as exc:  # noqa: BLE001 - shown on the page (baselines_of raises it), like a worker's failure
                future.set_exception(exc)
            _remember(key, future)
            return future
        _remember(key, future)
    job = _Job(lambda: (key, baselines_job, (solved, outcome.plan.total, solver, outcome.plan.status)), key, future)
    _LANES["baselines"].replace([job])
    return future


def _solved_scenario(scenario: Scenario, outcome: Outcome) -> Scenario:
    """The scenario `outcome`'s plan solved: `scenario`, but with profile_slots 168 where the plan's grouped
    profile left no fleet and it was planned exactly (engine.run): its baselines are solved as plan() solves
    them, on the same weekly weights as the plan they are compared with."""
    return getattr(outcome.plan, "scenario", None) or scenario


def with_baselines(outcome: Outcome, baselines: tuple) -> Outcome:
    """`outcome`'s plan with its baselines table and plans (a copy: the cached plan stays as it is), and its
    speeds table and warnings covering the pairs of the baselines' fleets (`jobs.baselines_job`'s third item),
    as `planner.add_baselines` sets them: the page shows the warnings plan() gives."""
    table, plans, pairs = baselines
    speeds, warnings = baseline_speeds(outcome.plan, pairs, table)
    # a baseline whose own bound on the grouped profile's cost error is loose: plan() warns of it, so here too
    warnings = with_loose_bound_warnings(warnings, table, outcome.plan.profile_grouping, outcome.plan.currency)
    return replace(outcome, plan=replace(outcome.plan, baselines=table, baseline_plans=plans, speeds=speeds,
                                         warnings=warnings))


def baselines_of(scenario: Scenario, outcome: Outcome, solver: str = DEFAULT_SOLVER) -> tuple:
    """The baselines, waiting for the worker; solved here when the worker failed or the job was dropped
    (another page asked for other baselines meanwhile). The PlannerError of baselines that have no answer
    (a solve stopped by the time limit before it found a fleet: SolverError) is raised, for the page to say."""
    try:
        return pickle.loads(baselines_future(scenario, outcome, solver).result())
    except (BrokenProcessPool, OSError, pickle.PicklingError, CancelledError):
        return baselines_job(_solved_scenario(scenario, outcome), outcome.plan.total, solver, outcome.plan.status)


def plan_for(scenario: Scenario, solver: str = DEFAULT_SOLVER) -> Outcome:
    """The plan of `scenario` with its baselines (as `planner.engine.plan` makes it), from the cache when
    this scenario was planned before."""
    outcome = recommended(scenario, solver)
    if outcome.kind != "ok":
        return outcome
    return with_baselines(outcome, baselines_of(scenario, outcome, solver))


def decisions_future(scenario: Scenario, outcome: Outcome, solver: str = DEFAULT_SOLVER) -> Future:
    """What each decision of `outcome`'s plan (the recommended plan of `scenario`) is worth, its runner-up,
    close call and flip points (`jobs.decisions_job`): a Future of their pickle, made in a worker process at
    the lowest priority, replacing the decisions still waiting there; made here, now, without workers. A
    failed one stays cached (its error is shown, not made again on every page run)."""
    key = _key("decisions", scenario, solver)
    with _lock:
        future = _plans.get(key)
        if future is not None and not future.cancelled():
            return future
        future = Future()
        _remember(key, future)
    if not WORKERS:
        future.set_running_or_notify_cancel()
        try:
            future.set_result(pickled(decisions_job, outcome.plan, solver))
        except Exception as exc:  # noqa: BLE001 - shown on the page, like a worker's failure
            future.set_exception(exc)
        return future
    job = _Job(lambda: (key, decisions_job, (outcome.plan, solver)), key, future)
    _LANES["decisions"].replace([job])
    return future


def decisions_of(scenario: Scenario, solver: str = DEFAULT_SOLVER) -> Decisions | None:
    """The decisions of `scenario`'s recommended plan if they are made (a failure as `Decisions.error`); None
    while they are not (never started, under way or dropped). Starts nothing."""
    with _lock:
        future = _plans.get(_key("decisions", scenario, solver))
    if future is None or not future.done() or future.cancelled():
        return None
    # a failure's text may name the server's price store (re-solves read prices): shown by its file name only
    if future.exception() is not None:
        return Decisions(error=hide_store_path(f"{type(future.exception()).__name__}: {future.exception()}"))
    made = pickle.loads(future.result())
    return replace(made, error=hide_store_path(made.error)) if made.error else made


def decisions_under_way(scenario: Scenario, solver: str = DEFAULT_SOLVER) -> bool:
    """Whether what each decision of `scenario`'s recommended plan is worth is being made (started by the Plan page,
    waiting or running in its worker, not yet done): the Export page says they will be in its files. Starts nothing."""
    with _lock:
        future = _plans.get(_key("decisions", scenario, solver))
    return future is not None and not future.done()


def _decided_warnings(shown: list, decided: list | None) -> list:
    """The plan's warnings with those add_decisions added (a plan whose own solve stopped unproven and whose
    re-solves found a cheaper fleet: engine.decisions.cheaper_found; re-solves its time limit in all left undone:
    not_computed_warning), after the ones shown (with the baselines')."""
    return list(shown) + [w for w in decided or [] if w.startswith((NOT_CHEAPEST, LEFT_UNDONE)) and w not in shown]


def with_decisions(outcome: Outcome, made: Decisions | None) -> Outcome:
    """`outcome`'s plan with what each decision is worth set, as `planner.add_decisions` sets it (a copy);
    `outcome` itself when they are not made or failed."""
    if made is None or made.error:
        return outcome
    solver = {**outcome.plan.solver, "decisions": made.work}
    plan = replace(outcome.plan, decisions=made.decisions, runner_up=made.runner_up, close_call=made.close_call,
                   flip_points=made.flip_points, cap_costs=made.cap_costs, solver=solver,
                   warnings=_decided_warnings(outcome.plan.warnings, made.warnings))
    # the notes of baselines cheaper than the plan, told from the cap costs, as add_decisions tells them
    return replace(outcome, plan=replace(plan, baselines=baseline_notes(plan)))


def plan_ahead(scenarios: list[Scenario | Callable[[], Scenario | None]],
               soon: list[Scenario | Callable[[], Scenario | None]] = (), solver: str = DEFAULT_SOLVER) -> None:
    """Plan these scenarios in the background (low priority), one at a time, in order, and the `soon` ones
    (the slider's next steps) at normal priority in a worker of their own; replaces the previous lists (the
    user has moved on), keeping the plans already under way. A function in a list makes its scenario
    (validates it) when its turn comes, in a background thread, not in the page's run; it returns None
    (or raises ScenarioError) for values that make no valid scenario."""
    if WORKERS:
        _LANES["next"].replace([_plan_job(s, solver) for s in soon])
        _LANES["ahead"].replace([_plan_job(s, solver) for s in scenarios])


_heap_settled = threading.Event()
_settle_timer: threading.Timer | None = None


def settle_heap() -> None:
    """Once per process, after the first page is drawn: collect, then move every object alive (the modules
    of Streamlit, pandas, plotly and the engine: over 100,000 objects) out of the garbage collector's
    sight (`gc.freeze`), so that the full collection Streamlit runs after each script run, and Python's
    own, take milliseconds rather than a tenth of a second while a user moves a slider. Turns the
    collector on again (the app's first run turns it off while it imports and plans)."""
    with _lock:
        if _heap_settled.is_set():
            return
        _heap_settled.set()
    gc.collect()
    gc.freeze()
    gc.enable()


def settle_heap_soon(seconds: float = 20.0) -> None:
    """`settle_heap` after `seconds`, in case no Plan page run gets to the end before (called on every run;
    the first call starts the timer)."""
    global _settle_timer
    with _lock:
        if _settle_timer is None and not _heap_settled.is_set():
            _settle_timer = threading.Timer(seconds, settle_heap)
            _settle_timer.daemon = True
            _settle_timer.start()


def clear_plan_cache() -> None:
    for lane in _LANES.values():
        lane.replace([])
    with _lock:
        _plans.clear()


# ---------------------------------------------------------------------------------------------------
# Sharing: the URL carries the scenario file and the edits, as the dotted overrides of the library
# (`?scenario=entry.yaml&workloads.coursework-and-kaggle.gpu_hours_per_month=240&onprem.pue=1.3`)

SCENARIO_PARAM = "scenario"
_LIST_EDITS = ("providers", "purchase_options", "cards")
_OPTIONAL_EDITS = ("capex_budget", "power_cap_kw")   # empty: no cap
_QUOTE_CURRENCY = re.compile(r"onprem\.card_overrides\.[^.]+\.currency")   # written beside a price typed in


def _optional(name: str) -> bool:
    """Whether edit `name` may be empty: a cap (no cap) or a card's price (the catalog's)."""
    return name in _OPTIONAL_EDITS or name.startswith(PRICE_PREFIX)


def edit_paths(s: Scenario) -> dict[str, str]:
    """Edit name -> the dotted override path it sets."""
    paths = {name: path for name, (path, _) in _SCALAR_EDITS.items()}
    paths["cards"] = "onprem.cards"
    paths.update({PRICE_PREFIX + card: f"onprem.card_overrides.{card}.price" for card in CATALOG_CARDS})
    for w in s.workloads:
        paths[f"demand:{w.name}"] = f"workloads.{w.name}.{w.demand_field}"
        paths[f"growth:{w.name}"] = f"workloads.{w.name}.growth_per_month"
    return paths


def _param_text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        return ",".join(map(str, value))
    if isinstance(value, float):   # %g when it reads back equal (300, 0.025), else repr: 6 digits cut 1,234,567
        return f"{value:g}" if float(f"{value:g}") == value else repr(value)
    return str(value)


def share_params(base_id: str, s: Scenario, values: dict[str, Any]) -> dict[str, str]:
    """The URL query of the scenario on screen: its file and the overrides of the edits (none for an
    upload, whose text only this session holds)."""
    kind, _, name = base_id.partition(":")
    if kind != "file":
        return {}
    params = {SCENARIO_PARAM: name}
    # a price's currency is the one the page shows it in (price_currency): the link reopens it so, unsaid
    params.update({path: _param_text(v) for path, v in edits_to_overrides(s, values).items()
                   if not _QUOTE_CURRENCY.fullmatch(path)})
    return params


def _link_id(params: dict[str, str]) -> frozenset:
    return frozenset(params.items())


def link_is_known(params: dict[str, str]) -> bool:
    """Whether this session wrote or opened the URL query `params` (`know_link`). A run carries the query the browser
    had when it asked for the run: after quick edits, often one the page wrote a few runs before (the newer still on
    its way to the browser, or never sent by a run cut short). Read as a shared link, it threw the newer edits away."""
    return _link_id(params) in st.session_state.get(LINKS_KEY, ())


def know_link(params: dict[str, str]) -> None:
    """Remember the URL query `params` as this session's (`link_is_known`): not the last alone, the last
    `LINKS_KEPT` written or opened, the oldest forgotten (a query written again is the newest)."""
    known = st.session_state.setdefault(LINKS_KEY, {})   # a dict for its order: oldest first
    link = _link_id(params)
    known.pop(link, None)
    known[link] = None
    while len(known) > LINKS_KEPT:
        del known[next(iter(known))]


def _did_you_mean(word: str, choices) -> str:
    """"; did you mean 'X'?" for the choice spelt most like `word`, by the rule of the scenario loader's "did you mean"
    (planner.catalog.gpus.suggest: difflib's cutoff 0.6, a choice that `word` begins first), else ""."""
    close = suggest(word, list(choices), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def _near_file(name: str, names: list[str]) -> str:
    """_did_you_mean of a scenario file's `name` among `names`, compared without the .yaml or .yml both end with (as the
    scenario loader compares a file not found: 'nope.yaml' was offered 'entry.yaml' for its '.yaml'); the same name
    but for its suffix or case first."""
    def stem(n: str) -> str:
        return n[:-len(Path(n).suffix)] if Path(n).suffix.lower() in UPLOAD_SUFFIXES else n

    by_stem = {stem(n): n for n in names}
    same = [n for s, n in by_stem.items() if s.lower() == stem(name).lower()]
    near = same or [by_stem[s] for s in suggest(stem(name), list(by_stem), n=1)]
    return f"; did you mean {near[0]!r}?" if near else ""


# How a link names the page's inputs, said where one it names is none of them
_LINK_NAMES = ("a link names them by the scenario file's fields, such as horizon_months, onprem.pue or "
               "workloads.NAME.growth_per_month")


def base_from_params(params: dict[str, str]) -> tuple[str | None, list[str]]:
    """(base id of the URL's `scenario`, problems); (None, []) when the URL names none."""
    name = params.get(SCENARIO_PARAM)
    if not name:
        return None, []
    names = scenario_files()
    if name not in names:
        near = _near_file(name, names)
        return None, [f"{SCENARIO_PARAM}={shortened(name)}: not one of the example scenarios"
                      + (near or f"; expected one of {', '.join(names)}")]
    return f"file:{name}", []


def edit_words(s: Scenario, name: str) -> str:
    """Edit `name` as the Plan page's sidebar labels its widget: “Horizon, months”, “llm-finetune: growth, % per
    month”, “rtx-4090: your quote”."""
    kind, _, rest = name.partition(":")
    if kind == "demand":
        field = next((w.demand_field for w in s.workloads if w.name == rest), "gpu_hours_per_month")
        return f"{rest}: {DEMAND_UNITS[field]}"
    if kind == "growth":
        return f"{rest}: growth, % per month"
    if kind + ":" == PRICE_PREFIX:
        return f"{rest}: your quote"
    return {"horizon_months": "Horizon, months", "electricity_per_kwh": f"Electricity, {s.currency} per kWh",
            "pue": "PUE", "capex_budget": "Capex budget", "power_cap_kw": "Power cap", "cards": "Cards the plan may buy",
            "providers": "Allowed providers", "purchase_options": "Allowed purchase options"}.get(name, name)


def values_from_params(s: Scenario, params: dict[str, str]) -> tuple[dict[str, Any], list[str]]:
    """The widget values a shared URL sets on scenario `s` (the others keep the file's), and problems
    with the URL's parameters (each one ignored), each as the link writes it (`horizon_months=thirty`), then the
    sidebar's input it sets and what was expected."""
    values, problems = default_edits(s), []
    by_path = {path: name for name, path in edit_paths(s).items()}
    specs = {spec.name: spec for spec in slider_specs(s)}
    for path, text in params.items():
        if path == SCENARIO_PARAM or (_QUOTE_CURRENCY.fullmatch(path) and text == s.currency):
            continue
        written = f"{shortened(path)}={shortened(text)}"
        name = by_path.get(path)
        if name is None:
            problems.append(f"{written}: not one of this page's inputs" + (_did_you_mean(path, by_path)
                                                                          or f"; {_LINK_NAMES}"))
            continue
        try:
            values[name] = _in_range(name, _param_value(name, text, card_choices(s)), specs.get(name))
        except ValueError as exc:
            problems.append(f"{written} (the sidebar's “{edit_words(s, name)}”): {exc}")
    return values, problems


def _in_range(name: str, value: Any, spec: SliderSpec | None) -> Any:
    """`value` if its widget can show it: within its slider's range (which a value outside would crash), a cap
    not below 0 (which the number box would turn into "no cap"); else ValueError saying the range, in the
    URL's units (growth as a share per month)."""
    if _optional(name) and value is not None and value < 0:
        raise ValueError("expected 0 or more, or none for " + ("the catalog's price" if name.startswith(PRICE_PREFIX)
                                                                else "no cap"))
    if spec is None or not isinstance(value, (int, float)) or spec.low - 1e-9 <= value <= spec.high + 1e-9:
        return value
    scale = 100 if name.startswith("growth:") else 1
    unit = " (a share per month)" if scale == 100 else ""
    raise ValueError(f"outside this page's range, {spec.low / scale:g} to {spec.high / scale:g}{unit}")


def _param_value(name: str, text: str, cards: list[str] | tuple[str, ...] = CATALOG_CARDS) -> Any:
    if name in _LIST_EDITS:
        universe = {"providers": PROVIDERS, "purchase_options": PURCHASE_OPTIONS, "cards": tuple(cards)}[name]
        items = [t.strip() for t in text.split(",") if t.strip()]
        unknown = [t for t in items if t not in universe]
        if unknown:
            raise ValueError(f"{', '.join(unknown)} not among {', '.join(universe)}")
        return items if name == "cards" else _ordered(items, universe)
    if _optional(name) and text.strip().lower() in ("", "none", "null"):
        return None
    try:
        number = float(text)
    except ValueError:
        raise ValueError("expected a number") from None
    if not math.isfinite(number):
        raise ValueError("expected a finite number")
    if name == "horizon_months":
        if number != int(number):
            raise ValueError("expected a whole number of months")
        return int(number)
    return number * 100 if name.startswith("growth:") else number


# ---------------------------------------------------------------------------------------------------
# The scenario's own text with the edits written in: comments and layout kept


def _yaml_value(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        # a number input gives floats: 20000, as a file writes a budget, not 20000.0 (the fields take either)
        return str(int(value))
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(map(str, value)) + "]"
    if isinstance(value, dict):   # a card's override, as a file writes one: {price: 1200, currency: USD}
        return "{" + ", ".join(f"{k}: {_yaml_value(v)}" for k, v in value.items()) + "}"
    return dump_yaml(value, default_flow_style=True).splitlines()[0]


def _key_node(mapping: yaml.MappingNode, key: str):
    for k, v in mapping.value:
        if isinstance(k, yaml.ScalarNode) and k.value == key:
            return k, v
    return None, None


def _file_said(text: str, node) -> str:
    """What the file wrote for `node`, on one line for a comment: a scalar as typed (`0.12`, `"a b"`), a sequence in
    flow form (`[aws, azure]`), cut short past 60 characters."""
    if isinstance(node, yaml.SequenceNode):
        said = "[" + ", ".join(getattr(item, "value", "…") if isinstance(item, yaml.ScalarNode) else "…"
                               for item in node.value) + "]"
    else:
        said = text[node.start_mark.index:node.end_mark.index]
    said = " ".join(said.split()) or "nothing"
    return said if len(said) <= 60 else said[:59] + "…"


EDITED_NOTE = "# set in the dashboard"   # the comment an edited value's line ends with (edited_text)
# A note an earlier download wrote (a download edited again): the file's own comment is what comes before it
_EARLIER_NOTE = re.compile(r"\s*(?:—\s*)?set in the dashboard \(the file (?:said .*|did not set it)\)\s*$")


def _noted(comment: str, note: str) -> str:
    """The comment an edited value's line ends with: the file's own `comment` there ("# USD per kWh", a unit hint
    that holds for the new value too), without a dashboard note an earlier download left on it, then `note`
    ("# USD per kWh — set in the dashboard (the file said 0.12)"); `note` alone where the file has none."""
    own = _EARLIER_NOTE.sub("", comment.rstrip())
    if not own.lstrip("#").strip():
        return note
    return f"{own} — {note.removeprefix('# ')}"


def _with_note(text: str, at: int, width_before: int, note: str) -> str:
    """`text` with the rest of the line from `at` (after a value just written, `width_before` characters wider or
    narrower than the one it replaced) ending in the comment `note`, after the file's own comment there (_noted);
    unchanged when the line goes on with more than a comment (a flow mapping's next key, a block list's next line)."""
    end = text.find("\n", at)
    end = len(text) if end < 0 else end
    rest = text[at:end]
    if rest.strip() and not rest.lstrip().startswith("#"):
        return text
    spaces = len(rest) - len(rest.lstrip()) if rest.strip() else 2
    # the comment where the file's was, as the file aligned its comments (at least one space: YAML asks it)
    pad = max(1, spaces - width_before) if rest.strip() else spaces
    return text[:at] + " " * pad + _noted(rest.strip(), note) + text[end:]


def _child(node, part: str):
    """The node under `node` at key `part` (in a sequence: the item named `part`, a workload), or None."""
    if isinstance(node, yaml.SequenceNode):
        return next((item for item in node.value if isinstance(item, yaml.MappingNode)
                     and getattr(_key_node(item, "name")[1], "value", None) == part), None)
    return _key_node(node, part)[1] if isinstance(node, yaml.MappingNode) else None


def _written_at(root, parts: list[str]) -> int:
    """How many keys of `parts` the text's own layout edits in place: all but where a parent is missing (the
    first missing key gets a line holding what goes under it: `card_overrides: {rtx-4090: {price: 1200}}`) or
    written in flow style (`a100-80gb-pcie: {price: 14000, currency: USD}` is written anew, its keys kept)."""
    node = root
    for i, part in enumerate(parts[:-1]):
        node = _child(node, part)
        if node is None or (isinstance(node, yaml.MappingNode) and node.flow_style):
            return i + 1
    return len(parts)


def _flow_value(text: str, root, parts: list[str]) -> dict:
    """What the file writes at `parts` (a flow mapping, as loaded), or {} where it writes nothing."""
    node = root
    for part in parts:
        node = _child(node, part)
        if node is None:
            return {}
    loaded = yaml.safe_load(text[node.start_mark.index:node.end_mark.index])
    return dict(loaded) if isinstance(loaded, dict) else {}


def _set_in_text(text: str, root: yaml.MappingNode, path: list[str], value: str) -> str | None:
    """`text` with the value at `path` replaced (or a `key: value` line added to its block mapping), its line's
    comment, the file's own kept (a unit hint: "# USD per kWh"), saying it was set in the dashboard and what the
    file said (`# USD per kWh — set in the dashboard (the file said 0.12)`): what the file's comment said of the old
    value is then read as the file's; None when the layout is one this does not edit (a flow mapping, a missing
    parent)."""
    node = root
    for part in path[:-1]:
        if isinstance(node, yaml.SequenceNode):   # workloads: the item whose name is `part`
            node = next((item for item in node.value if isinstance(item, yaml.MappingNode)
                         and getattr(_key_node(item, "name")[1], "value", None) == part), None)
        else:
            node = _key_node(node, part)[1] if isinstance(node, yaml.MappingNode) else None
        if node is None:
            return None
    if not isinstance(node, yaml.MappingNode):
        return None
    key, old = _key_node(node, path[-1])
    if old is not None:
        if not isinstance(old, (yaml.ScalarNode, yaml.SequenceNode)) and not (
                isinstance(old, yaml.MappingNode) and old.flow_style):
            return None
        start, end = old.start_mark.index, old.end_mark.index
        note = f"{EDITED_NOTE} (the file said {_file_said(text, old)})"
        changed = text[:start] + value + text[end:]
        return _with_note(changed, start + len(value), len(value) - (end - start), note)
    if node.flow_style or not node.value:
        return None
    # a new line after the mapping's last entry, indented like its first key: never between a comment and the entry
    # below it (an audit: a quote typed in went first in card_overrides, under the file's comment on another card)
    line = f"{' ' * node.value[0][0].start_mark.column}{path[-1]}: {value}  {EDITED_NOTE} (the file did not set it)\n"
    at = _after_last_entry(text, node)
    return text[:at] + line + text[at:] if text[at - 1:at] in ("", "\n") else text[:at] + "\n" + line + text[at:]


def _after_last_entry(text: str, node: yaml.MappingNode) -> int:
    """Where the line after `node`'s last entry starts (its value's last line, the comment ending it kept on it): a
    block mapping or list's last entry followed down to its last scalar or flow value; the end of `text` if that is
    the text's last line."""
    last = node.value[-1][1]
    while isinstance(last, (yaml.MappingNode, yaml.SequenceNode)) and not last.flow_style and last.value:
        last = last.value[-1][1] if isinstance(last, yaml.MappingNode) else last.value[-1]
    end = last.end_mark.index
    if end > 0 and text[end - 1] == "\n":   # a block scalar (`|`) ends past its line break
        return end
    line_end = text.find("\n", end)
    return len(text) if line_end < 0 else line_end + 1


# An editor's modeline naming the scenario schema by a path relative to the file (the examples': ../schema/…), which
# from a download folder leads nowhere: a download leaves it out (one naming a URL is kept)
_RELATIVE_SCHEMA_LINE = re.compile(r"^#\s*yaml-language-server:\s*\$schema=(?!\w+://)[^\n]*\n?", re.MULTILINE)


def edited_words(origin: str = "") -> str:
    """"Edited in the dashboard from startup-hybrid.yaml" (`origin`; on one line: an uploaded file's name may hold a
    line break and YAML after it)."""
    return "Edited in the dashboard" + (f" from {one_line(origin)}" if origin else "")


def download_head(origin: str, edited: bool) -> str:
    """The comment a downloaded scenario starts with: where it comes from and when, and for an edited one that each
    edited value's line says so, and that the file's name and description are its own (FILE_OWN). One line each."""
    when = f"on {utc_today().isoformat()} (UTC)"
    if not edited:
        where = f" from {one_line(origin)}" if origin else ""
        return f"# Downloaded from the dashboard{where} {when}, as the file stands.\n"
    return (f"# {edited_words(origin)} {when}.\n# Each edited value's line says \"set in the dashboard\" and "
            f"what the file said;\n# {FILE_OWN}.\n")


def summary_edits(cur: Current) -> Edited | None:
    """What the plan summary (summary.md) of the scenario on screen says of its edits: where it was edited from, that
    its name and description are the file's (FILE_OWN), and each field changed, the file's value → the edited one, as
    the Compare page's "Inputs that differ" says them (reports.compare.input_text); None where it is not edited."""
    if cur.base is None or cur.edited is None or cur.edited == cur.base:
        return None
    return Edited.of(edited_words(origin_name(cur.base_id)), "the file",
                     diff_inputs(cur.base, cur.edited).itertuples(index=False))


def origin_name(base_id: str) -> str:
    """The file the scenario `base_id` was opened from, as a download names it ("startup-hybrid.yaml", an upload's
    name without " (uploaded)")."""
    return base_label(base_id).removesuffix(" (uploaded)")


def scenario_text(base_id: str) -> str | None:
    """The text of the scenario `base_id` as loaded: an upload's from the session, a file's from scenarios/ (None when
    it cannot be read)."""
    kind, _, rest = base_id.partition(":")
    if kind == "upload":
        return (st.session_state.get("uploads") or {}).get(base_id)
    try:
        return (SCENARIO_DIR / rest).read_text(encoding="utf-8")
    except OSError:
        return None


@dataclass(frozen=True)
class ScenarioDownload:
    text: str
    file_name: str
    kept: bool   # the file's comments and layout kept (edited_text)


# What the one scenario download is, as both pages offer it (the sidebar's and the Export page's)
DOWNLOAD_HELP = ("The scenario file as loaded with the Plan page's edits written in — the same file from the Plan "
                 "page's sidebar and the Export page")


def scenario_download(base_id: str, base: Scenario, values: dict[str, Any]) -> ScenarioDownload | None:
    """The scenario download, one file wherever it is offered: the file's text with the edits written in
    (edited_text), named for the file (`startup-hybrid-edited.yaml` when edited); None when its text cannot be read."""
    text = scenario_text(base_id)
    if text is None:
        return None
    label = origin_name(base_id)
    out, kept = edited_text(text, base, values, origin=label)
    stem = Path(label).stem
    edited = apply_edits(base, values) != base
    return ScenarioDownload(out, f"{stem}-edited.yaml" if edited else f"{stem}.yaml", kept)


def edited_text(text: str, base: Scenario, values: dict[str, Any], origin: str = "") -> tuple[str, bool]:
    """(the scenario file `text` with the widget `values` written in, comments kept?) — the one scenario download,
    the Plan page's sidebar's and the Export page's alike.

    Each edited value replaces the file's value in place (a missing key gets a line of its own), its line's comment
    (the file's own kept) ending with one saying it was set in the dashboard and what the file said; the other lines
    stay as the file has them, but for an editor's schema line naming a relative path (which leads nowhere from a
    download). A comment
    line first says where the file comes from (`origin`), when, and what was edited (download_head). The result is
    loaded back and compared with the edited scenario; where that differs (a layout this does not edit), the edited
    scenario is written out whole instead, without the file's comments (False)."""
    edited = apply_edits(base, values)
    overrides = edits_to_overrides(base, values)
    out = _RELATIVE_SCHEMA_LINE.sub("", text)
    names = {w.name for w in base.workloads}
    pending = {path: path_keys(path, names) for path in overrides}
    while pending:
        path, parts = next(iter(pending.items()))
        try:   # the text as edited so far: a layout this does not edit (explicit `? key`) may no longer parse
            root = yaml.compose(out, Loader=yaml.SafeLoader)
        except yaml.YAMLError:
            root = None
        if not isinstance(root, yaml.MappingNode):
            out = None
            break
        depth = _written_at(root, parts)
        if depth == len(parts):
            written, value = parts, overrides.pop(path)
            del pending[path]
        else:   # every edit under the key written anew goes into its one value, the file's keys there kept
            written, value = parts[:depth], _flow_value(out, root, parts[:depth])
            for other, keys in list(pending.items()):
                if keys[:depth] == written:
                    inner = value
                    for key in keys[depth:-1]:
                        inner = inner.setdefault(key, {}) if isinstance(inner.get(key, {}), dict) else {}
                    inner[keys[-1]] = overrides.pop(other)
                    del pending[other]
        changed = _set_in_text(out, root, written, _yaml_value(value))
        if changed is None:
            out = None
            break
        out = changed
    head = download_head(origin, bool(edits_to_overrides(base, values)))
    if out is not None:
        try:
            if load_scenario_text(out, origin="edited", base_dir=None) == edited:
                return head + out, True
        except (ScenarioError, yaml.YAMLError):
            pass
    body = dump_yaml(defaults_left_out(edited, edited.model_dump(mode="json", exclude_none=True)), sort_keys=False,
                     allow_unicode=True, width=100)   # the defaults left out (exports.scenario_yaml)
    return head + body, False
