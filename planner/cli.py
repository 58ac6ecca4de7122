"""The `fleetplan` command line (typer). Formats what the engine returns; computes no cost itself.

Exit codes: 0 ok, 1 infeasible plan or failed price refresh, 2 bad input.
JSON and CSV go to stdout untouched; messages and warnings go to stderr.
"""

from __future__ import annotations

import json
import math
import sys
from enum import Enum
from pathlib import Path
from typing import List, Optional

import pandas as pd
import typer
from rich.console import Console
from rich.table import Table

from planner.errors import PlannerError, ScenarioError

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="GPU fleet planner: buy, rent from AWS/Azure, or mix — at the lowest total cost.")
err = Console(stderr=True, highlight=False)


def _register_subcommands() -> None:
    from planner.cli_prices import prices_app

    app.add_typer(prices_app, name="prices")


class Format(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"


def fail(exc: PlannerError) -> None:
    """One clear message on stderr, the error's exit code, no traceback."""
    err.print(f"[bold red]error:[/] {exc}", markup=True, soft_wrap=True)
    raise typer.Exit(exc.exit_code)


def emit(df: pd.DataFrame, fmt: Format, title: str = "", float_digits: int = 4) -> None:
    """Write a table to stdout as a rich table, JSON records or CSV."""
    if fmt is Format.json:
        from planner.export import records

        sys.stdout.write(json.dumps(records(df), indent=2) + "\n")
    elif fmt is Format.csv:
        df.to_csv(sys.stdout, index=False)
    else:
        table = Table(title=title or None, show_lines=False)
        for col in df.columns:
            table.add_column(str(col), justify="right" if pd.api.types.is_numeric_dtype(df[col]) else "left")
        for row in df.itertuples(index=False):
            cells = []
            for v in row:
                if isinstance(v, float):
                    text = "" if math.isnan(v) else f"{v:,.{float_digits}f}"
                    cells.append(text.rstrip("0").rstrip(".") if "." in text else text)
                else:
                    cells.append(str(v))
            table.add_row(*cells)
        # Piped output has no terminal width; do not squeeze columns into 80 characters.
        Console(highlight=False, width=None if sys.stdout.isatty() else 240).print(table)


# --------------------------------------------------------------------------------------------------


@app.command()
def validate(files: List[Path] = typer.Argument(..., help="scenario YAML files")) -> None:
    """Check scenario files; report every problem of every file, with its line."""
    from planner.scenario import load_scenario_file

    failed = 0
    for path in files:
        try:
            scenario = load_scenario_file(path)
            err.print(f"[green]ok[/] {path}: {scenario.name} — {len(scenario.workloads)} workload(s), "
                      f"{scenario.horizon_months} months", markup=True)
        except ScenarioError as exc:
            failed += 1
            err.print(str(exc), markup=False, soft_wrap=True)
    if failed:
        raise typer.Exit(2)


@app.command()
def schema(out: Optional[Path] = typer.Option(None, "--out", help="write to this file instead of stdout")) -> None:
    """Write the JSON Schema of scenario files (for editor completion and checks)."""
    from planner.scenario import scenario_json_schema

    text = json.dumps(scenario_json_schema(), indent=2) + "\n"
    if out is None:
        sys.stdout.write(text)
        return
    from planner.fileio import write_atomic

    write_atomic(out, text)
    err.print(f"wrote {out}")


def _parse_fx(pairs: list[str]) -> dict[str, float]:
    fx: dict[str, float] = {}
    for pair in pairs:
        code, _, rate = pair.partition("=")
        try:
            fx[code.strip().upper()] = float(rate)
        except ValueError:
            raise PlannerError(f"--fx {pair!r}: expected CODE=RATE, e.g. --fx CNY=0.14 (USD per 1 CNY)") from None
    return fx


TABLE_COLUMNS = ["provider", "region", "sku", "purchase_option", "gpu", "gpu_count", "gpu_memory_gb",
                 "usd_per_hour", "usd_per_gpu_hour", "as_of"]


@app.command()
def offers(
    gpu: Optional[str] = typer.Option(None, "--gpu", help="GPU id, alias or family (A100-80GB finds PCIe and SXM)"),
    min_memory: Optional[float] = typer.Option(None, "--min-memory", help="least GB per GPU"),
    provider: List[str] = typer.Option([], "--provider", help="aws, azure, onprem (repeatable)"),
    region: List[str] = typer.Option([], "--region", help="region code (repeatable)"),
    option: List[str] = typer.Option([], "--option", help="purchase option (repeatable)"),
    max_price: Optional[float] = typer.Option(None, "--max-price", help="most USD per GPU-hour"),
    fx: List[str] = typer.Option([], "--fx", help="USD per unit of a card's currency, e.g. CNY=0.14"),
    electricity: float = typer.Option(0.12, "--electricity", help="USD per kWh for on-prem cards"),
    pue: float = typer.Option(1.4, "--pue", help="site PUE for on-prem cards"),
    limit: Optional[int] = typer.Option(None, "--limit", help="show only the first N rows"),
    fmt: Format = typer.Option(Format.table, "--format"),
) -> None:
    """Every way to get a GPU: cloud offers (packaged snapshot) and on-prem cards, cheapest per GPU-hour first.

    On-prem cards are costed as owned and busy every hour of their life: capex (card + host share)
    over the life, maintenance, and busy watts × PUE × electricity.
    """
    from planner.offers_view import OfferFilter, offers_table

    try:
        table, warnings = offers_table(OfferFilter(
            gpu=gpu, min_memory_gb=min_memory, providers=tuple(provider), regions=tuple(region),
            options=tuple(option), max_usd_per_gpu_hour=max_price),
            fx_to_usd=_parse_fx(fx), electricity_usd_per_kwh=electricity, pue=pue)
    except PlannerError as exc:
        fail(exc)
    for w in warnings:
        err.print(f"[yellow]warning:[/] {w}", markup=True, soft_wrap=True)
    if limit is not None:
        table = table.head(limit)
    if fmt is Format.table:
        table = table[TABLE_COLUMNS]
    emit(table, fmt, title=f"{len(table)} offers (USD)")


@app.command()
def inventory(
    from_file: Optional[Path] = typer.Option(None, "--from", help="read saved nvidia-smi output instead of running it"),
) -> None:
    """Turn `nvidia-smi --query-gpu=name,memory.total,power.limit --format=csv,noheader` into `onprem.existing`."""
    from planner.inventory import parse_inventory, read_nvidia_smi

    try:
        if from_file is not None:
            try:
                text = from_file.read_text(encoding="utf-8")
            except OSError as exc:
                raise PlannerError(f"{from_file}: cannot read: {exc.strerror or exc}") from None
        else:
            text = read_nvidia_smi()
    except PlannerError as exc:
        fail(exc)
    inv = parse_inventory(text)
    for line, hint in inv.unknown:
        err.print(f"[yellow]unknown GPU:[/] {line} — {hint}", markup=True, soft_wrap=True)
    sys.stdout.write(inv.yaml_block())


class Solver(str, Enum):
    cbc = "cbc"
    highs = "highs"


@app.command("plan")
def plan_command(
    file: Path = typer.Argument(..., help="scenario YAML file"),
    fmt: Format = typer.Option(Format.table, "--format", help="table | json (the whole plan) | csv (the fleet)"),
    solver: Solver = typer.Option(Solver.cbc, "--solver", help="MILP solver: cbc (bundled) or highs"),
    no_baselines: bool = typer.Option(False, "--no-baselines", help="skip the all-cloud/all-on-prem/single-type runs"),
    unreduced: bool = typer.Option(False, "--unreduced", help="solve without the exact reductions (slow; for checks)"),
) -> None:
    """Find the cheapest fleet for a scenario. Exit 0 with a plan, 1 when infeasible (with the reason), 2 on bad input."""
    from planner.engine import plan as make_plan
    from planner.errors import InfeasibleError
    from planner.export import plan_to_dict
    from planner.scenario import load_scenario_file

    try:
        scenario = load_scenario_file(file)
        result = make_plan(scenario, solver=solver.value, reduced=not unreduced, baselines=not no_baselines)
    except InfeasibleError as exc:
        if fmt is Format.json:
            sys.stdout.write(json.dumps({"status": "infeasible", "reason": str(exc)}, indent=2) + "\n")
        err.print(f"[bold red]infeasible:[/] {exc}", markup=True, soft_wrap=True)
        raise typer.Exit(1)
    except PlannerError as exc:
        fail(exc)
    if fmt is Format.json:
        sys.stdout.write(json.dumps(plan_to_dict(result), indent=2) + "\n")
    elif fmt is Format.csv:
        result.fleet.to_csv(sys.stdout, index=False)
    else:
        _print_plan(result)


def _print_plan(p) -> None:
    out = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
    cur = p.currency
    out.print(f"[bold]{p.scenario_name}[/] — {p.status}, {p.horizon_months} months, total "
              f"[bold]{p.total:,.0f} {cur}[/] (present value); prices: {p.prices['source']} "
              f"as of {p.prices['as_of']}")
    emit(p.fleet, Format.table, title="Fleet", float_digits=1)
    emit(p.costs, Format.table, title=f"Cost by category ({cur})", float_digits=0)
    if len(p.baselines):
        emit(p.baselines.drop(columns=["note"]), Format.table, title=f"Baselines ({cur})", float_digits=1)
    if len(p.utilisation):
        emit(p.utilisation, Format.table, title="Owned cards", float_digits=2)
    if len(p.break_even):
        emit(p.break_even.drop(columns=["cloud_offer"]), Format.table, title="Break-even utilisation",
             float_digits=3)
    s = p.solver
    err.print(f"solver {s['name']}: {s['status']}, gap {s['gap']}, {s['variables']} variables "
              f"({s['integer_variables']} integer), {s['constraints']} constraints, {s['seconds']:.3f} s")


_register_subcommands()


def main() -> None:  # pragma: no cover - console entry
    app()


if __name__ == "__main__":  # pragma: no cover
    app()
