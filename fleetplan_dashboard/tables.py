"""What the Plan page shows, shaped from a Plan: fleet by action, headline cards, cumulative costs,
the break-even month and the price banner. No cost is computed here: the numbers are the Plan's,
only sorted, labelled and summed over months for the cumulative view.
"""

from __future__ import annotations

import math
import re
import string
from dataclasses import dataclass
from datetime import date
from types import SimpleNamespace

import pandas as pd

from planner.catalog.gpus import CUSTOM_SOURCE, OVERRIDE_SOURCE, board_gpus
from planner.catalog.offers import UNPRICED_CARD_REMEDY
from planner.catalog.prices import NAMED, STALE_AFTER_DAYS, date_report, utc_today
from planner.engine import Plan
from planner.engine.decisions import CAPS_LIFTED_ALONE, all_cloud_words, counts_left_out, other_types_kinds, runner_up_verdict
from planner.engine.offer_costs import UNPRICED_CARDS_REMEDY
from planner.engine.run import CHEAPER_REMEDY, REFINE_REMEDY, UNPROVEN_REMEDY
from planner.reports.tables import never_breaks_even, price_dates, share_text, shown_share
from pricing_adapters.azure import COUNTS_NOTE
from pricing_adapters.gpu_names import A10_VCPUS_PER_GPU
from pricing_adapters.shown import calendar_days, series

ACTION_ORDER = ("buy", "keep (owned)", "switch off (owned)", "sell (owned)", "reserve", "rent on-demand", "rent spot")


# ---------------------------------------------------------------------------------------------------
# Text from a scenario (a name, a description, an upload's file name) shown where Streamlit reads
# Markdown (titles, captions, alerts, widget labels): as typed, so `![x](http://…)` is no image that a
# viewer's browser fetches, and no link, heading or icon either.

_MARKDOWN_SIGN = re.compile("([" + re.escape(string.punctuation) + "])")


def plain(text: object) -> str:
    """`text` with every ASCII punctuation sign backslash-escaped: Markdown shows it as typed."""
    return _MARKDOWN_SIGN.sub(r"\\\1", str(text))


# A widget's label is Markdown on the page but its accessible name as given, backslashes and all: a screen reader
# said "llm\-finetune". Escaped there: what Markdown acts on inside a line (emphasis, code, links, images, HTML,
# icons and emoji between colons, LaTeX, entities), and what opens a block or a link at its start.
_LABEL_SIGN = re.compile(r"([\\`*_~\[\]<>!$:&#|{}@])")
_LABEL_START = re.compile(r"^(\s*)([-+=]|\d+(?=[.)]))")


def label_text(text: object) -> str:
    """`text` (a workload's name) as a widget's label would show it as typed, with as few backslashes as that takes
    — `llm-finetune`, `v1.2 (eu)` unchanged, `**x**` escaped: where it is unchanged, the label is `text` itself
    (widget_label). One line: a line break is a space."""
    out = _LABEL_SIGN.sub(r"\\\1", " ".join(str(text).splitlines()))
    out = re.sub(r"(?i)\b(www)\.", r"\1\\.", out)   # a www. address would be a link (GFM's autolinks)
    start = _LABEL_START.match(out)
    if start:   # `- x`, `+ x`, `= x`, `1. x`: a list or heading in Markdown; the sign (or the `.` after 1) escaped
        sign_at = start.end(2) if start.group(2)[0].isdigit() else start.start(2)
        out = out[:sign_at] + "\\" + out[sign_at:]
    return out


# A widget's label string is also its accessible name (aria-label), given as is, backslashes and all (Streamlit 1.67's
# slider, number input, toggle: `"aria-label": label`), and is drawn as Markdown even when collapsed (hidden, still in
# the page). A name Markdown would act on cannot be both shown and named as typed by one string: its label is then
# collapsed and drawn above the widget as text (plain); the label string keeps the name as typed.
_FETCHING = re.compile(r"(<|!(?=\[))")   # HTML, an image: what a hidden label would still fetch from the network


@dataclass(frozen=True)
class WidgetLabel:
    """How a widget is named for a scenario's text (a workload's name and the words after it)."""

    label: str               # the widget's label: its accessible name, as typed
    shown: str | None        # Markdown to draw above the widget in its place (its label collapsed), else None

    @property
    def visibility(self) -> str:
        return "visible" if self.shown is None else "collapsed"


def widget_label(name: object, words: str = "") -> WidgetLabel:
    """The label of a widget named by `name` (a workload's, as typed) and our `words` after it (no Markdown), read as
    typed on the page and by a screen reader: the label itself where Markdown leaves the name alone (`llm-finetune:
    growth, % per month`); else the label collapsed, drawn above the widget as text, and the label as typed but for
    a backslash before what would fetch from the network (`<`, the `!` of `![`), the only ones a reader hears. One
    line: a line break is a space."""
    typed = " ".join(str(name).splitlines())
    if label_text(typed) == typed:
        return WidgetLabel(typed + words, None)
    return WidgetLabel(_FETCHING.sub(r"\\\1", typed) + words, f":small[{plain(typed + words)}]")


def code_block(lines) -> str:
    """`lines` as a fenced Markdown code block whose fence no backtick run in them can close. A code block does
    not wrap: for text where columns line up only; messages go through message_block."""
    body = "\n".join(str(line) for line in lines)
    longest = max((len(run) for run in re.findall("`+", body)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}\n{body}\n{fence}"


# The label the engine puts before what it says of the recommended plan (engine.inputs.Inputs.label): on a page
# about that plan it is jargon ("recommended: capex budget 5,000 USD < …"); a qualified one stays, in words.
_PLAN_LABEL = re.compile(r"recommended( \([^)]*\))?: ")


def without_plan_label(message: str) -> str:
    """`message` without the engine's `recommended: ` in front (its first letter then a capital), or with
    `The recommended plan (…): ` for a qualified label (`recommended (without max_cloud_share): `)."""
    found = _PLAN_LABEL.match(message)
    if found is None:
        return message
    rest = message[found.end():]
    if found.group(1):
        return f"The recommended plan{found.group(1)}: {rest}"
    return rest[:1].upper() + rest[1:]


def message_block(lines) -> str:
    """`lines` (a scenario's problems, an engine's explanation) as Markdown that wraps on any screen: each as
    typed (plain: workload and file names are anyone's text), a line break for each of its own, one line alone as
    a paragraph, several as a list; the engine's label of the recommended plan left out (without_plan_label).
    Not a code block: it does not wrap, and the end of a long message (the numbers, the advice) ran off the page."""
    texts = [plain(without_plan_label(str(line))).replace("\n", "  \n") for line in lines]
    if len(texts) == 1:
        return texts[0]
    return "\n".join(f"- {text}" for text in texts)


# ---------------------------------------------------------------------------------------------------
# The engine's names in words, for what the pages show: "residual_value", "all_cloud" and
# "onprem.electricity_per_kwh" read as jargon to a budget holder. Display only: the downloads (CSV, JSON, the
# workbook, FOCUS) keep the names, which other tools read.

COST_CATEGORY_WORDS = {   # engine.schedule.COST_CATEGORIES
    "capex": "Capex (cards bought)", "residual_value": "Residual value (resale)", "maintenance": "Maintenance",
    "energy": "Energy", "colocation": "Colocation", "fixed_onprem": "Fixed on-prem (site)",
    "cloud_reserved": "Cloud reserved", "cloud_on_demand": "Cloud on demand", "cloud_spot": "Cloud spot",
    "total": "Total",
}
BASELINE_WORDS = {"all_cloud": "All cloud", "all_onprem": "All on-prem", "best_single": "Best single type"}
FIELD_WORDS = {   # the scenario fields a comparison or a note names most (docs/scenario-format.md)
    "name": "Scenario name", "description": "Description", "currency": "Currency", "horizon_months": "Horizon, months",
    "discount_rate": "Discount rate, per year", "close_call_share": "Close-call threshold",
    "onprem.electricity_per_kwh": "Electricity price, per kWh", "onprem.pue": "PUE (site power ÷ IT power)",
    "onprem.capex_budget": "Capex budget", "onprem.capex_budget_per_year": "Capex budget per year",
    "onprem.power_cap_kw": "Power cap, kW", "onprem.colocation_per_kw_month": "Colocation, per kW and month",
    "onprem.fixed_onprem_per_month": "Fixed on-prem (site) cost, per month", "onprem.availability": "Availability",
    "onprem.cards": "Cards that may be bought", "onprem.purchase_every_months": "Cards bought every … months",
    "onprem.sell_owned": "Owned cards may be sold", "onprem.switch_off_owned": "Owned cards may be switched off",
    "onprem.maintenance_when_off": "Maintenance of a switched-off card",
    "onprem.resale": "Resale value of cards", "onprem.resale.method": "Resale: book value method",
    "onprem.resale.share_of_book": "Resale: share of book value paid",
    "onprem.card_overrides": "Card overrides (your figures for catalog cards)",
    "onprem.custom_cards": "Custom cards (cards the catalog lacks)",
    "constraints.max_cloud_share": "Cloud share cap (of the work)",
    "prices.source": "Price source", "prices.snapshot": "Price store snapshot", "prices.providers": "Allowed providers",
    "prices.regions": "Allowed regions", "prices.purchase_options": "Allowed purchase options",
}
# The site's fixed cost as the fleet's note names it (reports.tables.site_cost_note): its field in the page's words
SITE_COST_FIELD = f"the scenario's “{FIELD_WORDS['onprem.fixed_onprem_per_month']}”"
WORKLOAD_FIELD_WORDS = {
    "gpu_hours_per_month": "GPU-hours per month", "requests_per_second": "requests per second",
    "reference_gpus": "reference GPUs busy", "growth_per_month": "growth per month", "reference_gpu": "reference GPU",
    "min_gpu_memory_gb": "least GB per GPU", "gpus_per_job": "GPUs per job",
    "min_compute_capability": "least compute capability", "interruption_overhead": "spot interruption overhead",
    "profile": "weekly profile",
}
_SECTION_WORDS = {"onprem": "On-prem", "prices": "Prices", "constraints": "Constraints", "fx": "Exchange rate"}


def category_words(category: str, short: bool = False) -> str:
    """A cost category in words: `residual_value` → `Residual value (resale)`; `short`: without what the brackets
    add (`Residual value`), for a chart's legend, which a phone shows two entries a row."""
    words = COST_CATEGORY_WORDS.get(category, str(category).replace("_", " "))
    return words.split(" (")[0] if short else words


def _spaced(path: str) -> str:
    return path.replace("_", " ").replace(".", ": ")


def field_name(path: str) -> str:
    """A scenario field's path (an override's: scenario.diff_inputs) in words: `onprem.electricity_per_kwh` →
    `Electricity price, per kWh`; a workload's field named with its workload (`llm-finetune: GPU-hours per
    month`); a card's limit (`constraints.min_units.rtx-4090` → `rtx-4090: least cards`); else its dots and
    underscores as a reader would write them."""
    from planner.scenario.model import Workload

    if path in FIELD_WORDS:
        return FIELD_WORDS[path]
    if path.startswith("workloads."):
        rest = path.removeprefix("workloads.")
        # a workload's name may hold dots: it ends where one of its fields begins
        for i in (i for i, ch in enumerate(rest) if ch == "."):
            field, _, more = rest[i + 1:].partition(".")
            if field in Workload.model_fields:
                words = WORKLOAD_FIELD_WORDS.get(field, field.replace("_", " "))
                return f"{rest[:i]}: {words}" + (f" {more}" if more else "")
        return rest
    section, _, rest = path.partition(".")
    for limit, words in (("min_units.", "least cards"), ("max_units.", "most cards")):
        if section == "constraints" and rest.startswith(limit):
            return f"{rest.removeprefix(limit)}: {words}"
    return f"{_SECTION_WORDS[section]}: {_spaced(rest)}" if section in _SECTION_WORDS and rest else _spaced(path)


def scenario_fields(*paths: str, whose: str = "the scenario's") -> str:
    """Scenario fields as a caption names them, in the page's words: `onprem.sell_owned`, `onprem.switch_off_owned`
    → "the scenario's “Owned cards may be sold” and “Owned cards may be switched off”"."""
    named = [f"“{field_name(path)}”" for path in paths]
    return f"{whose} {series(named)}"


# A limit as the engine's notes set it (engine.baselines' "… it drops constraints.max_cloud_share = 0.6, which alone
# costs the plan …") in the words of the Plan page
_LIMIT_NOTES = (
    (re.compile(r"(?:constraints\.)?max_cloud_share = ([0-9.]+)"),
     lambda m: f"the cloud share cap of {float(m[1]) * 100:g} %"),
    (re.compile(r"onprem\.capex_budget_per_year = "), lambda m: "the capex budget per year of "),
    (re.compile(r"onprem\.capex_budget = "), lambda m: "the capex budget of "),
    (re.compile(r"onprem\.power_cap_kw = "), lambda m: "the power cap of "),
    (re.compile(r"(?:constraints\.)?min_units\.(\S+?) = ([0-9.]+)"), lambda m: f"the least of {m[2]} × {m[1]}"),
    (re.compile(r"(?:constraints\.)?max_units\.(\S+?) = ([0-9.]+)"), lambda m: f"the most of {m[2]} × {m[1]}"),
)


def note_words(note: str) -> str:
    """An engine note with the limits it names as a scenario sets them (`constraints.max_cloud_share = 0.6`) said
    in words (`the cloud share cap of 60 %`)."""
    for pattern, words in _LIMIT_NOTES:
        note = pattern.sub(words, note)
    return note


# The cap costs' notes (engine.decisions.cap_cost) name the scenario's list of cards and a command-line option:
# said in the dashboard's words, the command kept for whoever plans the file on the command line (jobs.MORE_TIME)
_CAP_NOTE_WORDS = (
    (re.compile(r" is not in onprem\.cards: "), " is not among the cards that may be bought (a list in the scenario "
                                                "file): "),
    (re.compile(r"; list it in onprem\.cards to let "), "; add it to that list to let "),
    (re.compile(r"`--unreduced` plans every hour"),
     "planning the scenario's file on the command line, `fleetplan plan --unreduced FILE`, plans every hour"),
)


def cap_note_words(note: object) -> object:
    """A cap cost's note in the dashboard's words: the limits it names (note_words), the scenario file's list of
    cards as the Plan page calls it; a note that is no text (none) as it is."""
    if not isinstance(note, str):
        return note
    for pattern, words in _CAP_NOTE_WORDS:
        note = pattern.sub(words, note)
    return note_words(note)


# Why no fleet meets a scenario (engine.explain.explain_infeasible, the caps' `explain` of engine.constraints) names some
# limits by their scenario fields ("max_cloud_share 0.6 < 0.700 needed", "max_units.rtx-4090 = 2", "(onprem.existing)"):
# on the pages, by the words the page names them by, and "scenario file only" where no widget of the page sets them
# (the Plan page's sidebar sets the demand, horizon, electricity, PUE, capex budget, power cap, providers and purchase
# options: state._SCALAR_EDITS). The patterns follow the engine's wording; a text they do not match is left as it is.
FILE_ONLY = "scenario file only"


def _share_pct(share: str) -> str:
    return f"{float(share) * 100:.1f} %"


_INFEASIBLE_WORDS = tuple((re.compile(pattern), words) for pattern, words in (
    (r"(?:constraints\.)?max_cloud_share ([0-9.]+) < ([0-9.]+) needed",
     lambda m: f"“{FIELD_WORDS['constraints.max_cloud_share']}” of {float(m[1]) * 100:g} % ({FILE_ONLY}) < "
               f"{_share_pct(m[2])} needed"),
    (r"(?:constraints\.)?max_cloud_share ([0-9.]+) < the least needed(.*?), at most ([0-9.]+)",
     lambda m: f"“{FIELD_WORDS['constraints.max_cloud_share']}” of {float(m[1]) * 100:g} % ({FILE_ONLY}) < the least "
               f"needed{m[2]}, at most {_share_pct(m[3])}"),
    (r"(?:constraints\.)?max_cloud_share(?: =)? ([0-9.]+)",
     lambda m: f"“{FIELD_WORDS['constraints.max_cloud_share']}” of {float(m[1]) * 100:g} % ({FILE_ONLY})"),
    (r"\bcapex budget per year ([0-9,.]+ \S+?)(?= <)",
     lambda m: f"“{FIELD_WORDS['onprem.capex_budget_per_year']}” of {m[1]} ({FILE_ONLY})"),
    (r"lower (?:constraints\.)?min_units\.(\S+)", lambda m: f"lower “{m[1]}: least cards” ({FILE_ONLY})"),
    (r"(?:constraints\.)?min_units\.(\S+?) = ", lambda m: f"“{m[1]}: least cards” ({FILE_ONLY}) = "),
    # the minimums that alone pass a cap, said before solving (catalog.unit_floors: "constraints.min_units.rtx-4090:
    # 13 cards need …", "constraints.min_units (a100-80gb-pcie: 3, rtx-4090: 10) need …")
    (r"\bconstraints\.min_units\.(\S+?): ", lambda m: f"“{m[1]}: least cards” ({FILE_ONLY}): "),
    (r"\bconstraints\.min_units \(", lambda m: f"“least cards” ({FILE_ONLY}) ("),
    (r"(?:constraints\.)?max_units\.(\S+?) = ", lambda m: f"“{m[1]}: most cards” ({FILE_ONLY}) = "),
    (r"\(onprem\.existing\)", lambda m: f"(the cards the scenario owns: {FILE_ONLY})"),
    # the rule that keeps owned cards over a power cap (engine.explain._owned_over_power)
    (r"onprem\.sell_owned and onprem\.switch_off_owned are false",
     lambda m: f"“{FIELD_WORDS['onprem.sell_owned']}” and “{FIELD_WORDS['onprem.switch_off_owned']}” are off ({FILE_ONLY})"),
    (r"\(onprem\.switch_off_owned, false\)",
     lambda m: f"(“{FIELD_WORDS['onprem.switch_off_owned']}”, off: {FILE_ONLY})"),
    (r"\(onprem\.purchase_every_months\)",
     lambda m: f"(“{FIELD_WORDS['onprem.purchase_every_months']}”: {FILE_ONLY})"),
    (r"give onprem\.card_overrides\.(\S+?)\.price",
     lambda m: f"give {m[1]} a price under “{FIELD_WORDS['onprem.card_overrides']}” ({FILE_ONLY})"),
    # the caps by their fields with their limits, where no fleet meets them all together (engine.explain.caps_set:
    # "onprem.power_cap_kw 0.5 kW, onprem.capex_budget 60,000 USD, constraints.max_cloud_share 0.6")
    (r"\bonprem\.power_cap_kw ([0-9.,]+ kW)", lambda m: f"power cap {m[1]}"),
    (r"\bonprem\.capex_budget_per_year ([0-9.,]+ [A-Z]{3})",
     lambda m: f"“{FIELD_WORDS['onprem.capex_budget_per_year']}” of {m[1]} ({FILE_ONLY})"),
    (r"\bonprem\.capex_budget ([0-9.,]+ [A-Z]{3})", lambda m: f"capex budget {m[1]}"),
    # a cap the explanation had no time to examine, named by its field
    (r"\bonprem\.power_cap_kw\b", lambda m: "the power cap"),
    (r"\bonprem\.capex_budget_per_year\b",
     lambda m: f"“{FIELD_WORDS['onprem.capex_budget_per_year']}” ({FILE_ONLY})"),
    (r"\bonprem\.capex_budget\b", lambda m: "the capex budget"),
    (r"\bconstraints\.max_cloud_share\b", lambda m: f"“{FIELD_WORDS['constraints.max_cloud_share']}” ({FILE_ONLY})"),
))


# A fleet in the explanation (engine.explain.fleet_text: "2 × A100-80GB-PCIE (300 W, 16,500 USD each)") names a catalog
# card whose id is its GPU's name by that GPU, where the pages name it by its id, as the scenario file does
# ("a100-80gb-pcie"); a card whose id differs is named by its id already ("2 × hgx-h100-8gpu (H100-SXM, …)").
_FLEET_CARD = re.compile(r"(\d[\d,]* × )([^\s(),;]+)( \()")


def _card_ids_by_gpu(scenario=None) -> dict[str, str]:
    """{GPU name: the catalog card id the explanation's fleet names by it}: each catalog card whose id is its GPU's
    name in other case, where no other catalog card has that GPU and no custom card of `scenario` is named alike
    (either would make the name ambiguous)."""
    from planner.catalog import load_cards

    cards = load_cards()
    custom = {str(c).lower() for c in getattr(getattr(scenario, "onprem", None), "custom_cards", None) or {}}
    ids: dict[str, list[str]] = {}
    for card, gpu in zip(cards["card_id"], cards["gpu"]):
        ids.setdefault(str(gpu), []).append(str(card))
    return {gpu: found[0] for gpu, found in ids.items() if len(found) == 1 and found[0] != gpu
            and found[0].lower() == gpu.lower() and gpu.lower() not in custom}


def infeasible_words(message: str, scenario=None) -> str:
    """Why no fleet meets a scenario, as the pages say it: the limits named by the page's words (the cloud share cap
    in percent), "scenario file only" beside those no widget of the page sets (_INFEASIBLE_WORDS), a catalog card by
    its id where the explanation names it by its GPU (_card_ids_by_gpu; `scenario`: the one explained, whose custom
    cards may share a name). Shown as typed (message_block, which drops the engine's "recommended: " label)."""
    for pattern, words in _INFEASIBLE_WORDS:
        message = pattern.sub(words, message)
    ids = _card_ids_by_gpu(scenario)
    return _FLEET_CARD.sub(lambda m: m[1] + ids.get(m[2], m[2]) + m[3], message)


# A table's note column is as wide as 1366 px leaves it, and a grid's cell does not wrap: a note longer than its column
# shows is cut ("the power cap of 60 kW cannot be met with this…"). Such notes are said in full under the table.
CHARS_PER_PX = 1 / 7.5   # about what a grid cell's 14 px font fits: 285 px hold some 38 characters


def notes_in_full(names, notes, width_px: int) -> str | None:
    """Markdown under a table: each note longer than its column of `width_px` shows, in full, after the name of its
    row ("- **All cloud**: the power cap of …"); None when every note fits. Names and notes as typed (plain)."""
    fits = int(width_px * CHARS_PER_PX)
    rows = [(str(name), str(note)) for name, note in zip(names, notes)
            if isinstance(note, str) and note.strip() and len(note) > fits]
    if not rows:
        return None
    return "Notes in full:\n" + "\n".join(f"- **{plain(name)}**: {plain(note)}" for name, note in rows)


def reasons_in_full(exclusions: pd.DataFrame, width_px: int) -> str | None:
    """Markdown under "Offers left out, and why" (`exclusions`: Plan.exclusions, workload, provider, gpu, reason,
    offers): each reason longer than its column of `width_px` shows, once, in full, after the offers it covers, by
    provider and GPU with their workloads and count ("- **aws INFERENTIA** for evaluation, training (117 offers): …");
    None when every reason fits. Names and reasons as typed (plain)."""
    fits = int(width_px * CHARS_PER_PX)
    if exclusions is None or not len(exclusions):
        return None
    long = exclusions[exclusions["reason"].map(lambda r: isinstance(r, str) and len(r) > fits)]
    if not len(long):
        return None
    lines = []
    for reason, rows in long.groupby("reason", sort=False):
        covers = []
        for (provider, gpu), offers in rows.groupby(["provider", "gpu"], sort=False):
            workloads = ", ".join(plain(w) for w in dict.fromkeys(str(w) for w in offers["workload"]))
            covers.append(f"**{plain(f'{provider} {gpu}')}** for {workloads} "
                          f"({_counted(int(offers['offers'].sum()), 'offer')})")
        lines.append(f"- {'; '.join(covers)}: {plain(reason)}")
    return "Reasons in full:\n" + "\n".join(lines)


def cap_costs_table(caps: pd.DataFrame) -> pd.DataFrame:
    """The Plan page's "What each limit costs" of `caps` (Plan.cap_costs): each limit named in words, not by its
    scenario field (`onprem.capex_budget` → `Capex budget`, `constraints.min_units.rtx-4090` → `rtx-4090: least
    cards`), its note in the dashboard's words (cap_note_words). Display only: the downloads keep the fields."""
    return caps.assign(cap=[field_name(cap) for cap in caps["cap"]], note=[cap_note_words(n) for n in caps["note"]])


# Whose figures an on-prem card's offer has, as the engine's offers view notes it (engine.offer_costs.scenario_cards:
# "scenario card_overrides (life_years, price), rest catalog; …", "scenario custom_cards; …"): the scenario's fields
# in the Prices page's words, those its caption names them by (FIELD_WORDS, short as a cell wants them)
_OVERRIDDEN_NOTE = re.compile(re.escape(OVERRIDE_SOURCE) + r" \(([^)]*)\), rest catalog")
_CUSTOM_NOTE = re.compile(re.escape(CUSTOM_SOURCE) + r"\b")

# A cloud offer's note is parts joined by " | ", each written by the packaged snapshot's builder
# (scripts/build_snapshot.py) or a price refresh (pricing_adapters.aws, pricing_adapters.azure) in the offers table's
# field names, the APIs' and a repository file's: each part those write, in a budget holder's words. A part none of
# these matches (an offers CSV's own note) is shown as it is; whole parts only, so a note of the user's that mentions
# one in a sentence of its own is left as written.
_AWS_DEVICE_KINDS = {"GpuInfo": "a GPU", "NeuronInfo": "an AWS Neuron chip",
                     "InferenceAcceleratorInfo": "an inference accelerator"}   # aws.accelerator_facts' sections
_AZURE_RESTRICTIONS = {"NotAvailableForSubscription": "not available to the subscription",
                       "QuotaId": "not offered to this kind of subscription"}   # ResourceSkuRestrictionsReasonCode
_A10 = rf"fractional A10: vCPUs/{A10_VCPUS_PER_GPU} = (\d+)/{A10_VCPUS_PER_GPU}"   # an NV*ads_A10_v5 size's share


def _a10_share(vcpus: str, exactly: str = "") -> str:
    """An A10 v5 size's share of its A10 in words: `6` → `one A10 per 36 vCPUs: 6/36 of one` (`= 1/6`)."""
    share = f"{vcpus}/{A10_VCPUS_PER_GPU}" + (f" = {exactly}" if exactly else "")
    return f"one A10 per {A10_VCPUS_PER_GPU} vCPUs: {share} of one"


_CLOUD_NOTE_WORDS = tuple((re.compile(pattern), words) for pattern, words in (
    # the accelerator: one the planner has no GPU id for is listed and never planned on
    (r"unknown accelerator: (.+) \((\w+Info)\)",
     lambda m: f"accelerator the planner does not know: {m[1]} ({_AWS_DEVICE_KINDS.get(m[2], m[2])})"),
    (r"unknown accelerator: (.+) \(no accelerator name in source\)",
     lambda m: f"accelerator the planner does not know: {m[1]} (the source data names none)"),
    (r"unknown accelerator: (.+)", lambda m: f"accelerator the planner does not know: {m[1]}"),
    (r"size not in the GPU size facts; accelerator unknown",
     lambda m: "a size the planner has no facts of; accelerator not known"),
    (r"(\d+) accelerator kinds in \w+; the first \((.*)\) is used",
     lambda m: f"{m[1]} kinds of accelerator; the facts are the first's ({m[2]})"),
    (r"family unknown; GPU from SkyPilot-style name '(.*)' and size series",
     lambda m: f"no size family given; GPU ({m[1]}) told from the accelerator's name and the size's series"),
    (r"family '(.*)' not mapped; GPU from the packaged size table",
     lambda m: f"GPU from the planner's own list of Azure sizes (Azure's family '{m[1]}' is not one it knows)"),
    # how many GPUs an instance has, and how much memory
    (r"gpu_count unknown", lambda m: "GPUs per instance not known"),
    (r"gpu_count unknown: \w+ reports no device count", lambda m: "GPUs per instance not known: AWS gives no count"),
    (re.escape(COUNTS_NOTE), lambda m: "GPU count from Azure's documentation of its sizes"),
    (r"gpu_count from the packaged size table", lambda m: "GPU count from the planner's own list of Azure sizes"),
    (r"gpu_count from SkyPilot AZURE_MISSING_GPU_COUNT \(no GPUs capability\)",
     lambda m: "GPU count from SkyPilot's list of Azure families (Azure gives none for this size)"),
    (r"fractional GPU: (\S+) of one per unit", lambda m: f"{m[1]} of a GPU per instance"),
    (r"fractional GPU: (\S+) of one per unit \((\S+) of the (\S+) MiB of a whole (.+); the API gave (?:Count (\S+)|no "
     r"Count) and no GpuPartitionSize\)",
     lambda m: f"{m[1]} of a GPU per instance (its {m[2]} MiB of a whole {m[4]}'s {m[3]} MiB; AWS gives "
               + (f"a count of {m[5]}" if m[5] else "no count") + " and no share)"),
    (r"GPU partition; fraction unknown", lambda m: "a share of one GPU, how large not known"),
    (r"GPU partition: reference count (\S+) (matches|replaced by) the Azure docs share",
     lambda m: f"a share of one GPU: the source data's count of {m[1]} {m[2]} Azure's documented share"),
    (_A10 + r" \(as the reference\)", lambda m: _a10_share(m[1]) + " (as the source data says)"),
    (_A10 + r" \(the reference's (\S+) is rounded\)", lambda m: _a10_share(m[1]) + f" (the source data's {m[2]} is rounded)"),
    (_A10 + r" = (\S+)(?: \(the API reports GPUs=(\S+)\))?",
     lambda m: _a10_share(m[1], m[2]) + (f" (Azure reports {m[3]} GPU{'' if m[3] == '1' else 's'})" if m[3] else "")),
    (r"gpu_memory_gb unknown", lambda m: "GPU memory not known"),
    # the price
    (r"spot time unknown", lambda m: "date of the spot price not known"),
    (r"spot price of (\d{4}-\d\d-\d\d)T(\d\d:\d\d):\d\d\+00:00", lambda m: f"spot price of {m[1]} {m[2]} UTC"),
    (r"(No|Partial|All) Upfront/(standard|convertible)", lambda m: f"{m[1]} Upfront, {m[2]} reserved instance"),
    (r"reservation: (\S+) per (.+) term / (\d+) h",
     lambda m: f"reservation: {m[1]} for a {m[2]} term, over its {int(m[3]):,} hours"),
    (r"retailPrice per (.+)", lambda m: f"Azure's price is per {m[1]}"),
    (r"effectiveStartDate (\S+)", lambda m: f"price in force since {m[1]}"),
    (r"Retail Prices armSkuName(?: is)? '(.*)'", lambda m: f"named '{m[1]}' in Azure's price list"),
    (r"restricted in (.+): (\w+)", lambda m: f"restricted in {m[1]}: {_AZURE_RESTRICTIONS.get(m[2], m[2])}"),
))


def _note_part_words(part: str) -> str:
    """One part of an offer's note in words (_CLOUD_NOTE_WORDS, then whose figures a card has); else as it is."""
    for pattern, words in _CLOUD_NOTE_WORDS:
        found = pattern.fullmatch(part)
        if found:
            return words(found)
    overrides, custom = (FIELD_WORDS[f"onprem.{f}"].split(" (")[0] for f in ("card_overrides", "custom_cards"))
    part = _OVERRIDDEN_NOTE.sub(lambda m: f"your figures ({overrides}): {_spaced(m[1])}; the rest catalog figures", part)
    return _CUSTOM_NOTE.sub(f"your figures ({custom})", part)


def offer_note_words(note: object) -> object:
    """An offer's note as the Prices page shows it, in words: whose figures a card has (`scenario card_overrides
    (life_years, price), rest catalog` → `your figures (Card overrides): life years, price; the rest catalog figures`,
    `scenario custom_cards` → `your figures (Custom cards)`), and a cloud offer's facts without field names or files
    (`gpu_count unknown | gpu_memory_gb unknown` → `GPUs per instance not known | GPU memory not known`); a part it
    does not know, or a note that is no text, as it is. Display only: the engine's table keeps its notes."""
    if not isinstance(note, str):
        return note
    return " | ".join(_note_part_words(part) for part in note.split(" | "))


def no_cloud_allowed(scenario) -> str | None:
    """Why `scenario` allows no cloud offer at all (no provider, or no purchase option, chosen), else None: the
    reason the all-cloud baseline has no plan, which the engine words as no capacity serving a workload."""
    prices = getattr(scenario, "prices", None)
    if prices is None:
        return None
    if not prices.providers:
        return "no cloud offer is allowed: the scenario allows no provider (Allowed providers is empty)"
    if not prices.purchase_options:
        return "no cloud offer is allowed: the scenario allows no purchase option (Allowed purchase options is empty)"
    return None


def cost_table(plan: Plan) -> pd.DataFrame:
    """The plan's costs by category in words, then its total: category, cost (present values)."""
    costs = pd.concat([plan.costs, pd.DataFrame([{"category": "total", "cost": plan.total}])], ignore_index=True)
    return costs.assign(category=costs["category"].map(category_words))


def baselines_table(plan: Plan) -> pd.DataFrame:
    """The plan's baselines table as the Plan page shows it: each baseline in words and its note in words
    (baseline_row's)."""
    table = plan.baselines.copy()
    if table.empty or "baseline" not in table:
        return table
    table["note"] = [baseline_row(plan, b)["note"] for b in table["baseline"]]
    table["baseline"] = table["baseline"].map(lambda b: BASELINE_WORDS.get(b, b))
    return table


def action(provider: str, purchase_option: str, new_units: float, kept_units: float = 1.0,
           sold_units: float = 0.0) -> str:
    """What the plan does with a fleet row; an owned card that is neither bought nor kept working is sold
    or switched off."""
    if provider == "onprem":
        if new_units and new_units > 0:
            return "buy"
        if kept_units > 0:
            return "keep (owned)"
        return "sell (owned)" if sold_units > 0 else "switch off (owned)"
    if purchase_option.startswith(("reserved", "savings_plan")):
        return "reserve"
    return "rent spot" if purchase_option == "spot" else "rent on-demand"


def fleet_table(plan: Plan) -> pd.DataFrame:
    """The recommended fleet, one row per card, reservation or rented offer, by action."""
    f = plan.fleet
    cols = ["action", "sku", "gpu", "provider", "region", "purchase_option", "units", "existing_units",
            "new_units", "sold_units", "switched_off_units", "instance_hours", "cost"]
    if f.empty:
        return pd.DataFrame(columns=cols)
    out = f.copy()
    for c in ("sold_units", "switched_off_units"):
        if c not in out:
            out[c] = 0.0
    kept = out["existing_units"].fillna(0) - out["sold_units"].fillna(0) - out["switched_off_units"].fillna(0)
    out["action"] = [action(p, o, n, k, d) for p, o, n, k, d in
                     zip(out["provider"], out["purchase_option"], out["new_units"], kept, out["sold_units"].fillna(0))]
    out["_order"] = out["action"].map({a: i for i, a in enumerate(ACTION_ORDER)})
    return out.sort_values(["_order", "cost"], ascending=[True, False], kind="mergesort")[cols].reset_index(drop=True)


def fleet_for_reading(plan: Plan, decimals: int = 2) -> Plan:
    """`plan` (a shallow copy) with its fleet's numbers rounded to `decimals` (cents, hundredths of an hour): the
    dashboard's fleet CSV is read in a spreadsheet, where the solver's -1106.0000000000002 USD and 18174.334140435833
    hours are noise. The library's exports (the CSV zip, JSON, the workbook) stay exact, as the CLI writes them: their
    costs sum to the plan's total."""
    import copy

    shown = copy.copy(plan)
    floats = [c for c in plan.fleet.columns if pd.api.types.is_float_dtype(plan.fleet[c])]
    shown.fleet = plan.fleet.assign(**{c: plan.fleet[c].round(decimals) + 0.0 for c in floats})   # + 0.0: no -0.0
    return shown


@dataclass(frozen=True)
class Card:
    label: str
    value: str
    detail: str


def _units(n: float) -> str:
    return f"{n:g}"


def _n(n: float, noun: str) -> str:
    """`n` (a count the solver gives as a float: 3.0) and `noun`, plural unless one: "1 card", "3 cards"."""
    return f"{n:g} {noun}" + ("" if n == 1 else "s")


def _as_boards(sku: str, units: float) -> str:
    """' (4 whole 8-GPU boards)' after the GPUs bought of a catalog card sold only as whole boards (its sold_in_units_of):
    '32 × hgx-h100-8gpu' read as 32 servers (a browser audit, 2026-12-06); '' for any other card."""
    board = board_gpus(str(sku))
    if board <= 1 or not units:
        return ""
    boards = int(round(units)) // board
    return f" ({boards:,} whole {board}-GPU board{'' if boards == 1 else 's'})"


def fleet_cards(plan: Plan) -> list[Card]:
    """Headline cards: what to buy, what is kept, what to reserve, what to rent (and for how long). The hours rented
    are instance-hours, summed only over one instance type: a p5.48xlarge (8 H100) hour and a 1-T4 VM's hour are no
    one unit (the plan carries no GPU count per offer to turn them into GPU-hours), so rentals of several types are
    counted by type, each one's hours in the card's line."""
    t = fleet_table(plan)
    cards = []
    buy = t[t["action"] == "buy"]
    cards.append(Card("Buy", _n(buy["new_units"].sum(), "card"),
                      ", ".join(f"{_units(r.new_units)} × {r.sku}{_as_boards(r.sku, r.new_units)}"
                                for r in buy.itertuples()) or "nothing new"))
    owned = t[t["provider"] == "onprem"]
    if (owned["existing_units"] > 0).any():
        # what the plan does with the cards already owned: keep, switch off or sell (Plan.fleet counts each)
        had = owned[owned["existing_units"] > 0]
        sold, off = had["sold_units"].fillna(0), had["switched_off_units"].fillna(0)
        kept = had["existing_units"] - sold - off
        parts = [f"{verb} {int(n)} × {sku}" for verb, counts in (("keep", kept), ("switch off", off), ("sell", sold))
                 for n, sku in zip(counts, had["sku"]) if n > 0]
        cards.append(Card("Owned cards", f"{kept.sum():g} of {had['existing_units'].sum():g} kept", ", ".join(parts)))
    res = t[t["action"] == "reserve"]
    cards.append(Card("Reserve", _n(res["units"].sum(), "instance"),
                      ", ".join(f"{_units(r.units)} × {r.provider} {r.sku} ({r.purchase_option})"
                                for r in res.itertuples()) or "no reservations"))
    rent = t[t["action"].str.startswith("rent")]
    types = list(dict.fromkeys(zip(rent["provider"], rent["sku"])))
    hours = rent["instance_hours"].sum()
    value = (f"{hours:,.0f} instance-h" if len(types) <= 1 else _counted(len(types), "instance type"))
    cards.append(Card("Rent", value,
                      ", ".join(f"{r.provider} {r.sku} {r.purchase_option.replace('_', '-')}: {r.instance_hours:,.0f} "
                                "instance-h" for r in rent.itertuples()) or "no cloud rental"))
    return cards


def baseline_row(plan: Plan, baseline: str) -> dict | None:
    """The row of `baseline` (all_cloud, all_onprem, best_single) in the plan's baselines table, its note in words
    (note_words); an all-cloud baseline without a plan because the scenario allows no cloud offer says so, not
    that no capacity of this type can serve a workload. None without the row."""
    b = plan.baselines
    if b is None or b.empty:
        return None
    rows = b[b["baseline"] == baseline]
    if not len(rows):
        return None
    row = rows.iloc[0].to_dict()
    no_cloud = no_cloud_allowed(plan.scenario) if baseline == "all_cloud" and row["status"] == "infeasible" else None
    note = row.get("note")
    row["note"] = no_cloud or (note_words(note) if isinstance(note, str) else note)
    return row


def cumulative(plan: Plan, others: dict[str, Plan | None] | None = None) -> pd.DataFrame:
    """Cumulative present-value cost by month: `month` 1..H+1 (H+1 = residual value and payments after
    the horizon, so the last value is each plan's total) and one column per plan."""
    data = {"month": plan.monthly["month"].to_numpy(), "recommended": plan.monthly["total_discounted"].cumsum().to_numpy()}
    for name, other in (others if others is not None else plan.baseline_plans).items():
        if other is not None and len(other.monthly) == len(plan.monthly):
            data[name] = other.monthly["total_discounted"].cumsum().to_numpy()
    return pd.DataFrame(data)


def cumulative_of(plans: dict[str, Plan]) -> pd.DataFrame:
    """Cumulative present-value cost of several plans (horizons may differ): `month` and one column per
    plan; each plan's last month is its H+1 (residual value and payments after its horizon)."""
    out = None
    for name, p in plans.items():
        df = pd.DataFrame({"month": p.monthly["month"].to_numpy(),
                           name: p.monthly["total_discounted"].cumsum().to_numpy()})
        out = df if out is None else out.merge(df, on="month", how="outer")
    return out.sort_values("month").reset_index(drop=True) if out is not None else pd.DataFrame({"month": []})


def break_even_month(cum: pd.DataFrame, against: str = "all_cloud", tol: float = 1e-6) -> int | None:
    """First month from which the recommended cumulative cost stays below `against`'s until the end
    (month H+1 included); None when it never does."""
    if against not in cum:
        return None
    below = (cum["recommended"] < cum[against] - tol).to_numpy()
    if not below[-1]:
        return None
    m = len(below)
    while m > 0 and below[m - 1]:
        m -= 1
    return int(cum["month"].iloc[m])


def offer_label(offer_id: str) -> str:
    """`aws:us-east-1:p5.48xlarge:on_demand` -> `aws p5.48xlarge on-demand (us-east-1)`: short enough
    for a table column."""
    parts = str(offer_id).split(":")
    if len(parts) != 4:
        return str(offer_id)
    provider, region, sku, option = parts
    return f"{provider} {sku} {option.replace('_', '-')} ({region})"


def break_even_table(plan: Plan) -> tuple[pd.DataFrame, list[str]]:
    """(the break-even table as the Plan page shows it, its notes as sentences): per card and workload,
    the break-even utilisation and the card's utilisation in this plan in %, the cloud offer it is
    measured against. The notes go below the table, where they need no column of their own."""
    t = plan.break_even.copy()
    cols = ["card", "workload", "break_even_utilisation", "utilisation_in_plan", "cloud_offer",
            "cloud_cost_per_reference_hour", "card_fixed_cost_per_month"]
    if t.empty:
        return pd.DataFrame(columns=cols), []
    used = dict(zip(plan.utilisation["card"], plan.utilisation["utilisation"])) if len(plan.utilisation) else {}
    t["utilisation_in_plan"] = t["card"].map(used)
    t[["break_even_utilisation", "utilisation_in_plan"]] *= 100
    t["cloud_offer"] = t["cloud_offer"].map(offer_label)
    # more than every hour of the card's life ("481%" read as a figure to reach): no utilisation pays it off, shown as
    # "never" is; the share it would take is said in the note
    share = t["break_even_utilisation"]
    # inf: the engine's own "never" (cloud work costs less than energy); the rule the CLI's table shows "never" by too
    beyond = (share / 100).map(never_breaks_even) & (share < math.inf)
    t["note"] = [f"it would have to work {pct:,.0f} % of its hours, more than there are: renting this work costs "
                 "less at any utilisation" if over else note for pct, over, note in zip(share, beyond, t["note"])]
    t.loc[beyond, "break_even_utilisation"] = math.inf
    notes = [f"{r.card} for {r.workload}: {r.note}" for r in t.itertuples() if isinstance(r.note, str) and r.note]
    return t[cols].reset_index(drop=True), notes


def all_cloud(plan: Plan) -> bool:
    """True when the recommended fleet owns and buys no card: it is an all-cloud plan."""
    f = plan.fleet
    return f.empty or not ((f["provider"] == "onprem") & (f["units"].fillna(0) > 0)).any()


def break_even_text(plan: Plan, cum: pd.DataFrame, month: int | None) -> str:
    """The caption under the cumulative chart: from which month the plan stays below all-cloud's."""
    end_point = "The end point adds the residual value of owned cards and payments after the horizon."
    rule = f" (the first month from which the recommended plan's cumulative cost stays below all-cloud's). {end_point}"
    if "all_cloud" not in cum:
        why = no_cloud_allowed(plan.scenario) or "no cloud offer can serve every workload"
        return f"No all-cloud plan to compare with: {why}."
    if month is None and all_cloud(plan):
        return ("The recommended plan is itself all cloud: owning cards does not pay off here, so there is no "
                "break-even month.")
    if month is None:   # the rule's bracket defines "break-even", a word this sentence did not use (an audit)
        return ("No break-even against all cloud: from no month on does the recommended plan's cumulative cost stay "
                f"below all-cloud's, the end point included. {end_point}")
    if month > plan.horizon_months:
        return "Break-even against all cloud: only with the residual value" + rule
    return f"Break-even against all cloud: from month {month}" + rule


def _offers_as_units(view: pd.DataFrame, scenario) -> pd.DataFrame:
    """The offers of `view` as the engine's units, with the facts that decide which workloads a unit can serve
    (engine.workloads.work_matrix): kind (card, on_demand, spot, reserved), GPU, its count and memory, and a card's
    cards per server — the scenario's own cards' (site_card_rows, custom cards included), else the catalog's."""
    from planner.catalog import load_cards
    from planner.catalog.offers import site_card_rows
    from planner.engine.inputs import KIND_OF_OPTION

    per_server = dict(zip(load_cards().index, load_cards()["cards_per_server"]))
    if scenario is not None:
        per_server.update({card["card_id"]: card["cards_per_server"] for card in site_card_rows(scenario)})
    card = view["purchase_option"].eq("purchase").to_numpy()
    count = view["gpu_count"].astype(float) if "gpu_count" in view else pd.Series(1.0, index=view.index)
    return pd.DataFrame({
        "unit_id": [str(i) for i in range(len(view))],
        "kind": ["card" if c else KIND_OF_OPTION.get(o, o) for c, o in zip(card, view["purchase_option"])],
        "provider": view["provider"].to_numpy(), "sku": view["sku"].to_numpy(), "gpu": view["gpu"].to_numpy(),
        "gpu_known": view["gpu"].notna().to_numpy(), "accelerator_name": view["gpu"].fillna(view["sku"]).to_numpy(),
        "gpu_count": count.to_numpy(), "gpu_memory_gb": view["gpu_memory_gb"].astype(float).to_numpy(),
        "cards_per_server": [per_server.get(s, math.nan) if c else math.nan for c, s in zip(card, view["sku"])]})


def per_reference_hour(view: pd.DataFrame, workload, scenario=None) -> pd.DataFrame:
    """`view` (the offers table, USD) with what an hour of the workload's reference GPU's work costs on each offer,
    counted as its plan counts that work (engine.workloads.work_matrix, the engine's own rule):
    `speed_vs_reference`, the reference-GPU-hours an hour of one of the offer's GPUs delivers (the speed model or the
    workload's throughput table, a multi-GPU job's efficiency, spot's interruption overhead);
    `usd_per_reference_gpu_hour` = usd_per_gpu_hour / that; and `cannot_serve`, the engine's reason the plan
    cannot use the offer for this workload (spot for work that cannot be interrupted, too little memory, too few
    GPUs per node for a job, the framework's build or the compute capability, no speed figure), empty where it
    can — such an offer has no speed or price and sorts last. Sorted cheapest first: a T4 and an H100 compared by
    the work they do, not by the hour. `scenario`: the workload's, whose custom cards count as the plan counts them
    (a throughput entry keyed by a custom card's id is its GPU's)."""
    from types import SimpleNamespace

    from planner.engine.workloads import work_matrix

    out = view.reset_index(drop=True)
    # the engine judges every workload of a scenario: this one alone is asked about
    one = (SimpleNamespace(workloads=(workload,), onprem=SimpleNamespace(custom_cards={})) if scenario is None
           else scenario.model_copy(update={"workloads": (workload,)}))
    units = _offers_as_units(out, scenario)
    work, excluded = work_matrix(one, units)
    reasons = dict(zip(excluded["unit_id"], excluded["reason"]))
    out["cannot_serve"] = [reasons.get(u, "") for u in units["unit_id"]]
    speed = pd.Series(work[:, 0], index=out.index) / units["gpu_count"]
    out["speed_vs_reference"] = speed.where((out["cannot_serve"] == "") & (speed > 0))
    out["usd_per_reference_gpu_hour"] = out["usd_per_gpu_hour"] / out["speed_vs_reference"]
    first = ["provider", "region", "sku", "purchase_option", "gpu", "usd_per_reference_gpu_hour", "usd_per_gpu_hour",
             "speed_vs_reference", "cannot_serve"]
    out = out[first + [c for c in out.columns if c not in first]]
    return out.sort_values("usd_per_reference_gpu_hour", na_position="last", kind="mergesort").reset_index(drop=True)


def offers_in_currency(table: pd.DataFrame, per_usd: float) -> pd.DataFrame:
    """The offers `table` (offer_costs.VIEW_COLUMNS, its prices in USD) with its prices in a scenario's currency:
    usd_per_hour and usd_per_gpu_hour × `per_usd`, the units of that currency one USD is worth (the scenario's
    fx.USD; 1 for a USD scenario). The columns keep the engine's names (per_reference_hour and the chart read them);
    the page's labels name the currency."""
    if per_usd == 1:
        return table
    return table.assign(**{c: table[c] * per_usd for c in ("usd_per_hour", "usd_per_gpu_hour")})


def offers_rate_words(currency: str, per_usd: float) -> str:
    """How the Prices page's prices came to be in `currency`: "" for USD (the offers' own), else the rate used and
    where it comes from, e.g. "the offers' USD prices × 0.92 EUR per USD, the scenario's fx.USD"."""
    if currency == "USD":
        return ""
    return f"the offers' USD prices × {per_usd:g} {currency} per USD, the scenario's fx.USD"


# The offers table's prices, the one it is ranked by first: per hour of a workload's work (per_reference_hour), else
# per GPU-hour (offers_table's order)
OFFER_PRICES = ("usd_per_reference_gpu_hour", "usd_per_gpu_hour", "usd_per_hour")


# The Prices page's offers table's other columns by their headers, in words (the engine's names are its DataFrame's;
# the page showed them raw: `gpu_memory_gb`, `as_of`): (header, help)
OFFER_HEADERS = {
    "purchase_option": ("purchase option", None),
    "provider": ("provider", None),
    "region": ("region", None),
    "gpu": ("GPU", None),
    "gpu_count": ("GPUs", "GPUs per instance or card"),
    "gpu_memory_gb": ("GB per GPU", "GPU memory, GB per GPU"),
    "vcpus": ("vCPUs", None),
    "memory_gb": ("RAM, GB", "the instance's memory (RAM), GB"),
    "zone": ("zone", None),
    "as_of": ("price as of", "the date the price was read"),
    "note": ("note", None),
}


def offers_column_order(columns) -> list[str]:
    """The Prices page's offers table's `columns` in the order it shows them: the offer's name (sku), its prices
    (OFFER_PRICES, those there are), its purchase option, then the rest in the table's order. A phone (356 px) shows
    the name and the price the offers are ranked by; the rest is a swipe away. The offers a workload cannot use are
    not in this table (they have no price per hour of its work): unusable_reasons lists them under it."""
    first = ["sku", *(c for c in OFFER_PRICES if c in columns), "purchase_option"]
    return [c for c in first if c in columns] + [c for c in columns if c not in first]


# how many of a reason's offers' names its line names; the rest are counted ("and 9 more")
NAMES_PER_REASON = 3


def unusable_reasons(ranked: pd.DataFrame) -> pd.DataFrame:
    """The reasons a workload cannot use offers of `ranked` (per_reference_hour's table), each once: `reason` (the
    engine's text, whole), `offers` (how many offers it covers) and `names` (their distinct card or instance names,
    in the table's order), the reason covering most offers first (ties in the order the table first meets them).
    Empty where the workload can use every offer."""
    unusable = ranked[ranked["cannot_serve"] != ""]
    groups = unusable.groupby("cannot_serve", sort=False)["sku"]
    out = pd.DataFrame({"reason": list(groups.groups), "offers": groups.size().to_numpy(),
                        "names": [list(dict.fromkeys(g)) for _, g in groups]})
    return out.sort_values("offers", ascending=False, kind="mergesort").reset_index(drop=True)


def unusable_reason_line(reason: str, offers: int, names: list[str]) -> str:
    """A Markdown list item of the Prices page for one of unusable_reasons' rows: the reason whole (it wraps), then
    how many offers it covers and the first names, e.g. "…: 12 offers, 5 cards or instances: p3.2xlarge,
    p3.8xlarge, g4dn.xlarge and 2 more". The reason and the names are as the engine and the price source spell them
    (a GPU name from an offers CSV): escaped, never Markdown; on one line, a list item each."""
    shown = ", ".join(plain(n) for n in names[:NAMES_PER_REASON])
    more = len(names) - NAMES_PER_REASON
    # an instance offered in several regions or purchase options is one name: the names are counted apart then
    kinds = ("" if len(names) == offers else ", 1 card or instance" if len(names) == 1
             else f", {len(names):,} cards or instances")
    return (f"- {plain(' '.join(str(reason).split()))} — {_counted(offers, 'offer')}{kinds}: {shown}"
            + (f" and {more:,} more" if more > 0 else ""))


# ---------------------------------------------------------------------------------------------------
# The Compare page's "Inputs that differ"


# The fields whose value is money per some unit, named with the scenario's currency where a page knows it: the
# sidebar's "Electricity price (USD per kWh)", not "Electricity price, per kWh" beside a bare 0.12
_MONEY_PER_UNIT = {
    "onprem.electricity_per_kwh": "Electricity price, {currency} per kWh",
    "onprem.colocation_per_kw_month": "Colocation, {currency} per kW and month",
    "onprem.fixed_onprem_per_month": "Fixed on-prem (site) cost, {currency} per month",
    "onprem.capex_budget": "Capex budget, {currency}", "onprem.capex_budget_per_year": "Capex budget per year, {currency}",
}


def field_name_in(path: str, currency: str | None) -> str:
    """field_name, a money field's with the `currency` of its values (`Electricity price, USD per kWh`)."""
    if currency and path in _MONEY_PER_UNIT:
        return _MONEY_PER_UNIT[path].format(currency=currency)
    return field_name(path)


def inputs_table(shown: pd.DataFrame, currency: str | None = None) -> pd.DataFrame:
    """`shown` (Comparison.inputs_shown: path, a, b as the CLI and the library say them: "none (no cap)",
    "(not set)", 14,000, true) as "Inputs that differ" shows it: input (the path in words: field_name, a money field
    with the comparison's `currency`), a and b, then the path, where the scenario file sets it."""
    return shown.assign(input=[field_name_in(path, currency) for path in shown["path"]])[["input", "a", "b", "path"]]


# The planner names a comparison's sides "a" and "b" (reports.compare.basis_note: "not like for like: a sums 36
# months at 0%/year, b 24 months at 0%/year"); the Compare page names them A and B
_SIDES = ((re.compile(r"(?<=: )a (?=sums )"), "A "), (re.compile(r"(?<=, )b (?=\d)"), "B "))


def page_sides(note: str) -> str:
    """A comparison's note with its sides named as the Compare page names them, A and B."""
    for pattern, words in _SIDES:
        note = pattern.sub(words, note)
    return note


# ---------------------------------------------------------------------------------------------------
# The price banner


def _snapshot_age(snap: dict, today: date) -> int | None:
    """A store snapshot's age in calendar days, as the command line says it (pricing_adapters.shown.calendar_days: its
    elapsed days rounded down were a day short after midnight); from its elapsed `age_days` where its time is
    unreadable (a plan saved by hand)."""
    try:
        return calendar_days(snap["fetched_at"], today)
    except (KeyError, TypeError, ValueError):
        age = snap.get("age_days")
        return math.floor(age) if isinstance(age, (int, float)) and math.isfinite(age) else None


def _age_days(as_of: str | None, today: date) -> int | None:
    try:
        return (today - date.fromisoformat(str(as_of)[:10])).days
    except (TypeError, ValueError):
        return None


def _counted(n: int, what: str) -> str:
    return f"{n:,} {what}" + ("" if n == 1 else "s")


def _in_future(as_of: str, today: date) -> bool:
    """True when `as_of` is after tomorrow: a typo or a wrong clock, which would read as the freshest price. A day's
    slack, as catalog.date_report's: a refresh is dated in UTC, which west of UTC is tomorrow all evening."""
    age = _age_days(as_of, today)
    return age is not None and age < -1


def _ago(as_of: str, today: date) -> str:
    """'139 days ago', 'today' (or tomorrow, in UTC: see _in_future)."""
    age = _age_days(as_of, today)
    return "not an ISO date" if age is None else _ago_days(age)


def _ago_days(age: int | None) -> str:
    """An age in days in words: '1 day ago', '139 days ago', 'today' (0 or less)."""
    if age is None:
        return "date not known"
    return "today" if age <= 0 else f"{_counted(age, 'day')} ago"


FUTURE = "in the future: check the date"


def _cloud_dates(dates: dict, today: date) -> tuple[str, int | None, str | None]:
    """(the banner's part on the cloud prices used, the newest one's age in days or None, why it needs a look:
    "undated" (none has a date), "future" (the newest is dated in the future) or None); `dates`: prices_used's
    "cloud_dates"."""
    n, undated = dates.get("prices") or 0, dates.get("undated_prices") or 0
    newest, oldest = dates.get("as_of"), dates.get("as_of_oldest")
    if not n:
        return "no cloud price in use", None, None
    if not newest:
        return f"{_counted(n, 'cloud price')} in use, " + ("undated" if n == 1 else "all undated"), None, "undated"
    if _in_future(newest, today):
        text, age, look = f"newest cloud price dated {newest}, {FUTURE}", None, "future"
    else:
        span = f"; oldest cloud price used {oldest}" if oldest and oldest != newest else ""
        text, age, look = f"newest cloud price as of {newest} ({_ago(newest, today)}{span})", _age_days(newest, today), None
    return text + (f", {_counted(undated, 'cloud price')} undated" if undated else ""), age, look


def _card_dates(dates: dict, today: date) -> tuple[str | None, bool, int | None]:
    """(the banner's part on the catalog's card prices used, None when the plan uses none; whether one is dated in
    the future; the oldest one's age in days, None when none is dated); `dates`: prices_used's "card_dates"."""
    n, undated = dates.get("prices") or 0, dates.get("undated_prices") or 0
    newest, oldest = dates.get("as_of"), dates.get("as_of_oldest") or dates.get("as_of")
    if not n:
        return None, False, None
    if not newest:
        return f"{_counted(n, 'catalog card price')}, " + ("undated" if n == 1 else "all undated"), False, None
    future = _in_future(newest, today)
    text = (f"newest catalog card price dated {newest}, {FUTURE}" if future else
            f"catalog card prices as of {oldest}" + (f" to {newest}" if newest != oldest else ""))
    return text + (f", {undated:,} undated" if undated else ""), future, _age_days(oldest, today)


def undated_named(offers: pd.DataFrame | None) -> str | None:
    """The undated prices among `offers` (a Plan's `offers`: the units of its fleet with the prices used, `as_of`
    empty where a price has no date), named as the plan's "undated prices" warning names them, from the same
    report (catalog.date_report: "aws g5.xlarge spot (us-east-1), card rtx-3060-12gb"; NAMED at most, the rest
    counted); None without offers or when none is undated. Read from the table, not from the warning's words."""
    if offers is None or not len(offers) or not {"sku", "as_of"} <= set(offers.columns):
        return None
    undated = date_report(offers)["undated"]
    if not undated:
        return None
    more = f" and {len(undated) - NAMED} more" if len(undated) > NAMED else ""
    return ", ".join(undated[:NAMED]) + more


def unpriced_provenance(scenario) -> dict[str, str]:
    """{card id: "date", "source" or "date and source"} of the catalog cards whose `onprem.card_overrides` entry
    gives an `as_of` or `source` but no `price`: the plan prices them at the catalog's price, under the date or
    source given (catalog.offers.site_card_rows), which prices_used counts among the scenario's quotes. A custom
    card's price is always the scenario's."""
    if scenario is None:
        return {}
    onprem = scenario.onprem
    given = {card: [name for name, value in (("date", o.as_of), ("source", o.source)) if value]
             for card, o in onprem.card_overrides.items() if o.price is None and card not in onprem.custom_cards}
    return {card: " and ".join(names) for card, names in given.items() if names}


def _quote_dates(quotes: list[dict], today: date, unpriced: dict[str, str] | None = None) -> tuple[list[str], bool]:
    """(the banner's parts on the scenario's own quotes, whether one is dated in the future); `quotes`:
    prices_used's "quotes"; `unpriced`: unpriced_provenance's cards, whose price is the catalog's and is said so.
    A card's name is the scenario's, shown as typed (plain)."""
    unpriced = unpriced or {}

    def dated(as_of: str) -> str:
        return f" is dated {as_of}" + (f", {FUTURE}" if _in_future(as_of, today) else f" ({_ago(as_of, today)})")

    priced = [q for q in quotes if q["card"] not in unpriced]
    undated = [plain(q["card"]) for q in priced if not q.get("as_of")]
    parts = [f"your quote{'s' if len(undated) > 1 else ''} for {', '.join(undated)} (no date given)"] if undated else []
    parts += [f"your quote for {plain(q['card'])}{dated(q['as_of'])}" for q in priced if q.get("as_of")]
    for q in quotes:
        if q["card"] in unpriced:
            parts.append(f"catalog price for {plain(q['card'])} with the {unpriced[q['card']]} you gave (the scenario "
                         "gives no price for it)" + (dated(q["as_of"]) if q.get("as_of") else ", undated"))
    return parts, any(q.get("as_of") and _in_future(q["as_of"], today) for q in quotes)


def pinned_words(snapshot: int) -> str:
    """What follows "price store" when the scenario pins one of its snapshots (prices.snapshot), in words: later
    refreshes are not read."""
    return f" as it stood at its snapshot #{snapshot}, fixed by the scenario file"


# How newer prices reach a plan, by its price source: the Prices page shows each offer's date; a refresh of the store is
# made on the command line (the dashboard has no button for it), and a plan reads it only with the scenario
# file's Price source set to the store and no snapshot pinned. The command said as jobs.MORE_TIME says one.
REFRESH_COMMAND = "`fleetplan prices refresh`"
REFRESH = f"a price refresh, made on the command line ({REFRESH_COMMAND})"


def _newer_prices(source: str, pinned: bool, asked: str | None) -> str:
    """Where to see the prices' dates and how newer ones reach a plan read from `source` (`pinned`: a store
    snapshot the scenario names; `asked`: the scenario's prices.source, "store" where the store had none to give),
    in the dashboard's words: one sentence."""
    if source == "snapshot" and asked != "store":
        newer = f"newer ones need {REFRESH}, and the scenario file's Price source set to the price store"
    elif source in ("store", "snapshot"):
        newer = f"newer ones need {REFRESH}" + (", and the scenario file's Price store snapshot removed" if pinned else "")
    else:
        newer = "newer ones need a newer offers CSV"
    return f" The Prices page shows each offer's date; {newer}."


def _card_advice(card_dates: dict, oldest_age: int | None) -> str:
    """The banner's sentence on the catalog's card prices when the oldest used is older than STALE_AFTER_DAYS
    ("" otherwise): the oldest one's date, and where a current price goes (a quote under the scenario file's card
    overrides, in the page's words). How old they are, and to check them, is the headline's (_headline)."""
    if oldest_age is None or oldest_age <= STALE_AFTER_DAYS:
        return ""
    return (f" The oldest catalog card price is dated {card_dates.get('as_of_oldest') or card_dates.get('as_of')}; a "
            f"quote of your own goes in the Plan page's quote box (sidebar, On-prem cards) or under the scenario file's "
            f"{_OVERRIDES}.")


def _headline(cloud_age: int | None, cards_age: int | None, undated: int, future: bool) -> str:
    """The banner's first sentence, for a budget holder: how old the prices are and what to do ("The cloud prices are
    230 days old, past the 180-day mark: check current prices before deciding."), "" where no price needs a look.
    `cloud_age`: the cloud prices' age in days where older than STALE_AFTER_DAYS (the newest one's, or a store
    snapshot's), else None; `cards_age`: the oldest catalog card price's where older, else None; `undated`: how many
    prices used have no date; `future`: a price is dated in the future."""
    old = [f"the cloud prices are {_counted(cloud_age, 'day')} old"] if cloud_age is not None else []
    if cards_age is not None:
        old.append(f"the catalog card prices {'are ' if not old else ''}up to {_counted(cards_age, 'day')} old")
    said = [" and ".join(old) + f", past the {STALE_AFTER_DAYS}-day mark"] if old else []
    if undated:
        said.append(f"{_counted(undated, 'price')} used {'has' if undated == 1 else 'have'} no date and may be old")
    if future:
        said.append("a price is dated in the future")
    if not said:
        return ""
    if old or undated:
        check = "check current prices" + (" and the date in the future" if future else "")
    else:
        check = "check its date"
    text = "; ".join(said)
    return f"{text[:1].upper()}{text[1:]}: {check} before deciding."


def _fresh_headline(cloud_age: int | None, cards_age: int | None) -> str:
    """The banner's first sentence where no price needs a look: how recent they are."""
    if cloud_age is not None:
        return ("The prices are recent: the newest cloud price is "
                + ("from today." if cloud_age <= 0 else f"{_counted(cloud_age, 'day')} old."))
    if cards_age is not None:
        return f"The prices are recent: the oldest catalog card price is {_counted(max(cards_age, 0), 'day')} old."
    return f"No price this plan uses is older than {STALE_AFTER_DAYS} days."


def price_banner(prices: dict, today: date | None = None, scenario=None,
                 offers: pd.DataFrame | None = None) -> tuple[str, str]:
    """(level, Markdown): level `warning` when the cloud prices used (or the store's snapshots) are older than
    STALE_AFTER_DAYS, have no date, or a price is dated in the future, or the source reported a problem; else
    `info`. Its first sentence, in bold, says plainly how old the prices are and what to do ("The cloud prices are 230
    days old, more than 180: check current prices before deciding.": _headline), for a budget holder; the details
    follow in a paragraph of their own (a browser audit, 2026-12-07: the age and the advice came after the list of
    sources, dates and shares). `prices`: a Plan's (engine.readback.prices_used). One rule of age for every price, the plan's own
    (catalog.prices.STALE_AFTER_DAYS: the command line's "stale prices: … older than 180 days"), so the banner and
    the command line call the same price old. Text names the source, how old the cloud prices used
    are — judged on those alone: the catalog's card prices and the scenario's own quotes (card_overrides, custom
    cards) are said apart, so a fresh quote hides no stale cloud price. With the plan's `scenario`, a card whose
    override gives a date or source but no price is said to be at the catalog's price, not "your quote" (without
    it, every card the prices count as quoted is). Prices to be checked are said with where the page shows their
    dates and how newer ones reach a plan, in the dashboard's words (the refresh's command for whoever runs it).
    What the source, the store and the scenario
    spell (a path, a provider, a card, a store row's offer_id in a warning) is shown as typed (plain); the dates are
    checked ISO dates (the offers contract, the store's fetched_at, the scenario's as_of) and need no escaping.
    `offers`: the Plan's offers (the units it used, with their `as_of`), whose undated prices the banner names
    (undated_named); without them it counts them. The shares of the total resting on undated and on stale prices
    (prices_used's `undated_share_of_total`, `stale_share_of_total`; of a total at or below 0 the amounts
    `undated_cost`, `stale_cost` in the scenario's currency) follow the list as the command line says them:
    "All prices used: dated 2026-03-20 to 2026-06-18, 1 undated (1.3 % of the total); 1 older than 180 days (66.4 % of
    the total)"."""
    today = today or utc_today()   # the plan's clock (generated_at, its stale-price warning): the same anywhere
    source = prices.get("source", "snapshot")
    name = {"snapshot": "packaged price snapshot", "store": "price store"}.get(source, f"offers CSV {plain(source)}")
    asked = getattr(getattr(scenario, "prices", None), "source", None)
    pinned = source == "store" and prices.get("pinned_snapshot") is not None   # the scenario's prices.snapshot
    if pinned:
        name += pinned_words(prices["pinned_snapshot"])
    parts = [f"Prices: {name}"]
    ages = []
    for snap in prices.get("snapshots") or []:
        age = _snapshot_age(snap, today)
        ages.append(age)
        parts.append(f"{plain(snap.get('provider'))} fetched {str(snap.get('fetched_at'))[:10]} ({_ago_days(age)})")
    cloud, cloud_age, cloud_look = _cloud_dates(prices.get("cloud_dates") or {}, today)
    card_dates = prices.get("card_dates") or {}
    cards, cards_future, cards_age = _card_dates(card_dates, today)
    quotes, quotes_future = _quote_dates(prices.get("quotes") or [], today, unpriced_provenance(scenario))
    parts += [cloud, *([cards] if cards else []), *quotes]
    text = " · ".join(parts)
    # how much of the total rests on the undated and on the stale prices, where the plan says it, in the words of the
    # command line's first line and summary.md (price_dates): a count of "1 undated" tells nothing of it
    dates = price_dates(prices, getattr(scenario, "currency", ""))
    if "of the total" in dates:
        text += f". All prices used: {dates}"
    text += "."
    # the headline: how old the prices are and what to do, first, plainly; the details (the list above, where the
    # dates are shown and how newer prices reach a plan, where a quote goes, the undated prices' names, the source's
    # note) after it. One rule of age for every price, the plan's own.
    stale = [a for a in ages + [cloud_age] if a is not None and a > STALE_AFTER_DAYS]
    cloud_old = max(stale) if stale else None
    cards_old = cards_age if cards_age is not None and cards_age > STALE_AFTER_DAYS else None
    # an undated price, cloud or card, is a price the plan's warnings name as the command line's do (a quote the
    # scenario gives is none: its date is the user's to give): the banner names them too, from the plan's offers
    # table (their empty as_of), not only their count
    undated = (card_dates.get("undated_prices") or 0) + ((prices.get("cloud_dates") or {}).get("undated_prices") or 0)
    headline = _headline(cloud_old, cards_old, undated, cloud_look == "future" or cards_future or quotes_future)
    level = "warning" if headline or prices.get("warning") else "info"
    if cloud_old is not None or cloud_look == "undated":
        text += _newer_prices(source, pinned, asked)
    text += _card_advice(card_dates, cards_age)
    named = undated_named(offers) if undated else None
    if named:
        text += f" {'Prices' if undated > 1 else 'The price'} used with no date: {plain(named)}."
    if prices.get("warning"):
        text += f" Note: {plain(_note(prices['warning'], REFRESH_COMMAND in text))}."
    return level, f"**{headline or _fresh_headline(cloud_age, cards_age)}**\n\n{text}"


# the refresh commands a price source's warning names for a store to make or fill (catalog.prices.refresh_said: one
# per provider, "`fleetplan prices refresh --provider aws --region us-east-1` and `… --provider azure …` make one")
_REFRESH_COMMANDS = re.compile(r"`fleetplan prices refresh[^`]*`(?: and `fleetplan prices refresh[^`]*`)*( make one)?")


def _note(warning: str, refresh_named: bool) -> str:
    """The price source's warning as the banner's "Note:" says it: where the banner named the refresh's command
    already (REFRESH), the note's refresh commands as "the price refresh" (the banner says the command once: "no
    price store at …: the price refresh makes one"); as the source gives it where the banner did not."""
    if not refresh_named:
        return warning
    return _REFRESH_COMMANDS.sub(lambda found: "the price refresh" + (" makes one" if found[1] else ""), warning)


def said_in_banner(prices: dict) -> set[str]:
    """The plan's warnings `price_banner` says already, in its "Note:": the price source's (a store missing or
    damaged, so the packaged snapshot), which plan() also puts first among a plan's warnings as "prices: …"
    (engine.run.price_source_warnings). `prices`: the Plan's."""
    return {f"prices: {prices['warning']}"} if prices.get("warning") else set()


# Three of a plan's warnings end with the remedy of the command line and the library for a solve its time limit cut
# short, which no one on the page can use: nothing on it gives the solves more time (jobs.TIME_LIMIT_S is the
# server's). The page says it in its words, as jobs.MORE_TIME does for the decisions: the scenario's file planned on
# the command line, which has no time limit unless asked. Each remedy as the engine words it, and the page's.
PAGE_NO_MORE_TIME = ("the dashboard allows its solves no more time: planning the scenario's file on the command line, "
                     "`fleetplan plan FILE` (no time limit unless --time-limit),")
PAGE_REMEDIES = {
    # not proven optimal (engine.run.unproven_warning: its solve stopped at the time limit)
    UNPROVEN_REMEDY: f"{PAGE_NO_MORE_TIME} lets it finish",
    # not the cheapest plan (engine.decisions.cheaper_found: its re-solves found a cheaper fleet)
    CHEAPER_REMEDY: f"{PAGE_NO_MORE_TIME} finds the best fleet",
    # a grouped profile not refined in time (engine.run._more_time, in engine.profile_slots.not_refined_warning)
    REFINE_REMEDY: f"{PAGE_NO_MORE_TIME} lets the planner add blocks",
}


def _template_pattern(template: str) -> re.Pattern:
    """A regex matching the text `template` formats to, each of its {fields} (a card id) any run of non-spaces."""
    return re.compile("".join(re.escape(text) + (r"\S+" if field is not None else "")
                              for text, field, _, _ in string.Formatter().parse(template)))


# A catalog card with no sourced price is not on the Prices page, and a plan does not buy it; the offers view's warning
# (engine.offer_costs.offers_table) and the plan's (engine.inputs) say where a price goes by the scenario's field
# paths: on the pages, the fields as the Prices page's caption names them (FIELD_WORDS), in the scenario file, as the
# price banner points there. The patterns are made of the engine's texts, so a rewording there still maps.
_OVERRIDES, _CUSTOM = (f"“{FIELD_WORDS[f'onprem.{field}']}”" for field in ("card_overrides", "custom_cards"))
PAGE_FIELD_REMEDIES = (
    # the scenario's cards not shown (engine.offer_costs.offers_table)
    (_template_pattern(UNPRICED_CARDS_REMEDY),
     f"give one from a quote in the Plan page's quote box (sidebar, On-prem cards), or in the scenario file: a price (and "
     f"currency) under its {_OVERRIDES}, or the card under its {_CUSTOM} with its price"),
    # a card not bought, or owned with no maintenance or resale value (engine.inputs._unpriced_cards)
    (_template_pattern(UNPRICED_CARD_REMEDY),
     f"set its price from a quote in the Plan page's quote box (sidebar, On-prem cards), or (and its currency) under the "
     f"scenario file's {_OVERRIDES}"),
)


def in_page_words(warning: str) -> str:
    """A warning as the Plan and Prices pages show it: one that a time limit cut short (not proven optimal, not the
    cheapest plan, a grouped profile not refined) ends with how to give it more time on this page's terms
    (PAGE_REMEDIES); where a card's price goes is said by the fields' words (PAGE_FIELD_REMEDIES); the others as
    the engine gives them. Display only: the downloads keep the engine's words."""
    for engine_words, page_words in PAGE_REMEDIES.items():
        warning = warning.replace(engine_words, page_words)
    for engine_words, page_words in PAGE_FIELD_REMEDIES:
        warning = engine_words.sub(page_words, warning)
    return warning


# ---------------------------------------------------------------------------------------------------
# What each decision is worth, the runner-up and the close call (planner.add_decisions, made in the
# background after the plan is shown: jobs.Decisions). Card and offer names are shown as typed (plain).

# The Plan page's box that holds the baselines table, whose notes name the limits a cheaper baseline drops
COSTS_BOX = "Cost by category, baselines and solver"


def fleet_text(fleet: dict | None) -> str:
    """`{'a100-80gb-pcie': 1, 'rtx-4090': 1}` -> `1 × a100-80gb-pcie, 1 × rtx-4090` (Markdown-safe)."""
    if not fleet:
        return "no cards or reservations"
    return ", ".join(f"{units:g} × {plain(name)}" for name, units in fleet.items())


def pct_text(x: float | None) -> str:
    """An increase in percent of the plan's total, signed, with two decimals or two significant digits under 0.05 %
    (as the CLI and the Markdown summary: `+0.0091 %`, not `+0.00 %`); `n/a` without one (a plan totalling 0)."""
    if x is None or not math.isfinite(x):
        return "n/a"
    text = share_text(x)
    return ("" if text.startswith("-") else "+") + text + " %"


def shares_shown(table: pd.DataFrame, column: str) -> pd.DataFrame:
    """`table` with its `column` of shares in percent rounded as the CLI and the Markdown summary show them (two
    decimals, two significant digits under 0.05 %: reports.tables.shown_share), still numbers (a table sorts them),
    for a NumberColumn without a format, which shows up to four decimals: "%.2f" showed 0.0091 as 0.00."""
    return table.assign(**{column: [v if v is None else shown_share(float(v)) for v in table[column]]})


def verdict(total: float, currency: str, made, status: str = "optimal") -> tuple[str, str]:
    """(kind, Markdown) of the line next to the total: kind `close_call` (a badge, the runner-up's fleet and
    total against the plan's, the threshold), `firm` (how much dearer the runner-up is), `not_best` (the
    runner-up costs less: the plan's own solve stopped unproven) or `none` (no runner-up, and why). `made`: a
    jobs.Decisions without error; `total` and `status`: the plan's."""
    runner = made.runner_up or {}
    share = 100 * float(runner.get("close_call_share") or 0)
    kind, unproven = runner_up_verdict(runner, SimpleNamespace(status=status, total=total, close_call=made.close_call))
    if kind == "none":
        return "none", f"No runner-up: {plain(runner.get('note') or runner.get('status') or 'none found')}."
    changes = plain("; ".join(runner.get("differences") or []))
    pct = runner["increase_pct"]
    # below a plan whose own solve stopped unproven (its warnings say what was found)
    if kind == "not_best":
        less = f"{-runner['increase']:,.0f} {currency} ({pct_text(None if pct is None else -pct).lstrip('+')}) less"
        return "not_best", (
            f":material/warning: **Not the best plan:** the runner-up ({changes}) costs {runner['total']:,.0f} "
            f"{currency}, {less} than this plan's {total:,.0f} {currency}: this plan's own solve stopped at its time "
            "limit before it proved the least cost. Plan it with more time (`fleetplan plan FILE`).")
    increase = f"{runner['increase']:,.0f} {currency} ({pct_text(pct)}) more"
    # a plan or runner-up whose solve stopped at the time limit: neither verdict is proven (as the summary says)
    unproven = {"plan": " *Not proven best: this plan's own solve stopped before it proved the least cost.*",
                "runner_up": " *Not proven best: its solve stopped at the time limit, so a cheaper runner-up may exist.*",
                None: ""}[unproven]
    if kind == "close_call":
        return "close_call", (
            f":orange-badge[:material/balance: Close call] The runner-up fleet — {fleet_text(runner['fleet'])} — costs "
            f"**{runner['total']:,.0f} {currency}**, only {increase} than this plan's {total:,.0f} {currency}: "
            f"within {scenario_fields('close_call_share')} of {share:g} %. It differs in {changes}. Weigh both "
            "fleets (*What each decision is worth*, below)." + unproven)
    # "Firm" beside "not proven best" contradicted itself (a browser audit, 2026-12-06): unproven, it is not settled
    head = ":material/check_circle: Firm" if not unproven else ":material/help: Not settled"
    return "firm", (f"{head}: the runner-up ({changes}) costs {runner['total']:,.0f} {currency}, "
                    f"{increase}; a close call is within {share:g} %." + unproven)


def count_alternatives(runner: dict | None) -> pd.DataFrame:
    """One card more or fewer (runner_up.count_alternatives, engine.decisions): card, units (the plan's),
    alternative_units (at most units − 1 or at least units + 1), held_units (what its fleet holds), status, total,
    increase, increase_pct, and asked: that bound as text, "≤ 87" or "≥ 89" ("87" beside a held 80 read as two
    counts that contradict) — the rows whose re-solve found a fleet."""
    columns = ["card", "units", "alternative_units", "held_units", "status", "total", "increase", "increase_pct"]
    rows = [{c: a.get(c) for c in columns} for a in (runner or {}).get("count_alternatives") or []
            if a.get("total") is not None]
    table = pd.DataFrame(rows, columns=columns)
    table["asked"] = [asked_text(u, a) for u, a in zip(table["units"], table["alternative_units"])]
    return table


def asked_text(units: int, alternative_units: int) -> str:
    """What a count alternative asked of the plan's `units` cards: "≥ 89" (at least one more) or "≤ 87"."""
    return f"≥ {alternative_units:,}" if alternative_units > units else f"≤ {alternative_units:,}"


def count_alternatives_left_out(runner: dict | None) -> str | None:
    """A line under that table for the rows it leaves out (no total: not computed, a scenario's rule forbids that
    count, or no plan meets the demand with it): how many, and each by card and count asked with why
    (engine.decisions.counts_left_out); None when it leaves none out (Markdown-safe)."""
    line = counts_left_out((runner or {}).get("count_alternatives") or [])
    return None if line is None else plain(line[0].upper() + line[1:] + ".")


def runner_up_fleets(runner: dict | None) -> pd.DataFrame:
    """Units held per card or reservation offer: `recommended`, `runner_up` and, when it is another fleet,
    `other_card_types` (the best fleet with another set of card types or reservation offers)."""
    runner = runner or {}
    columns = {"recommended": runner.get("plan_fleet") or {}, "runner_up": runner.get("fleet") or {}}
    types = (runner.get("other_types") or {}).get("fleet")
    if types is not None and types != runner.get("fleet"):
        columns["other_card_types"] = types
    names = list(dict.fromkeys(name for fleet in columns.values() for name in fleet))
    return pd.DataFrame({"card_or_offer": names, **{k: [int(v.get(n, 0)) for n in names] for k, v in columns.items()}})


def other_types_text(runner: dict | None, currency: str) -> str | None:
    """The best fleet with another set of card types or reservation offers, when it is not the runner-up itself, named
    for what differs (engine.decisions.other_types_kinds; Markdown-safe)."""
    runner = runner or {}
    types = runner.get("other_types") or {}
    if types.get("total") is None or types.get("fleet") == runner.get("fleet"):
        return None
    # a fleet with no card at work is the cloud alone, not "another set of card types" (an audit, on the CLI's line),
    # and says what it does with the owned cards, as the CLI's (engine.decisions.all_cloud_words)
    cloud = all_cloud_words(types)
    what = (f"With no cards, {plain(cloud)}" if cloud is not None else
            f"With another set of {other_types_kinds(runner.get('plan_fleet'), types.get('fleet'))}")
    return (f"{what} ({plain('; '.join(types.get('differences') or []))}): "
            f"{types['total']:,.0f} {currency}, {types['increase']:,.0f} {currency} ({pct_text(types['increase_pct'])}) more.")


def binding_text(caps: pd.DataFrame, currency: str) -> str:
    """Which limits bind (engine.decisions' cap costs) and what each costs the plan, or that none binds on its
    own, or that it is not known, and that each limit is lifted alone (engine.decisions.CAPS_LIFTED_ALONE, as the
    CLI says under its table) (Markdown-safe)."""
    names = [field_name(cap) for cap in caps["cap"]]   # in words, as the table above names them
    bound = [(cap, saving) for cap, saving, binds in zip(names, caps["saving"], caps["binds"]) if binds is True]
    unknown = [cap for cap, binds in zip(names, caps["binds"]) if binds is None]
    if bound:
        text = "Binds: " + "; ".join(f"{plain(cap)} — without it the plan would cost {saving:,.0f} {currency} less"
                                     for cap, saving in bound) + "."
    elif unknown:
        text = ""
    else:
        text = "No limit binds on its own: without any one of them the plan would cost no less."
    if unknown:
        text += (" " if text else "") + ("Not known for " + ", ".join(plain(cap) for cap in unknown)
                                        + " (see its note).")
    return text + f" {plain(CAPS_LIFTED_ALONE)}" + (
        " A baseline cheaper than the plan is so for the limits it drops, those that bind or several together: its "
        f"note in the baselines table (*{COSTS_BOX}*) names them.")
