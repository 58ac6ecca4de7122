"""The Compare page says once that two totals are not like for like, in the planner's words (`Comparison.basis_note`,
which `fleetplan compare` prints and `comparison.notes` holds): the page had built its own sentence beside the
planner's, so the two could say it twice, in two wordings.

Facts by hand: startup-hybrid.yaml sums 36 months at a discount rate of 0; the upload is the same file over 24 months,
so A (the file) sums 36 months at 0 %/year and B (the upload) 24 months at 0 %/year. A copy quoting one card higher
keeps the 36 months at 0 %: the same basis."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
STARTUP = ROOT / "scenarios" / "startup-hybrid.yaml"
COMPARE_PAGE = "fleetplan_dashboard/pages/compare.py"


def _edited(old: str, new: str) -> str:
    text = STARTUP.read_text(encoding="utf-8")
    assert old in text, old
    return text.replace(old, new, 1)


def _compare_with_startup(name: str, text: str) -> AppTest:
    """The Compare page: A the shipped startup-hybrid.yaml, B the upload `name` (the scenario being edited)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.file_uploader(key="upload_file").set_value((name, text.encode(), "application/x-yaml")).run()
    assert at.selectbox(key="base").value.startswith(f"upload:{name}:"), [e.value for e in at.error]
    at.switch_page(COMPARE_PAGE).run()
    at.selectbox(key="compare_a").set_value("file:startup-hybrid.yaml").run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def _said(at: AppTest) -> list[str]:
    """Every text the page shows (Markdown, captions, alerts, titles, metric labels, the help of a table's column)."""
    texts = []
    for kind in ("markdown", "caption", "warning", "info", "error", "success", "title", "subheader", "metric"):
        for element in at.get(kind):
            texts.append(str(element.proto))
    texts += [str(d.proto.columns) for d in at.dataframe]
    return texts


def test_totals_over_different_horizons_are_said_not_like_for_like_once_in_the_planners_words(fresh_cache):
    at = _compare_with_startup("short.yaml", _edited("horizon_months: 36", "horizon_months: 24"))
    assert [m.label for m in at.metric][:2] == ["A: total, 36 months", "B: total, 24 months"]
    # the sides as the page names them, A and B (the planner says a and b)
    statement = "Not like for like: A sums 36 months at 0%/year, B 24 months at 0%/year (present values)."
    assert [w.value for w in at.warning if "like for like" in w.value.lower()] == [statement]
    assert sum(text.lower().count("not like for like") for text in _said(at)) == 1


def test_totals_on_the_same_basis_say_nothing_of_it(fresh_cache):
    at = _compare_with_startup("quoted.yaml", _edited("price: 14000", "price: 15000"))
    assert [m.label for m in at.metric][:2] == ["A: total, 36 months", "B: total, 36 months"]
    assert not [text for text in _said(at) if "like for like" in text.lower()]
    assert "Totals and costs: USD, present value at 0%/year, undiscounted." in [c.value for c in at.caption]
