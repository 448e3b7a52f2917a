"""Sample data for the demo (``python manage.py load_sample_data``): a fictional federation.

* demo accounts: ``admin`` (federation staff), ``organiser``, ``referee``, ``player`` — passwords in
  README.md;
* 8 clubs, 40 players (fictional names; federation ids ``TMF-0001``…);
* the three real tournaments shipped in ``tournaments/sample_data/trf`` (personal details replaced);
* a finished Mangala Swiss (12 players, 4 rounds, rated: the players have rating histories) and one
  whose first two rounds were played — set-level results where every set is a real game played through
  the rules engine, with its move record;
* two official rating lists, of 1 April and 1 May 2026 (before and after the rated Swiss).

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
from tournaments.models import Match, Tournament
from tournaments.trf_io import tournament_import_trf

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
            sets.append(services.SetInput(white_store=w, black_store=b, moves=" ".join(map(str, moves))))
            recorded.append((w, b))
            if engine.match_result(recorded, sets_per_match=n, allow_incomplete=True).complete:
                break
        services.match_result_enter(match=m, sets=sets, user=referee)


#: Official rating lists of the demo (date, title): one before the rated spring tournament (18–19 April
#: 2026), whose players are listed with their starting ratings, and one after it, with their changes.
OFFICIAL_LISTS = [(date(2026, 4, 1), "Nisan 2026"), (date(2026, 5, 1), "Mayıs 2026")]


def _official_lists(admin: User, say) -> None:
    """Publish :data:`OFFICIAL_LISTS` (those not in force yet), oldest first, after the spring rating."""
    from django.utils import timezone

    from ratings.models import RatingList
    from ratings.services import rating_list_publish

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
        from tournaments.trf import parse_trf

        name = parse_trf(path.read_bytes()).name or path.stem
        existing = Tournament.objects.filter(name=name, imported_from_trf=True).first()
        if existing is None:
            report = tournament_import_trf(data=path.read_bytes(), source=path.name)
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
            services.entry_add(tournament=spring, player=p)
        rng = random.Random(4)
        for n in range(4):
            rnd = services.round_pair(tournament=spring, user=users["organiser"], coin_seed="istanbul-2026" if n == 0 else None)
            services.round_publish(round=rnd, user=users["organiser"])
            play_round(rnd, users["referee"], rng)
            services.round_close(round=rnd, user=users["organiser"])
        services.standings_publish(tournament=spring, user=users["organiser"])  # final: queues the rating run
        # rate now, too, so the next event's entries take the ratings as of its start (idempotent)
        from ratings.services import ratings_recompute_from

        ratings_recompute_from(tournament=spring)
        say(f"created {spring.slug}, finished and rated\n")
    out["spring"] = spring.slug
    _official_lists(users["admin"], say)
    t = Tournament.objects.filter(name=DEMO_TOURNAMENT).first()
    if t is None:
        t = services.tournament_create(
            name=DEMO_TOURNAMENT, rounds_total=5, system=Tournament.System.SWISS, start_date=date(2026, 12, 5),
            end_date=date(2026, 12, 6), city="Ankara", venue="Ankara Kültür Merkezi", created_by=users["organiser"],
        )
        for p in players[:16]:
            services.entry_add(tournament=t, player=p)
        rng = random.Random(7)
        for _ in range(2):
            rnd = services.round_pair(tournament=t, user=users["organiser"], coin_seed="ankara-2026")
            services.round_publish(round=rnd, user=users["organiser"])
            play_round(rnd, users["referee"], rng)
            services.round_close(round=rnd, user=users["organiser"])
        services.standings_publish(tournament=t, user=users["organiser"])
        say(f"created {t.slug} with two rounds played\n")
    out["demo"] = t.slug
    return out
