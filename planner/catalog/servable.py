"""Whether a scenario has, for each workload, a unit it allows that can serve it, read without pandas: what
`fleetplan validate` says before a plan would fail with "no fleet" after its wait (engine.explain.unservable).

The units a plan may use, as engine.inputs and engine.explain._allowed find them: the cloud offers of the scenario's
providers, regions and purchase options (those the engine plans: on demand, spot and the reservations), and the cards
a fleet may hold (owned, or listed in onprem.cards with a sourced price or custom and buyable, or required by min_units;
none of a card whose max_units is 0). A unit can serve a workload, here, where it passes the first of engine.workloads._reason's
checks: a known GPU (not an accelerator that needs its own SDK unless the throughput table names it), spot capacity only
for an interruptible workload, a GPU count, at least min_gpu_memory_gb per GPU (memory is per GPU: a job's GPUs do not
pool it), gpus_per_job GPUs in one node (an instance's GPUs, a server's cards), the compute capability and framework
it needs, and a relative speed: the GPU in its throughput table, or a figure its throughput_metric's speed model has or
estimates from (catalog.speeds.no_speed_detail, read from the catalog's text rows). A workload said unservable here is
one plan refuses, with the same reasons; one said servable may still have no unit plan can use (plan then says why).
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Mapping

from planner.catalog import speeds
from planner.catalog.frameworks import capability_reason, exclusion_reason
from planner.catalog.gpus import card_rows, custom_gpu_id, custom_gpu_ids, gpu_rows, resolve_gpu
from planner.text import counted

# the purchase options the engine plans (engine.inputs.KIND_OF_OPTION): others (Azure's low_priority) are no unit
PLANNED_OPTIONS = {"on_demand": "on_demand", "spot": "spot", "reserved_1y": "reserved", "reserved_3y": "reserved",
                   "savings_plan_1y": "reserved", "savings_plan_3y": "reserved"}
# at most this many regions are named for a provider whose offers would have the memory a workload needs
REGIONS_NAMED = 5
# the reasons counted in a message (engine.explain.unservable_text)
REASONS_NAMED = 5


def workload_needs(w) -> str:
    """What workload `w` needs of a unit, as explanations say it: "≥ 48 GB, 1 GPU per job"."""
    needs = [f"≥ {w.min_gpu_memory_gb:g} GB", f"{counted(w.gpus_per_job, 'GPU')} per job"]
    if w.framework:
        needs.append(w.framework)
    if w.min_compute_capability:
        needs.append(f"compute capability ≥ {w.min_compute_capability:g}")
    return ", ".join(needs)


def _reason(w, gpus: dict, table: set, kind: str, gpu: str, known: bool, count: float, memory: float,
            per_node: float, name: str = "", figures: Mapping[str, Mapping] | None = None) -> str | None:
    """Why a unit cannot serve workload `w`, by engine.workloads._reason's checks, in its words; None where it passes
    them. `gpus`: GPU id -> (kind, compute capability) (`_gpu_kinds`); `table`: the GPU ids its throughput table names;
    `figures`: GPU id -> its datasheet figures (`_gpu_figures`), for the last check, a speed the speed model cannot
    estimate (left out without them)."""
    if not known or gpu not in gpus:
        return f"unknown accelerator {name or gpu}"
    kind_of_gpu, cc = gpus[gpu]
    if kind_of_gpu == "asic" and gpu not in table:
        return f"{gpu} is not a GPU (needs its own SDK): name it in the workload's throughput table to allow it"
    if kind == "spot" and not w.interruptible:
        return "spot capacity serves interruptible workloads only"
    if math.isnan(count) or count <= 0:
        return "GPU count unknown"
    if math.isnan(memory):
        need = w.min_gpu_memory_gb
        return "GPU memory unknown" + (f"; {need:g} GB per GPU needed" if need > 0 else "")
    if memory < w.min_gpu_memory_gb:
        return f"{memory:g} GB per GPU < {w.min_gpu_memory_gb:g} GB needed"
    if w.gpus_per_job > 1 and per_node < w.gpus_per_job:
        return f"{per_node:g} GPUs per node < {w.gpus_per_job} GPUs per job"
    if w.min_compute_capability is not None and not (cc >= w.min_compute_capability):
        return capability_reason(gpu, cc, w.min_compute_capability)
    if w.framework:
        why = exclusion_reason(w.framework, gpu, cc)
        if why:
            return why
    if w.throughput_unit == "requests_per_second":
        if gpu not in table:
            return f"{gpu} is not in the workload's requests/s throughput table: name it there to allow it"
        return None
    return _no_speed(w, gpu, kind_of_gpu, table, figures) if figures is not None else None


def _no_speed(w, gpu: str, kind_of_gpu: str, table: set, figures: Mapping[str, Mapping]) -> str | None:
    """engine.workloads._reason's last check in its words: `gpu` has no relative speed for workload `w` (one of
    relative speeds) where its throughput table does not name it and the speed model of its throughput_metric
    has no figure for it, measured or estimated (engine.workloads.speed_and_source). A reference GPU with no speed
    of its own and not in the table is the scenario's error (scenario.loading), before plan gets here: not said."""
    ref = resolve_gpu(w.reference_gpu)
    if gpu == ref or gpu in table:
        return None
    metric = w.throughput_metric
    base = speeds.no_speed_detail(metric, ref, figures.get(ref, {}), custom=_is_custom(ref, figures))
    if base is not None and ref not in table:
        return None
    detail = speeds.no_speed_detail(metric, gpu, figures.get(gpu, {}), custom=kind_of_gpu == "custom")
    if detail is None and base is not None:
        detail = f"reference {ref}: {base}"
    if detail is None:
        return None
    figure = "memory_bandwidth_gbps" if speeds.is_measured(metric) else metric
    where = (f"give its speed in the workload's throughput table under its onprem.custom_cards id, or set "
             f"gpu_specs.{figure}" if kind_of_gpu == "custom" else "add it to a throughput table")
    return f"no {metric} speed for {gpu}: {detail} ({where})"


def _is_custom(gpu: str, figures: Mapping[str, Mapping]) -> bool:
    return figures.get(gpu, {}).get("kind") == "custom"


def _gpu_figures(cards: list[dict]) -> dict[str, Mapping]:
    """GPU id -> its figures (the speed models' columns, and kind): the catalog's gpus.csv rows, and the gpu_specs of
    the custom GPUs of `cards` (`site_units`), as catalog.gpus.gpu_table gives them to the speed model."""
    figures: dict[str, Mapping] = dict(gpu_rows())
    figures.update({u["gpu"]: {**u["specs"], "kind": "custom"} for u in cards if u.get("specs") is not None
                    and u["gpu"] not in figures})
    return figures


def _gpu_kinds(cards: list[dict]) -> dict[str, tuple[str, float]]:
    """GPU id -> (kind, compute capability) of the catalog's GPUs and the custom GPUs of `cards` (`site_units`),
    as catalog.gpus.gpu_kinds gives them to the engine."""
    kinds = {gpu: (row["kind"], _float(row["compute_capability"])) for gpu, row in gpu_rows().items()}
    kinds.update({u["gpu"]: ("custom", u["cc"]) for u in cards if u["gpu"] not in kinds})
    return kinds


def _throughput_gpus(w, custom_gpus: dict[str, str]) -> set:
    """The GPU ids the workload's throughput table names (engine.workloads._table): a custom card's id stands
    for its GPU (`custom_gpus`: catalog.custom_gpu_ids)."""
    return {custom_gpus.get(k) or resolve_gpu(k) for k in (w.throughput or {})}


def _float(cell) -> float:
    try:
        return float(cell)
    except (TypeError, ValueError):
        return float("nan")


def site_units(scenario, unpriced: set) -> list[dict]:
    """The scenario's cards as units (engine.inputs._card_units), each with id, gpu, memory (GB per GPU),
    cards_per_server, compute capability, and whether a fleet may hold it (engine.explain._allowed) and why not.
    `unpriced`: the ids of its catalog cards with no sourced price (catalog.offers.unpriced_card_rows)."""
    o, c = scenario.onprem, scenario.constraints
    cards, gpus = card_rows(), gpu_rows()
    units = []
    for card_id in dict.fromkeys([*o.cards, *o.custom_cards, *o.existing, *c.min_units]):
        custom = o.custom_cards.get(card_id)
        figures = None
        if custom is not None and custom.gpu_specs is not None:
            specs = custom.gpu_specs
            gpu, memory = custom_gpu_id(card_id, specs), float(specs.memory_gb)
            figures = specs.model_dump()
            cc = float("nan") if specs.compute_capability is None else float(specs.compute_capability)
        else:
            gpu = custom.gpu if custom is not None else cards[card_id]["gpu"] if card_id in cards else None
            if gpu not in gpus:   # an unknown card or GPU id: validate's own error
                continue
            memory, cc = _float(gpus[gpu]["memory_gb"]), _float(gpus[gpu]["compute_capability"])
        override = o.card_overrides.get(card_id)
        per_server = (custom.cards_per_server if custom is not None
                      else getattr(override, "cards_per_server", None) or _float(cards[card_id]["cards_per_server"]))
        owned, least = o.owned_count(card_id), int(c.min_units.get(card_id, 0))
        most = c.max_units.get(card_id)
        buyable = o.may_buy(card_id) and card_id not in unpriced
        allowed = (owned > 0 or (buyable and (most is None or most > 0)) or least > 0) and most != 0
        held = held_reason(card_id, most == 0, card_id in unpriced, custom is not None)
        units.append({"id": card_id, "gpu": gpu, "memory": memory, "per_server": float(per_server), "cc": cc,
                      "allowed": allowed, "held": held, "specs": figures})
    return units


def held_reason(card_id: str, max_units_zero: bool, unpriced: bool, custom: bool) -> str:
    """Why no fleet may hold card `card_id` (one not allowed: none owned nor required), as validate (site_units) and a
    plan's explanation (engine.explain) say it: its max_units 0, no sourced price, a custom card whose buyable is
    false, or a catalog card not listed in onprem.cards."""
    if max_units_zero:
        return f"constraints.max_units.{card_id} = 0"
    if unpriced:
        return f"it has no sourced price and none is owned (give onprem.card_overrides.{card_id}.price)"
    if custom:
        return f"custom_cards.{card_id}.buyable is false and none is owned (onprem.existing)"
    return "it is neither listed in onprem.cards nor owned (onprem.existing)"


def allowed_offer(scenario, offer: tuple) -> bool:
    """Whether the scenario allows the offer (catalog.prices.offer_facts' row) as a unit of its plans."""
    p = scenario.prices
    return (offer[1] != "onprem" and offer[1] in p.providers and offer[4] in p.purchase_options
            and offer[4] in PLANNED_OPTIONS and (p.regions is None or offer[2] in p.regions))


def unservable(scenario, offers: list[tuple], unpriced: set) -> list[tuple[int, str, str]]:
    """(workload index, field, message) per workload of `scenario` that no unit it allows can serve (`_reason`),
    where plan would find no fleet: a workload with demand, or one no unit at all can serve
    (engine.explain.check_compatibility). `offers`: catalog.prices.offer_facts of its price source. The message is
    engine.explain.unservable_text's: the reasons counted, the most memory of the allowed cards and offers, the cards
    that could serve it held at 0 and why, and where offers with the memory are; the field the one the reasons are
    about (min_gpu_memory_gb, gpus_per_job; else the workload's name)."""
    cards = site_units(scenario, unpriced)
    gpus, custom_gpus = _gpu_kinds(cards), custom_gpu_ids(scenario.onprem.custom_cards)
    figures = _gpu_figures(cards)
    cloud = [o for o in offers if allowed_offer(scenario, o)]
    out = []
    for j, w in enumerate(scenario.workloads):
        table = _throughput_gpus(w, custom_gpus)
        card_why = [_reason(w, gpus, table, "card", u["gpu"], True, 1.0, u["memory"], u["per_server"], figures=figures)
                    for u in cards]
        cloud_why = [_reason(w, gpus, table, PLANNED_OPTIONS[o[4]], o[5], o[6], o[7], o[8], o[7], o[10], figures)
                     for o in cloud]
        if any(why is None for u, why in zip(cards, card_why) if u["allowed"]) or any(why is None for why in cloud_why):
            continue
        any_unit = any(why is None for why in card_why)
        if any_unit and not w.demand_amount > 0:   # no demand: a card held at 0 leaves nothing unserved
            continue
        out.append((j, _field(card_why, cloud_why), _text(w, cards, card_why, cloud, cloud_why, offers)))
    return out


def _field(card_why: list, cloud_why: list) -> str:
    reasons = [why for why in [*card_why, *cloud_why] if why]
    if any("GB needed" in why or "GB per GPU needed" in why for why in reasons):
        return "min_gpu_memory_gb"
    if any("GPUs per job" in why for why in reasons):
        return "gpus_per_job"
    if any(why == "spot capacity serves interruptible workloads only" for why in reasons):
        return "interruptible"
    if any(why.startswith("compute capability ") for why in reasons):
        return "min_compute_capability"
    if any("requests/s throughput table" in why for why in reasons):
        return "throughput"
    if any(why.startswith(f"no {metric} speed for ") for why in reasons for metric in speeds.METRIC_NAMES):
        return "throughput_metric"
    return "name"


def _text(w, cards: list, card_why: list, cloud: list, cloud_why: list, offers: list) -> str:
    """engine.explain.unservable_text's message of workload `w` (see `unservable`)."""
    allowed = [u["allowed"] for u in cards]
    counts = Counter(why for ok, why in zip(allowed, card_why) if ok) + Counter(cloud_why)
    parts = [reasons_text(counts) or "no offers or cards allowed"]
    need = w.min_gpu_memory_gb if any(why.endswith(" GB needed") for why in counts) else None
    if need is not None:
        parts.append(_most_memory(w, cards, cloud, need))
    parts += [f"{u['id']} ({u['gpu']}, {u['memory']:g} GB) could serve it, but {u['held']}"
              for u, why in zip(cards, card_why) if not u["allowed"] and why is None]
    if need is not None:
        parts.append(_memory_elsewhere(cloud, offers, need))
    n_allowed = sum(allowed) + len(cloud)
    return (f"workload {w.name} ({workload_needs(w)}) has no compatible offer among the {n_allowed} allowed offers and "
            f"cards: " + "; ".join(p for p in parts if p))


# an offer's reason of too little memory: "24 GB per GPU < 200 GB needed" (engine.workloads._reason)
TOO_LITTLE_MEMORY = re.compile(r"^([0-9.]+) GB per GPU < ([0-9.]+) GB needed$")


def reasons_text(counts: Mapping[str, int]) -> str:
    """The reasons offers and cards cannot serve a workload, with how many each (`counts`: reason -> offers), the
    REASONS_NAMED most common: '24 GB per GPU < 48 GB needed (10 offers); spot capacity … (3 offers)'. The reasons of
    too little memory count as one, their memories as a range ('too little memory: 8-24 GB per GPU < 200 GB needed
    (45 offers)'): five lines of them pushed the other reasons out of a message already long (an audit, 2026-12-06).
    Plan's explanation (engine.explain) and validate's say them in these words."""
    merged: Counter = Counter()
    sizes, needs = [], set()
    for why, n in counts.items():
        short = TOO_LITTLE_MEMORY.match(why)
        if short and n:
            sizes.append(float(short[1]))
            needs.add(short[2])
        else:
            merged[why] += n
    if sizes and len(needs) == 1:
        low, high = min(sizes), max(sizes)
        memory = f"{low:g} GB" if low == high else f"{low:g}-{high:g} GB"
        merged[f"too little memory: {memory} per GPU < {needs.pop()} GB needed"] = sum(
            n for why, n in counts.items() if TOO_LITTLE_MEMORY.match(why))
    else:   # (one workload has one need: several only where counts of different workloads were mixed)
        merged.update({why: n for why, n in counts.items() if TOO_LITTLE_MEMORY.match(why)})
    ranked = sorted(merged.items(), key=lambda item: (-item[1], item[0]))[:REASONS_NAMED]
    return "; ".join(f"{why} ({counted(n, 'offer')})" for why, n in ranked if n)


def _most_memory(w, cards: list, cloud: list, need: float) -> str:
    """engine.explain._most_memory: the most GPU memory of the allowed cards and offers with less than `need`."""
    said = []
    small = [u for u in cards if u["allowed"] and u["memory"] < need]
    if small:
        top = max(u["memory"] for u in small)
        said.append(f"{', '.join(sorted(u['id'] for u in small if u['memory'] == top))} {top:g} GB on-prem")
    below = [o for o in cloud if o[8] < need]
    if below:
        top = max(o[8] for o in below)
        at_top = sorted((o for o in below if o[8] == top), key=lambda o: (o[9], o[1], o[2], o[3]))
        first = at_top[0]
        types = len({(o[1], o[2], o[3]) for o in at_top})
        more = f" (and {counted(types - 1, 'more instance type')} of {top:g} GB)" if types > 1 else ""
        said.append(f"{first[1]} {first[3]} ({first[5]}) {top:g} GB in {first[2]}{more}")
    if not said:
        return ""
    return f"too little GPU memory for workloads.{w.name}.min_gpu_memory_gb {need:g}: at most {', '.join(said)}"


def _memory_elsewhere(cloud: list, offers: list, need: float) -> str:
    """engine.explain._memory_elsewhere: where the prices list offers of a known GPU with at least `need` GB per GPU
    outside the offers allowed."""
    big = [o for o in offers if o[6] and o[8] >= need]
    if not big:
        return f"no offer in the prices has ≥ {need:g} GB per GPU"
    inside = {o[0] for o in cloud}
    regions = defaultdict(set)
    for o in big:
        if o[0] not in inside:
            regions[o[1]].add(o[2])
    return memory_elsewhere_text(regions, need)


def memory_elsewhere_text(regions: dict, need: float) -> str:
    """'offers with ≥ 48 GB per GPU are listed outside … : aws in eu-central-1, us-east-1; azure in 47 regions (…)' for
    `regions` (provider -> the regions of such offers outside those allowed); '' for none. Plan's explanation
    (engine.explain) and validate's say it in these words."""
    if not regions:
        return ""
    places = []
    for provider in sorted(regions):
        named = sorted(regions[provider])
        if len(named) <= REGIONS_NAMED:
            places.append(f"{provider} in {', '.join(named)}")
        else:
            places.append(f"{provider} in {len(named)} regions ({', '.join(named[:REGIONS_NAMED])}, …)")
    return (f"offers with ≥ {need:g} GB per GPU are listed outside the providers, regions and purchase options "
            f"allowed (prices.providers, prices.regions, prices.purchase_options): {'; '.join(places)}")
