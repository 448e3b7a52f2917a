"""Browser harness: Playwright (the PyPI package) driving Debian's Chromium at ``/usr/bin/chromium``.

No ``playwright install`` and no pytest-playwright: ``browser`` is one headless Chromium per session,
``page`` a fresh context and page per test (English locale unless the test asks for another via
``new_page(locale=...)``). Tests use pytest-django's ``live_server`` and
``@pytest.mark.django_db(transaction=True)``, since the server thread must see committed rows.

Everything here skips cleanly when Chromium is absent (``make test`` never needs a browser);
``.ci/run`` installs it (``apt-get install -y chromium``) and runs ``pytest -m browser tests/browser``.
``CHROMIUM_PATH`` overrides the executable. On failure a screenshot goes to ``test-results/``.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"]
RESULTS_DIR = Path(__file__).resolve().parents[2] / "test-results"
DEFAULT_TIMEOUT_MS = 15_000


def pytest_collection_modifyitems(config, items):
    """Mark every test below tests/browser ``browser`` and skip them all without Chromium."""
    here = Path(__file__).resolve().parent
    skip = None
    if not CHROMIUM.exists():
        skip = pytest.mark.skip(reason=f"no Chromium at {CHROMIUM} (apt-get install -y chromium)")
    for item in items:
        if here in item.path.resolve().parents:
            item.add_marker(pytest.mark.browser)
            if skip is not None:
                item.add_marker(skip)


@pytest.fixture(scope="session")
def browser():
    """One headless Debian Chromium for the session."""
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; Django's ORM refuses to run under one
    # unless told that it is safe (it is: the loop only serves Playwright's connection).
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as pw:
            b = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
            try:
                yield b
            finally:
                b.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def new_page(browser, request):
    """Factory ``new_page(locale="en-US", **context_options)`` -> a page in a fresh context.

    Each context is closed after the test; a failing test leaves a full-page screenshot of every page
    it opened under ``test-results/``.
    """
    contexts = []

    def make(locale: str = "en-US", **options):
        ctx = browser.new_context(locale=locale, **options)
        ctx.set_default_timeout(DEFAULT_TIMEOUT_MS)
        contexts.append(ctx)
        return ctx.new_page()

    yield make
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        RESULTS_DIR.mkdir(exist_ok=True)
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.nodeid)[-120:]
        for i, ctx in enumerate(contexts):
            for j, pg in enumerate(ctx.pages):
                try:
                    pg.screenshot(path=str(RESULTS_DIR / f"{name}-{i}-{j}.png"), full_page=True)
                except Exception:  # a crashed page cannot be photographed; the failure itself is reported
                    pass
    for ctx in contexts:
        ctx.close()


@pytest.fixture
def page(new_page):
    """A page (English locale) in a fresh browser context."""
    return new_page()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the item (``rep_call``) so fixtures can see a failure."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
