"""The organiser's categories page is valid where it matters (issue 14): the quick-add buttons are forms, and
a ``<form>`` start tag closes an open ``<p>`` (HTML parsing rules), so wrapped in a ``<p class="actions">``
the buttons fell out of their row (the flex ``.actions`` box was left empty, and so was its test id)."""
from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client

from tests.factories import PASSWORD, TournamentFactory, organiser
from tournaments.models import TournamentRole

pytestmark = pytest.mark.django_db


class _FormInParagraph(HTMLParser):
    """Collects the attributes of every ``<p>`` that is open when a ``<form>`` starts."""

    def __init__(self):
        super().__init__()
        self.open_p: list[dict] = []
        self.found: list[dict] = []

    def handle_starttag(self, tag, attrs):
        if tag == "p":
            self.open_p.append(dict(attrs))
        elif tag == "form" and self.open_p:
            self.found.append(self.open_p[-1])

    def handle_endtag(self, tag):
        if tag == "p" and self.open_p:
            self.open_p.pop()


def test_quick_add_buttons_are_not_forms_inside_a_paragraph():
    org = organiser(username="kategori-org")
    t = TournamentFactory(created_by=org)
    TournamentRole.objects.get_or_create(tournament=t, user=org, role=TournamentRole.Role.ORGANISER)
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert c.login(username=org.username, password=PASSWORD)
    html = c.get(f"/t/{t.slug}/categories/").content.decode()
    assert 'data-testid="quick-add"' in html and html.count('name="preset"') == 5
    parser = _FormInParagraph()
    parser.feed(html)
    assert parser.found == []
