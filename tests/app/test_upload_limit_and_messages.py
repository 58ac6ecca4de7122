"""The scenario upload says one size limit and answers every file in the main area (an audit, 2026-12-06): its label
said "at most 256 KB" above a widget saying "1MB per file"; a file the widget refused in the browser (notes.txt: not
YAML) left the message of the file before it ("binary.yaml was not loaded") on the page; the uploader listed every
file uploaded, the rejected ones among them.

Facts from outside the code: Streamlit's upload widget takes its limit in whole megabytes (`max_upload_size`, at
least 1) and its browser code counts a megabyte as 10^6 bytes (2^20 on Windows), refusing a larger file with "File
must be 1.0MB or smaller." without telling the app; so 1 MB, 1,000,000 bytes, is the one limit all can say.
"""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from fleetplan_dashboard import state

ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"


def _app() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    assert not at.exception, at.exception
    return at


def _upload(at: AppTest, name: str, data: bytes) -> None:
    at.file_uploader(key="upload_file").set_value((name, data, "application/x-yaml")).run()
    assert not at.exception, at.exception


def _not_loaded(at: AppTest) -> list[str]:
    # as a reader sees them: without tables.plain's backslash escapes (the problems are shown as typed)
    return [e.value.replace("\\", "") for e in at.error if "was not loaded" in e.value]


def test_the_label_the_widget_and_the_check_say_one_limit_of_1_mb():
    uploader = _app().file_uploader(key="upload_file")
    assert uploader.label == "Or upload a scenario YAML (at most 1 MB and 50 workloads)"
    assert uploader.proto.max_upload_size_mb == 1
    # one byte over 10^6 is refused, and the message says it in bytes; a valid scenario padded with comments to
    # 600 KB (the audit's huge-600k.yaml, refused at 256 KB) is read
    text = STARTUP.read_text(encoding="utf-8")
    over = text.encode() + b"#" * (1_000_001 - len(text.encode()))
    assert state.read_upload("big.yaml", over)[1] == [
        "big.yaml: file is 1,000,001 bytes; the limit is 1 MB (1,000,000 bytes)"]
    padded = text + ("# " + "x" * 97 + "\n") * 6000
    assert 590_000 < len(padded.encode()) < 1_000_000
    scenario, problems, _ = state.read_upload("huge-600k.yaml", padded.encode())
    assert problems == [] and scenario.name == "Start-up hybrid fleet"


def test_a_file_not_named_yaml_is_answered_on_the_page_in_place_of_the_message_before():
    at = _app()
    assert list(at.file_uploader(key="upload_file").proto.type) == []    # any file reaches the app, which says why
    _upload(at, "bad.yaml", b"name: [")
    assert len(_not_loaded(at)) == 1 and "bad.yaml" in _not_loaded(at)[0]
    _upload(at, "notes.txt", b"notes")
    shown = _not_loaded(at)
    assert len(shown) == 1 and "bad.yaml" not in shown[0]
    assert "notes.txt: not a scenario file: expected a YAML file named .yaml or .yml" in shown[0]
    assert at.selectbox(key="base").value == "file:startup-hybrid.yaml"      # the scenario on screen stays


def test_the_uploader_is_emptied_once_a_file_is_read_taken_or_refused():
    at = _app()
    _upload(at, "bad.yaml", b"name: [")
    assert at.file_uploader(key="upload_file").value is None
    _upload(at, "mine.yaml", STARTUP.read_bytes())
    assert at.selectbox(key="base").value.startswith("upload:mine.yaml:")
    assert not _not_loaded(at)
    assert at.file_uploader(key="upload_file").value is None
    _upload(at, "again.yaml", STARTUP.read_bytes())                           # and it takes the next one
    assert at.selectbox(key="base").value.startswith("upload:again.yaml:")


# A file over the limit is refused by the upload widget in the browser, which tells the app nothing: Streamlit 1.67's
# FileUploader sends a new value (and so a run, and on_change) only when its uploaded files change, and a refused
# file is no uploaded file. What the page said of the file read before cannot be taken back; the page says instead
# what becomes of a larger file, next to the uploader, and names the file its message is about as the last one read
# (tests/app/test_browser.py drops a 2 MB file in Chromium after a bad one).
OVER_LIMIT = ("A file over 1 MB is refused by this box before the dashboard sees it: the box says so under the file's "
              "name, and the page stays as it was.")


def test_next_to_the_uploader_a_line_says_what_becomes_of_a_file_over_1_mb():
    at = _app()
    shown = list(at.sidebar.children.values())
    (at_uploader,) = [i for i, node in enumerate(shown) if getattr(node, "key", None) == "upload_file"]
    assert shown[at_uploader + 1].type == "caption" and shown[at_uploader + 1].value == OVER_LIMIT


def test_the_message_names_its_file_as_the_last_one_read_and_goes_with_the_uploaders_next_value():
    at = _app()
    _upload(at, "bad.yaml", b"name: [")
    (shown,) = _not_loaded(at)
    assert shown.startswith("The last file read, **bad.yaml**, was not loaded — 1 problem")
    _upload(at, "mine.yaml", STARTUP.read_bytes())
    assert not _not_loaded(at) and at.selectbox(key="base").value.startswith("upload:mine.yaml:")


def test_the_message_says_it_is_not_about_a_file_the_box_refused_since():
    # the audit: "The last file read, binary.yaml, was not loaded…" beside the box's "big.yaml 2.1MB Error: File must
    # be 1.0MB or smaller", which no run of the page learns of: the message says which file it is about
    at = _app()
    _upload(at, "bad.yaml", b"name: [")
    (shown,) = _not_loaded(at)
    # in two short sentences (an audit, 2026-12-06: the one long sentence before was hard to read): what to do, and
    # that a file the box refused is not what the message is about
    assert shown.endswith("\n\nFix these lines in **bad.yaml** and upload it again, or pick another scenario. A file the "
                          "upload box marks with an error (over 1 MB) was not read: this message is not about it."), shown
