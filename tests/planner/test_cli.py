"""The CLI's contract: exit codes, clean JSON on stdout, messages on stderr, no tracebacks."""

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from planner.cli import app
from planner.cli.console import err

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures"
runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_validate_examples_exit_0():
    result = run("validate", *sorted((ROOT / "scenarios").glob("*.yaml")))
    assert result.exit_code == 0, result.output


def test_validate_counts_in_words_that_agree_with_the_number():
    # melange-toy.yaml: four workloads over horizon_months 1; worked-example.yaml: one workload over 24 months.
    # It said "4 workload(s), 1 months" and "1 workload(s), 24 months"
    result = run("validate", ROOT / "examples" / "melange-toy.yaml", ROOT / "examples" / "worked-example.yaml")
    assert result.exit_code == 0, result.output
    said = " ".join(result.stderr.split())
    assert "melange-toy.yaml: Mélange toy example — 4 workloads, 1 month" in said and "1 months" not in said
    assert "worked-example.yaml: Worked example — 1 workload, 24 months" in said


def test_validate_bad_file_exits_2_with_every_problem_and_no_traceback():
    result = run("validate", FIX / "scenarios" / "bad.yaml")
    assert result.exit_code == 2
    text = result.stderr
    for needle in ["bad.yaml:2:1: horizon_month: unknown key; did you mean 'horizon_months'?",
                   "bad.yaml:5:4:", "indented more than the key 'electricity_per_kwh' above it (line 4)",
                   "did you mean 'rtx-4090'",
                   "expected a number, got 'lots'", "did you mean 'A100-80GB-PCIE'"]:
        assert needle in text
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_schema_command_matches_committed_schema(tmp_path):
    out = tmp_path / "s.json"
    assert run("schema", "--out", out).exit_code == 0
    committed = json.loads((ROOT / "schema" / "scenario.schema.json").read_text())
    assert json.loads(out.read_text()) == committed
    assert "horizon_months" in committed["properties"]


def offers_json(*args):
    result = run("offers", *args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_offers_a100_40gb_p4d_us_east_1_is_21_957642_usd_per_hour():
    rows = offers_json("--gpu", "A100-40GB", "--region", "us-east-1", "--option", "on_demand")
    (p4d,) = [r for r in rows if r["sku"] == "p4d.24xlarge"]
    # aws_ondemand_linux_prices.csv: us-east-1 p4d.24xlarge 21.957642 (Karpenter, 2026-07-20); 8 × A100 40 GB
    assert p4d["usd_per_hour"] == pytest.approx(21.957642)
    assert p4d["usd_per_gpu_hour"] == pytest.approx(21.957642 / 8)
    assert p4d["gpu_count"] == 8 and p4d["gpu_memory_gb"] == 40 and p4d["as_of"] == "2026-07-20"


def test_offers_a100_80gb_lists_aws_azure_and_the_onprem_card():
    rows = offers_json("--gpu", "A100-80GB")
    providers = {r["provider"] for r in rows}
    assert providers == {"aws", "azure", "onprem"}
    assert {r["gpu"] for r in rows} == {"A100-80GB-PCIE", "A100-80GB-SXM"}
    (nc24,) = [r for r in rows if r["sku"] == "Standard_NC24ads_A100_v4" and r["region"] == "eastus"
               and r["purchase_option"] == "on_demand"]
    assert nc24["usd_per_hour"] == pytest.approx(3.673) and nc24["gpu_count"] == 1
    assert all(r["usd_per_hour"] is not None for r in rows)
    # a size whose GPU count no source gives has no per-GPU price, and says so
    assert all(r["usd_per_gpu_hour"] is not None or "gpu_count unknown" in r["note"] for r in rows)
    per_gpu = [r["usd_per_gpu_hour"] for r in rows if r["usd_per_gpu_hour"] is not None]
    assert per_gpu == sorted(per_gpu)


def test_offers_filters_combine():
    rows = offers_json("--min-memory", "40", "--provider", "azure", "--max-price", "4.0", "--option", "on_demand")
    assert rows and all(r["gpu_memory_gb"] >= 40 and r["provider"] == "azure" and r["usd_per_gpu_hour"] <= 4.0
                        and r["purchase_option"] == "on_demand" for r in rows)


def test_onprem_card_hourly_cost_by_hand():
    # a100-80gb-pcie: capex 11500 (catalog, 2026-03-20) + 2500 host = 14000 USD, 5 years, 5 %/y maintenance,
    # 540 W busy: 14000/(5×8760) + 14000×0.05/8760 + 0.540 kW × 1.58 × 0.12 USD/kWh (the defaults of --pue, the
    # industry average PUE of 2023 (Uptime Institute), and of --electricity, an assumption with no source)
    # = 0.3196347 + 0.0799087 + 0.102384 = 0.5019274
    expected = 14000 / 43800 + 700 / 8760 + 0.540 * 1.58 * 0.12
    assert expected == pytest.approx(0.5019274, abs=1e-7)
    rows = offers_json("--gpu", "A100-80GB-PCIE", "--provider", "onprem")
    assert rows[0]["usd_per_hour"] == pytest.approx(expected)


def test_cny_card_needs_fx_and_uses_it():
    rows = offers_json("--gpu", "RTX-3060-12GB", "--provider", "onprem", "--fx", "CNY=0.14")
    # (2500 + 5400 CNY) × 0.14 = 1106 USD over 3 years, 3 %/y, 306 W busy at the default PUE 1.58 and 0.12 USD/kWh:
    # 1106/26280 + 33.18/8760 + 0.306 × 1.58 × 0.12 = 0.0420852 + 0.0037877 + 0.0580176 = 0.1038905
    capex = 7900 * 0.14
    assert rows[0]["usd_per_hour"] == pytest.approx(capex / (3 * 8760) + capex * 0.03 / 8760 + 0.306 * 1.58 * 0.12)
    assert rows[0]["usd_per_hour"] == pytest.approx(0.1038905, abs=1e-7)
    result = run("offers", "--gpu", "RTX-3060-12GB", "--provider", "onprem", "--format", "json")
    assert json.loads(result.stdout)[0]["usd_per_hour"] is None and "--fx CNY=" in result.stderr


@pytest.mark.parametrize("args,needle", [
    (["--gpu", "A100-80GB-PCI"], "did you mean 'A100-80GB-PCIE'"),
    (["--provider", "awz"], "did you mean 'aws'"),
    (["--region", "us-east1"], "did you mean 'us-east-1'"),
    (["--option", "ondemand"], "did you mean 'on_demand'"),
])
def test_offers_bad_filter_exits_2_with_suggestion(args, needle):
    result = run("offers", *args)
    assert result.exit_code == 2 and needle in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize("args,needle", [
    # a scenario allows electricity ≥ 0 and a PUE of 1 to 3; -5 ranked on-prem cards below zero, nan
    # filtered every offer out without a word
    (["--electricity", "-5"], "--electricity -5: expected a number from 0 to 1e+06"),
    (["--electricity", "1e308"], "--electricity 1e+308: expected a number from 0 to 1e+06"),
    (["--pue", "0"], "--pue 0: expected a number from 1 to 3"),
    (["--max-price", "nan"], "--max-price nan: expected a number from 0"),
    (["--min-memory", "nan"], "--min-memory nan: expected a number from 0"),
    (["--limit", "-1"], "--limit -1: expected a number ≥ 0"),
    # a scenario's fx is bounded to 1e-9..1e9; 1e308 overflowed a yuan price to an empty cell, with numpy's warning
    (["--fx", "CNY=1e308"], "--fx 'CNY=1e308': expected a rate from 1e-09 to 1e+09 USD per unit"),
    (["--fx", "CNY=1e-12"], "--fx 'CNY=1e-12': expected a rate from 1e-09 to 1e+09 USD per unit"),
])
def test_offers_numbers_out_of_range_exit_2_before_any_table(args, needle):
    result = run("offers", "--provider", "onprem", *args, "--format", "csv")
    assert result.exit_code == 2 and result.stdout == "" and needle in result.stderr, result.output


def test_inventory_from_recorded_nvidia_smi():
    result = run("inventory", "--from", FIX / "nvidia_smi" / "two_3060_one_a100.csv")
    assert result.exit_code == 0
    import yaml
    assert yaml.safe_load(result.stdout) == {"onprem": {"existing": {"rtx-3060-12gb": {"count": 2, "age_months": 0},
                                                                      "a100-80gb-pcie": {"count": 1, "age_months": 0}}}}
    assert "set each age_months" in result.stdout   # nvidia-smi does not know when a card was bought


def test_inventory_writes_the_age_given():
    result = run("inventory", "--from", FIX / "nvidia_smi" / "two_3060_one_a100.csv", "--age-months", "30")
    assert result.exit_code == 0
    import yaml
    assert yaml.safe_load(result.stdout) == {"onprem": {"existing": {"rtx-3060-12gb": {"count": 2, "age_months": 30},
                                                                      "a100-80gb-pcie": {"count": 1, "age_months": 30}}}}
    # no comment but the RTX 3060's yuan price (planner/data/onprem_cards.csv), which a scenario needs fx for
    comments = [line.strip() for line in result.stdout.splitlines() if "#" in line]
    assert comments == ["# rtx-3060-12gb: its catalog price is in CNY: a scenario in another currency needs its rate, "
                        "e.g. fx: {CNY: <USD per 1 CNY>}"]
    assert run("inventory", "--from", FIX / "nvidia_smi" / "two_3060_one_a100.csv", "--age-months", "-1").exit_code == 2


def test_inventory_says_when_the_age_given_is_past_a_cards_life(tmp_path):
    # the RTX 3060's catalog life is 3 years (36 months), the A100's 5 (planner/data/onprem_cards.csv): at 40
    # months a scenario refuses the 3060 (validate: "not below the card's life"), and inventory says so
    result = run("inventory", "--from", FIX / "nvidia_smi" / "two_3060_one_a100.csv", "--age-months", "40")
    assert result.exit_code == 0
    said = "rtx-3060-12gb: 40 months is not below the card's life of 36 months (life_years 3)"
    assert f"warning: {said}" in " ".join(result.stderr.split())
    assert f"# {said}" in result.stdout and "a100-80gb-pcie: 40" not in result.stderr
    # pasted as it is, the block is what validate refuses, at the 3060's line
    import yaml
    block = yaml.safe_load(result.stdout)["onprem"]
    scenario = tmp_path / "s.yaml"
    scenario.write_text(yaml.safe_dump({"name": "s", "fx": {"CNY": 0.14}, "onprem": block, "workloads": [
        {"name": "w", "gpu_hours_per_month": 100, "reference_gpu": "T4"}]}))
    checked = run("validate", scenario)
    assert checked.exit_code == 2 and "not below the card's life of 36 months" in checked.stderr
    assert "a100-80gb-pcie" not in checked.stderr


def test_inventory_lists_unknown_gpus_with_suggestions():
    result = run("inventory", "--from", FIX / "nvidia_smi" / "unknown_and_8gb.csv")
    assert result.exit_code == 0
    import yaml
    assert yaml.safe_load(result.stdout) == {"onprem": {"existing": {"rtx-a5000": {"count": 1, "age_months": 0}}}}
    assert "8192 MiB is not the 12 GB RTX-3060-12GB" in result.stderr
    assert "the nearest name there is RTX-A5000" in " ".join(result.stderr.split())


@pytest.fixture(params=[False, True], ids=["plain", "colour"])
def coloured(request, monkeypatch):
    """Whether stderr is coloured in this run: FORCE_COLOR=1 takes the coloured (rich) path on the captured
    stderr, no FORCE_COLOR the plain one (TTY_COMPATIBLE unset either way)."""
    if request.param:
        monkeypatch.setenv("FORCE_COLOR", "1")
    else:
        monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    monkeypatch.delitem(err.__dict__, "console", raising=False)   # rich sets colour up when its console is made
    return request.param


def test_inventory_shows_an_unknown_gpu_name_as_written_even_with_brackets(tmp_path, coloured):
    # a name holding "[/x]" made rich fail (MarkupError, a traceback) and "[bold]" vanished as a style tag
    smi = tmp_path / "smi.csv"
    smi.write_text("NVIDIA [bold]Mystery[/bold] [/tmp], 24564 MiB, 230.00 W\n", encoding="utf-8")
    result = run("inventory", "--from", smi)
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert "NVIDIA [bold]Mystery[/bold] [/tmp]" in result.stderr
    assert ("\x1b[" in result.stderr) == coloured   # yellow label only on a "terminal"


def test_validate_shows_a_scenario_name_with_brackets_as_written(tmp_path, coloured):
    # the "ok" line put the scenario's name into rich markup: "[/x]" raised MarkupError (a traceback)
    text = (ROOT / "scenarios" / "entry.yaml").read_text(encoding="utf-8")
    scenario = tmp_path / "s.yaml"
    scenario.write_text(re.sub(r"(?m)^name: .*$", 'name: "Entry [/x] [bold]b"', text, count=1), encoding="utf-8")
    result = run("validate", scenario)
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert f"{scenario}: Entry [/x] [bold]b — " in result.stderr


def test_inventory_without_nvidia_smi_says_so_in_one_line(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    result = run("inventory")
    assert result.exit_code == 2
    assert "nvidia-smi not found" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_validate_and_plan_warn_when_an_allowed_option_has_no_price():
    # startup-hybrid allows reserved_1y/3y in us-east-1 and eastus; the packaged snapshot has no
    # commitment price (none could be sourced), so both say so and the plan still runs
    result = run("validate", str(ROOT / "scenarios" / "startup-hybrid.yaml"))
    assert result.exit_code == 0 and "reserved_1y: no reserved_1y prices" in result.stderr
    result = run("plan", str(ROOT / "scenarios" / "startup-hybrid.yaml"), "--format", "json")
    doc = json.loads(result.stdout)
    assert any(w.startswith("reserved_3y: no reserved_3y prices") for w in doc["warnings"])
    assert "reserved_3y: no reserved_3y prices" in result.stderr
    # the purchase schedule and the owned-card decisions are in the JSON: 2 owned RTX 3060s, each sold or not
    owned = doc["owned"][0]
    assert owned["card"] == "rtx-3060-12gb" and owned["kept"] + owned["switched_off"] + owned["sold"] == 2
    assert {r["action"] for r in doc["schedule"]} <= {"buy", "sell", "switch off", "retire", "end value"}
    # the A100 still in service at the end: its residual value, 0.5 × 16,500 × (1 − 36/60), credited in month 37
    assert {"month": 37, "card": "a100-80gb-pcie", "gpu": "A100-80GB-PCIE", "action": "end value", "units": 1,
            "amount": -3300.0, "note": "residual value at the end of the plan (36 months old)"} in doc["schedule"]
    assert doc["assumptions"]["resale_share_of_book"] == 0.5 and doc["assumptions"]["purchase_every_months"] == 3


def test_a_region_no_offer_has_is_refused_by_validate_and_plan_with_the_file(tmp_path):
    scenario = tmp_path / "reg.yaml"
    scenario.write_text("name: reg\nprices:\n  regions: [us-eats-1]\nworkloads:\n"
                        "  - {name: w, gpu_hours_per_month: 100, reference_gpu: T4}\n")
    said = "prices.regions: no offers in 'us-eats-1' (did you mean 'us-east-1'?) in the snapshot prices"
    # validate said ok, and plan named no file; both place the region: line 3, after "  regions: [" (12)
    for command, place in ((["validate"], f"{scenario}:3:13"), (["plan", "--no-decisions"], f"{scenario}:3:13")):
        result = run(*command, str(scenario))
        assert result.exit_code == 2 and f"{place}: {said}" in " ".join(result.stderr.split()), result.output


def test_an_offers_csv_in_a_currency_fx_lacks_is_refused_by_validate_and_plan_with_the_file(tmp_path):
    # the worked example's one g5 offer, priced in EUR: validate said ok, plan named neither file nor field
    offers = (ROOT / "examples" / "offers-g5-us-east-1.csv").read_text(encoding="utf-8")
    assert offers.count(",USD,") == 1
    (tmp_path / "offers-g5-us-east-1.csv").write_text(offers.replace(",USD,", ",EUR,"), encoding="utf-8")
    scenario = tmp_path / "worked-example.yaml"
    scenario.write_text((ROOT / "examples" / "worked-example.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    # the CSV as the scenario names it, not the path it was resolved to
    said = (f"{scenario}: fx: offers in the offers-g5-us-east-1.csv prices are priced in EUR, which fx "
            "has no rate for; add fx: {EUR: <USD per 1 EUR>}")
    for command in (["validate"], ["plan", "--no-decisions"]):
        result = run(*command, str(scenario))
        assert result.exit_code == 2 and said in " ".join(result.stderr.split()), result.output


def test_validate_checks_against_the_store_it_is_given(tmp_path, monkeypatch):
    from test_cli_prices import FakeSource, refresh, use

    store = tmp_path / "s.sqlite"
    # AWS on-demand offers of us-east-1 only: no spot there, while the packaged snapshot has p4d spot there (11 spot
    # offers missing: saved deliberately)
    use(monkeypatch, FakeSource(on_demand_only=True))
    assert refresh(store, "--accept-missing-offers").exit_code == 0
    scenario = tmp_path / "s.yaml"
    scenario.write_text("name: s\nprices:\n  source: store\n  providers: [aws]\n  regions: [us-east-1]\n"
                        "  purchase_options: [on_demand, spot]\nworkloads:\n"
                        "  - {name: w, gpu_hours_per_month: 100, reference_gpu: T4}\n")
    gap = "spot: no spot prices for aws in us-east-1 in the store prices"
    result = run("validate", str(scenario), "--store", str(store))
    assert result.exit_code == 0 and gap in " ".join(result.stderr.split()), result.output
    assert run("validate", str(scenario), "--store", str(tmp_path)).exit_code == 2   # a folder, as plan --store


# --- what each decision is worth (engine.decisions) ------------------------------------------------

WORKED = ROOT / "examples" / "worked-example.yaml"
DECISION_SECTIONS = ("What each decision is worth", "Runner-up fleet", "Flip points")


def test_plan_table_shows_decisions_runner_up_and_flip_points_after_the_baselines():
    result = run("plan", WORKED)
    assert result.exit_code == 0, result.output
    out = result.stdout
    at = [out.index(title) for title in ("Baselines", *DECISION_SECTIONS)]
    assert at == sorted(at)
    # the worked example by hand (README): the one A5000 forbidden in month 1 is bought in month 4 for
    # 10,511.53 USD in all; without any card, all cloud costs 1,000 g5-hours × 1.006 × 24 = 24,144 USD
    assert "10,511.5" in out and "runner-up 24,144 USD" in out and "rtx-a5000 1 → 0" in out
    assert "close call" not in out
    assert "decision values, runner-up, flip points and cap costs:" in result.stderr


def test_plan_table_says_close_call_when_the_runner_up_is_within_2_percent():
    # startup-hybrid: keeping one owned RTX 3060 costs 1.7 % more (tests/planner/test_decisions.py, brute force)
    result = run("plan", ROOT / "scenarios" / "startup-hybrid.yaml", "--no-baselines")
    assert result.exit_code == 0, result.output
    assert "close call: the runner-up costs within 2% of the recommended plan" in result.stdout
    assert "rtx-3060-12gb 0 (2 owned sold) → 1 (1 bought in year 3, 2 owned sold)" in result.stdout


def test_plan_no_decisions_skips_them_in_the_table_and_json():
    table = run("plan", WORKED, "--no-decisions", "--no-baselines")
    assert table.exit_code == 0, table.output
    assert not any(title in table.stdout for title in DECISION_SECTIONS)
    doc = json.loads(run("plan", WORKED, "--format", "json", "--no-decisions", "--no-baselines").stdout)
    assert doc["decisions"] is None and doc["runner_up"] is None and doc["close_call"] is None
    assert doc["flip_points"] is None


def test_plan_json_carries_decisions_runner_up_close_call_and_flip_points():
    result = run("plan", WORKED, "--format", "json", "--no-baselines")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    (decision,) = doc["decisions"]
    assert decision["decision"] == "buy" and decision["total_if_forbidden"] == pytest.approx(10511.5275, rel=1e-6)
    assert doc["runner_up"]["fleet"] == {} and doc["runner_up"]["total"] == pytest.approx(24144, rel=1e-9)
    assert doc["close_call"] is False
    (flip,) = doc["flip_points"]
    assert flip["card"] == "rtx-a5000" and flip["unit"] == "GPU-hours per month"
    assert set(doc["solver"]["decisions"]["solves"]) == {"decision_values", "runner_up", "flip_points", "cap_costs"}


def test_plan_table_shows_serving_instances_per_slot_for_melange_toy():
    # Mélange's toy example (README): buckets of 6, 3, 15 and 6 requests/s; one A10G serves 2, 1, 5, 2 of
    # them, so the bucket left to the A10G (small in, small out: 6 / 2) needs 3 whole instances
    result = run("plan", ROOT / "examples" / "melange-toy.yaml", "--no-baselines", "--no-decisions")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Serving: whole instances" in out
    row = next(line for line in out.splitlines() if "small-in-small-out" in line)
    cells = [c.strip() for c in row.strip("│ ").split("│")]
    assert cells[cells.index("A10G") + 1] == "3"
    as_json = run("plan", ROOT / "examples" / "melange-toy.yaml", "--format", "json", "--no-baselines", "--no-decisions")
    serving = json.loads(as_json.stdout)["serving"]
    assert sorted(r["instances"] for r in serving) == [1, 1, 1, 3]


@pytest.mark.parametrize(("args", "said"), [
    # an unset $OUT gave "" and the message named ".": "-o .: is a folder", "--out .: cannot write: Is a directory"
    (["schema", "--out", ""], "Invalid value for '--out': empty; expected the path of a file"),
    (["plan", "scenarios/entry.yaml", "--format", "md", "-o", ""],
     "Invalid value for '-o' / '--output': empty; expected the path of a file"),
    (["plan", "scenarios/entry.yaml", "--out", " "], "Invalid value for '--out': empty; expected the path of a folder"),
    (["prices", "list", "--store", ""], "Invalid value for '--store': empty; expected the path of a file"),
    # the scenario arguments too: ".: is a folder; expected a scenario YAML file"
    (["validate", ""], "Invalid value for 'SCENARIO': empty; expected the path of a file"),
    (["plan", ""], "Invalid value for 'SCENARIO': empty; expected the path of a file"),
    (["compare", "", "scenarios/entry.yaml"], "Invalid value for 'a': empty; expected the path of a file"),
    # a trailing "/" was dropped: `-o new.md/` wrote a file new.md where a folder was meant
    (["schema", "--out", "x.json/"], "Invalid value for '--out': 'x.json/' ends in '/', which names a folder; expected "
                                     "the path of a file"),
    (["plan", "scenarios/entry.yaml", "--format", "md", "-o", "new.md/"],
     "Invalid value for '-o' / '--output': 'new.md/' ends in '/', which names a folder; expected the path of a file"),
])
def test_an_empty_path_or_a_file_path_ending_in_a_slash_is_bad_input_as_given(tmp_path, monkeypatch, args, said):
    monkeypatch.chdir(tmp_path)
    args = [str(ROOT / a) if a.startswith("scenarios/") else a for a in args]
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and said in " ".join(result.output.split())
    assert list(tmp_path.iterdir()) == []   # nothing written


def test_a_folder_path_may_end_in_a_slash(tmp_path):
    result = runner.invoke(app, ["plan", str(ROOT / "scenarios" / "entry.yaml"), "--no-decisions", "--no-baselines",
                                 "--format", "json", "--out", f"{tmp_path / 'out'}/"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "plan.json").is_file()
