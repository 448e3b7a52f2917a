"""Benchmark: the PDFs of a big event — crosstable, standings, pairing list, result slips (WeasyPrint).

Run: ``.venv/bin/python benchmarks/pdf_bench.py [--sizes 50,300,1000] [--repeat 3] [--keep DIR]``
(``make bench`` runs it with no arguments: about a minute on a quiet machine).

A temporary SQLite database (``DATABASE_URL`` is pointed at a file in a temporary folder, settings
``federation.settings.test``) is migrated, then one completed 9-round Swiss per size is imported from
a generated TRF file (:func:`tournaments.trf.services.tournament_import_trf`: players with Turkish names —
every other one with two given names — and clubs, neighbour-by-score pairings, draws, forfeits,
half-point and pairing-allocated byes, a few withdrawals; the default five tie-breaks). Each PDF is made in its three steps, each timed in CPU
seconds (``time.process_time``: steadier than wall time on a shared machine), median of ``--repeat``
runs:

* data — the selectors (standings, crosstable, pairing list, QR codes of the slips): ``*_pdf_context``;
* html — the template: ``*_pdf_html``;
* pdf — WeasyPrint's layout (``pdf_document``) and writing the file (``pdf_write``), shown apart;
* gc after — ``gc.collect()`` once the PDF is made and dropped: the PDF functions
  pause Python's cyclic collector while WeasyPrint works, so its garbage is collected here (counted
  in the total, not in the next PDF's data step).

Figures and targets (total CPU seconds): the crosstable of 300 players x 9 rounds <= 2.0 s (the
task's goal; 50 and 1000 players are for the record: how it grows); the standings of the same event
<= 2.0 s and the pairing list of its last round (boards, then every player alphabetically) <= 2.0 s —
like the crosstable, Celery jobs whose file is cached per version, the same size of table. The
result slips of round 1 (about 150 boards for 300 players: half the players) have no target: a
50-page document of forms built in the request; the figure is for the record (cold: the QR codes'
cache is emptied before each run). The standings, pairing and slips PDFs are made for the middle
size given (300 by default). Nothing fails the run: figures are read. Pages, KiB of each PDF and of
its HTML are noted (``--keep DIR`` writes the PDFs there to look at). ``uptime``'s load average is
printed first: CPU time still grows when the machine's other processes share its cores and caches.
"""
from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).parent))

from _report import figure  # noqa: E402

ROUNDS = 9
CROSSTABLE_TARGET = {300: 2.0}
STANDINGS_TARGET = 2.0
PAIRINGS_TARGET = 2.0
SLIPS_TARGET = None

_LAST = ["Öztürk", "Çelik", "Şahin", "Yıldız", "Güneş", "Işık", "Doğan", "Kılıç", "Aydın", "Özdemir",
         "Arslan", "Koç", "Kurt", "Özkan", "Şimşek", "Polat", "Erdoğan", "Çakır", "Ünal", "Güler",
         "Yücel", "İnce", "Akgün", "Tekin", "Bozkurt", "Karagöz", "Uçar", "Sönmez", "Gündüz", "Çiftçi"]
_FIRST = ["Ayşe", "Mehmet", "Çiğdem", "İbrahim", "Gülşen", "Oğuz", "Şükrü", "Ümit", "Özlem", "Ilgaz",
          "Büşra", "Çağrı", "Eşref", "Gökçe", "İrem", "Doğukan", "Şeyma", "Ülkü", "Ömer", "Nazlı"]


def setup_django(folder: Path) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "federation.settings.test"
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'bench.sqlite3'}"
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.MEDIA_ROOT = str(folder / "media")
    call_command("migrate", verbosity=0, interactive=False)


def event_trf(players: int, rounds: int = ROUNDS, seed: int = 2026) -> str:
    """A completed Swiss as TRF text: ``players`` lines, ``rounds`` rounds (deterministic)."""
    rng = random.Random(seed)
    cells: list[list[str]] = [[] for _ in range(players)]
    score = [0.0] * players
    withdrawn: set[int] = set()
    rating = [2200 - (i * 1400) // max(players, 1) for i in range(players)]
    for rnd in range(1, rounds + 1):
        if rnd >= 5:
            withdrawn.update(i for i in range(players) if rng.random() < 0.006)
        active = []
        for i in range(players):
            if i in withdrawn:
                cells[i].append("0000 - Z")
            elif rng.random() < 0.02:
                cells[i].append("0000 - H")
                score[i] += 0.5
            else:
                active.append(i)
        active.sort(key=lambda i: (-score[i], i))
        if len(active) % 2:
            bye = active.pop()
            cells[bye].append("0000 - U")
            score[bye] += 1.0
        for a, b in zip(active[::2], active[1::2]):
            wa, wb = (a, b) if (rnd + a) % 2 else (b, a)
            u = rng.random()
            if u < 0.01:
                cells[wa].append(f"{wb + 1:>4} w +")
                cells[wb].append(f"{wa + 1:>4} b -")
                score[wa] += 1.0
                continue
            p = 0.5 + (rating[wa] - rating[wb]) / 2000
            code_w, pts = ("=", 0.5) if u < 0.18 else ("1", 1.0) if rng.random() < p else ("0", 0.0)
            code_b = {"1": "0", "0": "1", "=": "="}[code_w]
            cells[wa].append(f"{wb + 1:>4} w {code_w}")
            cells[wb].append(f"{wa + 1:>4} b {code_b}")
            score[wa] += pts
            score[wb] += 1.0 - pts
    lines = [f"012 Büyük Açık Mangala Turnuvası {players}", "022 İstanbul", "032 Türkiye", "042 2026/03/14",
             "052 2026/03/16", "092 Individual: Swiss-System", "102 Şükrü Çağlayan", f"XXR {rounds}"]
    for i in range(players):
        second = f" {_FIRST[(i * 7 + 3) % len(_FIRST)]}" if i % 2 else ""  # every other player two given names
        name = f"{_LAST[i % len(_LAST)]}, {_FIRST[(i // len(_LAST)) % len(_FIRST)]}{second}"
        head = (f"001 {i + 1:>4} {'w' if i % 3 == 0 else 'm'}    {name[:33]:<33} {rating[i]:04d} TUR "
                f"{900000 + i:>11} {'':<10} {score[i]:>4.1f} {'':>4}")
        lines.append(head + "  " + "  ".join(cells[i]))
    return "\n".join(lines) + "\n"


def build_event(players: int):
    """Import the generated event and give its players clubs (what the standings and pairings print)."""
    from federation.models import Club, Player
    from tournaments.trf.services import tournament_import_trf

    report = tournament_import_trf(data=event_trf(players), source=f"bench-{players}.trf", match_players=False)
    t = report.tournament
    clubs = [Club.objects.get_or_create(name=f"{city} Mangala Spor Kulübü", defaults={"city": city})[0]
             for city in ("İstanbul", "Ankara", "İzmir", "Eskişehir", "Muğla", "Çanakkale", "Şanlıurfa", "Düzce")]
    players_ = list(Player.objects.filter(entries__tournament=t).order_by("id"))
    for k, p in enumerate(players_):
        p.club = clubs[k % len(clubs)]
    Player.objects.bulk_update(players_, ["club"])
    return t


def _cpu(fn):
    start = time.process_time()
    value = fn()
    return value, time.process_time() - start


def measure(label: str, make_context, make_html, repeat: int, keep: Path | None, target: float | None,
            name: str) -> None:
    """Time data / html / layout / write ``repeat`` times; print the medians (FIGURE lines)."""
    from federation.pdf import pdf_document, pdf_write

    data_t, html_t, layout_t, write_t, gc_t, total_t = [], [], [], [], [], []
    pdf = b""
    pages = 0
    gc.collect()
    for _ in range(repeat):
        context, d = _cpu(make_context)
        html, h = _cpu(lambda: make_html(context))
        document, lay = _cpu(lambda: pdf_document(html))
        pdf, w = _cpu(lambda: pdf_write(document))
        pages = len(document.pages)
        del document, context
        _, g = _cpu(gc.collect)  # the PDF's garbage, whenever the collector would have got to it
        data_t.append(d), html_t.append(h), layout_t.append(lay), write_t.append(w), gc_t.append(g)
        total_t.append(d + h + lay + w + g)
    med = statistics.median
    note = f"{pages} pages, {len(pdf) / 1024:.0f} KiB, html {len(html) / 1024:.0f} KiB"
    figure(f"{label}: total CPU", med(total_t), "s", target=target, note=note)
    for step, times in (("data", data_t), ("html", html_t), ("layout", layout_t), ("write", write_t),
                        ("gc after", gc_t)):
        figure(f"{label}: {step}", med(times), "s")
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        (keep / f"{name}.pdf").write_bytes(pdf)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="50,300,1000",
                        help="players of the crosstables, comma-separated (default 50,300,1000); the other PDFs "
                             "use the middle one")
    parser.add_argument("--repeat", type=int, default=3, help="runs per PDF (the median is shown)")
    parser.add_argument("--keep", type=Path, default=None, help="write the PDFs into this folder")
    parser.add_argument("--only", default="crosstable,standings,pairings,slips",
                        help="which PDFs (comma-separated)")
    args = parser.parse_args(argv)
    sizes = sorted({int(s) for s in args.sizes.split(",") if s.strip()})
    only = set(args.only.split(","))
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; CPU seconds, median of {args.repeat}")

    with tempfile.TemporaryDirectory(prefix="pdf-bench-") as tmp:
        setup_django(Path(tmp))
        from tournaments.paper import crosstable as crosstable_pdf
        from tournaments.paper import hall as hall_pdf
        from tournaments.models import Round

        events = {}
        for n in sizes:
            started = time.perf_counter()
            events[n] = build_event(n)
            print(f"built {n} players x {ROUNDS} rounds in {time.perf_counter() - started:.1f} s", flush=True)
        if "crosstable" in only:
            for n in sizes:
                t = events[n]
                measure(f"crosstable PDF (tr), {n} players x {ROUNDS} rounds",
                        lambda t=t: crosstable_pdf.crosstable_pdf_context(tournament=t, lang="tr"),
                        lambda c: crosstable_pdf.crosstable_pdf_html(c, lang="tr"),
                        args.repeat, args.keep, CROSSTABLE_TARGET.get(n), f"crosstable-{n}")
        n = sizes[len(sizes) // 2]
        t = events[n]
        rnd = Round.objects.get(tournament=t, number=ROUNDS)
        boards = rnd.matches.count()
        first = Round.objects.get(tournament=t, number=1)
        games = first.matches.filter(kind="game").count()
        if "standings" in only:
            measure(f"standings PDF (tr), {n} players",
                    lambda: hall_pdf.standings_pdf_context(tournament=t, lang="tr"),
                    lambda c: hall_pdf.standings_pdf_html(c, lang="tr"),
                    args.repeat, args.keep, STANDINGS_TARGET, f"standings-{n}")
        if "pairings" in only:
            measure(f"pairing list PDF (tr), round {ROUNDS}, {boards} boards",
                    lambda: hall_pdf.pairings_pdf_context(round=rnd, lang="tr"),
                    lambda c: hall_pdf.pairings_pdf_html(c, lang="tr"),
                    args.repeat, args.keep, PAIRINGS_TARGET, f"pairings-{n}")
        if "slips" in only:
            absolute = lambda path: "https://turnuva.example.org" + path  # noqa: E731

            def slips_context():
                if hasattr(hall_pdf.qr_png_data_uri, "cache_clear"):
                    hall_pdf.qr_png_data_uri.cache_clear()  # cold: as the first print of a round
                return hall_pdf.slips_pdf_context(round=first, absolute=absolute, lang="tr")

            measure(f"result slips PDF (tr), round 1, {games} boards", slips_context,
                    lambda c: hall_pdf.slips_pdf_html(c, lang="tr"),
                    args.repeat, args.keep, SLIPS_TARGET, f"slips-{n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
