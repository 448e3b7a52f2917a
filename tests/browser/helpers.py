"""Steps the browser journeys share."""
from __future__ import annotations

from tests.factories import PASSWORD


def login(page, base: str, username: str, password: str = PASSWORD) -> None:
    """Log ``username`` in through the login form of the live server at ``base`` and wait until the
    browser has left the login page."""
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
