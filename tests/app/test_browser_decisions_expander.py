"""In a real browser (a budget-holder audit): "What each decision is worth" closed after every edit of a number, the
layout above it changed, so the browser saw a new expander. Opened, it now stays open across an edit."""

from __future__ import annotations

from tests.app.test_browser import WIDTH, _wait_settled, browser, pytestmark, server  # noqa: F401 - fixtures, skip mark

DECISIONS = "What each decision is worth: decision values"


def _open(page) -> bool:
    expander = page.locator('[data-testid="stExpander"]').filter(has_text=DECISIONS).first
    return expander.locator("details").first.get_attribute("open") is not None


def test_the_decisions_expander_stays_open_after_an_edit(server, browser):  # noqa: F811
    page = browser.new_page(viewport={"width": WIDTH, "height": 1000})
    page.goto(f"{server}/?scenario=startup-hybrid.yaml", wait_until="domcontentloaded")
    page.get_by_text("Recommended fleet").first.wait_for(timeout=90_000)
    _wait_settled(page)
    assert not _open(page)
    page.get_by_text(DECISIONS).first.click()
    _wait_settled(page)
    assert _open(page)
    for budget in ("50000", "55000"):   # edits of a number: the first adds the "Edited in the dashboard" line above
        box = page.locator('[data-testid="stNumberInput"]').filter(has_text="Capex budget").locator("input").first
        box.fill(budget)
        box.press("Enter")
        _wait_settled(page)
        page.wait_for_timeout(1500)
        assert _open(page), budget
    assert page.locator('[data-testid="stException"]').count() == 0
    page.close()
