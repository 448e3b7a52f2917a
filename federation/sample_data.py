"""Sample data for the demo (``python manage.py load_sample_data``): a fictional federation.

* demo accounts: ``admin`` (federation staff), ``organiser``, ``referee``, ``player`` — passwords in
  README.md;
* 8 clubs, 40 players (fictional names; federation ids ``TMF-0001``…);
* the three real tournaments shipped in ``tournaments/sample_data/trf`` (personal details replaced);
* a finished Mangala Swiss (12 players, 4 rounds, rated: the players have rating histories) and one
  whose first two rounds were played — set-level results where every set is a real game played through
  the rules engine, with its move record;
* two official rating lists, of 1 April and 1 May 2026 (before and after the rated Swiss);
* a multi-section school event (:data:`SCHOOL_EVENT`: İlkokul Kız, İlkokul Erkek, Ortaokul Açık) with 18
  pupils placed by the sections' rules, every section played through and its final standings published;
* a knockout final (:data:`KNOCKOUT_FINAL`, issue 14): the top 8 of the finished Swiss, seeded by its
  final standings, 5-set matches and a match for third place, played through with real engine sets
  (decider sets if a match ends level), rated.
* a team championship (:data:`TEAM_CHAMPIONSHIP`): the eight clubs' teams, four boards and a reserve each,
  a round robin of seven rounds played through with real engine sets, final standings published.

Everything is deterministic (fixed seeds) and idempotent: what exists already is left alone.
"""
from __future__ import annotations

import random
from datetime import date
from pathlib import Path

from django.contrib.auth.models import Group, User
from django.db import transaction

import games.engine as engine
from federation import roles
from federation.models import Club, Player
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.models import Match, Tournament
from tournaments.trf.players import PlayerConflicts
from tournaments.trf.services import tournament_import_trf

DEMO_PASSWORDS = {
    "admin": "mangala-admin",
    "organiser": "mangala-organiser",
    "referee": "mangala-referee",
    "player": "mangala-player",
}
CLUBS = [
    ("Ankara Mangala Kulübü", "ANK", "Ankara"),
    ("İstanbul Zeka Oyunları SK", "IST", "İstanbul"),
    ("İzmir Körfez Mangala", "IZM", "İzmir"),
    ("Bursa Hazine Spor", "BUR", "Bursa"),
    ("Konya Selçuklu Akıl Oyunları", "KON", "Konya"),
    ("Eskişehir Kuyu Kulübü", "ESK", "Eskişehir"),
    ("Trabzon Karadeniz Mangala", "TRA", "Trabzon"),
    ("Gaziantep Strateji SK", "GAZ", "Gaziantep"),
]
FIRST_F = ["Ayşe", "Zeynep", "Elif", "Defne", "Ecrin", "Yağmur", "Şule", "Gülşen", "Özge", "İpek", "Çiğdem", "Buse", "Ebru", "Nazlı", "Sıla", "Öykü", "Şeyma", "Duygu", "Hülya", "Gizem"]
FIRST_M = ["Mehmet", "Mustafa", "Ahmet", "Ali", "Hüseyin", "Hasan", "İbrahim", "Yusuf", "Ömer", "Çağrı", "Barış", "Emre", "Kerem", "Oğuz", "Şahin", "Tolga", "Uğur", "Volkan", "Eren", "Gökhan"]
LAST = ["Yılmaz", "Kaya", "Demir", "Şahin", "Çelik", "Yıldız", "Yıldırım", "Öztürk", "Aydın", "Özdemir", "Arslan", "Doğan", "Kılıç", "Aslan", "Çetin", "Kara", "Koç", "Kurt", "Özkan", "Şimşek", "Polat", "Özer", "Güneş", "Erdoğan", "Aktaş", "Bulut", "Keskin", "Ünal", "Uçar", "Işık", "Güler", "Ateş", "Tekin", "Sarı", "Bozkurt", "Akın", "Karaca", "Duman", "Türkmen", "Çakır"]

TRF_DIR = Path(__file__).resolve().parent.parent / "tournaments" / "sample_data" / "trf"
DEMO_TOURNAMENT = "Ankara Kış Mangala Açık Turnuvası 2026"
SPRING_TOURNAMENT = "İstanbul Bahar Mangala Turnuvası 2026"


def _users() -> dict[str, User]:
    groups = {name: Group.objects.get_or_create(name=name)[0] for name in roles.ALL_GROUPS}
    users = {}
    for name, password in DEMO_PASSWORDS.items():
        user, created = User.objects.get_or_create(username=name)
        if created:
            user.set_password(password)
            user.is_staff = user.is_superuser = name == "admin"
            user.save()
        if name in ("organiser", "referee"):
            user.groups.add(groups[name])
        if name == "admin":
            user.groups.add(groups[roles.STAFF])
        users[name] = user
    return users


def _members() -> list[Player]:
    clubs = [Club.objects.get_or_create(name=n, defaults={"short_name": s, "city": c})[0] for n, s, c in CLUBS]
    rng = random.Random(2026)
    players = []
    for i in range(1, 41):
        fid = f"TMF-{i:04d}"
        sex = "f" if i % 2 else "m"
        first = rng.choice(FIRST_F if sex == "f" else FIRST_M)
        club = clubs[(i * 7) % len(clubs)]
        player, _ = Player.objects.get_or_create(
            federation_id=fid,
            defaults={
                "first_name": first, "last_name": LAST[(i * 13) % len(LAST)], "sex": sex,
                "birth_year": rng.randint(1960, 2014), "club": club, "city": club.city,
                "rating": max(1000, int(rng.gauss(1500, 180))),
            },
        )
        players.append(player)
    return players


def _choose(pos: engine.Position, rng: random.Random, skill: float) -> int:
    """A move for the demo: the best immediate store gain with probability ``skill``, else random."""
    moves = [m.pit for m in engine.legal_moves(pos)]
    if rng.random() > skill:
        return rng.choice(moves)
    me = pos.to_move

    def gain(pit: int) -> int:
        r = engine.play(pos, pit)
        stores = r.position.stores
        return stores[me] - stores[1 - me] + (3 if r.extra_turn else 0)

    return max(moves, key=lambda pit: (gain(pit), rng.random()))


def play_set(rng: random.Random, skill_first: float, skill_second: float) -> tuple[list[int], tuple[int, int]]:
    """Play one complete set through the rules engine; returns (moves, (first stones, second stones))."""
    pos = engine.Position.initial()
    moves: list[int] = []
    while not pos.is_over:
        pit = _choose(pos, rng, skill_first if pos.to_move == 0 else skill_second)
        moves.append(pit)
        pos = engine.play(pos, pit).position
    return moves, pos.stores


def _skill(rating: int) -> float:
    return min(0.95, max(0.2, (rating - 900) / 900))


def play_round(rnd, referee: User, rng: random.Random) -> None:
    """Enter a result for every game of ``rnd``: real sets played by the engine, with move records."""
    n = rnd.tournament.sets_per_match
    for m in rnd.matches.filter(kind=Match.Kind.GAME).select_related("white", "black"):
        sw, sb = _skill(m.white.rating), _skill(m.black.rating)
        sets, recorded = [], []
        for k in range(1, n + 1):
            white_starts = engine.set_starter(k) == 0
            moves, (first, second) = play_set(rng, sw if white_starts else sb, sb if white_starts else sw)
            w, b = (first, second) if white_starts else (second, first)
            sets.append(result_services.SetInput(white_store=w, black_store=b, moves=" ".join(map(str, moves))))
            recorded.append((w, b))
            if engine.match_result(recorded, sets_per_match=n, allow_incomplete=True).complete:
                break
        result_services.match_result_enter(match=m, sets=sets, user=referee)


#: Official rating lists of the demo (date, title): one before the rated spring tournament (18–19 April
#: 2026), whose players are listed with their starting ratings, and one after it, with their changes.
OFFICIAL_LISTS = [(date(2026, 4, 1), "Nisan 2026"), (date(2026, 5, 1), "Mayıs 2026")]


def _official_lists(admin: User, say) -> None:
    """Publish :data:`OFFICIAL_LISTS` (those not in force yet), oldest first, after the spring rating."""
    from django.utils import timezone

    from ratings.models import RatingList
    from ratings.lists.services import rating_list_publish

    for day, title in OFFICIAL_LISTS:
        if day > timezone.localdate() or RatingList.objects.filter(published_on=day, withdrawn_at__isnull=True).exists():
            continue
        rating_list = rating_list_publish(published_on=day, user=admin, title=title)
        say(f"published the official rating list of {day.isoformat()} ({rating_list.players} players)\n")


@transaction.atomic
def load(stdout=None) -> dict[str, str]:
    """Load everything (idempotent). Returns {what: slug} of the tournaments created or found."""
    say = stdout.write if stdout else (lambda s: None)
    users = _users()
    players = _members()
    if not Player.objects.filter(user=users["player"]).exists():
        p = players[0]
        p.user = users["player"]
        p.save(update_fields=["user"])
    out: dict[str, str] = {}
    for path in sorted(TRF_DIR.glob("*.trf")):
        from tournaments.trf.reader import parse_trf

        name = parse_trf(path.read_bytes()).name or path.stem
        existing = Tournament.objects.filter(name=name, imported_from_trf=True).first()
        if existing is None:
            try:
                report = tournament_import_trf(data=path.read_bytes(), source=path.name)
            except PlayerConflicts as exc:
                if exc.field != "player_values":
                    raise
                # the sample files share FIDE ids whose sex or birth year differ from the stored demo players:
                # the demo keeps the stored values, as an organiser would choose in the preview
                report = tournament_import_trf(data=path.read_bytes(), source=path.name,
                                               player_values={c.start_no: "stored" for c in exc.conflicts})
            existing = report.tournament
            services.standings_publish(tournament=existing)
            say(f"imported {path.name} as {existing.slug}\n")
        out[path.stem] = existing.slug
    spring = Tournament.objects.filter(name=SPRING_TOURNAMENT).first()
    if spring is None:
        spring = services.tournament_create(
            name=SPRING_TOURNAMENT, rounds_total=4, system=Tournament.System.SWISS, start_date=date(2026, 4, 18),
            end_date=date(2026, 4, 19), city="İstanbul", venue="Kadıköy Halk Eğitim Merkezi",
            created_by=users["organiser"],
        )
        for p in players[:12]:
            entry_services.entry_add(tournament=spring, player=p)
        rng = random.Random(4)
        for n in range(4):
            rnd = round_services.round_pair(tournament=spring, user=users["organiser"], coin_seed="istanbul-2026" if n == 0 else None)
            round_services.round_publish(round=rnd, user=users["organiser"])
            play_round(rnd, users["referee"], rng)
            round_services.round_close(round=rnd, user=users["organiser"])
        services.standings_publish(tournament=spring, user=users["organiser"])  # final: queues the rating run
        # rate now, too, so the next event's entries take the ratings as of its start (idempotent)
        from ratings.services import ratings_recompute_from

        ratings_recompute_from(tournament=spring)
        say(f"created {spring.slug}, finished and rated\n")
    out["spring"] = spring.slug
    out["knockout"] = _knockout_final(users, spring, say).slug
    _official_lists(users["admin"], say)
    t = Tournament.objects.filter(name=DEMO_TOURNAMENT).first()
    if t is None:
        t = services.tournament_create(
            name=DEMO_TOURNAMENT, rounds_total=5, system=Tournament.System.SWISS, start_date=date(2026, 12, 5),
            end_date=date(2026, 12, 6), city="Ankara", venue="Ankara Kültür Merkezi", created_by=users["organiser"],
        )
        for p in players[:16]:
            entry_services.entry_add(tournament=t, player=p)
        rng = random.Random(7)
        for _ in range(2):
            rnd = round_services.round_pair(tournament=t, user=users["organiser"], coin_seed="ankara-2026")
            round_services.round_publish(round=rnd, user=users["organiser"])
            play_round(rnd, users["referee"], rng)
            round_services.round_close(round=rnd, user=users["organiser"])
        services.standings_publish(tournament=t, user=users["organiser"])
        say(f"created {t.slug} with two rounds played\n")
    out["demo"] = t.slug
    out["event"] = _school_event(users, say).slug
    out["teams"] = _team_championship(users, players, say).slug
    return out


#: The multi-section school event of the demo (issue 14): three sections, every player placed by the
#: sections' rules (born 2015-2018 / 2011-2014 at the 2026 reference year, and sex), each section
#: played through and its final standings published.
SCHOOL_EVENT = "Okullar Arası Mangala Şampiyonası"
SCHOOL_SECTIONS = [
    # (name, system, rounds, born from, born to, sex)
    ("İlkokul Kız", Tournament.System.SWISS, 3, 2015, 2018, "f"),
    ("İlkokul Erkek", Tournament.System.SWISS, 3, 2015, 2018, "m"),
    ("Ortaokul Açık", Tournament.System.ROUND_ROBIN, 5, 2011, 2014, ""),
]


def _school_players() -> list[Player]:
    """18 pupils (federation ids ``OKL-0001``…): 6 primary-school girls, 6 primary-school boys and 6
    secondary-school pupils (3 girls, 3 boys)."""
    rng = random.Random(1453)
    clubs = list(Club.objects.order_by("name"))
    kinds = [("f", 2015, 2018)] * 6 + [("m", 2015, 2018)] * 6 + [("f", 2011, 2014), ("m", 2011, 2014)] * 3
    players = []
    for i, (sex, low, high) in enumerate(kinds, start=1):
        club = clubs[(i * 5) % len(clubs)] if clubs else None
        player, _ = Player.objects.get_or_create(
            federation_id=f"OKL-{i:04d}",
            defaults={
                "first_name": rng.choice(FIRST_F if sex == "f" else FIRST_M), "last_name": LAST[(i * 11) % len(LAST)],
                "sex": sex, "birth_year": rng.randint(low, high), "club": club, "city": club.city if club else "",
                "rating": rng.randint(1000, 1400),
            },
        )
        players.append(player)
    return players


def _school_event(users: dict[str, User], say):
    """The school event (:data:`SCHOOL_EVENT`), created once: sections, registration list, entries,
    and every round of every section paired, played (real engine sets) and closed."""
    from tournaments.events import services as events
    from tournaments.models import Event

    event = Event.objects.filter(name=SCHOOL_EVENT).first()
    if event is not None:
        return event
    organiser = users["organiser"]
    event = events.event_create(
        name=SCHOOL_EVENT, user=organiser, start_date=date(2026, 5, 16), end_date=date(2026, 5, 17),
        city="Eskişehir", venue="Eskişehir Bilim ve Sanat Merkezi", reference_date=date(2026, 1, 1),
    )
    for order, (name, system, rounds, low, high, sex) in enumerate(SCHOOL_SECTIONS, start=1):
        events.event_section_add(
            event=event, user=organiser, name=name, system=system, rounds_total=rounds, birth_year_min=low,
            birth_year_max=high, sex=sex, order=order, chief_arbiter="Hakem Selin Aydın",
        )
    for player in _school_players():
        events.event_register(event=event, player=player, user=organiser)
    events.event_sections_sync(event=event, user=organiser)
    _school_prizes(event, organiser)
    rng = random.Random(16)
    for section in event.sections.order_by("section_order"):
        for n in range(section.rounds_total):
            rnd = round_services.round_pair(tournament=section, user=organiser, coin_seed=f"okullar-{section.slug}"
                                            if n == 0 else None)
            round_services.round_publish(round=rnd, user=organiser)
            play_round(rnd, users["referee"], rng)
            round_services.round_close(round=rnd, user=organiser)
            section.refresh_from_db()
        services.standings_publish(tournament=section, user=organiser)  # final: queues the rating run
    say(f"created the event {event.slug} with {event.sections.count()} sections, played through\n")
    return event


def _school_prizes(event, organiser: User) -> None:
    """Category rankings and prize lists of the school event's sections (issue 14): trophies for the top
    three of each section, a medal for the best U10 pupil of the primary-school sections and for the best
    girl of the open middle-school section (one prize per pupil, the most valuable: values 30/20/10/5)."""
    from tournaments.prizes import services as cs

    for section in event.sections.order_by("section_order"):
        for place, label, value in ((1, "Birincilik kupası", 30), (2, "İkincilik kupası", 20),
                                    (3, "Üçüncülük kupası", 10)):
            cs.prize_create(tournament=section, place=place, label=label, value=value, user=organiser)
        preset = "KIZ" if section.section_sex == "" else "U10"
        category = cs.category_quick_add(tournament=section, preset=preset, user=organiser)
        cs.prize_create(tournament=section, category=category, place=1, label="Altın madalya", value=5,
                        user=organiser)


#: The knockout final of the demo (issue 14): the top 8 of :data:`SPRING_TOURNAMENT`, seeded by its final
#: standings, 5-set matches in every round, a match for third place, decider sets on a level match.
KNOCKOUT_FINAL = "İstanbul Bahar Mangala Finali 2026"


def play_knockout_round(rnd, referee: User, rng: random.Random) -> None:
    """Enter a result for every game of a knockout round: real sets played by the engine, with move records,
    until the match has a winner (the round's planned sets, then decider sets started as the lot says)."""
    from tournaments.knockout import matches as knockout_matches
    from tournaments.knockout import settings as knockout_settings

    for m in rnd.matches.filter(kind=Match.Kind.GAME).select_related("white", "black", "round__tournament"):
        sw, sb = _skill(m.white.rating), _skill(m.black.rating)
        plan = knockout_matches.match_plan(m)
        lot = rng.choice(("white", "black"))  # the lot drawn at the table for a first decider
        sets, recorded = [], []
        for k in range(1, knockout_settings.MAX_SETS + 1):
            starter = knockout_matches.plan_starter(knockout_matches.plan_with_lot(plan, sets_count=k, decider_starter=lot), k)
            white_starts = starter == "white"
            moves, (first, second) = play_set(rng, sw if white_starts else sb, sb if white_starts else sw)
            w, b = (first, second) if white_starts else (second, first)
            sets.append(result_services.SetInput(white_store=w, black_store=b, moves=" ".join(map(str, moves))))
            recorded.append((w, b))
            if knockout_matches.plan_result(plan, recorded).complete:
                break
        result_services.match_result_enter(match=m, sets=sets, user=referee,
                                           decider_starter=lot if len(sets) > plan.planned else "")


def _knockout_final(users: dict[str, User], spring: Tournament, say) -> Tournament:
    """The knockout final (:data:`KNOCKOUT_FINAL`), created once: its qualifiers taken from the spring Swiss,
    every round paired (a coin toss per match), played, closed; final standings published and rated."""
    final = Tournament.objects.filter(name=KNOCKOUT_FINAL).first()
    if final is not None:
        return final
    organiser = users["organiser"]
    rng = random.Random(19)
    playoff = _cut_playoff(users, spring, 8, rng, say)
    final = services.tournament_create(
        name=KNOCKOUT_FINAL, rounds_total=3, system=Tournament.System.KNOCKOUT, start_date=date(2026, 4, 19),
        end_date=date(2026, 4, 19), city="İstanbul", venue="Kadıköy Halk Eğitim Merkezi", created_by=organiser,
        sets_per_match=5, knockout_sets=[5, 5, 5], third_place_match=True, qualified_from=spring, qualifiers=8,
    )
    _play_knockout(final, users, rng, seed="bahar-finali")
    from ratings.services import ratings_recompute_from

    ratings_recompute_from(tournament=playoff or final)
    say(f"created the knockout final {final.slug}, played through and rated\n")
    return final


#: The team championship of the demo (issue 14): the eight clubs' teams (four boards and a reserve each,
#: the clubs' five members), a round robin of seven rounds played through with real engine sets — one
#: regular absent in round 5, so the reserve moves up — and the final standings published (rated).
TEAM_CHAMPIONSHIP = "Kulüpler Arası Mangala Takım Şampiyonası 2026"


def _team_championship(users: dict[str, User], players: list[Player], say):
    """The team championship (:data:`TEAM_CHAMPIONSHIP`), created once."""
    from tournaments.teams import services as teams

    t = Tournament.objects.filter(name=TEAM_CHAMPIONSHIP).first()
    if t is not None:
        return t
    organiser = users["organiser"]
    t = teams.team_tournament_create(
        name=TEAM_CHAMPIONSHIP, rounds_total=7, system=Tournament.System.ROUND_ROBIN, boards_per_team=4,
        start_date=date(2026, 6, 13), end_date=date(2026, 6, 14), city="Bursa", venue="Bursa Merinos Kongre Merkezi",
        created_by=organiser,
    )
    by_club: dict[int, list[Player]] = {}
    for p in players:
        by_club.setdefault(p.club_id, []).append(p)
    for club in Club.objects.filter(pk__in=by_club).order_by("name"):
        team = teams.team_create(tournament=t, name=club.name, short_name=club.short_name, club=club, user=organiser)
        members = sorted(by_club[club.pk], key=lambda p: (-p.rating, p.federation_id))
        for i, p in enumerate(members[:5]):
            teams.team_member_add(team=team, player=p, reserve=i >= 4, user=organiser)
    teams.team_seeds_sort(tournament=t, user=organiser)
    rng = random.Random(1923)
    for n in range(1, 8):
        if n == 5:  # the top seed's board 2 cannot come: its reserve plays (the board order moves up)
            top = t.teams.get(seed_no=1)
            entry_services.entry_request_bye(entry=top.members.get(board=2).entry, round_number=5, kind="zero", user=organiser)
        rnd = teams.team_round_pair(tournament=t, user=organiser, coin_seed="takim-2026" if n == 1 else None)
        round_services.round_publish(round=rnd, user=organiser)
        play_round(rnd, users["referee"], rng)
        round_services.round_close(round=rnd, user=organiser)
    services.standings_publish(tournament=t, user=organiser)  # final: queues the rating run
    t.refresh_from_db()
    say(f"created the team championship {t.slug}, 8 teams, played through\n")
    return t


def _play_knockout(t: Tournament, users: dict[str, User], rng: random.Random, *, seed: str) -> None:
    """Pair (a coin toss per match), publish, play and close every round of the knockout ``t``, then publish
    its final standings (which queues its rating run)."""
    organiser = users["organiser"]
    for n in range(1, t.rounds_total + 1):
        rnd = round_services.round_pair(tournament=t, user=organiser, coin_seed=f"{seed}-{n}")
        round_services.round_publish(round=rnd, user=organiser)
        play_knockout_round(rnd, users["referee"], rng)
        round_services.round_close(round=rnd, user=organiser)
        t.refresh_from_db()
    services.standings_publish(tournament=t, user=organiser)


def _cut_playoff(users: dict[str, User], swiss: Tournament, qualifiers: int, rng: random.Random, say):
    """When players share the last qualifying place of ``swiss`` (places either side of the cut after
    ``qualifiers``), the play-off between them (:mod:`tournaments.knockout.playoffs`), played through; else None."""
    from tournaments.knockout import playoffs

    for rank, names in playoffs.tied_places(swiss):
        if rank <= qualifiers < rank + len(names) - 1:
            playoff = playoffs.playoff_create(tournament=swiss, rank=rank, user=users["organiser"], sets=3)
            _play_knockout(playoff, users, rng, seed="bahar-baraj")
            say(f"created the play-off {playoff.slug} for place {rank} ({', '.join(names)})\n")
            return playoff
    return None
