"""A closed round accepts no move records through the bulk import (only the organiser's correction
with a reason changes a closed round)."""
from __future__ import annotations

import random

import pytest
from django.utils import translation

from federation.sample_data import play_set
from tests.factories import PlayerFactory, organiser
from tournaments import services
from tournaments.records import services as record_services
from tournaments.results.services import SetInput
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services

pytestmark = pytest.mark.django_db


def test_a_closed_round_refuses_move_records_and_a_published_one_takes_them():
    org = organiser(username="kayit-org")
    t = services.tournament_create(name="Kayıt Kupası", rounds_total=2, created_by=org)
    for i in range(2):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=1600 - i))
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="k")
    round_services.round_publish(round=rnd, user=org)
    m = rnd.matches.get(board=1)
    moves, (first, second) = play_set(random.Random(7), 0.8, 0.8)
    # the same stones in every set: 2–0 (or three drawn sets) completes the match
    result_services.match_result_enter(match=m, sets=[SetInput(first, second)] * (2 if first != second else 3), user=org)
    record = (
        f'[Event "{t.name}"]\n[Round "1"]\n[White "{m.white.player.full_name}"]\n[Black "{m.black.player.full_name}"]\n'
        f'[Set "1"]\n[Result "{first}-{second}"]\n\n' + " ".join(map(str, moves)) + "\n"
    )
    round_services.round_close(round=rnd, user=org)

    row = record_services.record_import_create(text=record, user=org)
    with translation.override("en"):
        row = record_services.record_import_run(import_id=row.id)
    assert (row.stored, len(row.errors)) == (0, 1)
    assert "closed" in row.errors[0]["message"] and row.errors[0]["line"] == 1
    assert m.sets.get(number=1).moves == ""

    round_services.round_reopen(round=rnd, user=org, reason="records arrived")
    row = record_services.record_import_run(import_id=record_services.record_import_create(text=record, user=org).id)
    assert (row.stored, row.errors) == (1, [])
    assert m.sets.get(number=1).moves.split() == [str(x) for x in moves]
