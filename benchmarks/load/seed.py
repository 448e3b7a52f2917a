"""Seed the load test's event through the project's services (Django must be set up).

A Swiss of ``players`` players (``rounds_total`` rounds, 3-set matches): rounds 1..``played`` paired by
the FIDE Dutch engine (``round_services.round_pair``), published, every board's result entered with
``result_services.match_result_enter`` (history rows, versions, the rules engine — as in the hall), closed;
standings published after round ``played``; round ``played + 1`` paired and published, waiting for its
results. ``referees`` referee accounts with the tournament's referee role and an API token, and one
organiser account (the tournament's creator) with a token.

Bulk where the services allow it: players and clubs (``bulk_create`` after ``refresh_search_keys``),
entries (``bulk_create_with_history`` with the starting numbers ``entries_sort`` would give: rating
down, then name), users, roles and tokens. Everything else goes through the services.
"""
from __future__ import annotations

import datetime as dt
import random
import time

from benchmarks.load.results import match_sets

CITIES = ["Ankara", "İstanbul", "İzmir", "Bursa", "Konya", "Eskişehir", "Trabzon", "Gaziantep", "Antalya",
          "Kayseri", "Samsun", "Diyarbakır", "Erzurum", "Çanakkale", "Muğla", "Şanlıurfa", "Adana", "Mersin",
          "Sivas", "Van"]
CLUB_KINDS = ["Mangala Kulübü", "Zeka Oyunları SK", "Akıl Oyunları Derneği", "Gençlik SK"]
SLUG = "ulusal-sampiyona-yuk-testi"


def club_rows(n: int = 40) -> list[tuple[str, str, str]]:
    """(name, short name, city) of ``n`` clubs spread over :data:`CITIES`."""
    rows = []
    for i in range(n):
        city = CITIES[i % len(CITIES)]
        kind = CLUB_KINDS[(i // len(CITIES)) % len(CLUB_KINDS)]
        rows.append((f"{city} {kind}", f"{city[:3].upper()}{i // len(CITIES) + 1}", city))
    return rows


def seed(*, players: int, referees: int, played: int, rounds_total: int, seed: int = 2026,
         say=print) -> dict:
    """Build the event; returns the run's configuration for the locust users and the checks."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.db import transaction
    from rest_framework.authtoken.models import Token
    from simple_history.utils import bulk_create_with_history

    from federation import roles
    from federation.models import Club, Player
    from federation.sample_data import FIRST_F, FIRST_M, LAST
    from tournaments import services
    from tournaments.results import services as result_services
    from tournaments.rounds import services as round_services
    from tournaments.models import Entry, Match, Round, TournamentRole

    rng = random.Random(seed)
    User = get_user_model()
    t0 = time.perf_counter()

    organiser_group, _ = Group.objects.get_or_create(name=roles.ORGANISER)
    Group.objects.get_or_create(name=roles.REFEREE)
    organiser = User.objects.create(username="bench-organiser", first_name="Başhakem")
    organiser.set_unusable_password()
    organiser.save()
    organiser.groups.add(organiser_group)

    clubs = [Club(name=n, short_name=s, city=c) for n, s, c in club_rows()]
    for c in clubs:
        c.refresh_search_keys()
    clubs = Club.objects.bulk_create(clubs)
    people = []
    for i in range(1, players + 1):
        sex = "f" if rng.random() < 0.45 else "m"
        club = rng.choice(clubs)
        p = Player(
            federation_id=f"BL-{i:05d}", first_name=rng.choice(FIRST_F if sex == "f" else FIRST_M),
            last_name=rng.choice(LAST), sex=sex, birth_year=rng.randint(1955, 2016), club=club,
            city=club.city if rng.random() < 0.8 else rng.choice(CITIES),
            rating=max(800, min(2400, int(rng.gauss(1500, 250)))),
        )
        p.refresh_search_keys()
        people.append(p)
    people = Player.objects.bulk_create(people, batch_size=1000)

    t = services.tournament_create(
        name="Türkiye Mangala Şampiyonası (yük testi)", rounds_total=rounds_total, created_by=organiser,
        slug=SLUG, start_date=dt.date.today(), end_date=dt.date.today() + dt.timedelta(days=2),
        city="Ankara", venue="Ankara Spor Salonu",
    )
    ordered = sorted(people, key=lambda p: (-p.rating, p.last_name.casefold(), p.first_name.casefold(), p.federation_id))
    bulk_create_with_history(
        [Entry(tournament=t, player=p, start_no=n, rating=p.rating) for n, p in enumerate(ordered, start=1)],
        Entry, batch_size=1000, default_user=organiser,
    )

    ref_users = User.objects.bulk_create(
        [User(username=f"bench-referee-{i:03d}", first_name="Hakem", last_name=f"{i:03d}", password="!")
         for i in range(1, referees + 1)]
    )
    TournamentRole.objects.bulk_create(
        [TournamentRole(tournament=t, user=u, role=TournamentRole.Role.REFEREE) for u in ref_users]
    )
    tokens = Token.objects.bulk_create([Token(user=u, key=Token.generate_key()) for u in [organiser, *ref_users]])
    say(f"  seeded {players} players, {len(clubs)} clubs, {referees} referees in {time.perf_counter() - t0:.1f} s")

    pair_times = []
    for number in range(1, played + 2):
        t1 = time.perf_counter()
        rnd = round_services.round_pair(tournament=t, user=organiser, coin_seed="bench-2026" if number == 1 else None)
        pair_times.append(time.perf_counter() - t1)
        round_services.round_publish(round=rnd, user=organiser)
        if number > played:
            break
        t2 = time.perf_counter()
        games = list(rnd.matches.filter(kind=Match.Kind.GAME).select_related("white", "black", "round__tournament")
                     .order_by("board"))
        with transaction.atomic():
            for i, m in enumerate(games):
                sets = match_sets(rng, m.white.rating, m.black.rating, t.sets_per_match)
                result_services.match_result_enter(
                    match=m, user=ref_users[i % len(ref_users)],
                    sets=[result_services.SetInput(s["white_store"], s["black_store"], termination=s["termination"])
                          for s in sets],
                )
        round_services.round_close(round=rnd, user=organiser)
        say(f"  round {number}: paired in {pair_times[-1]:.1f} s, {len(games)} results entered in "
            f"{time.perf_counter() - t2:.1f} s")
        if number == played:
            services.standings_publish(tournament=t, user=organiser)
    current = Round.objects.get(tournament=t, number=played + 1)
    boards = list(current.matches.filter(kind=Match.Kind.GAME).select_related("white", "black").order_by("board"))
    byes = current.matches.filter(kind=Match.Kind.BYE).count()
    say(f"  round {played + 1} paired in {pair_times[-1]:.1f} s and published: {len(boards)} boards, {byes} bye(s); "
        f"seeding took {time.perf_counter() - t0:.1f} s")
    return {
        "slug": t.slug,
        "round": current.number,
        "sets_per_match": t.sets_per_match,
        "boards": [[m.board, m.white.rating, m.black.rating] for m in boards],
        "organiser_token": tokens[0].key,
        "referee_tokens": [tk.key for tk in tokens[1:]],
        "players": players,
        "referees": referees,
        "played": played,
        "pair_seconds": pair_times,
        "seed_seconds": time.perf_counter() - t0,
    }
