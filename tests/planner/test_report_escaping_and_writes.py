"""Reports of a scenario whose names hold line breaks, terminal escape sequences and Markdown signs; which
figures are present values and which nominal; a card that never breaks even; over-long names; and files
and folders written over ones with permissions of their own.

Expected texts are written out by hand: a line break in a Markdown cell reads as a space (as Markdown
shows a break inside a paragraph), any other control character as its code, `\\xNN`, as the CLI prints
it on a terminal; in a CSV field a CR is a line break (the field is quoted) and the other control
characters are codes too."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
import yaml
from markdown_it import MarkdownIt

from planner import load_scenario, plan
from planner.errors import ScenarioError
from planner.fileio import write_atomic
from planner.reports import plan_to_csv, plan_to_excel, plan_to_json, plan_to_markdown
from planner.reports.focus import plan_to_focus
from planner.reports.tables import csv_text
from planner.scenario import load_scenario_text

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "worked-example.yaml"
OFFERS = ROOT / "examples" / "offers-g5-us-east-1.csv"
PYTHON = Path(sys.executable)

ESC = "\x1b"
SCENARIO_NAME = f"Fleet | one\n| injected | row |\r{ESC}[31mred{ESC}[0m"
DESCRIPTION = "first line\n\n## injected heading\n| a | b |\n|---|---|"
# a name with a line break, an OSC 8 hyperlink (a terminal shows "click" and opens the address), a C1 CSI
WORKLOAD_NAMES = ("train\nnext", f"{ESC}]8;;http://127.0.0.1:9/\x07click{ESC}]8;;\x07", "csi\x9b2J")
CARD = f"card|x\r\nnext{ESC}[2J"   # a custom card, owned, so it is in the fleet table
# how the Markdown shows them (rendered): one line each, the codes as typed
SHOWN_NAME = r"Fleet | one | injected | row | \x1b[31mred\x1b[0m"
SHOWN_WORKLOADS = ("train next", r"\x1b]8;;http://127.0.0.1:9/\x07click\x1b]8;;\x07", r"csi\x9b2J")
SHOWN_CARD = r"card|x next\x1b[2J"
CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")   # any control character but the line feed


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> object:
    """The worked example with the names above, its offers CSV next to it."""
    folder = tmp_path_factory.mktemp("hostile")
    data = yaml.safe_load(WORKED.read_text())
    workload = data["workloads"][0]
    data |= {"name": SCENARIO_NAME, "description": DESCRIPTION,
             "workloads": [dict(workload, name=n, gpu_hours_per_month=200) for n in WORKLOAD_NAMES]}
    data["onprem"]["custom_cards"] = {CARD: {"gpu": "RTX-A5000", "price": 1000, "busy_watts": 400,
                                             "idle_watts": 100, "life_years": 4}}
    data["onprem"]["existing"] = {CARD: 1}
    shutil.copy(OFFERS, folder / OFFERS.name)
    (folder / "hostile.yaml").write_text(yaml.safe_dump(data, allow_unicode=True))
    return plan(load_scenario(folder / "hostile.yaml"), baselines=False)


def sections(html: str) -> dict[str, str]:
    """The rendered summary by its <h2> headings (the heading's text up to a bracket → what follows)."""
    parts = re.split(r"<h2>([^<(]*)", html)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts), 2)}


def cells(section: str) -> list[list[str]]:
    """The body rows of the first table of a section, as cell texts."""
    body = section.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)]


# ---------------------------------------------------------------------------------------------------
# Markdown and CSV: user text one line, its control characters visible


def test_the_markdown_holds_every_name_on_one_line_with_its_control_characters_as_codes(hostile):
    md = plan_to_markdown(hostile)
    assert not CONTROL.search(md)
    html = MarkdownIt("commonmark").enable("table").render(md)
    assert re.findall(r"<h1>(.*?)</h1>", html) == [SHOWN_NAME]
    assert "injected heading</h2>" not in html and "<p>first line  ## injected heading | a | b | |---|---|</p>" in html
    parts = sections(html)
    fleet = cells(parts["Fleet"])
    assert len(fleet) == len(hostile.fleet) and SHOWN_CARD in [r[2] for r in fleet if r[0] == "onprem"]
    assert {r[1] for r in cells(parts["Break-even utilisation"])} == set(SHOWN_WORKLOADS)
    held = cells(parts["Cards held: utilisation and energy"])
    assert SHOWN_CARD in [r[0] for r in held]
    assert [r[0] for r in cells(parts["Workloads"])] == list(SHOWN_WORKLOADS)
    # the custom card, quoted in the scenario, and its row of the prices used
    assert SHOWN_CARD in [r[0] for r in cells(parts["Cards quoted in the scenario"])]
    assert SHOWN_CARD in [r[0] for r in cells(parts["Prices used"])]


def test_the_csv_files_hold_no_control_character_but_line_breaks(hostile):
    focus = csv_text(plan_to_focus(hostile, start="2027-01"))
    fleet = plan_to_csv(hostile, table="fleet")
    for text in (focus, fleet):
        assert not CONTROL.search(text)
    (scenario,) = {row["x_Scenario"] for row in csv.DictReader(io.StringIO(focus, newline=""))}
    assert scenario == "Fleet | one\n| injected | row |\n" + r"\x1b[31mred\x1b[0m"
    skus = {row["sku"] for row in csv.DictReader(io.StringIO(fleet, newline=""))}
    assert "card|x\nnext" + r"\x1b[2J" in skus


def test_the_price_file_name_is_text_in_the_markdown(tmp_path):
    name = "<img src=x onerror=alert(1)>|x.csv"
    shutil.copy(OFFERS, tmp_path / name)
    data = yaml.safe_load(WORKED.read_text())
    data["prices"]["source"] = name
    (tmp_path / "s.yaml").write_text(yaml.safe_dump(data))
    md = plan_to_markdown(plan(load_scenario(tmp_path / "s.yaml"), baselines=False))
    html = MarkdownIt("commonmark").enable("table").render(md)
    assert "<img" not in html
    # named as the scenario wrote it, beside it (tests/planner/test_input_files_as_read.py)
    assert "Prices: &lt;img src=x onerror=alert(1)&gt;|x.csv, dated" in html


# ---------------------------------------------------------------------------------------------------
# Present value and nominal, each said where it is shown


@pytest.fixture(scope="module")
def discounted():
    """The worked example discounted at 8 % a year: its present value is below its nominal money."""
    p = plan(WORKED, baselines=False, overrides={"discount_rate": 0.08})
    assert p.total < p.flows["cost"].sum() - 100
    return p


def test_the_markdown_says_its_money_is_present_value_at_the_discount_rate(discounted):
    md = plan_to_markdown(discounted)
    for heading in ("## Fleet (cost in USD, present value at 8%/year)",
                    "## Cost by category (USD, present value at 8%/year)"):
        assert heading in md.splitlines()
    assert f"**Total: {discounted.total:,.0f} USD** (present value at 8%/year over 24 months;" in md


def test_the_workbook_labels_its_present_value_and_its_nominal_totals(discounted):
    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(plan_to_excel(discounted, start="2027-01")), data_only=True)
    summary = {r[0]: r[1:] for r in book["summary"].iter_rows(values_only=True)}
    assert summary["total"] == (pytest.approx(discounted.total), "USD, present value at 8%/year")
    nominal = discounted.flows["cost"].sum()
    for sheet in ("monthly", "yearly"):
        header, *_, total_row = list(book[sheet].iter_rows(values_only=True))
        assert "total (USD)" not in header
        assert total_row[header.index("total_nominal (USD)")] == pytest.approx(nominal)


# ---------------------------------------------------------------------------------------------------
# A card that never breaks even: no number, as in JSON and the workbook


@pytest.fixture(scope="module")
def never():
    """Energy at 3 USD/kWh: a busy A5000 (400 W × PUE 1.5) costs 1.80 USD an hour, the cloud does its
    work for 1.006 / 0.8 = 1.26 USD: owning never breaks even."""
    p = plan(WORKED, baselines=False, overrides={"onprem.electricity_per_kwh": 3.0})
    assert list(p.break_even["note"]) == ["never: cloud work costs less than the card's energy"]
    return p


def test_a_card_that_never_breaks_even_has_no_number_in_any_format(never):
    assert json.loads(plan_to_json(never))["break_even"][0]["break_even_utilisation"] is None
    (row,) = csv.DictReader(io.StringIO(plan_to_csv(never, table="break_even")))
    assert row["break_even_utilisation"] == "" and row["note"].startswith("never")
    html = MarkdownIt("commonmark").enable("table").render(plan_to_markdown(never))
    (shown,) = cells(sections(html)["Break-even utilisation"])
    assert shown[3] == "never" and shown[4].startswith("never")   # as the terminal says it (no number)


# ---------------------------------------------------------------------------------------------------
# Names longer than a spreadsheet cell holds


SCENARIO = textwrap.dedent("""\
    name: {name}
    onprem:
      cards: [rtx-a5000]
      custom_cards:
        {card}: {{gpu: RTX-A5000, price: 1000, busy_watts: 400, idle_watts: 100, life_years: 4}}
    workloads:
      - name: {workload}
        gpu_hours_per_month: 100
        reference_gpu: RTX-A5000
    """)


@pytest.mark.parametrize(("field", "line", "given", "length"), [
    ("name", 1, "name", 40_000),
    ("workloads[0].name", 7, "workload", 201),
    ("onprem.custom_cards", 5, "card", 201),    # YAML itself refuses a key of more than 1024 characters
])
def test_a_name_of_more_than_200_characters_is_refused_at_its_line_with_the_limit(field, line, given, length):
    names = {"name": "plan", "card": "quoted", "workload": "train"}
    read = load_scenario_text(SCENARIO.format(**names | {given: "x" * 200}))
    assert "x" * 200 in (read.name, read.workloads[0].name, *read.onprem.custom_cards)
    with pytest.raises(ScenarioError) as refused:
        load_scenario_text(SCENARIO.format(**names | {given: "x" * length}))
    (problem,) = refused.value.problems
    assert re.match(rf"<text>:{line}:\d+: {re.escape(field)}\b.*: expected at most 200 characters, got 'x+'… "
                    rf"\({length:,} characters\)$", problem), problem[:300]


# ---------------------------------------------------------------------------------------------------
# Files and folders written over ones with permissions of their own


def test_a_file_written_over_keeps_its_permissions_and_a_new_file_gets_the_usual_ones(tmp_path):
    private, shared, new = tmp_path / "private.json", tmp_path / "shared.json", tmp_path / "new.json"
    old = os.umask(0o027)
    try:
        for path, mode in ((private, 0o600), (shared, 0o664)):
            path.write_text("old")
            path.chmod(mode)
            write_atomic(path, "new")
            assert path.read_text() == "new" and path.stat().st_mode & 0o7777 == mode
        write_atomic(new, "new")
    finally:
        os.umask(old)
    assert new.stat().st_mode & 0o7777 == 0o640    # 0666 less the umask's 0027


# Root writes in any folder: the read-only cases run as another user, user 65534 (nobody) when this is root.
OTHER_UID = 65534


@pytest.fixture
def other_user_folder():
    """A folder the user of `as_other_user` owns, reachable by it (pytest's tmp_path is root's alone)."""
    if os.name != "posix":
        pytest.skip("POSIX permissions")
    if os.geteuid() == 0 and not shutil.which("setpriv"):
        pytest.skip("root, and no setpriv to run as another user")
    folder = Path(tempfile.mkdtemp(prefix="fleetplan-ro-"))
    folder.chmod(0o755)
    if os.geteuid() == 0:
        os.chown(folder, OTHER_UID, OTHER_UID)
    yield folder
    for path in [folder, *folder.rglob("*")]:
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o755)
    shutil.rmtree(folder)


def as_other_user(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """Run this Python with `args` as a user that is not root (this one, or nobody when this is root)."""
    prefix = ["setpriv", f"--reuid={OTHER_UID}", f"--regid={OTHER_UID}", "--clear-groups"] if os.geteuid() == 0 else []
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(cwd), "AWS_EC2_METADATA_DISABLED": "true",
           "PYTHONPATH": str(ROOT)}
    return subprocess.run([*prefix, str(PYTHON), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def a_dead_pid() -> int:
    child = subprocess.Popen([str(PYTHON), "-c", "pass"])
    child.wait()
    return child.pid


def test_plan_out_into_a_read_only_folder_is_an_error_and_leaves_no_copy(other_user_folder):
    folder = other_user_folder
    for source in (WORKED, OFFERS):
        shutil.copy(source, folder / source.name)
    setup = as_other_user("-c", "import os; os.mkdir('out'); os.chmod('out', 0o555)", cwd=folder)
    assert setup.returncode == 0, setup.stderr
    done = as_other_user("-m", "planner.cli", "plan", WORKED.name, "--out", "out", "--no-baselines",
                         "--no-decisions", "--format", "json", cwd=folder)
    assert done.returncode == 2, done.stderr
    # refused before solving (fleetplan plan solved first, then said "cannot write: read-only folder …")
    assert done.stderr.strip() == ("error: --out out: is a read-only folder (you may not replace its files); make it "
                                   "writable (chmod u+w out) or give another folder")
    assert sorted(p.name for p in folder.iterdir()) == sorted(["out", WORKED.name, OFFERS.name])
    assert list((folder / "out").iterdir()) == []


def test_o_over_a_file_the_user_may_not_write_is_refused_as_the_shell_refuses_it(other_user_folder):
    # the rename of write_atomic needs only the folder's permission: it replaced a read-only file ("wrote …", exit 0)
    folder = other_user_folder
    for source in (WORKED, OFFERS):
        shutil.copy(source, folder / source.name)
    setup = as_other_user("-c", "open('rofile.json', 'w').write('kept'); import os; os.chmod('rofile.json', 0o444)\n"
                                "try: open('rofile.json', 'w')\n"            # what the shell's `>` does
                                "except PermissionError: print('refused')", cwd=folder)
    assert setup.returncode == 0 and setup.stdout.split() == ["refused"], setup.stderr
    plan = ("-m", "planner.cli", "plan", WORKED.name, "--format", "json", "--no-baselines", "--no-decisions", "-o")
    done = as_other_user(*plan, "rofile.json", cwd=folder)
    assert done.returncode == 2 and done.stderr.strip() == (
        "error: -o rofile.json: is read-only (you may not write it); make it writable (chmod u+w rofile.json) or give "
        "another file name")
    assert (folder / "rofile.json").read_text() == "kept"
    assert sorted(p.name for p in folder.iterdir()) == sorted(["rofile.json", WORKED.name, OFFERS.name])


def test_o_over_another_users_file_is_refused_without_the_chmod_its_owner_alone_may_run(other_user_folder):
    if os.geteuid() != 0:
        pytest.skip("needs root to make a file of another user")
    folder = other_user_folder
    for source in (WORKED, OFFERS):
        shutil.copy(source, folder / source.name)
    (folder / "roots.json").write_text("root's")   # 0644, root's, in user nobody's folder: nobody may rename over it
    done = as_other_user("-m", "planner.cli", "plan", WORKED.name, "--format", "json", "--no-baselines",
                         "--no-decisions", "-o", "roots.json", cwd=folder)
    assert done.returncode == 2 and done.stderr.strip() == (
        "error: -o roots.json: is read-only (you may not write it); make it writable or give another file name")
    assert (folder / "roots.json").read_text() == "root's"


def test_root_writes_over_a_read_only_file_as_the_shell_does(tmp_path):
    if os.name != "posix" or os.geteuid() != 0:
        pytest.skip("root only: another user is refused (the test above)")
    target = tmp_path / "ro.json"
    target.write_text("old")
    target.chmod(0o444)
    write_atomic(target, "new")
    assert target.read_text() == "new" and target.stat().st_mode & 0o7777 == 0o444


def test_read_only_copies_left_by_killed_writers_are_removed(other_user_folder):
    folder = other_user_folder
    code = textwrap.dedent(f"""
        import os
        from planner.fileio import write_folder_atomic
        os.mkdir("out")
        left = "out.tmp-{a_dead_pid()}-abcd"          # a copy a killed writer left, made read-only
        os.mkdir(left)
        open(os.path.join(left, "plan.json"), "w").close()
        os.chmod(left, 0o555)
        write_folder_atomic("out", {{"plan.json": "new"}})
        print(sorted(os.listdir(".")), open("out/plan.json").read())
    """)
    done = as_other_user("-c", code, cwd=folder)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["['out']", "new"]


def test_text_is_printed_as_written_not_as_emoji_codes(tmp_path, monkeypatch):
    # rich replaced emoji codes: "file.yaml:100:3" read "file.yaml💯3" (line 100 lost) and a scenario named
    # "Q3 :100: review :fire:" printed "Q3 💯 review 🔥" (a hostile-input probe, 2026-12-05)
    from typer.testing import CliRunner

    from planner.cli import app

    shutil.copy(OFFERS, tmp_path / OFFERS.name)
    named = tmp_path / "emoji.yaml"
    named.write_text(WORKED.read_text(encoding="utf-8").replace("name: Worked example", "name: 'Q3 :100: review :fire:'"),
                     encoding="utf-8")
    result = CliRunner().invoke(app, ["plan", str(named), "--no-decisions", "--no-baselines"])
    assert result.exit_code == 0, result.output
    assert "Q3 :100: review :fire:" in result.stdout and "\U0001f4af" not in result.output
    # a bad key on line 100, reported through rich (a terminal's colours forced on)
    monkeypatch.setenv("FORCE_COLOR", "1")
    padded = tmp_path / "line100.yaml"
    lines = WORKED.read_text(encoding="utf-8").splitlines()
    padded.write_text("\n".join([*lines, *["# padding"] * (99 - len(lines)), "bogus_key: 1", ""]), encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(padded)])
    assert result.exit_code == 2
    plain = re.sub(r"\x1b\[[0-9;]*m", "", result.stderr)
    assert f"{padded}:100:1: bogus_key" in plain and "\U0001f4af" not in plain
