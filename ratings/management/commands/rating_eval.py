"""``python manage.py rating_eval [--results FILE] [--seed N] [--quick] [--docs FILE | --no-docs]``
(``make rating-eval``).

Without ``--results``: the walk-forward evaluation of the rating systems on a *simulated* league
(:func:`ratings.evaluation.evaluate`, docs/ratings.md "Evidence on a simulated league"); the markdown
table goes into the marked section of docs/ratings.md (between ``<!-- rating_eval:start -->`` and
``<!-- rating_eval:end -->``; without markers they replace a line ``EVAL_TABLE`` or are appended; the
rest of the file is kept).

With ``--results FILE`` (``.csv`` or ``.csv.gz``, ``date,event,first,second,first_stones,second_stones``;
:mod:`ratings.evaluation.results`): the same evaluation on recorded results with a chronological split
(:func:`ratings.evaluation.evaluate_events`: burn-in, tuning on the first ``--tune-fraction`` of the
sets, the rest held out); the table is printed and goes into a file only with ``--docs``.

Both print as their LAST line one JSON object::

    {"sets": N, "logloss": {"margin": x, "elo": y, "glicko2": z},
     "ci_margin_minus_elo": [lo, hi], "ci_margin_minus_glicko2": [lo, hi],
     "brier": {...}, "defaults": {"logloss": {...}, "brier": {...}}, "won_sets_lowering_rating": {...}}

``--quick`` uses a small league (simulation) and a small tuning budget (seconds; tests and smoke runs).
A results file that cannot be read stops the command with its line number (status 2).
"""
from __future__ import annotations

import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from ratings.evaluation import LeagueConfig, ResultsFileError, evaluate, evaluate_events, load_results, render_table

START = "<!-- rating_eval:start -->"
END = "<!-- rating_eval:end -->"
PLACEHOLDER = "EVAL_TABLE"

QUICK_LEAGUE = LeagueConfig(
    initial_players=12, new_players_per_season=3, seasons=2, events_per_season=3,
    field_min=8, field_max=10, rounds_min=3, rounds_max=3,
)


def replace_section(text: str, section: str) -> str:
    """``text`` with the part between the markers replaced by ``section``. Without markers, a line
    ``EVAL_TABLE`` (the doc's placeholder) becomes the marked section, else the section is appended.
    Raises ValueError for a lone or misordered marker."""
    body = f"{START}\n{section.rstrip()}\n{END}"
    has_start, has_end = START in text, END in text
    if not has_start and not has_end:
        lines = text.split("\n")
        if PLACEHOLDER in lines:
            i = lines.index(PLACEHOLDER)
            return "\n".join(lines[:i] + [body] + lines[i + 1:])
        return text.rstrip("\n") + "\n\n" + body + "\n"
    if has_start != has_end or text.index(START) > text.index(END):
        raise ValueError(f"one of the markers {START} / {END} is missing or they are in the wrong order")
    head = text[: text.index(START)]
    tail = text[text.index(END) + len(END):]
    return head + body + tail


class Command(BaseCommand):
    help = (
        "Evaluate the federation's rating against Elo and Glicko-2 on a simulated league or on a results file "
        "(--results); print the table and a JSON line."
    )

    def add_arguments(self, parser):
        parser.add_argument("--results", default=None, metavar="FILE",
                            help="CSV (or .csv.gz) of recorded sets: date,event,first,second,first_stones,second_stones")
        parser.add_argument("--tune-fraction", type=float, default=0.6,
                            help="with --results: share of the sets (in time order) used for tuning")
        parser.add_argument("--burn-in", type=float, default=0.1,
                            help="with --results: share of the first sets rated but never scored")
        parser.add_argument("--seed", type=int, default=1, help="seed of the league, the search and the bootstrap")
        parser.add_argument("--quick", action="store_true", help="small league and budget (seconds)")
        parser.add_argument("--budget", type=int, default=None, help="parameter sets tried per system")
        parser.add_argument("--bootstrap", type=int, default=None, help="bootstrap resamples")
        parser.add_argument("--docs", default=None,
                            help="markdown file whose marked section receives the table (default for the "
                                 "simulation: docs/ratings.md; with --results only when given)")
        parser.add_argument("--no-docs", action="store_true", help="do not write the table into a file")

    def handle(self, *args, seed: int, quick: bool, budget, bootstrap, docs: str, no_docs: bool, **options):
        def given(value, default):
            return default if value is None else value

        if options.get("results"):
            return self._results(options, seed=seed, quick=quick, budget=given(budget, 4 if quick else 24),
                                 bootstrap=given(bootstrap, 200 if quick else 2000),
                                 docs=docs, no_docs=no_docs)

        if quick:
            kwargs = {"budget": given(budget, 2), "bootstrap": given(bootstrap, 200), "config": QUICK_LEAGUE,
                      "ablation": False}
        else:
            kwargs = {"budget": given(budget, 24), "bootstrap": given(bootstrap, 2000)}
        if kwargs["budget"] < 1 or kwargs["bootstrap"] < 1:
            raise CommandError("--budget and --bootstrap must be at least 1", returncode=2)
        if docs is None:
            docs = str(Path(settings.BASE_DIR) / "docs" / "ratings.md")
        path = None if no_docs else Path(docs)
        if path is not None and self._read(path) is None:  # checked before the run: fail fast
            self.stderr.write(f"{path} does not exist: the table will not be written")
            path = None
        try:
            ev = evaluate(seed, progress=lambda msg: self.stderr.write(msg), **kwargs)
        except ValueError as exc:
            raise CommandError(str(exc), returncode=2) from None
        self._report(ev, path, "python manage.py rating_eval --seed %d%s" % (seed, " --quick" if quick else ""))

    def _results(self, options, *, seed, quick, budget, bootstrap, docs, no_docs) -> None:
        if budget < 1 or bootstrap < 1:
            raise CommandError("--budget and --bootstrap must be at least 1", returncode=2)
        path = None if (no_docs or not docs) else Path(docs)
        if path is not None and self._read(path) is None:
            raise CommandError(f"{path} does not exist", returncode=2)
        try:
            data = load_results(options["results"])
        except ResultsFileError as exc:
            raise CommandError(str(exc), returncode=2) from None
        self.stderr.write(
            f"{data.source}: {data.rows} sets, {data.players} players, {len(data.events)} events on {data.dates} dates"
        )
        try:
            ev = evaluate_events(
                data.events, seed=seed, budget=budget, bootstrap=bootstrap, burn_in=options["burn_in"],
                tune_fraction=options["tune_fraction"], progress=lambda msg: self.stderr.write(msg), source=data.source,
            )
        except ValueError as exc:
            raise CommandError(str(exc), returncode=2) from None
        self._report(ev, path, f"python manage.py rating_eval --results {data.source} --seed {seed}")

    def _report(self, ev, path: Path | None, command: str) -> None:
        """Print the table, write it into ``path``'s marked section (when given), print the JSON line last."""
        table = render_table(ev)
        summary = ev.summary()
        self.stdout.write(table)
        if path is not None:
            section = (
                f"Generated by `{command}` ({ev.seconds['total']:.0f} s); do not edit by hand.\n\n{table}\n"
                f"```json\n{json.dumps(summary)}\n```\n"
            )
            text = self._read(path)  # again: the file may have been edited during the run
            if text is not None:
                self._write(path, replace_section(text, section))
                self.stderr.write(f"wrote the table into {path}")
        self.stdout.write(json.dumps(summary))

    def _read(self, path: Path) -> str | None:
        """The file's text (None if it does not exist); its markers are checked (CommandError, status 2)."""
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror}", returncode=2) from None
        try:
            replace_section(text, "")
        except ValueError as exc:
            raise CommandError(f"{path}: {exc}", returncode=2) from None
        return text

    def _write(self, path: Path, text: str) -> None:
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror}", returncode=2) from None
