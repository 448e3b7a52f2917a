"""The organiser-facing rules page (issue 25): ``/t/<slug>/rules/`` names every setting an organiser can
change, its value in words and what it means for the players, in Turkish and English, behind the same
publish gate as the tournament page."""
from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import TournamentFactory, UserFactory
from tournaments.forms import TournamentEditForm, TournamentForm
from tournaments.models import Category, Tournament
from tournaments.rules.selectors import NOT_RULES

pytestmark = pytest.mark.django_db


def _page(t, lang: str) -> str:
    response = Client(HTTP_ACCEPT_LANGUAGE=lang).get(reverse("tournament-rules", args=[t.slug]))
    assert response.status_code == 200
    return response.content.decode()


def _editable_fields() -> set[str]:
    """Every field of Tournament an organiser can change: the model's editable fields and both forms' fields."""
    names = {f.name for f in Tournament._meta.get_fields() if getattr(f, "editable", False)
             and not f.auto_created and f.concrete}
    names |= set(TournamentForm.Meta.fields)
    t = TournamentFactory(system=Tournament.System.KNOCKOUT)
    names |= {f for f in TournamentEditForm(tournament=t).fields if not f.startswith("tiebreak_") and f != "reason"}
    return names | {"tiebreaks"}


def _worlds():
    swiss = TournamentFactory()
    Category.objects.create(tournament=swiss, name="U12", kind=Category.Kind.UNRATED, includes_unrated=True)
    rr = TournamentFactory(system=Tournament.System.ROUND_ROBIN, double_round_robin=True, format="team")
    stage = TournamentFactory()
    ko = TournamentFactory(system=Tournament.System.KNOCKOUT, rounds_total=3, knockout_sets=[3, 3, 5],
                           third_place_match=True,
                           level_match_rule=Tournament.LevelMatchRule.DECIDERS_THEN_SEED, max_deciders=2,
                           qualified_from=stage, qualifiers=8)
    return [swiss, rr, ko]


def test_rules_page_names_every_setting_of_the_tournament():
    """Walk every editable field of Tournament: each is named on some tournament's rules page, or listed in
    NOT_RULES with its reason."""
    worlds = _worlds()
    shown = set()
    for t in worlds:
        html = _page(t, "en")
        shown |= {f for f in _editable_fields() if f'data-testid="rule-{f}"' in html}
    missing = {f for f in _editable_fields() if f not in shown and f not in NOT_RULES}
    assert not missing, f"settings neither on the rules page nor listed as not a rule: {sorted(missing)}"
    assert not (shown & set(NOT_RULES))
    assert all(reason for reason in NOT_RULES.values())
    for f in NOT_RULES:  # no stale reason for a field that is gone
        assert f in {x.name for x in Tournament._meta.get_fields()}


def test_rules_page_names_the_categories_and_the_coin_toss():
    t = TournamentFactory()
    Category.objects.create(tournament=t, name="Gençler", kind=Category.Kind.UNRATED, includes_unrated=True)
    html = _page(t, "en")
    assert 'data-testid="rule-includes_unrated"' in html and "Gençler" in html
    assert 'data-testid="rule-coin_toss"' in html and reverse("tournament-lots", args=[t.slug]) in html


def test_rules_page_leaves_out_settings_of_another_system():
    swiss, rr, ko = _worlds()
    s, r, k = (_page(t, "en") for t in (swiss, rr, ko))
    assert 'rule-acceleration"' in s and 'rule-knockout_sets"' not in s and 'rule-double_round_robin"' not in s
    assert 'rule-second_cycle_swap"' in r and 'rule-boards_per_team"' in r and 'rule-acceleration"' not in r
    assert 'rule-max_deciders"' in k and 'rule-tiebreaks"' not in k and 'rule-bye_points"' not in k


def test_rules_page_in_turkish_and_english():
    t = TournamentFactory()
    en, tr = _page(t, "en"), _page(t, "tr")
    assert "Rules" in en and "Tie-break order" in en and "Players level on points are ranked by these" in en
    assert "Kurallar" in tr and "Eşitlik bozma sırası" in tr and "Tie-break order" not in tr
    assert "Sets per match" not in tr and "Players level on points" not in tr


def test_rules_page_is_linked_from_the_tournament_page():
    t = TournamentFactory()
    html = Client(HTTP_ACCEPT_LANGUAGE="tr").get(reverse("tournament-detail", args=[t.slug])).content.decode()
    assert reverse("tournament-rules", args=[t.slug]) in html


def test_rules_page_publish_gate_like_the_tournament_page():
    t = TournamentFactory(archived_at=timezone.now())
    url = reverse("tournament-rules", args=[t.slug])
    assert Client().get(url).status_code == Client().get(reverse("tournament-detail", args=[t.slug])).status_code \
        == 404
    staff = UserFactory(is_staff=True)
    c = Client()
    c.force_login(staff)
    assert c.get(url).status_code == c.get(reverse("tournament-detail", args=[t.slug])).status_code == 200


def test_rules_page_turkish_text_shows_no_english_setting():
    """Print the Turkish page's rules (``-s`` to read them); every name and meaning is translated."""
    swiss, rr, ko = _worlds()
    for t in (swiss, rr, ko):
        text = re.sub(r"<[^>]+>", "", _page(t, "tr").split('data-testid="rules"')[1].split("</dl>")[0])
        print(" ".join(text.split()))
        for english in ("Whether", "How many", "Pairing system", "Points for"):
            assert english not in text
