"""The tournament of a history row written outside any audit context (federation/audit.py)."""
from __future__ import annotations

import pytest

from tests.factories import PlayerFactory, organiser
from tournaments import services
from tournaments.models import Match, SetResult
from tournaments.entries import services as entry_services
from tournaments.rounds import services as round_services

pytestmark = pytest.mark.django_db


def test_a_set_saved_outside_any_action_finds_its_tournament_through_its_match():
    """The admin or a shell: no context names the tournament; one query through the match to its round."""
    org = organiser(username="audit-org")
    t = services.tournament_create(name="Denetim Açık", rounds_total=3, created_by=org)
    for i in range(2):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=1700 - i), user=org)
    round_services.round_pair(tournament=t, user=org, coin_seed="audit")
    match = Match.objects.filter(round__tournament=t).exclude(black=None).first()
    row = SetResult.objects.create(match_id=match.pk, number=1, starter="white", white_stones=30, black_stones=18)
    assert row.history.get().audit_tournament_id == t.pk
    assert row.history.get().audit_action == "create"
