"""``python manage.py rating_tune [--seed N] [--budget N] [--bootstrap N] [--save LABEL] [--quick]``.

Tunes the federation's rating on the federation's own recorded sets (docs/ratings.md, "Tuning and
adoption"): the rated events are built from the database exactly as a rating run builds them
(:func:`ratings.inputs.rating_inputs` of :func:`ratings.inputs.rateable_tournaments`, each
player's initial rating as the run takes it, read only: no row is written), then
:func:`ratings.evaluation.evaluate_events` tunes the federation's rating and the baselines (Elo, Glicko-2) on the
earlier events and scores them on the later ones (the same split and report as
``rating_eval --results``). The set in force (or the shipped defaults) is scored on the same split, so
the report says what adopting the tuned set would change.

Prints the markdown table, then as its LAST line one JSON object: the evaluation's summary plus
``events``, ``total_sets`` (``sets`` is the held-out sets), ``date_range`` ([first, last] rating period),
``held_out_from`` (first held-out date), ``params`` (the tuned parameters of the federation's system),
``current`` (``{"id", "label", "params", "logloss"}``: the set in force scored on the same split; id and
label null for the shipped defaults), ``seed``, ``budget``, ``bootstrap``. Log loss in nats per set.

``--save LABEL`` stores the tuned parameters of the federation's rating as a :class:`~ratings.models.RatingParameterSet`
with that JSON as its report; it is NOT adopted (staff adopt it on ``/ratings/parameters/``).
``--quick``: a small budget and bootstrap (seconds; smoke runs and tests). Rated sets on fewer than
:data:`MIN_DATES` dates, or too few to split: CommandError (status 2) saying how many are needed.
"""
from __future__ import annotations

import json
import math

from django.core.management.base import BaseCommand, CommandError

BURN_IN = 0.1
TUNE_FRACTION = 0.6
"""The split of ``rating_eval --results``: burn-in, then tuning up to 60% of the rated sets (by date)."""


def federation_events() -> tuple[list, dict[int, float]]:
    """The federation's rated events (engine :class:`~ratings.engine.Event`, in rating order) and each
    player's initial rating (player id -> rating points; unrated players left out), read as a rating
    run reads them but without writing :class:`~ratings.models.InitialRating` rows: a player the
    national rating has not seen yet starts from ``Player.rating``."""
    from federation.models import Player
    from ratings.inputs import players_in, rateable_tournaments, rating_inputs
    from ratings.models import InitialRating

    inputs = rating_inputs(rateable_tournaments())
    player_ids = players_in(inputs)
    known = dict(InitialRating.objects.filter(player_id__in=player_ids).values_list("player_id", "rating"))
    missing = [pid for pid in player_ids if pid not in known]
    if missing:
        known.update(Player.objects.filter(pk__in=missing).values_list("pk", "rating"))
    initial = {pid: float(r) for pid, r in known.items() if r > 0}
    return [i.event for i in inputs], initial


MIN_DATES = 3
"""Dates with rated sets needed at least: a burn-in, a tuning part and a held-out part (date groups)."""


def held_out_logloss(events, params: dict | None, *, burn: int, split: int, initial) -> float:
    """Held-out log loss (nats per set) of the federation's system with ``params`` on the split of an
    evaluation: its prediction layer is fitted on the predictions of events ``[burn, split)``, as the
    tuning fits every candidate's, and it is scored on the sets of events ``[split, ...)``."""
    from ratings.engine import federation_system
    from ratings.evaluation import walk_forward
    from ratings.evaluation.evaluate import fit_prediction_layer

    system = federation_system(params)
    layer = fit_prediction_layer([p for p in walk_forward(events, system, stop=split, initial=initial) if p.event >= burn])
    held = [p for p in walk_forward(events, system, initial=initial) if p.event >= split]
    if not held:
        return math.nan
    return math.fsum(-math.log(max(layer.probabilities(p.expected)[p.outcome], 1e-12)) for p in held) / len(held)


class Command(BaseCommand):
    help = ("Tune the federation's rating on its own recorded sets: print the evaluation table and a JSON line; "
            "--save LABEL stores the tuned parameters as a candidate set (not adopted).")

    def add_arguments(self, parser):
        parser.add_argument("--seed", type=int, default=1, help="seed of the parameter search and the bootstrap")
        parser.add_argument("--budget", type=int, default=None, help="parameter sets tried per system (default 24)")
        parser.add_argument("--bootstrap", type=int, default=None, help="bootstrap resamples (default 2000)")
        parser.add_argument("--save", metavar="LABEL", default=None,
                            help="store the tuned margin parameters as a candidate set with this label (not adopted)")
        parser.add_argument("--quick", action="store_true", help="small budget and bootstrap (seconds)")

    def handle(self, *args, seed: int, budget, bootstrap, save, quick: bool, **options):
        from federation.errors import ValidationFailed
        from ratings.parameters import services as parameter_services

        budget = (2 if quick else 24) if budget is None else budget
        bootstrap = (200 if quick else 2000) if bootstrap is None else bootstrap
        if budget < 1 or bootstrap < 1:
            raise CommandError("--budget and --bootstrap must be at least 1", returncode=2)
        if save is not None:
            try:  # checked before the run: fail fast
                parameter_services._clean_label(save)
            except ValidationFailed as exc:
                raise CommandError(f"--save: {exc.message}", returncode=2) from None

        events, initial = federation_events()
        events = [e for e in events if any(s.rated for s in e.sets)]
        dates = len({e.date for e in events})
        if dates < MIN_DATES:
            raise CommandError(
                f"{len(events)} rated event(s) on {dates} date(s): the federation's sets must span at least {MIN_DATES} "
                "dates (rating periods) with rated sets to tune on the earlier ones and score the later ones",
                returncode=2,
            )
        current_row = self._current_row()
        current_params = current_row.params if current_row is not None else None

        from ratings.evaluation import evaluate_events, render_table

        try:
            evaluation = evaluate_events(
                events, seed=seed, budget=budget, burn_in=BURN_IN, tune_fraction=TUNE_FRACTION, bootstrap=bootstrap,
                initial=initial, systems=("margin", "elo", "glicko2"), progress=lambda msg: self.stderr.write(msg),
            )
        except ValueError as exc:
            raise CommandError(str(exc), returncode=2) from None
        tuned = dict(evaluation.systems["margin"].params)
        summary = evaluation.summary()
        report = dict(summary)
        split = evaluation.events - evaluation.held_out_events
        if current_params is None:  # the shipped defaults: scored by the evaluation already
            current_loss = summary["defaults"]["logloss"]["margin"]
        else:
            current_loss = held_out_logloss(events, current_params, burn=evaluation.burn_in_events, split=split,
                                            initial=initial)
        report.update(
            events=len(events),
            total_sets=sum(1 for e in events for s in e.sets if s.rated),
            date_range=[events[0].date.isoformat(), events[-1].date.isoformat()],
            held_out_from=str(events[split].date),
            params=tuned,
            current={
                "id": current_row.pk if current_row is not None else None,
                "label": current_row.label if current_row is not None else None,
                "params": current_params or {},
                "logloss": _round(current_loss),
            },
            seed=seed, budget=budget, bootstrap=bootstrap,
        )
        report = _finite(report)
        self.stdout.write(render_table(evaluation))
        if save is not None:
            row = parameter_services.rating_parameters_create(label=save, params=tuned, report=report, user=None)
            self.stderr.write(f"saved parameter set #{row.pk} {row.label!r} (not adopted; adopt it on /ratings/parameters/)")
        self.stdout.write(json.dumps(report))

    @staticmethod
    def _current_row():
        from ratings.engine import FEDERATION_SYSTEM
        from ratings.models import RatingParameterSet

        return RatingParameterSet.objects.filter(
            system=FEDERATION_SYSTEM, adopted_at__isnull=False, retired_at__isnull=True
        ).first()


def _round(x: float | None) -> float | None:
    return None if x is None or not math.isfinite(x) else round(x, 6)


def _finite(value):
    """``value`` with every NaN or infinity replaced by None (JSON has neither; PostgreSQL refuses them)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value
