"""Scenario files as frozen pydantic models: every assumption of one plan, with units in the field
descriptions. The file format is described in docs/scenario-format.md."""

from __future__ import annotations

import functools
import math
import numbers
import re
import reprlib
import types
import typing
import unicodedata
from typing import Annotated, Any, Literal

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    GetPydanticSchema,
    ModelWrapValidatorHandler,
    PrivateAttr,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, InitErrorDetails, PydanticCustomError, core_schema

from planner.catalog import speeds, suggest
from planner.catalog.gpus import card_rows, custom_gpu_ids, data_rows, resolve_gpu
from planner.errors import PlannerError
from planner.months import HOURS_PER_MONTH, MONTHS_PER_YEAR
from planner.scenario.dates import date_as_text, iso_date
from pricing_adapters import registry
from pricing_adapters.currencies import LIST_ONE_FILE, currency_meant, is_iso_4217, iso_4217_codes

PurchaseOption = Literal["on_demand", "spot", "reserved_1y", "reserved_3y",
                         "savings_plan_1y", "savings_plan_3y"]
Provider = Literal[registry.cloud_providers()]  # the cloud rows of the provider registry
BUILTIN_PROFILES = ("flat", "business_hours", "deadline_peaks")
ThroughputMetric = Literal[speeds.METRIC_NAMES]  # the speed models of planner.catalog.speeds


# Most reference-GPU-hours a workload may demand in one month: 1e9 h is 1.4 million GPUs busy all month,
# more than any fleet on earth. Above it a plan is meaningless (and 1e308 overflows the solver's sums).
MAX_GPU_HOURS_PER_MONTH = 1e9
# Upper bounds on the other magnitudes, far above any real input in any currency (1 kWh costs about 2,500
# Indonesian rupiah; a card about 5e8) yet far below where the solver's sums overflow: 1e308 electricity
# or a 1e300 relative speed crashed CBC with a traceback instead of an error message.
MAX_MONEY = 1e12          # a price, a monthly charge or a budget, in any currency
MAX_UNIT_PRICE = 1e6      # per kWh
MAX_WATTS = 1e6           # per card: 1 MW
MAX_UNITS = 10_000_000    # cards owned or required
MAX_SPEED_RATIO = 1e6     # a relative speed, and its inverse
MAX_FX = 1e9              # units of one currency per unit of another, and its inverse
# Most GPUs one job may need in one node: the offers table's most GPUs per unit (pricing_adapters.schema.
# MAX_GPUS_PER_UNIT); above it a job fits no unit, and 1e20 overflowed the engine's integer columns.
MAX_GPUS_PER_JOB = 128
MAX_LIFE_YEARS = 50        # a card's service and resale-book life (1e308 overflowed the count of its months)
MAX_CARDS_PER_SERVER = 64
MAX_MEMORY_GB = 100_000    # per GPU
MAX_COMPUTE_CAPABILITY = 20
# Most entries of a scenario's lists and tables. The YAML limits (loading.py) bound a file's size, not what
# it asks of the planner: 3,000 one-line workloads (265 KB) took 17 s and 385 MB to plan, and 90,000 unknown
# card ids took 7.6 s to validate, each compared with every known id. The packaged scenarios hold 3
# workloads and at most 5 cards; a catalog holds a few dozen cards and GPUs.
MAX_WORKLOADS = 500
MAX_ENTRIES = 500          # cards, overrides, custom and owned cards, unit limits, throughput tables, fx, regions
MAX_CHOICES = 20           # providers and purchase options: a few of each exist (a list of 90,000 was 90,000 problems)
MAX_SNAPSHOT_ID = 10**18 - 1   # a price store's snapshot ids: 18 digits at most, as `fleetplan prices diff` reads them


CURRENCY_PATTERN = r"^[A-Z]{3}$"   # the shape of an ISO 4217 code; loading.py words the mismatch


def currency_hint(code: str) -> str:
    """"; did you mean 'EUR'?" for `code`, three capital letters (or what else pricing_adapters.currencies says a
    code that is none meant: a withdrawn one's date and the code in use there now), else ''."""
    meant = currency_meant(code)
    return f"; {meant}" if meant else ""


def _iso_4217(code: str) -> str:
    """`code` when it is a code of ISO 4217 list one. Three capital letters passed before: `currency: EUE` labelled
    every cost in a currency that does not exist, and an override priced in it asked for a rate of EUE."""
    if not is_iso_4217(code):
        raise PydanticCustomError("currency_unknown", f"expected an ISO 4217 currency code ({LIST_ONE_FILE})",
                                  {"hint": currency_hint(code)})
    return code


def _one_definition(source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
    """The core schema of Currency, named: the JSON Schema then holds its codes once, under $defs."""
    return {**handler(source), "ref": "CurrencyCode"}


def _codes_listed(schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
    """Currency in JSON Schema: one of the codes of ISO 4217 list one, so that an editor refuses `EUE` as the model
    does (the pattern alone let any three capital letters through)."""
    ref = handler(schema)
    defined = handler.resolve_ref_schema(ref)
    defined.pop("pattern", None)   # the enum says more
    defined.update(enum=list(iso_4217_codes()), description=f"a code of ISO 4217 list one ({LIST_ONE_FILE})")
    return ref


# an ISO 4217 code: the scenario's currency, a key of fx, a card's currency (loading.py words a mismatch)
Currency = Annotated[str, Field(pattern=CURRENCY_PATTERN), AfterValidator(_iso_4217),
                     GetPydanticSchema(_one_definition, _codes_listed)]

# Most characters of a name a plan shows: the scenario's, a workload's, a card id (catalog, custom, owned,
# overridden or capped). Names are table cells, sheet rows and override paths; a spreadsheet cell holds
# 32,767 characters (xlsxwriter and Excel cut the rest silently), and a name of more than a line or two
# is a mistake (a pasted file), not a name.
MAX_NAME_LENGTH = 200
Name = Annotated[str, Field(max_length=MAX_NAME_LENGTH)]   # a key; an empty one is loading.py's to name
# The baselines' names of the cloud capacity kinds, each planned alone as "only cloud spot" beside "only
# <card>" for each card (engine.baselines): no custom card may take one as its id (loading.py says so)
CLOUD_KIND_LABEL = {"on_demand": "cloud on-demand", "spot": "cloud spot", "reserved": "cloud reserved"}
# Free text (a description, where a quote came from) is shown in cells too: a few paragraphs at most.
MAX_TEXT_LENGTH = 2_000
Text = Annotated[str, Field(max_length=MAX_TEXT_LENGTH)]
MAX_PATH_LENGTH = 4_096   # Linux's PATH_MAX: a price or profile file named in the scenario
PathText = Annotated[str, Field(max_length=MAX_PATH_LENGTH)]
# a calendar day written YYYY-MM-DD (scenario.dates words any other text); format "date" lets editors check it too
IsoDate = Annotated[str, BeforeValidator(date_as_text), AfterValidator(iso_date),
                    Field(json_schema_extra={"format": "date"})]


def _positive_speed(value: float) -> float:
    """`value` when it is a usable relative speed. Checked per entry of a throughput table, so each bad entry
    is reported at its own key (with NaN, which pydantic refuses first, in the same table)."""
    if not value > 0:
        raise PydanticCustomError("speed_not_positive", "speeds (relative, or requests/s) must be > 0",
                                  {"hint": "; leave a GPU out to exclude it"})
    if value < 1 / MAX_SPEED_RATIO:
        raise PydanticCustomError("speed_too_small", f"speeds (relative, or requests/s) must be ≥ {1 / MAX_SPEED_RATIO:g}")
    return value


Count = Annotated[int, Field(le=MAX_UNITS)]                       # signs are checked where it is used
Units = Annotated[int, Field(ge=0, le=MAX_UNITS)]
Speed = Annotated[float, Field(le=MAX_SPEED_RATIO), AfterValidator(_positive_speed)]
Rate = Annotated[float, Field(ge=1 / MAX_FX, le=MAX_FX)]


def _numeric_shape(annotation: Any) -> str | None:
    """"number" for an int or float field (optional or not), "map" for a map to numbers, else None."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(args) == 1:
        annotation, args = args[0], list(typing.get_args(args[0]))
    if typing.get_origin(annotation) is Annotated:      # Count, Units, Speed, Rate
        annotation = args[0]
    if annotation in (int, float):
        return "number"
    if typing.get_origin(annotation) is dict and args:
        return "map" if _numeric_shape(args[-1]) == "number" else None
    return None


@functools.cache
def _field_shape(model: type[BaseModel], field: str) -> str | None:
    """`_numeric_shape` of a model's field, worked out once per class and field: a class's annotations do not change,
    and every validation asks for each field's (87 a scenario; 870,000 to check a sweep's 10,000 values, a quarter
    of that check's time)."""
    return _numeric_shape(model.model_fields[field].annotation)


@functools.cache
def _models_in_field(model: type[BaseModel], field: str) -> str | None:
    """Where a model's field holds models: "map" (a mapping to them: card_overrides, existing), "all" (a model, or a list
    of them: onprem, workloads), else None. Each model checks its own texts (_no_invisible_characters)."""
    annotation = model.model_fields[field].annotation

    def holds_model(kind: Any) -> bool:
        return (isinstance(kind, type) and issubclass(kind, BaseModel)) or any(map(holds_model, typing.get_args(kind)))

    if not holds_model(annotation):
        return None
    unwrapped = [a for a in (typing.get_args(annotation) or (annotation,)) if a is not type(None)]
    return "map" if any(typing.get_origin(a) is dict for a in unwrapped) or typing.get_origin(annotation) is dict else "all"


def _first_month_above(amount: float, growth: float, horizon: int, limit: float = MAX_GPU_HOURS_PER_MONTH) -> int | None:
    """The first month (1-based) whose demand amount × (1 + growth)^(m−1) exceeds `limit`, or None.
    Compared in logarithms, so a huge growth cannot overflow a float."""
    if amount <= 0 or growth <= 0:
        return None
    room = math.log(limit) - math.log(amount)
    step = math.log1p(growth)
    return next((m for m in range(2, horizon + 1) if (m - 1) * step > room), None)


class ReadOnlyDict(dict):
    """A mapping of a validated scenario (fx, card_overrides, min_units, a workload's throughput …): a dict to
    every reader (`==`, `in`, `.get`, `{**m}`, `dict(m)`, json.dumps, pandas) that refuses every change. A
    frozen model alone left its dicts open: `s.fx["CNY"] = 1.0` planned an unchecked rate. Pickled and copied
    by value (a sweep's workers and the baselines' child get their scenario pickled), unlike a
    MappingProxyType; hashable, so a frozen scenario is."""

    __slots__ = ("path",)

    def __init__(self, items: Any = (), path: str = "this mapping"):
        super().__init__(items)
        self.path = path   # where it sits in a scenario file, as an override path: onprem.existing

    def __setitem__(self, key: Any, value: Any) -> typing.NoReturn:
        raise ScenarioReadOnly(frozen_message(self.path, key, value))

    def _refuse(self, *args: Any, **kwargs: Any) -> typing.NoReturn:
        raise ScenarioReadOnly(frozen_message(self.path))

    __delitem__ = update = pop = popitem = clear = setdefault = __ior__ = _refuse

    def __reduce__(self) -> tuple:
        return type(self), (dict(self), self.path)

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))


# yaml.safe_dump(s.fx) wrote a plain dict; PyYAML's dumpers look representers up by exact type
for _dumper in (yaml.SafeDumper, yaml.Dumper):
    _dumper.add_representer(ReadOnlyDict, yaml.representer.SafeRepresenter.represent_dict)


class ScenarioReadOnly(PlannerError, TypeError):
    """A change in place of a validated scenario (`s.horizon_months = 12`, `s.onprem.pue = 1.2`, `s.fx["CNY"] = 0.15`),
    which would skip its checks; the message names the field and the validated ways to change it. A TypeError too:
    what Python's own read-only containers raise (a tuple's item), and what the mappings' refusal was before."""


_NOT_GIVEN = object()   # frozen_message's value when a change gives none (a mapping's clear())


def frozen_message(path: str, key: Any = None, value: Any = _NOT_GIVEN) -> str:
    """Why a scenario's `path` cannot change in place, and the validated ways to change it (with `path`, or its
    entry `key`, set to `value` as the example, when a change names them)."""
    if isinstance(key, str):
        path_set = f"{path}.{key}"
    elif key is None:
        path_set = path
    else:   # an entry that is no text: a whole-mapping override is the example
        path_set, value = path, _NOT_GIVEN
    change = f"{{'{path_set}': {'{...}' if value is _NOT_GIVEN else reprlib.repr(value)}}}"
    return f"{path} is read-only: a validated scenario is frozen, so that no change skips its checks. {_ways(change)}"


def _ways(change: str) -> str:
    """The validated ways to make the override `change` ("{'fx.CNY': 0.15}")."""
    return (f"Plan the change with plan(scenario, overrides={change}), or get a checked copy with "
            f"apply_overrides(scenario, {change}) (model_copy(update=...) checks nothing)")


# The format characters (Unicode category Cf) that show as nothing: soft hyphen, Mongolian vowel separator, zero-width
# space, non-joiner and joiner, the direction marks, embeddings, overrides and isolates, word joiner and the invisible
# operators, the byte order mark (U+FEFF, a zero-width no-break space past a file's start) and the tag characters. The
# Cf characters that show a sign (the Arabic number signs U+0600-U+0605 …) are not among them.
INVISIBLE = "\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\U000e0001\U000e0020-\U000e007f"
INVISIBLE_CHAR = re.compile(f"[{INVISIBLE}]")
# what a message calls them where Unicode's name is not what a reader knows
INVISIBLE_NAMES = {"\u200b": "zero-width space", "\u200c": "zero-width non-joiner", "\u200d": "zero-width joiner",
                   "\u2060": "word joiner", "\ufeff": "zero-width no-break space (byte order mark)", "\u00ad": "soft hyphen"}
# The characters that show as a space but are none (no-break, en, em, thin, ideographic … spaces), which text pasted
# from a web page or a word processor brings; loading reads them in a file where YAML needs a space. No field's name
# holds a space: a key holding one is a field's name written with one (`gpu\u00a0count`, `workloads\u00a0`).
LOOKALIKE_SPACES = "\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000"
LOOKALIKE_SPACE = re.compile(f"[{LOOKALIKE_SPACES}]")
LOOKALIKE_NAMES = {"\u00a0": "non-breaking space", "\u202f": "narrow non-breaking space", "\u2007": "figure space"}


# what the model says of one, in a text or a key that is no field (loading._keys_as_shown); a file's says that YAML read it
INVISIBLE_SAID = ("{char} inside the {part}: an invisible character, which no table of the plan shows; delete it (it often "
                  "comes with text pasted from a web page or a chat)")
# what the model says of a key holding a look-alike space (LOOKALIKE_SPACE) that is no field's; the "did you mean" after it
LOOKALIKE_SAID = ("{char} inside the key: it shows as a space but is none, and no field's name holds one (it often comes "
                  "with text pasted from a web page or a chat){hint}")


def invisible_name(char: str) -> str:
    """What a message calls the invisible `char`: "zero-width space U+200B"."""
    name = INVISIBLE_NAMES.get(char) or LOOKALIKE_NAMES.get(char) or unicodedata.name(char, "character").lower()
    return f"{name} U+{ord(char):04X}"


def _invisible_in(value: Any) -> tuple[str, str, tuple] | None:
    """("key" or "value", the first invisible character, the path to it within `value`: a list's index, a mapping's key;
    a key's own is its mapping's) of the first text in `value` holding one: a text, a mapping's keys and its texts, a
    list's texts (a mapping or model inside is its model's to check: it may hold free text)."""
    if isinstance(value, str):
        found = INVISIBLE_CHAR.search(value)
        return None if found is None else ("value", found[0], ())
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, (list, tuple)) else ()
    for at, item in items:
        if isinstance(at, str) and (found := INVISIBLE_CHAR.search(at)):
            return "key", found[0], ()
        if isinstance(item, (str, list, tuple)) and (inside := _invisible_in(item)):
            return inside[0], inside[1], (at, *inside[2])
    return None


def keys_as_shown(data: dict) -> tuple[dict, list[tuple[str, str]]]:
    """(a copy of `data` with each key holding an invisible format character (INVISIBLE) read without them, as a file's
    YAML reads it, dropped where the key as it shows is given too (that one is read); (each such key, as it shows)).
    The caller's dict is left as it is."""
    copy: dict = {}
    keyed = []
    for key, value in data.items():
        if not (isinstance(key, str) and INVISIBLE_CHAR.search(key)):
            copy[key] = value
            continue
        shown = INVISIBLE_CHAR.sub("", key)
        keyed.append((key, shown))
        if shown not in data:
            copy.setdefault(shown, value)
    return copy, keyed


# pydantic's own error types: any other (a PydanticCustomError's) is made again from its message (_line_errors)
_PYDANTIC_ERRORS = frozenset(typing.get_args(core_schema.ErrorType))


def _line_errors(exc: ValidationError) -> list[InitErrorDetails]:
    """The errors of `exc` as ValidationError.from_exception_data takes them, so that more can join them. A custom
    error's message is its template again; its context is kept unless the message holds a placeholder of it, which
    pydantic would fill a second time."""
    errors: list[InitErrorDetails] = []
    for err in exc.errors():
        ctx = err.get("ctx")
        kind: Any = err["type"]
        if kind not in _PYDANTIC_ERRORS:
            kept = ctx if ctx and not any(f"{{{name}}}" in err["msg"] for name in ctx) else None
            kind, ctx = PydanticCustomError(kind, err["msg"], kept), None
        errors.append({"type": kind, "loc": err["loc"], "input": err["input"], **({"ctx": ctx} if ctx else {})})
    return errors


class Frozen(BaseModel):
    # allow_inf_nan=False: `.inf` or `.nan` in any number field is an input error, not a solver traceback
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)
    # the fields of free text (model.Text: a description, where a quote came from), which may hold an invisible
    # character meant (a soft hyphen, an emoji's joiner, a direction mark): loading._FREE_TEXT names the same
    _free_text: typing.ClassVar[frozenset[str]] = frozenset()
    # where a model of this class sits in a scenario file, as an override path (for the message refusing a change)
    _section: typing.ClassVar[str] = ""
    # where this one sits, when its class sits in many places (a card override's: onprem.card_overrides.<card>);
    # set by the model holding it (_place)
    _where: str | None = PrivateAttr(default=None)

    def _path_of(self, field: str) -> str:
        where = getattr(self, "_where", None) or self._section   # a model pickled before _where was has none
        return f"{where}.{field}" if where else field

    @model_validator(mode="wrap")
    @classmethod
    def _no_invisible_keys(cls, data: Any, handler: ModelWrapValidatorHandler[Frozen]) -> Frozen:
        """The model of `data`, unless a key of it holds an invisible format character (INVISIBLE): no field's, and
        pydantic's "Extra inputs are not permitted" printed the key as if spelt right. Then one ValidationError: the
        character named at each such key as it shows (`horizon_months`), and the problems of `data` read with the keys
        as they show (keys_as_shown), so that none follows from it ("Field required") — as loading reads a dict's."""
        if not isinstance(data, dict) or not any(isinstance(key, str) and (INVISIBLE_CHAR.search(key) or (
                LOOKALIKE_SPACE.search(key) and key not in cls.model_fields)) for key in data):
            return handler(data)
        shown, keyed = keys_as_shown(data)
        errors: list[InitErrorDetails] = [
            {"type": PydanticCustomError("invisible_character", INVISIBLE_SAID, {
                "char": invisible_name(INVISIBLE_CHAR.search(key)[0]), "part": "key", "key": key}),
             "loc": (as_shown,), "input": data[key]} for key, as_shown in keyed]
        errors += cls._lookalike_keys(shown)
        try:
            handler(shown)
        except ValidationError as exc:
            errors += _line_errors(exc)
        raise ValidationError.from_exception_data(cls.__name__, errors)

    @classmethod
    def _lookalike_keys(cls, data: dict) -> list[InitErrorDetails]:
        """The error of each key of `data` that holds a look-alike space (LOOKALIKE_SPACE) and is no field's, naming the
        character, with the field it stands for (that key written with `_` or nothing for the character: `gpu\u00a0count`
        is gpu_count, `workloads\u00a0` workloads) or one spelt like it. `data` is changed: such a key is read as the field
        it stands for, when that field is not given too, and dropped otherwise, so that it causes no other problem
        ("missing", "unknown key")."""
        errors: list[InitErrorDetails] = []
        for key in [k for k in data if isinstance(k, str) and LOOKALIKE_SPACE.search(k) and k not in cls.model_fields]:
            value = data.pop(key)
            meant = next((field for field in (LOOKALIKE_SPACE.sub("_", key).strip("_"), LOOKALIKE_SPACE.sub("", key))
                          if field in cls.model_fields), None)
            if meant is not None and meant not in data:
                data[meant] = value
            near = [meant] if meant else suggest(LOOKALIKE_SPACE.sub(" ", key).strip(), list(cls.model_fields))
            errors.append({"type": PydanticCustomError("lookalike_space", LOOKALIKE_SAID, {
                "char": invisible_name(LOOKALIKE_SPACE.search(key)[0]), "key": key, "meant": meant or "",
                "hint": f"; did you mean '{near[0]}'?" if near else ""}), "loc": (key,), "input": value})
        return errors

    @model_validator(mode="after")
    def _read_only_mappings(self) -> Frozen:
        """The model with every dict field a ReadOnlyDict (lists are tuples already): frozen all the way down."""
        for field, value in self.__dict__.items():
            if type(value) is dict:
                self.__dict__[field] = ReadOnlyDict(value, self._path_of(field))
        self._place(self._where)
        return self

    def _place(self, where: str | None) -> None:
        """Records `where` this model sits (None: where its class does), and so where each model and mapping in it
        does: models are validated inside out, so each holder places again what it holds."""
        self._where = where
        # a path only for a field holding a model or a mapping: each model of a scenario is placed again by each
        # model holding it, and a path for every field made this a third of a sweep's check of its values
        for field, value in self.__dict__.items():
            if isinstance(value, Frozen):
                value._place(self._path_of(field))
            elif isinstance(value, ReadOnlyDict):
                path = value.path = self._path_of(field)
                for key, item in value.items():
                    if isinstance(item, Frozen):
                        item._place(f"{path}.{key}")

    def __setattr__(self, name: str, value: Any) -> None:
        # pydantic's refusal was "Instance is frozen" and a link; a private attribute (a scenario's folder, _where)
        # is the loader's to set
        if name.startswith("_"):
            return super().__setattr__(name, value)
        raise ScenarioReadOnly(self._refusal(name, value))

    def __delattr__(self, name: str) -> None:
        if name.startswith("_"):
            return super().__delattr__(name)
        raise ScenarioReadOnly(self._refusal(name, self.__dict__.get(name, _NOT_GIVEN)))

    def _refusal(self, name: str, value: Any) -> str:
        """Why field `name` cannot be set to `value` in place, and how to change it; "did you mean" for a name that
        is no field (`s.horizon = 12`)."""
        fields = list(type(self).model_fields)
        if name in fields:
            return frozen_message(self._path_of(name), value=value)
        near = suggest(name, fields)
        if not near:
            return (f"{self._path_of(name)}: no such field (fields: {', '.join(fields)}); and every field is read-only: "
                    f"a validated scenario is frozen. {_ways('{...}')}")
        meant = self._path_of(near[0])
        change = f"{{'{meant}': {'{...}' if value is _NOT_GIVEN else reprlib.repr(value)}}}"
        return (f"{self._path_of(name)}: no such field; did you mean {meant}? It is read-only: a validated scenario is "
                f"frozen. {_ways(change)}")

    def __eq__(self, other: object) -> bool:
        # what it states, not where it sits or was read from: pydantic compares private attributes too (_where, a
        # scenario's folder), and a scenario changed by overrides (which do not keep the folder) and changed back is
        # the same scenario
        if not isinstance(other, Frozen):
            return NotImplemented
        return type(self) is type(other) and self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        # of the fields, as __eq__ compares them (pydantic's hash of Frozen, which has none, made every scenario 0)
        return hash((type(self), *self.__dict__.values()))

    @field_validator("*", mode="before")
    @classmethod
    def _no_invisible_characters(cls, value: Any, info: ValidationInfo) -> Any:
        """`value` unless a name, id, code or path in it (any text but free text) holds an invisible format character
        (INVISIBLE): two names would look the same, a code or id not be found, and nothing shows why. The loader refuses
        one written in a file at its line; this catches what reaches the model otherwise: a YAML alias of a free text
        (`name: *d`), an escape (`name: "A\\u200bB"`), a dict, an override (`workloads.0.name='llm\\u200bfinetune'`),
        Scenario(...)."""
        holds = _models_in_field(cls, info.field_name)
        if info.field_name in cls._free_text or holds == "all":
            return value
        found = _invisible_in(dict.fromkeys(value) if holds == "map" and isinstance(value, dict) else value)   # its keys
        if found is not None:
            raise PydanticCustomError("invisible_character", INVISIBLE_SAID,
                                      {"char": invisible_name(found[1]), "part": found[0], "field": found[2]})
        return value

    @field_validator("*", mode="before")
    @classmethod
    def _no_bool_for_numbers(cls, value: Any, info: ValidationInfo) -> Any:
        """`value` unchanged unless it is true/false where a number belongs: pydantic would read
        `horizon_months: true` as 1 month (types stay lax otherwise: YAML `800` is a float field's 800.0)."""
        shape = _field_shape(cls, info.field_name)
        if shape == "number" and isinstance(value, bool):
            raise PydanticCustomError("number_not_bool", "expected a number")   # the message adds "got true (a yes/no value)"
        if shape == "map" and isinstance(value, dict):
            bad = [k for k, v in value.items() if isinstance(v, bool)]
            if bad:
                raise PydanticCustomError("number_not_bool", "expected numbers, not true or false (for {keys})",
                                          {"keys": ", ".join(map(str, bad))})
        return value


def listed_once(items: tuple | None) -> tuple | None:
    """`items` when none is listed twice: `providers: [aws, aws]` planned as one, and the warnings named it
    twice ("aws (any region) or aws (any region)")."""
    seen: set = set()
    for item in items or ():
        if item in seen:
            raise PydanticCustomError("listed_twice", "'{item}' is listed twice; list each once", {"item": str(item)})
        seen.add(item)
    return items


class Prices(Frozen):
    """Where prices come from and which cloud offers are allowed."""

    _section = "prices"

    source: PathText = Field("snapshot", description="snapshot (packaged) | store (latest refreshed) | path to an offers CSV")
    snapshot: int | None = Field(None, ge=1, le=MAX_SNAPSHOT_ID,
                                 description="with source: store, a snapshot id as `fleetplan prices list` shows it: "
                                             "plan on the store as it stood when that snapshot was saved (it and the "
                                             "snapshots saved before it, the newest of them in force in each provider "
                                             "and region); omitted = the store as it is now")
    providers: tuple[Provider, ...] = Field(registry.cloud_providers(), max_length=MAX_CHOICES,
                                            description="cloud providers allowed")
    regions: tuple[str, ...] | None = Field(None, max_length=MAX_ENTRIES,
                                            description="cloud regions allowed; omitted = all regions")
    purchase_options: tuple[PurchaseOption, ...] = Field(
        ("on_demand", "spot", "reserved_1y", "reserved_3y"), max_length=MAX_CHOICES,
        description="cloud purchase options allowed")

    _listed_once = field_validator("providers", "regions", "purchase_options")(listed_once)

    @property
    def options_given(self) -> bool:
        """Whether the scenario lists purchase_options; False where they are the default's, which allows the
        reservations whether or not the prices hold any (the packaged snapshot holds none): catalog.option_gaps
        says nothing then of an option without a price, which the user did not choose."""
        return "purchase_options" in self.model_fields_set

    @model_validator(mode="after")
    def _snapshot_of_the_store(self) -> Prices:
        # a pin of another source would be ignored: the plan would claim a snapshot it never read
        if self.snapshot is not None and self.source != "store":
            raise PydanticCustomError("snapshot_needs_store", "{what}", {"field": ("snapshot",), "what": (
                f"pins a snapshot of the price store, so it needs source: store, not {reprlib.repr(self.source)}")})
        return self


# what a card's life_years sets (docs/cost-model.md §6): not only the depreciation of its resale value
LIFE_YEARS = ("service life, years: a card serves 12 × life_years months in all (whole months, halves up; an "
              "owned card's age_months are part of them), then retires; and the life of its resale book value: "
              "straight_line falls to 0 over it, declining_balance at 2/life_years a year (life_years ≤ 2: worth 0 "
              "at any age above 0)")


# what a card's cards_per_server sets (engine.workloads: a job's GPUs share one server)
CARDS_PER_SERVER = "cards in one server: a job's gpus_per_job GPUs must fit in one"


class CardOverride(Frozen):
    """Any column of onprem_cards.csv, replacing the catalog value for one card."""

    price: float | None = Field(None, ge=0, le=MAX_MONEY, description="price per card, in `currency`")
    currency: Currency | None = Field(None, description="ISO 4217 code of price and host_cost_per_card")
    host_cost_per_card: float | None = Field(None, ge=0, le=MAX_MONEY, description="share of the host server per card")
    busy_watts: float | None = Field(None, ge=0, le=MAX_WATTS,
                                     description="W at the wall per card while working, host share included")
    idle_watts: float | None = Field(None, ge=0, le=MAX_WATTS,
                                     description="W at the wall per card while idle, host share included")
    cards_per_server: int | None = Field(None, ge=1, le=MAX_CARDS_PER_SERVER, description=CARDS_PER_SERVER)
    life_years: float | None = Field(None, gt=0, le=MAX_LIFE_YEARS, description=LIFE_YEARS)
    maintenance_rate_per_year: float | None = Field(None, ge=0, le=1, description="share of capex per year")
    as_of: IsoDate | None = Field(None, description="the day of the quote, an ISO date YYYY-MM-DD (e.g. 2026-11-20)")
    source: Text | None = Field(None, description="where the quote came from (free text, shown with the plan's prices)")

    _free_text = frozenset({"source"})


class GpuSpecs(Frozen):
    """Datasheet figures of a GPU that planner/data/gpus.csv lacks, in its columns and units. Only memory is
    required; a missing figure is unknown (a speed model needing it has no speed for the GPU)."""

    name: Name | None = Field(None, description="what the GPU is called (free text, shown with its speed)")
    memory_gb: float = Field(gt=0, le=MAX_MEMORY_GB, description="memory per GPU, GB")
    fp32_tflops: float | None = Field(None, gt=0, le=1e6, description="FP32 (non-tensor) TFLOPS, dense")
    fp16_tensor_tflops: float | None = Field(None, gt=0, le=1e6, description="FP16 tensor TFLOPS, dense (no sparsity)")
    bf16_tensor_tflops: float | None = Field(None, gt=0, le=1e6, description="BF16 tensor TFLOPS, dense (no sparsity)")
    memory_bandwidth_gbps: float | None = Field(None, gt=0, le=1e6, description="memory bandwidth, GB/s")
    tdp_watts: float | None = Field(None, gt=0, le=MAX_WATTS, description="board power, W")
    compute_capability: float | None = Field(None, ge=1, le=MAX_COMPUTE_CAPABILITY,
                                             description="CUDA compute capability, e.g. 8.9")
    vendor: Name = Field("NVIDIA", min_length=1, description="maker (the speed estimate is fitted on NVIDIA GPUs)")
    nvlink: bool = Field(False, description="NVLink/NVSwitch joins every GPU of a node (SXM boards; "
                         "a 2-way bridge is false): multi-GPU jobs scale at the NVLink efficiency")


class CustomCard(Frozen):
    """A card you were quoted that the catalog lacks: its GPU (a catalog GPU id, or the figures of a GPU the
    catalog lacks) and every figure the cost model needs. Planned like a catalog card: a purchase candidate
    (no need to list it in `onprem.cards`) unless `buyable` is false, and usable in `existing`, `min_units` and
    `max_units`."""

    gpu: str | None = Field(None, min_length=1, description="canonical GPU id of the card (planner/data/gpus.csv); "
                            "or give gpu_specs")
    gpu_specs: GpuSpecs | None = Field(None, description="the figures of a GPU that gpus.csv lacks; or give gpu")
    price: float = Field(ge=0, le=MAX_MONEY, description="price per card, in `currency`")
    currency: Currency | None = Field(None, description="ISO 4217 code of price and host_cost_per_card; "
                                      "omitted = the scenario currency")
    busy_watts: float = Field(ge=0, le=MAX_WATTS, description="W at the wall per card while working, host share included")
    idle_watts: float = Field(ge=0, le=MAX_WATTS, description="W at the wall per card while idle, host share included")
    host_cost_per_card: float = Field(0.0, ge=0, le=MAX_MONEY, description="share of the host server per card")
    cards_per_server: int = Field(1, ge=1, le=MAX_CARDS_PER_SERVER, description=CARDS_PER_SERVER)
    life_years: float = Field(gt=0, le=MAX_LIFE_YEARS, description=LIFE_YEARS)
    maintenance_rate_per_year: float = Field(0.0, ge=0, le=1, description="share of capex per year")
    source: Text | None = Field(None, description="where the quote came from (free text, shown with the plan's prices)")
    # false for a card described only to count the ones owned (an HGX A100 the catalog lacks): no plan buys more,
    # as none buys a catalog card left out of onprem.cards; its price still values the owned cards' resale
    buyable: bool = Field(True, description="false: a card you own (onprem.existing) but would not buy: plans keep, "
                          "switch off or sell the owned ones and buy none")

    _free_text = frozenset({"source"})

    @model_validator(mode="after")
    def _idle_at_most_busy(self) -> CustomCard:
        # loading.py makes the same checks on the raw file, so they are reported even when other fields fail
        problem = idle_above_busy(self.idle_watts, self.busy_watts)
        if problem:
            raise PydanticCustomError("idle_above_busy", "{what}",
                                      {"field": ("idle_watts",), "what": problem})   # where loading.py points it
        problem = gpu_or_specs(self.gpu is not None, self.gpu_specs is not None)
        if problem:
            raise PydanticCustomError("gpu_or_specs", "{what}", {"field": ("gpu",), "what": problem})
        return self


def _watts(value: Any) -> bool:
    """Whether `value` is watts a card field accepts (0 to MAX_WATTS): any other is pydantic's to report."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= MAX_WATTS


def idle_above_busy(idle_watts: Any, busy_watts: Any, catalog: str = "") -> str | None:
    """The problem when a card's idle watts exceed its busy watts (both valid watts), else None: working would
    then cost less energy than idling, and a plan runs such a card more than its demand needs. `catalog`: which
    of the two is the catalog card's ("idle" or "busy") when a card override gives only the other."""
    if not (_watts(idle_watts) and _watts(busy_watts) and idle_watts > busy_watts):
        return None
    if catalog == "idle":
        said = f"busy_watts {busy_watts:g} is below the catalog's idle_watts {idle_watts:g}"
    elif catalog == "busy":
        said = f"idle_watts {idle_watts:g} is above the catalog's busy_watts {busy_watts:g}"
    else:
        said = f"idle_watts {idle_watts:g} is above busy_watts {busy_watts:g}"
    # no card works on less than 10 W: a busy figure below it, which as kW would clear idle, is kW typed as W
    kilowatts = busy_watts < 10 and busy_watts * 1000 >= idle_watts
    kw = f"; busy_watts is in W: did you mean {busy_watts * 1000:g}?" if kilowatts else ""
    return f"{said}; a card draws at least its idle power while working{kw}"


def catalog_watts(card_id: str) -> tuple[float, float] | None:
    """(busy, idle) watts of catalog card `card_id` (onprem_cards.csv), or None when the catalog lacks the card
    or a figure."""
    row = card_rows().get(card_id)
    try:
        return (float(row["busy_watts"]), float(row["idle_watts"])) if row else None
    except ValueError:   # an empty cell: the engine's to refuse
        return None


def override_watts_problem(card_id: str, busy_watts: Any, idle_watts: Any) -> tuple[str, str] | None:
    """(field, problem) when an override of catalog card `card_id` leaves its idle watts above its busy watts:
    the two it gives, or the one it gives against the catalog's other; else None (also for a card the
    catalog lacks: named as unknown)."""
    if busy_watts is None and idle_watts is None:
        return None
    catalog = catalog_watts(card_id)
    if catalog is None:
        return None
    busy = catalog[0] if busy_watts is None else busy_watts
    idle = catalog[1] if idle_watts is None else idle_watts
    kept = "busy" if busy_watts is None else "idle" if idle_watts is None else ""   # the catalog's of the two
    problem = idle_above_busy(idle, busy, catalog=kept)
    # at the figure given when only one is, else at idle_watts (where custom_cards reports it)
    return ("busy_watts" if kept == "idle" else "idle_watts", problem) if problem else None


def gpu_or_specs(has_gpu: bool, has_specs: bool) -> str | None:
    """The problem when a custom card names both or neither of `gpu` and `gpu_specs`, else None."""
    if has_gpu and has_specs:
        return "give gpu (a catalog GPU id) or gpu_specs (a GPU the catalog lacks), not both"
    if not has_gpu and not has_specs:
        return "required: gpu (a GPU id of planner/data/gpus.csv) or gpu_specs (the figures of a GPU it lacks)"
    return None


def repeated_names(names: list[Any]) -> list[tuple[int, str]]:
    """(index, problem) of each workload whose name an earlier workload has already (names that are not
    text are pydantic's to report). Names are compared as a reader sees them (`name_key`): "é" typed as one
    character and as e with a combining accent, "a" and "a " or "a" with a zero-width space look the same in
    every table, so they are one name."""
    seen: dict[str, str] = {}
    out = []
    for i, name in enumerate(names):
        if not isinstance(name, str):
            continue
        key = name_key(name)
        if key in seen:
            earlier = seen[key]
            nfc = unicodedata.normalize("NFC", earlier) == unicodedata.normalize("NFC", name)   # how an accent is typed
            same = "" if nfc else f" (it looks the same as '{earlier}': they differ only in spaces at an end or in " \
                                  "characters no one sees)"
            out.append((i, f"'{name}' is the name of an earlier workload too{same}; workload names must be unique"))
        seen.setdefault(key, name)
    return out


def name_key(name: str) -> str:
    """A workload name as a reader sees it: Unicode's composed form (NFC), without spaces at either end and
    without invisible characters (format and control characters: zero-width spaces, bidi marks)."""
    text = unicodedata.normalize("NFC", name)
    return "".join(ch for ch in text if unicodedata.category(ch) not in ("Cf", "Cc")).strip()


def _visible_name(name: str) -> str:
    """`name` when it has a character a reader sees: a name of spaces, zero-width characters or control
    characters alone reads as a blank cell in every table."""
    if not any(not ch.isspace() and unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp") for ch in name):
        raise PydanticCustomError("name_invisible", "expected a name with a visible character")
    return name


VisibleName = Annotated[str, Field(min_length=1, max_length=MAX_NAME_LENGTH), AfterValidator(_visible_name)]



MAX_AGE_MONTHS = 1200   # an owned card's age at month 1: a century, past any card's life (MAX_LIFE_YEARS)


def life_months(life_years: float) -> int:
    """A card's service life in whole months, halves rounded up (at least one); the engine counts service
    with it too. Not round(): it rounds halves to even, so 1.125 years made 14 months and 1.375 made 16."""
    return max(1, math.floor(float(life_years) * MONTHS_PER_YEAR + 0.5))


def owned_age_problem(card_id: str, age_months: int, life_years: float, custom: bool) -> str | None:
    """The problem when owned cards of `card_id` are `age_months` old at month 1 and so have no service left
    in a life of `life_years`, else None. `custom`: a card of onprem.custom_cards (its life is set there, not
    in card_overrides)."""
    life = life_months(life_years)
    if age_months < life:
        return None
    where = "custom_cards" if custom else "card_overrides"
    return (f"{age_months} months is not below the card's life of {life} months (life_years {life_years:g}); "
            f"retire it (leave it out) or set onprem.{where}.{card_id}.life_years")


class OwnedCards(Frozen):
    """Cards already owned, in the long form: how many and how old."""

    count: Count = Field(ge=0, description="cards owned")
    age_months: int = Field(0, ge=0, le=MAX_AGE_MONTHS, description="age at month 1 of the plan, months")


# `onprem.existing` as a file may write it: a count (the short form, new cards) or the long form, per card
OWNED_AS_WRITTEN = Annotated[dict[Name, OwnedCards | Units], Field(max_length=MAX_ENTRIES)]


class Resale(Frozen):
    """What hardware is worth when sold: at the end of the horizon, at the end of its life, or when an
    owned card is sold in month 1."""

    method: Literal["straight_line", "declining_balance", "none"] = Field(
        "straight_line", description="book value: straight_line over life_years, declining_balance at 2/life_years "
        "a year, or none (worth nothing)")
    share_of_book: float = Field(0.5, ge=0, le=1, description="share of book value a buyer pays")


# The site figures an on-prem card is costed with when a scenario leaves them out, and the basis of each (the project
# ships no figure without a source: where none exists the default says so). `assumed_site_figures` warns of them.
# PUE: "In 2023, industry average PUE stood at 1.58" (1.55-1.59 since about 2020), Uptime Institute, "Large data
# centers are mostly more efficient, analysis confirms", Uptime Intelligence Update 221, J. Davis and J. O'Brien,
# 2023-11-23, https://intelligence.uptimeinstitute.com/resource/large-data-centers-are-mostly-more-efficient-analysis-confirms
# (small server rooms run higher: 1.5-2.1 over four rooms, LBNL "Energy Efficiency of Small Data Centers", 2013-10).
DEFAULT_PUE = 1.58
# Availability: no public source gives the share of a card's hours lost to maintenance and failures (Meta's Llama 3
# report gives >90 % effective training time of one synchronous 16k-GPU job, not a per-card share): 1, no hours lost.
DEFAULT_AVAILABILITY = 1.0
# Electricity: no current public average could be read (the newest, EIA's US commercial average, 11.07 cents a kWh,
# is of September 2020); 0.12 is kept so that a scenario without it still plans, as an assumption with no source.
DEFAULT_ELECTRICITY_PER_KWH = 0.12
SITE_DEFAULT_BASIS = {
    "pue": "the industry average PUE of 2023, Uptime Institute (Uptime Intelligence Update 221, 2023-11-23)",
    "availability": "no hours assumed lost: no public source gives a per-card share; set your own",
    "electricity_per_kwh": "an assumption with no source (no current public average found); give your site's tariff",
}
# the same, short, as the warning of a scenario that leaves them out says it (assumed_site_figures)
SITE_DEFAULT_SAID = {"pue": "industry average of 2023, Uptime Institute",
                     "availability": "no hours lost; no public per-card figure",
                     "electricity_per_kwh": "no source"}


class OnPrem(Frozen):
    """Owned hardware: site assumptions, candidate cards, what is already owned, caps."""

    _section = "onprem"

    electricity_per_kwh: float = Field(DEFAULT_ELECTRICITY_PER_KWH, ge=0, le=MAX_UNIT_PRICE, description=(
        f"scenario currency per kWh; default {DEFAULT_ELECTRICITY_PER_KWH:g}: {SITE_DEFAULT_BASIS['electricity_per_kwh']}"))
    pue: float = Field(DEFAULT_PUE, ge=1.0, le=3.0, description=(
        f"power usage effectiveness of the site (site power / IT power); default {DEFAULT_PUE:g}: "
        f"{SITE_DEFAULT_BASIS['pue']}"))
    availability: float = Field(DEFAULT_AVAILABILITY, gt=0, le=1, description=(
        f"share of the 730 h a month a card can work; default {DEFAULT_AVAILABILITY:g}: "
        f"{SITE_DEFAULT_BASIS['availability']}"))
    cards: tuple[Name, ...] = Field((), max_length=MAX_ENTRIES, description="card ids (onprem_cards.csv) the optimiser may buy")
    card_overrides: dict[Name, CardOverride] = Field(
        default_factory=dict, max_length=MAX_ENTRIES,
        description="catalog card id -> figures replacing the catalog's for that card (a quote you received); "
        "a figure left out keeps the catalog's")
    custom_cards: dict[VisibleName, CustomCard] = Field(
        default_factory=dict, max_length=MAX_ENTRIES,
        description="cards you were quoted that the catalog lacks, by a card id of your choice; "
        "each is a purchase candidate (no need to list it in `cards`) unless its `buyable` is false")
    existing: dict[Name, OwnedCards] = Field(
        default_factory=dict, max_length=MAX_ENTRIES,
        description="cards already owned (no capex): a count (new cards) or {count, age_months}")
    purchase_every_months: int = Field(3, ge=1, le=120, description="cards can be bought at the start of every "
                                       "period of this many months (1 = any month; the horizon = month 1 only)")
    resale: Resale = Field(Resale(), description="what a card is worth when sold: in month 1 (owned cards), at "
                           "the end of its life, or at the end of the horizon")
    sell_owned: bool = Field(True, description="the plan may sell owned cards in month 1 at their resale value")
    switch_off_owned: bool = Field(True, description="the plan may switch owned cards off (no energy)")
    maintenance_when_off: bool = Field(True, description="a switched-off card still pays its maintenance")
    power_cap_kw: float | None = Field(None, ge=0, le=MAX_WATTS * MAX_UNITS / 1000,
                                       description="cap on installed IT power, Σ units × busy watts")
    capex_budget: float | None = Field(None, ge=0, le=MAX_MONEY,
                                       description="cap on new capex (cards + hosts) over the horizon, scenario currency")
    capex_budget_per_year: float | None = Field(None, ge=0, le=MAX_MONEY,
                                                description="cap on new capex in each plan year (months 1-12, 13-24 …)")
    colocation_per_kw_month: float = Field(0.0, ge=0, le=MAX_MONEY, description="charged on installed IT kW every month")
    fixed_onprem_per_month: float = Field(0.0, ge=0, le=MAX_MONEY, description=(
        "charged in each month some on-prem card is in service (bought, or owned and kept working; switched-off owned "
        "cards owe none)"))

    _listed_once = field_validator("cards")(listed_once)

    def may_buy(self, card_id: str) -> bool:
        """Whether plans may buy `card_id`: listed in `cards`, or a custom card whose `buyable` is not false (an
        unpriced catalog card is not bought either: catalog.offers.unpriced_card_rows)."""
        custom = self.custom_cards.get(card_id)
        return custom.buyable if custom is not None else card_id in self.cards

    @model_validator(mode="after")
    def _not_bought_is_not_listed(self) -> OnPrem:
        listed = [card for card in self.cards if card in self.custom_cards and not self.custom_cards[card].buyable]
        if listed:
            raise PydanticCustomError(
                "custom_card_not_buyable", "{what}",
                {"field": ("cards",), "what": f"{listed[0]} is listed as a card to buy, but custom_cards.{listed[0]}."
                 "buyable is false: remove it from onprem.cards, or set buyable to true"})
        return self

    @model_validator(mode="after")
    def _override_idle_at_most_busy(self) -> OnPrem:
        # loading.py makes the same check on the raw file, so it is reported even when other fields fail
        for card, override in self.card_overrides.items():
            found = override_watts_problem(card, override.busy_watts, override.idle_watts)
            if found:
                raise PydanticCustomError("idle_above_busy", "{what}",
                                          {"field": ("card_overrides", card, found[0]), "what": found[1]})
        return self

    # the schema says what a file may hold (the short form too); the model holds the long form only
    @field_validator("existing", mode="before", json_schema_input_type=OWNED_AS_WRITTEN)
    @classmethod
    def _short_form(cls, value: Any) -> Any:
        """`{card: count}` is the short form of `{card: {count: n}}` (new cards); `true` is not one card."""
        if not isinstance(value, dict):
            return value
        bad = [k for k, v in value.items() if isinstance(v, bool)]
        if bad:
            raise PydanticCustomError("number_not_bool", "expected numbers, not true or false (for {keys})",
                                      {"keys": ", ".join(map(str, bad))})
        # numbers.Real: a count from numpy (a DataFrame's cell, np.int64) is a count too, as a float64 was
        return {k: {"count": v} if isinstance(v, numbers.Real) else v for k, v in value.items()}

    def owned_count(self, card_id: str) -> int:
        """Cards of `card_id` already owned (0 when none)."""
        owned = self.existing.get(card_id)   # an int when set by model_copy, which skips validation
        return 0 if owned is None else int(owned) if isinstance(owned, int) else owned.count

    def owned_age_months(self, card_id: str) -> int:
        """Age of the owned cards of `card_id` at month 1 (the short form means new: 0)."""
        owned = self.existing.get(card_id)
        return owned.age_months if isinstance(owned, OwnedCards) else 0


DEMAND_FIELDS = ("gpu_hours_per_month", "requests_per_second", "reference_gpus")
# Most requests per second one workload may state: a million times the busiest public LLM APIs' peaks is
# still far below it, and far below where the solver's sums overflow.
MAX_REQUESTS_PER_SECOND = 1e9
# whole, so that its message reads 1369863 (not 1.36986e+06) and 730 h of it stay within MAX_GPU_HOURS_PER_MONTH
MAX_REFERENCE_GPUS = math.floor(MAX_GPU_HOURS_PER_MONTH / HOURS_PER_MONTH)


def demand_problem(workload: dict) -> tuple[str, str] | None:
    """(field, what is wrong) when a workload's demand fields do not fit together, else None: exactly one of
    DEMAND_FIELDS, and requests_per_second exactly with throughput_unit requests_per_second (which needs a
    throughput table of requests/s). Read from the raw mapping too (scenario.loading), so the problem is
    reported even when other fields of the workload fail."""
    given = [f for f in DEMAND_FIELDS if workload.get(f) is not None]
    unit = workload.get("throughput_unit", "relative_speed")
    if not given:
        return ("gpu_hours_per_month", "required: one of gpu_hours_per_month (reference-GPU hours a month), "
                "reference_gpus (reference GPUs busy on average) or requests_per_second (with throughput_unit: "
                "requests_per_second)")
    if len(given) > 1:
        # an override adds its field to the one the file still gives: `workloads.x.reference_gpus: 2` alone is refused
        return (given[1], f"give one demand field, not {' and '.join(given)}: remove "
                f"{'one of them' if len(given) == 2 else 'all but one'} (to switch fields in overrides, also set the "
                "one the scenario gives to None)")
    if given == ["requests_per_second"] and unit != "requests_per_second":
        return ("requests_per_second", "requests_per_second needs throughput_unit: requests_per_second and a "
                "throughput table of the requests/s one GPU of each type sustains")
    if unit == "requests_per_second" and given != ["requests_per_second"]:
        return ("throughput_unit", f"throughput_unit requests_per_second needs the demand as requests_per_second, "
                f"not {given[0]}")
    if unit == "requests_per_second" and not workload.get("throughput"):
        return ("throughput", "throughput_unit requests_per_second needs a throughput table: the requests/s one "
                "GPU of each type sustains (a GPU left out cannot serve the workload)")
    return None


class Workload(Frozen):
    """A stream of GPU work: reference-GPU hours a month, reference GPUs busy on average, or requests per
    second (weekly means in month 1, shaped by the profile and grown by growth_per_month)."""

    name: VisibleName = Field(description="the workload's name, unique: reports and override paths "
                              "(workloads.NAME.field) use it")
    gpu_hours_per_month: float | None = Field(
        None, ge=0, le=MAX_GPU_HOURS_PER_MONTH,
        description="reference-GPU hours in month 1 (give this, reference_gpus or requests_per_second)")
    requests_per_second: float | None = Field(
        None, ge=0, le=MAX_REQUESTS_PER_SECOND,
        description="requests per second, the weekly mean in month 1 (the peak hour asks rate × the profile's largest "
                    "weight); needs throughput_unit: requests_per_second")
    reference_gpus: float | None = Field(
        None, ge=0, le=MAX_REFERENCE_GPUS,
        description="reference GPUs busy on average in month 1 (the weekly mean; = gpu_hours_per_month / 730)")
    reference_gpu: str = Field(max_length=MAX_NAME_LENGTH, description="canonical GPU id the hours are measured on")
    min_gpu_memory_gb: float = Field(0.0, ge=0, le=MAX_MEMORY_GB, description="memory each GPU must have")
    gpus_per_job: int = Field(1, ge=1, le=MAX_GPUS_PER_JOB, description="GPUs one job needs in one node")
    min_compute_capability: float | None = Field(None, ge=0, le=MAX_COMPUTE_CAPABILITY, description="e.g. 8.0 for bf16")
    framework: Name | None = Field(None, description="e.g. tensorflow==2.12; excludes GPUs its CUDA build cannot run on")
    growth_per_month: float = Field(0.0, gt=-1, description="compound monthly demand growth")
    profile: PathText = Field("flat", description="flat | business_hours | deadline_peaks | path to a CSV of 168 hourly weights")
    interruptible: bool = Field(False, description="may run on spot capacity")
    interruption_overhead: float = Field(0.0, ge=0, lt=1, description="share of spot work lost to interruptions")
    throughput_metric: ThroughputMetric = Field(speeds.DEFAULT_METRIC, description="how GPUs compare for this workload")
    throughput: dict[Name, Speed] | None = Field(
        None, max_length=MAX_ENTRIES,
        description="measured relative speed per GPU id (or custom card id: its GPU); overrides the metric. "
                          "With throughput_unit requests_per_second: requests/s one GPU sustains")
    throughput_unit: Literal["relative_speed", "requests_per_second"] = Field(
        "relative_speed", description="relative_speed: the throughput table holds speeds relative to the reference GPU "
        "(GPUs it lacks take the metric's); requests_per_second: it holds the requests/s one GPU of each type "
        "sustains, and a GPU it lacks cannot serve the workload")
    serving: bool = Field(False, description="true: capacity in whole instances (cloud) or whole cards in every "
                          "hour-of-week slot, sized to the slot's demand; false: divisible GPU-hours (batch)")
    placement: Literal["split", "single_type"] = Field(
        "split", description="split: work spread over GPU types; single_type: all of it on one GPU type (Mélange)")
    serving_group: VisibleName | None = Field(
        None, description="with serving: true, serving workloads of the same serving_group (request-size buckets of one "
        "model, as Mélange's) share whole instances and cards; workloads of different groups never share a GPU in a "
        "slot (on an instance of several GPUs each holds GPUs of its own); default: the workload's own name (a group "
        "of its own); ignored without serving")

    @field_validator("framework")
    @classmethod
    def _framework_form(cls, v: str | None) -> str | None:
        if v is not None and not re.fullmatch(r"[A-Za-z_-]+==\d+(\.\d+)*", v.strip()):
            known = sorted({row["framework"] for row in data_rows("frameworks.csv")[1]})
            near = suggest(re.split(r"[\s=<>!~]", v.strip())[0], known)
            hint = f"; did you mean '{near[0]}==VERSION'?" if near else ""
            raise PydanticCustomError("framework_form", "expected NAME==VERSION (e.g. tensorflow==2.12; frameworks: "
                                      "{known})", {"known": ", ".join(known), "hint": hint})
        return v

    @model_validator(mode="after")
    def _one_demand(self) -> Workload:
        # loading.py makes the same check on the raw file, so it is reported even when other fields fail
        problem = demand_problem(self.model_dump())
        if problem:
            raise PydanticCustomError("demand_fields", "{what}", {"field": (problem[0],), "what": problem[1]})
        return self

    def _path_of(self, field: str) -> str:
        return f"workloads.{self.name}.{field}"   # workloads are addressed by name in overrides

    @property
    def demand_field(self) -> str:
        """The demand field this workload gives: gpu_hours_per_month, requests_per_second or reference_gpus."""
        return next(f for f in DEMAND_FIELDS if getattr(self, f) is not None)

    @property
    def demand_amount(self) -> float:
        """The month-1 demand as stated, in the unit of `demand_field`."""
        return float(getattr(self, self.demand_field))


class Constraints(Frozen):
    _section = "constraints"

    min_units: dict[Name, Units] = Field(default_factory=dict, max_length=MAX_ENTRIES,
                                         description="card id -> least units in the fleet")
    max_units: dict[Name, Units] = Field(default_factory=dict, max_length=MAX_ENTRIES,
                                         description="card id -> most units in the fleet")
    max_cloud_share: float | None = Field(None, ge=0, le=1, description="most share of delivered work from cloud")


DEFAULT_HORIZON_MONTHS = 36
# the most demand a month may reach by growth, per demand field, and its unit in a message
GROWN_DEMAND_LIMITS = {"gpu_hours_per_month": (MAX_GPU_HOURS_PER_MONTH, "GPU-hours"),
                       "reference_gpus": (MAX_REFERENCE_GPUS, "reference GPUs"),
                       "requests_per_second": (MAX_REQUESTS_PER_SECOND, "requests/s")}


@functools.cache
def _field_reader(model: type[BaseModel], field: str) -> TypeAdapter:
    """Reads a value as `model` reads its `field` (type and bounds, no infinities)."""
    info = model.model_fields[field]
    kind = Annotated[(info.annotation, *info.metadata)] if info.metadata else info.annotation
    return TypeAdapter(kind, config=ConfigDict(allow_inf_nan=False))


def _read_as(model: type[BaseModel], field: str, value: Any) -> Any:
    """`value` as `model` reads its `field` (`"12"` → 12), or None when the model refuses it (true/false too)."""
    if isinstance(value, bool):
        return None
    try:
        return _field_reader(model, field).validate_python(value)
    except ValidationError:
        return None


def percent_meant(percent: float) -> str:
    """"; did you mean 0.08 (8 %)?": the hint for a share typed in percent (8 where 0.08 is meant)."""
    return f"; did you mean {percent / 100:g} ({percent:g} %)?"


def grown_demand_problem(workload: dict, horizon_months: Any) -> str | None:
    """The problem when compound growth over the horizon pushes a workload's demand above its field's limit
    (GROWN_DEMAND_LIMITS: growth_per_month 10 over 36 months is 1e37 hours, no fleet, only a puzzling
    infeasibility), else None. Read from the raw mapping too (scenario.loading), so it is reported with the
    file's other problems. None too when an input (the demand fields, its amount, growth_per_month,
    horizon_months) is itself invalid: that one is reported, and a month worked out from it would mean nothing."""
    if demand_problem(workload):
        return None
    field = next(f for f in DEMAND_FIELDS if workload.get(f) is not None)
    amount = _read_as(Workload, field, workload[field])
    growth = _read_as(Workload, "growth_per_month", workload.get("growth_per_month", 0.0))
    horizon = _read_as(Scenario, "horizon_months", horizon_months)
    if amount is None or growth is None or horizon is None:
        return None
    limit, unit = GROWN_DEMAND_LIMITS[field]
    month = _first_month_above(amount, growth, horizon, limit)
    if month is None:
        return None
    name = workload.get("name")
    of = f" of workload '{name}'" if isinstance(name, str) and len(name) <= MAX_NAME_LENGTH else ""
    # growth_per_month 2 (200 % a month) is most often 2 % typed as a percent
    in_percent = percent_meant(growth) if 1 < growth <= 100 else ""
    return (f"demand{of} grows above {limit:,.0f} {unit} in month {month} of {horizon} ({amount:g} × "
            f"(1 + {growth:g})^{month - 1}); lower growth_per_month or horizon_months{in_percent}")


def request_hours_problem(workload: dict, custom_gpus: dict, horizon_months: Any) -> tuple[str, str] | None:
    """(field, what is wrong) when a requests/s demand asks for more than MAX_GPU_HOURS_PER_MONTH reference-GPU-hours
    in some month of the horizon (requests/s ÷ the requests/s one reference GPU sustains, from the throughput table,
    × 730 h, grown): each figure within its own limit, 1e9 requests/s at 1e-6 per GPU still ask for 7.3e17.
    `custom_gpus`: custom card id -> the GPU it has (a table key naming a custom card stands for it). The field is
    requests_per_second when month 1 is already above, else growth_per_month. Read from the raw mapping too
    (scenario.loading); None when an input is itself invalid (that one is reported) or its grown requests/s are
    (grown_demand_problem says so), and for other demand fields."""
    if workload.get("throughput_unit") != "requests_per_second" or demand_problem(workload) \
            or grown_demand_problem(workload, horizon_months):
        return None
    ref, rates = _table_by_gpu(workload, custom_gpus, read=False)
    if ref not in rates:
        return None
    amount = _read_as(Workload, "requests_per_second", workload.get("requests_per_second"))
    rate = (_read_as(Workload, "throughput", {"reference": rates[ref][1]}) or {}).get("reference")
    growth = _read_as(Workload, "growth_per_month", workload.get("growth_per_month", 0.0))
    horizon = _read_as(Scenario, "horizon_months", horizon_months)
    if amount is None or rate is None or growth is None or horizon is None:
        return None
    hours = amount / rate * HOURS_PER_MONTH
    asks = (f"{amount:g} requests/s ÷ {rate:g} requests/s per {ref} × {HOURS_PER_MONTH:g} h = {hours:.3g} "
            "reference-GPU-hours in month 1")
    most = f"{MAX_GPU_HOURS_PER_MONTH:,.0f} a month (the most the model holds)"
    if hours > MAX_GPU_HOURS_PER_MONTH:
        return ("requests_per_second", f"{asks}; expected at most {most}: fewer requests/s, or more requests/s per GPU "
                "in the throughput table")
    month = _first_month_above(hours, growth, horizon)
    if month is None:
        return None
    in_percent = percent_meant(growth) if 1 < growth <= 100 else ""   # as grown_demand_problem
    return ("growth_per_month", f"{asks}, grown (× (1 + {growth:g})^{month - 1}) above {most} in month {month} of "
            f"{horizon}; lower growth_per_month or horizon_months, or raise the throughput table's requests/s per "
            f"GPU{in_percent}")


def _table_by_gpu(workload: dict, custom_gpus: dict, read: bool) -> tuple[str | None, dict[str, tuple[Any, Any]]]:
    """(the reference GPU, GPU -> (key, value) of the workload's throughput table), keyed as the engine keys it
    (engine.workloads._table: custom card ids standing for their GPUs, the last key naming a GPU wins); `read`: the
    values as the field reads them ({} where it refuses them). ({} where there is no table or reference GPU.)"""
    table, ref = workload.get("throughput"), resolve_gpu(str(workload.get("reference_gpu")))
    if not isinstance(table, dict) or ref is None:
        return ref, {}
    values = _read_as(Workload, "throughput", table) if read else table
    return ref, {resolve_gpu(str(custom_gpus.get(k) or k)): (k, v) for k, v in (values or {}).items()}


def relative_speed_problem(workload: dict, custom_gpus: dict) -> str | None:
    """What is wrong with a throughput table whose speed of some GPU over the reference GPU's, the relative speed the
    plan uses (engine.workloads.speed_and_source), lies outside 1/MAX_SPEED_RATIO … MAX_SPEED_RATIO, each entry
    within it (1e6 over 1e-6: a GPU a trillion times the reference's speed planned one card for 1e9 GPU-hours);
    None when it lies within, or the table has no entry of the reference GPU (each entry is then its own ratio) or
    is itself invalid (that is reported). Keyed as the engine keys it (custom card ids standing for their GPUs)."""
    ref, rates = _table_by_gpu(workload, custom_gpus, read=True)
    if ref not in rates:
        return None
    ref_key, ref_speed = rates[ref]
    for key, speed in rates.values():
        ratio = speed / ref_speed
        if not 1 / MAX_SPEED_RATIO <= ratio <= MAX_SPEED_RATIO:
            return (f"{key} {speed:g} ÷ {ref_key} {ref_speed:g} (the reference GPU) is a relative speed of {ratio:.3g}; "
                    f"expected {1 / MAX_SPEED_RATIO:g} to {MAX_SPEED_RATIO:g} times the reference GPU's (a typing "
                    "mistake in one of them?)")
    return None


def defaults_left_out(scenario: Any, data: dict) -> dict:
    """`data`, a dump of `scenario`, without prices.purchase_options where the scenario left them to the default
    (Prices.options_given), and without the onprem site figures it left to theirs (SITE_DEFAULT_BASIS): a scenario
    made again from the dump (overrides, engine.run.checked_scenario, a dashboard export) still tells the default
    from a value given."""
    prices = getattr(scenario, "prices", None)
    if isinstance(prices, Prices) and not prices.options_given and isinstance(data.get("prices"), dict):
        data["prices"].pop("purchase_options", None)
    onprem = getattr(scenario, "onprem", None)
    if isinstance(onprem, OnPrem) and isinstance(data.get("onprem"), dict):
        for field in SITE_DEFAULT_BASIS:
            if field not in onprem.model_fields_set:
                data["onprem"].pop(field, None)
    return data


def may_hold_cards(scenario: Any) -> bool:
    """Whether a plan of `scenario` may hold on-prem cards: it lists cards to buy (onprem.cards), has custom cards,
    owns cards (onprem.existing, a count above 0) or requires units of a card (constraints.min_units above 0) — the
    cards catalog.offers.allowed lets a plan use."""
    o = scenario.onprem
    return bool(o.cards or any(custom.buyable for custom in o.custom_cards.values())
                or any(o.owned_count(card) > 0 for card in o.existing)
                or any(units > 0 for units in scenario.constraints.min_units.values()))


def assumed_site_figures(scenario: Any) -> list[tuple[tuple, str]]:
    """[(("onprem",), warning)] when a plan of `scenario` may hold on-prem cards (may_hold_cards) and the scenario
    leaves out one of the site figures they are costed with (pue, availability, electricity_per_kwh): which values
    were assumed and on what basis (SITE_DEFAULT_SAID), in one warning; [] otherwise (an all-cloud scenario, or one
    that gives all three). Told from a value given by the fields set (model_fields_set), as Prices.options_given."""
    onprem = scenario.onprem
    left_out = [field for field in SITE_DEFAULT_SAID if field not in onprem.model_fields_set]
    if not left_out or not may_hold_cards(scenario):
        return []
    unit = {"electricity_per_kwh": f" {scenario.currency} a kWh"}
    said = [f"{field} {OnPrem.model_fields[field].default:g}{unit.get(field, '')} ({SITE_DEFAULT_SAID[field]})"
            for field in left_out]
    return [(("onprem",), f"onprem: site figures not given, assumed: {', '.join(said)}: give your site's figures")]


class Scenario(Frozen):
    """Every assumption of one plan. Same file + same price snapshot = same plan."""

    name: VisibleName = Field(description="label of the scenario and of its plan in every report")
    description: Text = Field("", description="free text on the scenario, shown with its plan")
    currency: Currency = Field("USD", description="ISO 4217 code all costs are reported in")
    horizon_months: int = Field(DEFAULT_HORIZON_MONTHS, ge=1, le=120,
                                description="the planning horizon, months of 730 h: costs are counted over them")
    discount_rate: float = Field(0.0, ge=0, lt=1, description="annual; 0 = undiscounted")
    fx: dict[Currency, Rate] = Field(default_factory=dict, max_length=MAX_ENTRIES,
                                     description="scenario-currency units per 1 unit of the named currency")
    prices: Prices = Field(Prices(), description="where cloud prices come from and which cloud offers are allowed")
    onprem: OnPrem = Field(OnPrem(), description="the site, the cards that may be bought, the cards already owned "
                           "and the site's caps")
    workloads: tuple[Workload, ...] = Field(min_length=1, max_length=MAX_WORKLOADS,
                                            description="the work to be served, at least one")
    constraints: Constraints = Field(Constraints(), description="limits on card units and on the cloud's share of "
                                     "the work")
    profile_slots: int | None = Field(
        None, ge=1, le=168,
        description="most blocks of weekly hours the model keeps: profiles with more distinct hourly weights are "
                    "grouped into this many load-duration blocks and the plan reports the bound on the cost error "
                    "(omitted = 24, planned again on 48 blocks, then exactly, while that bound is above 1 % of the total; "
                    "168 = always exact; with a serving workload every distinct weight is kept)")
    close_call_share: float = Field(
        0.02, ge=0, lt=1, description="a plan whose runner-up is within this share of the total is flagged a close call")
    _free_text = frozenset({"description"})
    # Not a field (never dumped, nor in the schema, nor compared): the folder the file it was loaded from names its
    # files against, absolute, set by the loader (loading.file_folder), so that a plan of it names them as that file
    # wrote them
    _folder: typing.Any = PrivateAttr(default=None)
    # Not a field either: each field that names a file → (the path it holds, as the file wrote it), set by the loader
    # (fileio.files_as_written): resolved, /data/x.csv and x.csv in /data read alike, and a plan names the first as
    # written, the second relative to the folder
    _files_as_written: typing.Any = PrivateAttr(default=None)
    # Not a field either: the scenario file it was read from (absolute; loading.loaded_from), kept by overrides' copies,
    # which no export of a plan of it may replace: `to_json(plan(load_scenario(path)), path)` replaced the YAML
    _file: typing.Any = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _unique_workload_names(self) -> Scenario:
        # loading.py makes the same check on the raw file, so every repeat is reported, also when other fields fail
        for i, problem in repeated_names([w.name for w in self.workloads]):
            raise PydanticCustomError("repeated_name", "{what}", {"loc": ("workloads", i, "name"), "what": problem})
        return self

    @model_validator(mode="after")
    def _grown_demand_is_bounded(self) -> Scenario:
        # loading.py makes the same check on the raw file, so it is reported with the file's other problems
        for i, w in enumerate(self.workloads):
            problem = grown_demand_problem(w.model_dump(), self.horizon_months)
            if problem:
                raise PydanticCustomError("demand_too_large", "{what}",
                                          {"loc": ("workloads", i, "growth_per_month"), "what": problem})
        return self

    @model_validator(mode="after")
    def _speeds_and_requests_are_bounded(self) -> Scenario:
        """A throughput table's relative speeds (relative_speed_problem) and a requests/s demand's GPU-hours
        (request_hours_problem; loading.py checks the raw file too, so it is reported with the file's other
        problems) within what the model takes."""
        custom_gpus = custom_gpu_ids(self.onprem.custom_cards)
        for i, w in enumerate(self.workloads):
            problems = []
            if w.throughput:
                speed = relative_speed_problem({"throughput": dict(w.throughput), "reference_gpu": w.reference_gpu},
                                               custom_gpus)
                problems += [("throughput", speed)] if speed else []
            if w.throughput_unit == "requests_per_second":   # no dump of every workload of every sweep point
                problems += [request_hours_problem(w.model_dump(), custom_gpus, self.horizon_months)]
            for problem in filter(None, problems):
                raise PydanticCustomError("figure_too_large", "{what}",
                                          {"loc": ("workloads", i, problem[0]), "what": problem[1]})
        return self

    def fx_rate(self, currency: str) -> float | None:
        """Scenario-currency units per unit of `currency` (1 for the scenario currency itself)."""
        return 1.0 if currency == self.currency else self.fx.get(currency)
