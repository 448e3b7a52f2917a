"""Every write to tournaments goes through one of these functions.

Style: ``<entity>_<action>``, keyword-only, ``@transaction.atomic`` — a refusal raises a
:class:`federation.errors.ApplicationError` and nothing is half-saved. The pure cores do the
thinking: ``games.engine`` (set and match results), ``tournaments.pairing`` (pairings),
``tournaments.standings`` (tie-breaks).

This module holds the tournament itself (create, edit, delete, restore, standings publish) and what every
write shares (:func:`audited`, :func:`tournament_touch`, reasons); the capabilities have their own packages:
:mod:`tournaments.entries.services`, :mod:`tournaments.rounds.services`, :mod:`tournaments.results.services`.
"""
from __future__ import annotations

import functools
from decimal import Decimal
from collections.abc import Callable, Sequence

from django.db import connection, transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from federation import roles
from federation.audit import audit_context
from federation.errors import Conflict, PermissionDenied, ValidationFailed
from federation.validators import clean_reason, first_control_character
from tournaments import access, caching, signals
from tournaments.knockout import settings as knockout_settings
from tournaments.lots import draw as lot_rules
from tournaments.models import Lot, Round, Tournament
from tournaments.standings import TIEBREAKS

ONE = Decimal("1")
HALF = Decimal("0.5")
ZERO = Decimal("0")


# --------------------------------------------------------------------------------------------
# History and versions
# --------------------------------------------------------------------------------------------


def _tournament_id_in(kwargs: dict) -> int | None:
    """The tournament a service call is about, from its keyword arguments (no query)."""
    for key in ("tournament", "round", "match", "entry", "pair"):
        obj = kwargs.get(key)
        if obj is None:
            continue
        if key == "tournament":
            return obj.pk
        if key in ("round", "entry", "pair"):
            return obj.tournament_id
        if key == "match":
            return obj.round.tournament_id
    return None


def audited(action: str):
    """Run the decorated service as one audited action (:func:`federation.audit.audit_context`):
    every history row it writes carries ``action``, the ``user`` (or ``created_by``) and ``reason``
    keyword arguments, and the tournament."""

    def decorate(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            if kwargs.get("reason"):
                kwargs["reason"] = check_reason_text(kwargs["reason"])
            user = kwargs.get("user") or kwargs.get("created_by")
            with audit_context(action=action, user=user, reason=kwargs.get("reason") or "",
                               tournament_id=_tournament_id_in(kwargs)):
                return func(*args, **kwargs)

        return wrapper

    return decorate


def tournament_touch(tournament: Tournament, *, standings: bool | Callable[[], bool] = True) -> int:
    """Bump ``tournament.version`` atomically in the database (``version = version + 1``: concurrent
    writers never lose a bump) and return the new value, also set on ``tournament``. Every cached
    output (PDFs, standings, live round) is keyed on it. One ``UPDATE … RETURNING`` statement.

    ``standings`` (default true): bump ``standings_version`` too — the key of the public standings and
    crosstable. Only a result in a round not closed yet, which they do not count, leaves it, so a hall
    of referees entering results does not empty the public standings' cache with every board. False
    still bumps it when the row's ``standings_version`` is no longer the one ``tournament`` holds: a
    write that changed the standings (a round close) committed after ``tournament`` was read, and what
    was cached under its version may lack this write (so :func:`match_result_enter` reads the round's
    status and the tournament in the statement that locks the match). A callable is asked *after*
    ``version`` was bumped, i.e. once this transaction holds the tournament row's lock: a concurrent
    round close (which bumps both under the same lock) has then either committed — the callable sees
    the round closed — or will commit after this write (two or three statements)."""
    standings_before = tournament.standings_version
    if callable(standings):
        version, standings_version = _tournament_versions_bump(tournament, standings=False, seen=None)
        if standings():
            version, standings_version = _tournament_versions_bump(tournament, standings=True, seen=None, version=False)
    else:
        version, standings_version = _tournament_versions_bump(
            tournament, standings=standings, seen=tournament.standings_version
        )
    # the finished public pages (federation/pagecache.py): now, and again when this transaction commits
    caching.pages_written(tournament.slug, standings=standings_version != standings_before)
    if tournament.qualified_from_id and not tournament.qualifiers and tournament.system != Tournament.System.SWISS:
        # a play-off (tournaments.knockout.playoffs): the standings of the event whose tie it breaks follow it
        tournaments_touch([tournament.qualified_from_id])
    tournament.version, tournament.standings_version = version, standings_version
    # the instance now holds a version of a transaction that may yet roll back: tournaments.caching
    # reads the committed one from the database instead
    tournament._version_written = True
    return tournament.version


def _tournament_versions_bump(tournament: Tournament, *, standings: bool, seen: int | None,
                              version: bool = True) -> tuple[int, int]:
    """``UPDATE`` the tournament's row: ``version + 1`` (unless ``version`` is false), ``standings_version + 1``
    when ``standings`` — or when it is not ``seen`` (None: never) — and return the new ``(version,
    standings_version)``; with ``RETURNING`` where the database has it (PostgreSQL, SQLite ≥ 3.35), else a
    ``SELECT`` after."""
    qn = connection.ops.quote_name
    v, sv = qn("version"), qn("standings_version")
    sets, params = [], []
    if version:
        sets.append(f"{v} = {v} + 1")
    if standings:
        sets.append(f"{sv} = {sv} + 1")
    elif seen is not None:
        sets.append(f"{sv} = {sv} + CASE WHEN {sv} <> %s THEN 1 ELSE 0 END")
        params.append(seen)
    sql = f"UPDATE {qn(Tournament._meta.db_table)} SET {', '.join(sets)} WHERE {qn(Tournament._meta.pk.column)} = %s"
    params.append(tournament.pk)
    returning = connection.features.can_return_rows_from_bulk_insert  # i.e. the database speaks RETURNING
    with connection.cursor() as cursor:
        cursor.execute(sql + (f" RETURNING {v}, {sv}" if returning else ""), params)
        row = cursor.fetchone() if returning else None
    if row is None:
        row = Tournament.objects.filter(pk=tournament.pk).values_list("version", "standings_version").get()
    return int(row[0]), int(row[1])


def tournaments_touch(ids) -> None:
    """Bump ``version`` and ``standings_version`` of the tournaments ``ids`` (``version = version + 1``),
    for writes made outside the tournament's own services (the admin, player and club edits): every
    cached output of those tournaments is keyed on them (tournaments/caching.py)."""
    ids = {i for i in ids if i is not None}
    if ids:
        Tournament.objects.filter(pk__in=ids).update(
            version=F("version") + 1, standings_version=F("standings_version") + 1
        )
        for slug in Tournament.objects.filter(pk__in=ids).values_list("slug", flat=True):
            caching.pages_written(slug)


def check_reason_text(reason: str, *, field: str = "reason") -> str:
    """A reason as stored in the history (:func:`federation.validators.clean_reason`): stripped, at most
    500 characters, no control characters but line breaks and tabs, no bidirectional overrides."""
    return clean_reason(reason)


def _reason(reason: str, *, field: str = "reason", message: str | None = None) -> str:
    text = check_reason_text(reason, field=field)
    if not text:
        raise ValidationFailed(message or _("Say why (the reason is recorded in the history)."), field=field)
    return text


# --------------------------------------------------------------------------------------------
# Tournaments and entries
# --------------------------------------------------------------------------------------------


def unique_slug(name: str, *, model=Tournament) -> str:
    """A slug of ``name`` (Turkish letters transliterated) not used yet: ``spring-open-2011``, ``…-2``."""
    base = slugify(name.translate(str.maketrans("çğıöşüÇĞİÖŞÜ", "cgiosuCGIOSU")))[:70] or "turnuva"
    slug, n = base, 1
    while model.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _check_tiebreaks(keys: Sequence[str]) -> list[str]:
    repeated = [k for i, k in enumerate(keys) if k in keys[:i]]
    if repeated:
        raise ValidationFailed(_("Tie-break %(key)s is listed twice.") % {"key": repeated[0]}, field="tiebreaks")
    unknown = [k for k in keys if k not in TIEBREAKS]
    if unknown:
        raise ValidationFailed(
            _("Unknown tie-break %(key)s; valid keys: %(valid)s")
            % {"key": unknown[0], "valid": ", ".join(sorted(TIEBREAKS))},
            field="tiebreaks",
        )
    return list(keys)


@audited("tournament.create")
@transaction.atomic
def tournament_create(
    *,
    name: str,
    rounds_total: int | None = None,
    system: str = Tournament.System.SWISS,
    start_date=None,
    end_date=None,
    city: str = "",
    venue: str = "",
    sets_per_match: int = 3,
    variant: str = Tournament.Variant.FEDERATION,
    tiebreaks: Sequence[str] | None = None,
    double_round_robin: bool = False,
    created_by=None,
    slug: str | None = None,
    acceleration: str = Tournament.Acceleration.NONE,
    tiebreak_rules: str = Tournament.TiebreakRules.AUTO,
    second_cycle_swap: bool = True,
    knockout_sets=None,
    third_place_match: bool = False,
    level_match_rule: str = Tournament.LevelMatchRule.DECIDERS,
    max_deciders: int = 0,
    qualified_from: Tournament | None = None,
    qualifiers: int | None = None,
) -> Tournament:
    """Create a tournament in status ``draft``.

    A knockout (``system="knockout"``, issue 14) takes ``knockout_sets`` (planned sets per round, round 1
    first; blank: ``sets_per_match``), ``third_place_match``, ``level_match_rule`` and ``max_deciders``
    (RULES.md "Knockout matches"), and for a final stage ``qualified_from`` and ``qualifiers`` (the top
    players of that stage's final standings); see :func:`tournaments.knockout.settings.clean_settings`. Its
    ``rounds_total`` follows from the bracket and need not be given: a final stage's from its qualifiers, else
    the rounds its sets per round name (1 without them) until round 1 is paired sets it from the players
    (:func:`tournaments.knockout.settings.derived_rounds`); a number given is replaced. Other systems need
    ``rounds_total``.

    ``acceleration``: ``none`` or ``baku`` (FIDE C.04.5.1); ``tiebreak_rules``: ``auto`` (by the
    event's dates), ``2023`` or ``2026`` (the C.07 text the standings follow); ``second_cycle_swap``:
    see :attr:`Tournament.second_cycle_swap`. Round 1's coin toss is committed at once (a
    :class:`~tournaments.models.Lot` whose SHA-256 commitment the lots page shows; :mod:`tournaments.lots`),
    except for a knockout, which tosses per match.
    Raises ValidationFailed for an even ``sets_per_match`` (RULES.md: odd, 3 by default), rounds
    outside 1..99, end before start, an unknown tie-break key or an unknown choice.
    """
    if created_by is not None:
        access.require(access.can_create_tournament(created_by), _("Only organisers can create tournaments."))
    if not name or not name.strip():
        raise ValidationFailed(_("A tournament needs a name."), field="name")
    if sets_per_match not in (1, 3, 5, 7):
        raise ValidationFailed(_("Sets per match must be odd (1, 3, 5 or 7)."), field="sets_per_match")
    if system == Tournament.System.KNOCKOUT and rounds_total in (None, ""):
        rounds_total = 1  # follows from the bracket (below, or when round 1 is paired)
    if rounds_total in (None, ""):
        raise ValidationFailed(_("Say how many rounds the tournament has."), field="rounds_total")
    if not 1 <= int(rounds_total) <= 99:
        raise ValidationFailed(_("The number of rounds must be between 1 and 99."), field="rounds_total")
    if start_date and end_date and end_date < start_date:
        raise ValidationFailed(_("The end date is before the start date."), field="end_date")
    if system not in Tournament.System.values:
        raise ValidationFailed(_("Unknown pairing system %(s)s.") % {"s": system}, field="system")
    tiebreaks = _check_tiebreaks(tiebreaks if tiebreaks is not None else Tournament._meta.get_field("tiebreaks").default())
    acceleration = _check_acceleration(acceleration)
    tiebreak_rules = _check_tiebreak_rules(tiebreak_rules)
    ko = knockout_settings.clean_settings(
        system=system, knockout_sets=knockout_sets, third_place_match=third_place_match,
        level_match_rule=level_match_rule, max_deciders=max_deciders, qualified_from=qualified_from,
        qualifiers=qualifiers,
    )
    if system == Tournament.System.KNOCKOUT:
        rounds_total = knockout_settings.derived_rounds(qualifiers=ko.get("qualifiers"),
                                                        knockout_sets=ko.get("knockout_sets"))
    tournament = Tournament.objects.create(
        slug=slug or unique_slug(name),
        name=name.strip(),
        rounds_total=rounds_total,
        system=system,
        start_date=start_date,
        end_date=end_date,
        city=city,
        venue=venue,
        sets_per_match=sets_per_match,
        variant=variant,
        tiebreaks=tiebreaks,
        double_round_robin=double_round_robin,
        acceleration=acceleration,
        tiebreak_rules=tiebreak_rules,
        second_cycle_swap=bool(second_cycle_swap),
        created_by=created_by if getattr(created_by, "is_authenticated", False) else None,
        **ko,
    )
    if system != Tournament.System.KNOCKOUT:  # round 1's coin toss is committed now, drawn when pairing
        secret = lot_rules.new_secret()
        Lot.objects.create(tournament=tournament, purpose=Lot.Purpose.COIN_TOSS, context=lot_rules.COIN_TOSS_CONTEXT,
                           rule=lot_rules.COIN, commitment=lot_rules.commitment(secret), secret=secret,
                           committed_at=timezone.now())
    return tournament


def tournament_update_tiebreaks(*, tournament: Tournament, tiebreaks: Sequence[str], user=None) -> Tournament:
    """Set the ordered tie-break keys (a tournament setting); see :func:`tournament_update`."""
    return tournament_update(tournament=tournament, user=user, tiebreaks=tiebreaks)


#: Settings an organiser may edit (:func:`tournament_update`).
EDITABLE_SETTINGS = (
    "name", "start_date", "end_date", "venue", "city", "chief_arbiter", "time_control", "tiebreaks", "rounds_total",
    "acceleration", "tiebreak_rules", "second_cycle_swap",
    # knockout sections (tournaments.knockout.settings.clean_changes)
    "knockout_sets", "third_place_match", "level_match_rule", "max_deciders",
)


def _check_acceleration(value, *, current: str | None = None) -> str:
    """``none`` or ``baku``; ``manual`` (virtual points per player) only as an imported file set it."""
    value = str(value or "")
    if value not in Tournament.Acceleration.values:
        raise ValidationFailed(
            _("Unknown accelerated pairing %(v)s; valid: none, baku.") % {"v": value}, field="acceleration"
        )
    if value == Tournament.Acceleration.MANUAL and current != Tournament.Acceleration.MANUAL:
        raise ValidationFailed(
            _("Virtual points per player come only from an imported TRF file (XXA lines); choose none or Baku."),
            field="acceleration",
        )
    return value


def _check_tiebreak_rules(value) -> str:
    value = str(value or "")
    if value not in Tournament.TiebreakRules.values:
        raise ValidationFailed(
            _("Unknown tie-break rules text %(v)s; valid: auto, 2023, 2026.") % {"v": value}, field="tiebreak_rules"
        )
    return value


def _swap_changes_paired_rounds(tournament: Tournament) -> int | None:
    """The first paired round of a double round robin whose pairing depends on
    ``second_cycle_swap`` (None when no paired round does)."""
    from tournaments.pairing import berger_round

    if tournament.system != Tournament.System.ROUND_ROBIN or not tournament.double_round_robin:
        return None
    n = tournament.entries.count()
    if n < 2:
        return None
    for number in tournament.rounds.order_by("number").values_list("number", flat=True):
        try:
            on = berger_round(n, number, double=True, second_cycle_swap=True)
            off = berger_round(n, number, double=True, second_cycle_swap=False)
        except ValueError:
            continue
        if on != off:
            return number
    return None


_TEXT_LIMITS = {"name": 160, "venue": 160, "city": 60, "chief_arbiter": 120, "time_control": 120}


def _clean_text(value, field: str, limit: int, *, required: bool = False) -> str:
    text = "" if value is None else str(value)
    if first_control_character(text) is not None:
        raise ValidationFailed(_("Control characters (line breaks, NUL) are not allowed here."), field=field)
    text = text.strip()
    if required and not text:
        raise ValidationFailed(_("This field is required."), field=field)
    if len(text) > limit:
        raise ValidationFailed(_("At most %(n)d characters.") % {"n": limit}, field=field)
    return text


@audited("tournament.edit")
@transaction.atomic
def tournament_update(*, tournament: Tournament, user=None, reason: str = "", **changes) -> Tournament:
    """Edit a tournament's settings: any of :data:`EDITABLE_SETTINGS` as keyword arguments.

    Tie-breaks are announced before the event (FIDE C.07 §1): organisers change them until round 1 is
    paired, federation staff later too. ``rounds_total`` of a Swiss may not drop below the rounds
    already paired (a round robin's follows from its field, C.05). ``acceleration`` (``none`` /
    ``baku``; C.04.5.1 is decided before the first round) only until round 1 is paired;
    ``tiebreak_rules`` (``auto`` / ``2023`` / ``2026``) at any time; ``second_cycle_swap`` until a
    round whose pairing it decides is paired. Recorded in the history with ``reason`` (optional).
    Raises ValidationFailed naming the field, PermissionDenied, Conflict.
    """
    if user is not None:
        access.require(access.can_organise(user, tournament), _("Only the organiser can edit the tournament."))
    unknown = sorted(set(changes) - set(EDITABLE_SETTINGS))
    if unknown:
        raise ValidationFailed(_("%(f)s cannot be edited.") % {"f": unknown[0]}, field=unknown[0])
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    paired = tournament.rounds.count()
    for field, limit in _TEXT_LIMITS.items():
        if field in changes:
            changes[field] = _clean_text(changes[field], field, limit, required=field == "name")
    if "tiebreaks" in changes:
        keys = _check_tiebreaks(list(changes["tiebreaks"] or []))
        if keys != list(tournament.tiebreaks or []) and paired and not roles.is_staff(user):
            raise Conflict(
                _("Tie-breaks are fixed once round 1 is paired (FIDE C.07: announced before the event); "
                  "federation staff can still change them."),
                field="tiebreaks",
            )
        changes["tiebreaks"] = keys
    if "rounds_total" in changes:
        try:
            n = int(changes["rounds_total"])
        except (TypeError, ValueError):
            raise ValidationFailed(_("The number of rounds must be between 1 and 99."), field="rounds_total") from None
        if n != tournament.rounds_total and tournament.system == Tournament.System.ROUND_ROBIN and paired:
            raise Conflict(_("A round robin's rounds follow from its players (C.05)."), field="rounds_total")
        if n != tournament.rounds_total and tournament.system == Tournament.System.KNOCKOUT and paired:
            raise Conflict(_("A knockout's rounds follow from its bracket."), field="rounds_total")
        if not 1 <= n <= 99:
            raise ValidationFailed(_("The number of rounds must be between 1 and 99."), field="rounds_total")
        if n < paired:
            raise Conflict(
                _("%(p)d rounds are already paired; the event cannot have fewer.") % {"p": paired}, field="rounds_total"
            )
        changes["rounds_total"] = n
    if "acceleration" in changes:
        value = _check_acceleration(changes["acceleration"], current=tournament.acceleration)
        if value != tournament.acceleration and paired:
            raise Conflict(
                _("Accelerated pairing is decided before round 1 is paired (FIDE C.04.5.1); round 1 is already "
                  "paired."),
                field="acceleration",
            )
        changes["acceleration"] = value
    if "tiebreak_rules" in changes:
        changes["tiebreak_rules"] = _check_tiebreak_rules(changes["tiebreak_rules"])
    if "second_cycle_swap" in changes:
        value = changes["second_cycle_swap"]
        if not isinstance(value, bool):
            raise ValidationFailed(_("Choose yes or no."), field="second_cycle_swap")
        if value != tournament.second_cycle_swap:
            decided = _swap_changes_paired_rounds(tournament)
            if decided is not None:
                raise Conflict(
                    _("Round %(n)d is already paired and this choice decides its pairing; it can be changed only "
                      "before that round is paired.") % {"n": decided},
                    field="second_cycle_swap",
                )
    if any(f in changes for f in ("knockout_sets", "third_place_match", "level_match_rule", "max_deciders")):
        changes = knockout_settings.clean_changes(tournament, changes)
    changes = {f: v for f, v in changes.items() if f not in (
        "acceleration", "tiebreak_rules", "second_cycle_swap", "knockout_sets", "third_place_match",
        "level_match_rule", "max_deciders",
    ) or v != getattr(tournament, f)}
    start = changes.get("start_date", tournament.start_date)
    end = changes.get("end_date", tournament.end_date)
    if start and end and end < start:
        raise ValidationFailed(_("The end date is before the start date."), field="end_date")
    if not changes:
        return tournament
    for field, value in changes.items():
        setattr(tournament, field, value)
    rerate = False
    if (
        "rounds_total" in changes and tournament.status == Tournament.Status.FINISHED
        and tournament.rounds.filter(status=Round.Status.CLOSED).count() < tournament.rounds_total
    ):
        tournament.status = Tournament.Status.RUNNING  # more rounds to play: no longer final
        rerate = signals.tournament_was_rated(tournament)
    tournament.save(update_fields=[*changes, "status"])
    tournament_touch(tournament)
    if rerate:
        signals.rerate_on_commit(tournament)
    return tournament


@audited("tournament.delete")
@transaction.atomic
def tournament_delete(*, tournament: Tournament, user=None, reason: str = "", confirm: str = "") -> Tournament | None:
    """Delete a tournament (federation staff only; ``confirm`` must repeat its slug).

    A tournament whose results are rated is **archived** instead (hidden from everyone but staff, no
    longer rated; :func:`tournament_restore` brings it back) and the rating is run again from it, so
    its players' ratings no longer count it. Any other tournament is destroyed with its entries,
    rounds and results (players and clubs stay); the history keeps a snapshot of every row.
    Returns the archived tournament, or None when it was destroyed.
    """
    if user is not None and not roles.is_staff(user):
        raise PermissionDenied(_("Only federation staff can delete tournaments."))
    reason = _reason(reason)
    if confirm != tournament.slug:
        raise ValidationFailed(
            _("Type the tournament's short name (%(slug)s) to confirm.") % {"slug": tournament.slug}, field="confirm"
        )
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if signals.tournament_was_rated(tournament):
        tournament.archived_at = timezone.now()
        tournament.save(update_fields=["archived_at"])
        tournament_touch(tournament)
        signals.rerate_on_commit(tournament)
        return tournament
    for rnd in tournament.rounds.order_by("-number"):
        rnd.matches.all().delete()  # matches restrict deleting entries: remove them first
    tournament.delete()
    return None


@audited("tournament.restore")
@transaction.atomic
def tournament_restore(*, tournament: Tournament, user=None, reason: str = "") -> Tournament:
    """Bring an archived tournament back (staff only); it is rated again if it was final."""
    if user is not None and not roles.is_staff(user):
        raise PermissionDenied(_("Only federation staff can restore tournaments."))
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.archived_at is None:
        raise Conflict(_("The tournament is not archived."))
    tournament.archived_at = None
    tournament.save(update_fields=["archived_at"])
    tournament_touch(tournament)
    signals.rerate_on_commit(tournament)
    return tournament


# --------------------------------------------------------------------------------------------
# Rounds
# --------------------------------------------------------------------------------------------


def coin_toss_outcome(seed: str) -> str:
    """The colour of the top seed on board 1 decided by ``seed``: ``"w"`` or ``"b"``.

    The first byte of SHA-256(seed) decides: even → white. Anyone can re-check a published seed
    (the ``coin`` rule of the drawing of lots: :func:`tournaments.lots.draw.coin`).
    """
    return lot_rules.coin(seed)


# --------------------------------------------------------------------------------------------
# Standings
# --------------------------------------------------------------------------------------------


@audited("standings.publish")
@transaction.atomic
def standings_publish(*, tournament: Tournament, user=None) -> Tournament:
    """Publish the standings after the last closed round (the public sees those rounds; a round still
    being played stays private until it is closed and the standings are published again). When every round is closed the
    tournament becomes ``finished`` and its final standings queue the rating run
    (:data:`tournaments.signals.rated_results_changed`: ratings rates this event and every later one)."""
    if user is not None:
        access.require(access.can_organise(user, tournament), _("Only the organiser can publish standings."))
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    closed = tournament.rounds.filter(status=Round.Status.CLOSED).count()
    if closed == 0:
        raise Conflict(_("Close at least one round before publishing standings."))
    tournament.standings_published_at = timezone.now()
    tournament.standings_round = tournament.rounds.filter(status=Round.Status.CLOSED).aggregate(m=Max("number"))["m"]
    if closed == tournament.rounds_total:
        tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["standings_published_at", "standings_round", "status"])
    tournament_touch(tournament)
    if tournament.status == Tournament.Status.FINISHED:
        # final standings: rate this event and every later one once the transaction is committed
        signals.rerate_on_commit(tournament)
    return tournament
