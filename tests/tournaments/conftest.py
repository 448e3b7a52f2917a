"""A completed tournament built once per test module (read-only for the tests that use it).

Six players, Swiss, three rounds of 3-set matches with real set results (one forfeit, one
withdrawal), every round closed and the standings published. Built through the services, so it is
also an end-to-end check of them. Tests must not change it (each test runs in a transaction that is
rolled back anyway).
"""
from __future__ import annotations

import pytest

CT_SLUG = "tamamlanmis-test-turnuvasi"


def build_completed_tournament():
    from tests.factories import PlayerFactory, organiser, referee
    from tournaments import services
    from tournaments.entries import services as entry_services
    from tournaments.results import services as result_services
    from tournaments.rounds import services as round_services
    from tournaments.results.services import SetInput

    org = organiser(username="ct-organiser")
    ref = referee(username="ct-referee")
    t = services.tournament_create(
        name="Tamamlanmış Test Turnuvası", rounds_total=3, created_by=org, slug=CT_SLUG,
        tiebreaks=["buchholz_cut1", "buchholz", "sonneborn_berger", "set_points", "stone_margin"],
    )
    names = ["Çelik", "Öztürk", "Şahin", "Yıldız", "Güneş", "Işık"]
    for i, name in enumerate(names):
        entry_services.entry_add(
            tournament=t, player=PlayerFactory(last_name=name, first_name="Ayşe", rating=2000 - 100 * i,
                                                federation_id=f"CT-{i + 1}")
        )
    # results by board, per round: sets as (white store, black store[, termination]) or "forfeit:<who>"
    script = {
        1: [[(30, 18), (26, 22)], [(20, 28), (30, 18), (24, 24)], "forfeit:black"],
        2: [[(18, 30), (28, 20), (25, 23)], [(31, 9, "white_withdrew"), (26, 22)], [(10, 38), (20, 28)]],
        3: [[(24, 24), (24, 24), (24, 24)], [(36, 12), (12, 36), (30, 18)], [(26, 12, "black_withdrew"), (40, 8)]],
    }
    for n in (1, 2, 3):
        rnd = round_services.round_pair(tournament=t, user=org, coin_seed="ct-seed" if n == 1 else None)
        round_services.round_publish(round=rnd, user=org)
        games = list(rnd.matches.filter(kind="game").order_by("board"))
        for m, plan in zip(games, script[n]):
            if isinstance(plan, str):
                result_services.match_result_enter(match=m, forfeit=plan.split(":")[1], user=ref)
            else:
                sets = [SetInput(s[0], s[1], termination=s[2] if len(s) > 2 else "completed") for s in plan]
                result_services.match_result_enter(match=m, sets=sets, user=ref)
        round_services.round_close(round=rnd, user=org)
    services.standings_publish(tournament=t, user=org)
    return t


@pytest.fixture(scope="module")
def completed_tournament_db(django_db_setup, django_db_blocker):
    """Build the completed tournament once per test module that uses it, and remove it afterwards
    (so no other test sees its rows); yields its slug."""
    from federation.celery import app

    # jobs the build queues (the rating of the final standings) run here, as in the embedded mode, also
    # when a broker is configured: this module-wide fixture runs before any test's Celery mode is chosen
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        with django_db_blocker.unblock():
            t = build_completed_tournament()
    finally:
        app.conf.task_always_eager = eager
    yield CT_SLUG
    with django_db_blocker.unblock():
        from django.contrib.auth import get_user_model

        from federation.models import Player

        player_ids = list(t.entries.values_list("player_id", flat=True))
        t.delete()
        Player.objects.filter(id__in=player_ids).delete()
        get_user_model().objects.filter(username__in=["ct-organiser", "ct-referee"]).delete()


@pytest.fixture
def completed_tournament(completed_tournament_db, db):
    """The session's completed tournament (a fresh instance for each test)."""
    from tournaments.models import Tournament

    return Tournament.objects.get(slug=completed_tournament_db)
