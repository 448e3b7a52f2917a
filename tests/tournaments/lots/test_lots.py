"""Drawing of lots that anyone can check (issue 25): commit a hash of the secret before the lot, reveal it
after, derive the outcome by a published rule; the public page shows all three and how to check them."""
from __future__ import annotations

import contextlib
import hashlib
import io

import pytest
from django.test import Client
from django.urls import reverse

from federation.errors import Conflict, ValidationFailed
from tests.factories import PlayerFactory, organiser
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.lots import draw
from tournaments.lots import services as lots
from tournaments.models import CoinToss, Lot
from tournaments.rounds import services as round_services


def _run(code: str) -> list[str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, {})  # noqa: S102 - the page's own check lines
    return out.getvalue().splitlines()


def test_lot_order_is_fisher_yates_seeded_by_sha256_of_secret_and_context():
    items = ["3 Çelik", "7 Öztürk", "9 Şahin", "12 Yıldız"]
    got = draw.order("s3cret", "play-off for 3rd place", items)
    # the rule written out: for i = n-1 .. 1 swap i with int(sha256("secret|context|i")) % (i+1)
    a = list(items)
    for i in range(len(a) - 1, 0, -1):
        j = int(hashlib.sha256(f"s3cret|play-off for 3rd place|{i}".encode()).hexdigest(), 16) % (i + 1)
        a[i], a[j] = a[j], a[i]
    assert got == a and sorted(got) == sorted(items)
    assert draw.order("s3cret", "play-off for 3rd place", items) == got  # reproducible
    assert draw.order("other", "play-off for 3rd place", items) != got or draw.order("x", "y", items) != got
    # the published check lines print the commitment and the same order
    commit_line, order_line = _run(draw.check_recipe(draw.ORDER, "s3cret", "play-off for 3rd place", items))
    assert commit_line == draw.commitment("s3cret") == hashlib.sha256(b"s3cret").hexdigest()
    assert order_line == repr(got)


def test_coin_toss_rule_is_the_one_the_toss_always_had():
    for seed in ("a", "b", "metin", "seed", "w"):
        assert draw.coin(seed) == services.coin_toss_outcome(seed)
        assert _run(draw.check_recipe(draw.COIN, seed)) == [f"{draw.commitment(seed)} {draw.coin(seed)}"]


@pytest.fixture
def event(db):
    org = organiser(username="lot-org")
    t = services.tournament_create(name="Kura Kupası", rounds_total=3, created_by=org)
    for rating in (1900, 1800, 1700, 1600):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=rating))
    return t, org


def test_coin_toss_is_committed_before_round_one_and_revealed_after(event):
    t, org = event
    (lot,) = Lot.objects.filter(tournament=t)
    assert lot.purpose == Lot.Purpose.COIN_TOSS and not lot.revealed and lot.outcome is None
    assert lot.commitment == draw.commitment(lot.secret)
    page = Client().get(reverse("tournament-lots", args=[t.slug])).content.decode()
    assert lot.commitment in page and lot.secret not in page and 'data-testid="lot-pending"' in page

    rnd = round_services.round_pair(tournament=t, user=org)
    lot.refresh_from_db()
    toss = CoinToss.objects.get(round=rnd)
    assert lot.revealed and lot.revealed_at >= lot.committed_at
    assert toss.seed == lot.secret and toss.outcome == lot.outcome == draw.coin(lot.secret)
    assert not lot.given
    page = Client().get(reverse("tournament-lots", args=[t.slug])).content.decode()
    assert lot.commitment in page and lot.secret in page and 'data-testid="lot-check"' in page


def test_seeded_coin_toss_keeps_its_outcome_and_says_it_was_given(event):
    t, org = event
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="metin")
    (lot,) = Lot.objects.filter(tournament=t)  # the unused commitment is replaced
    assert lot.given and lot.secret == "metin" and lot.outcome == services.coin_toss_outcome("metin")
    assert CoinToss.objects.get(round=rnd).outcome == lot.outcome


def test_deleting_round_one_commits_a_new_coin_toss_before_the_next(event):
    t, org = event
    rnd = round_services.round_pair(tournament=t, user=org)
    round_services.round_delete(round=rnd, user=org)
    pending = Lot.objects.get(tournament=t, revealed_at__isnull=True)
    rnd = round_services.round_pair(tournament=t, user=org)
    pending.refresh_from_db()
    assert pending.revealed and CoinToss.objects.get(round=rnd).seed == pending.secret
    assert Lot.objects.filter(tournament=t, revealed_at__isnull=False).count() == 2


def test_lot_drawn_later_reveals_the_commitment_made_ahead(event):
    t, org = event
    ahead = lots.lot_commit(tournament=t, purpose=Lot.Purpose.PRIZE, context="2nd prize, Çelik v Öztürk", user=org)
    lot = lots.lot_draw(tournament=t, purpose=Lot.Purpose.PRIZE, context="2nd prize, Çelik v Öztürk",
                        items=["3 Çelik", "7 Öztürk"], user=org)
    assert lot.pk == ahead.pk and lot.commitment == ahead.commitment
    assert lot.outcome == draw.order(lot.secret, lot.context, ["3 Çelik", "7 Öztürk"])
    with pytest.raises(Conflict):
        lots.lot_reveal(lot=lot, items=["3 Çelik", "7 Öztürk"], user=org)
    # without a commitment ahead the lot is committed and drawn at once
    now = lots.lot_draw(tournament=t, purpose=Lot.Purpose.PLAYOFF_BYES, context="play-off byes",
                        items=["1 A", "2 B", "3 C"])
    assert now.revealed and sorted(now.outcome) == ["1 A", "2 B", "3 C"]
    with pytest.raises(ValidationFailed):
        lots.lot_draw(tournament=t, purpose=Lot.Purpose.TIEBREAK, context="tie", items=["1 A"])


def test_lot_secret_is_never_shown_before_the_draw_not_even_in_the_admin(event, admin_client):
    t, _org = event
    lot = Lot.objects.get(tournament=t)
    page = admin_client.get(reverse("admin:tournaments_lot_change", args=[lot.pk])).content.decode()
    assert lot.commitment in page and lot.secret not in page


def test_lots_page_explains_the_check_in_turkish_and_english(event):
    t, org = event
    round_services.round_pair(tournament=t, user=org)
    tr = Client(HTTP_ACCEPT_LANGUAGE="tr").get(reverse("tournament-lots", args=[t.slug])).content.decode()
    assert "Kura çekimi" in tr and "Taahhüt" in tr and "Gizli değer" in tr and "1. turun kurası" in tr
    en = Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("tournament-lots", args=[t.slug])).content.decode()
    assert "Drawing of lots" in en and "Fisher–Yates" in en and "python3" in en
    detail = Client(HTTP_ACCEPT_LANGUAGE="tr").get(reverse("tournament-detail", args=[t.slug])).content.decode()
    assert reverse("tournament-lots", args=[t.slug]) in detail
