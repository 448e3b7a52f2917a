"""Every write to tournaments goes through one of these functions.

Style: ``<entity>_<action>``, keyword-only, ``@transaction.atomic`` — a refusal raises a
:class:`federation.errors.ApplicationError` and nothing is half-saved. The pure cores do the
thinking: ``games.engine`` (set and match results), ``tournaments.pairing`` (pairings),
``tournaments.standings`` (tie-breaks).
"""
from __future__ import annotations

import functools
import hashlib
import secrets
from dataclasses import dataclass
from decimal import Decimal
from collections.abc import Callable, Sequence

from django.db import IntegrityError, OperationalError, connection, models, router, transaction
from django.db.models.deletion import Collector
from django.db.models import F, Max, Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

import games.engine as engine
from federation import roles
from federation.audit import audit_context, history_bulk_create
from federation.errors import Conflict, PermissionDenied, PreconditionRequired, ValidationFailed
from federation.models import Player
from federation.prepared import PreparedRead, delete_in, insert_rows, update_columns
from federation.validators import clean_reason, first_control_character
from tournaments import access, caching, races, signals
from tournaments.models import (
    Absence, CoinToss, Entry, ForbiddenPair, Match, PairingChange, Round, SetResult, Tournament,
)
from tournaments.pairing_adapter import pair_next_round
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
    if tournament.qualified_from_id and not tournament.qualifiers and tournament.system == Tournament.System.KNOCKOUT:
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
    rounds_total: int,
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
    players of that stage's final standings); see :func:`tournaments.knockout.services.clean_settings`. Its
    ``rounds_total`` follows from the bracket (set when round 1 is paired).

    ``acceleration``: ``none`` or ``baku`` (FIDE C.04.5.1); ``tiebreak_rules``: ``auto`` (by the
    event's dates), ``2023`` or ``2026`` (the C.07 text the standings follow); ``second_cycle_swap``:
    see :attr:`Tournament.second_cycle_swap`.
    Raises ValidationFailed for an even ``sets_per_match`` (RULES.md: odd, 3 by default), rounds
    outside 1..99, end before start, an unknown tie-break key or an unknown choice.
    """
    if created_by is not None:
        access.require(access.can_create_tournament(created_by), _("Only organisers can create tournaments."))
    if not name or not name.strip():
        raise ValidationFailed(_("A tournament needs a name."), field="name")
    if sets_per_match not in (1, 3, 5, 7):
        raise ValidationFailed(_("Sets per match must be odd (1, 3, 5 or 7)."), field="sets_per_match")
    if not 1 <= int(rounds_total) <= 99:
        raise ValidationFailed(_("The number of rounds must be between 1 and 99."), field="rounds_total")
    if start_date and end_date and end_date < start_date:
        raise ValidationFailed(_("The end date is before the start date."), field="end_date")
    if system not in Tournament.System.values:
        raise ValidationFailed(_("Unknown pairing system %(s)s.") % {"s": system}, field="system")
    tiebreaks = _check_tiebreaks(tiebreaks if tiebreaks is not None else Tournament._meta.get_field("tiebreaks").default())
    acceleration = _check_acceleration(acceleration)
    tiebreak_rules = _check_tiebreak_rules(tiebreak_rules)
    from tournaments.knockout import services as knockout

    ko = knockout.clean_settings(
        system=system, knockout_sets=knockout_sets, third_place_match=third_place_match,
        level_match_rule=level_match_rule, max_deciders=max_deciders, qualified_from=qualified_from,
        qualifiers=qualifiers,
    )
    if ko.get("qualifiers"):
        from tournaments.pairing import knockout_rounds

        rounds_total = knockout_rounds(ko["qualifiers"])
    return Tournament.objects.create(
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


def tournament_update_tiebreaks(*, tournament: Tournament, tiebreaks: Sequence[str], user=None) -> Tournament:
    """Set the ordered tie-break keys (a tournament setting); see :func:`tournament_update`."""
    return tournament_update(tournament=tournament, user=user, tiebreaks=tiebreaks)


#: Settings an organiser may edit (:func:`tournament_update`).
EDITABLE_SETTINGS = (
    "name", "start_date", "end_date", "venue", "city", "chief_arbiter", "time_control", "tiebreaks", "rounds_total",
    "acceleration", "tiebreak_rules", "second_cycle_swap",
    # knockout sections (tournaments.knockout.services.clean_changes)
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
        from tournaments.knockout import services as knockout

        changes = knockout.clean_changes(tournament, changes)
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


def _first_round_paired(tournament: Tournament) -> bool:
    return tournament.rounds.exclude(status=Round.Status.DRAFT).exists()


MISSED_ROUND_KINDS = ("zero", "half")
"""What a late entrant gets for each round played before they joined: a zero- or half-point bye
(FIDE C.04.2 / General Regulations: the organiser announces which)."""


def _unplayed_pairing(rnd: Round | None) -> bool:
    """True when ``rnd`` is paired or published but no game result is entered in it yet."""
    return (
        rnd is not None and rnd.status in (Round.Status.PAIRED, Round.Status.PUBLISHED)
        and not rnd.matches.filter(kind=Match.Kind.GAME, result_entered_at__isnull=False).exists()
    )


def _refuse_unplayed_pairing(rnd: Round, who: str, *, reinstating: bool = False) -> None:
    if reinstating:
        message = _("Round %(n)d is paired but not played yet, so %(p)s would be left out of it: delete the "
                    "pairing of round %(n)d, undo the withdrawal, then pair the round again.")
    else:
        message = _("Round %(n)d is paired but not played yet, so %(p)s would be left out of it: delete the pairing "
                    "of round %(n)d, add the player, then pair the round again.")
    raise Conflict(message % {"n": rnd.number, "p": who}, field="player", code="round_paired_not_played",
                   extra={"round": rnd.number})


def _give_missed_byes(*, entry: Entry, rounds, kind: str) -> list[int]:
    """A bye of ``kind`` (zero/half) for ``entry`` on a new board of each round in ``rounds`` where it
    has none. Returns the round numbers."""
    points = {"zero": ZERO, "half": HALF}[kind]
    done = []
    for rnd in rounds:
        if rnd.matches.filter(Q(white=entry) | Q(black=entry)).exists():
            continue
        board = (rnd.matches.aggregate(m=Max("board"))["m"] or 0) + 1
        Match.objects.create(round=rnd, board=board, kind=Match.Kind.BYE, bye_kind=kind, white=entry, white_points=points)
        done.append(rnd.number)
    return done


@audited("entry.add")
@transaction.atomic
def entry_add(*, tournament: Tournament, player: Player, user=None, missed_rounds: str = "zero",
              team_member: bool = False) -> Entry:
    """Enter ``player``; before round 1 starting numbers are re-sorted by rating (desc), then name
    (C.04.2 A.2); a late entry takes the next number.

    A late entrant gets a bye of ``missed_rounds`` (``"zero"`` or ``"half"``) in every round already
    played — never a silent absence. While the last round is paired but not played, the player is
    refused with code ``round_paired_not_played`` (delete that pairing, add, pair again).
    Raises Conflict when already entered, the event is finished or archived, the player is
    deactivated or merged, or a round robin has started, or the event is a team event (its players are
    entered as members of a team: :func:`tournaments.teams.services.team_member_add` passes ``team_member``);
    ValidationFailed for another ``missed_rounds``.
    """
    if user is not None:
        access.require(access.can_organise(user, tournament))
    if tournament.entries.filter(player=player).exists():
        raise Conflict(_("%(p)s is already entered.") % {"p": player.full_name}, field="player")
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict(_("The tournament is finished."), field="player")
    if not player.active or player.merged_into_id:
        raise Conflict(_("%(p)s is deactivated or merged into another record.") % {"p": player.full_name}, field="player")
    last_round = tournament.rounds.order_by("-number").first()
    late = last_round is not None
    if late and tournament.system == Tournament.System.ROUND_ROBIN:
        raise Conflict(_("A round robin cannot take late entries."), field="player")
    if late and tournament.system == Tournament.System.KNOCKOUT:
        raise Conflict(_("A knockout cannot take late entries: the bracket is drawn."), field="player")
    if tournament.format == Tournament.Format.TEAM and not team_member:
        raise Conflict(_("The players of a team event are entered as members of a team (the teams page)."),
                       field="player", code="team_event")
    if tournament.qualified_from_id:
        raise Conflict(
            _("The players of this final stage qualify from %(t)s; they are entered when round 1 is paired.")
            % {"t": tournament.qualified_from.name}, field="player",
        )
    if late:
        if missed_rounds not in MISSED_ROUND_KINDS:
            raise ValidationFailed(_("Missed rounds are zero- or half-point byes."), field="missed_rounds")
        if _unplayed_pairing(last_round):
            _refuse_unplayed_pairing(last_round, player.full_name)
    last = tournament.entries.aggregate(m=Max("start_no"))["m"] or 0
    # the rating as of now, from the database (a rating run may have changed it since `player` was loaded)
    rating = Player.objects.filter(pk=player.pk).values_list("rating", flat=True).get()
    entry = Entry.objects.create(tournament=tournament, player=player, start_no=last + 1, rating=rating)
    if late:
        _give_missed_byes(entry=entry, rounds=tournament.rounds.order_by("number"), kind=missed_rounds)
    else:
        entries_sort(tournament=tournament)
        entry.refresh_from_db()
    tournament_touch(tournament)
    return entry


@audited("bye.request")
@transaction.atomic
def entry_request_bye(*, entry: Entry, round_number: int, kind: str = "half", user=None) -> Absence:
    """Record a bye requested ahead for ``round_number`` (``half`` or ``zero``), before it is paired.
    ``full`` (1 point) and ``pab`` (a pairing-allocated bye assigned ahead, worth ``bye_points`` and
    counted as the player's PAB) are accepted too, as imported files record them.

    The player is left out of that round's pairing and gets the bye (C.04.2 pre-assigned byes).
    Raises Conflict when the round is already paired, ValidationFailed for a round outside the event.
    """
    tournament = entry.tournament
    if user is not None:
        access.require(access.can_organise(user, tournament))
    if kind not in Absence.Kind.values:
        raise ValidationFailed(_("A requested bye is half or zero."), field="kind")
    if tournament.system == Tournament.System.KNOCKOUT:
        raise Conflict(_("A knockout has no requested byes: a player who cannot play a match loses it by forfeit."))
    if not 1 <= int(round_number) <= tournament.rounds_total:
        raise ValidationFailed(
            _("Round must be between 1 and %(n)d.") % {"n": tournament.rounds_total}, field="round_number"
        )
    if tournament.rounds.filter(number=round_number).exists():
        raise Conflict(_("Round %(n)d is already paired.") % {"n": round_number}, field="round_number")
    absence, _created = Absence.objects.update_or_create(
        entry=entry, round_number=round_number,
        defaults={"kind": kind, "created_by": user if getattr(user, "is_authenticated", False) else None},
    )
    tournament_touch(tournament)
    return absence


@audited("bye.withdraw")
@transaction.atomic
def entry_bye_withdraw(*, entry: Entry, round_number: int, user=None, reason: str = "") -> None:
    """Withdraw a bye requested ahead for ``round_number`` (the player will be paired in it).

    Raises NotFound when there is no such request, Conflict when the round is already paired (delete
    its pairing first).
    """
    from federation.errors import NotFound

    tournament = entry.tournament
    if user is not None:
        access.require(access.can_organise(user, tournament))
    absence = Absence.objects.filter(entry=entry, round_number=round_number).first()
    if absence is None:
        raise NotFound(_("No bye is requested for round %(n)d.") % {"n": int(round_number)}, field="round_number")
    if tournament.rounds.filter(number=round_number).exists():
        raise Conflict(
            _("Round %(n)d is already paired; delete its pairing first.") % {"n": int(round_number)}, field="round_number"
        )
    absence.delete()
    tournament_touch(tournament)


@transaction.atomic
def entries_sort(*, tournament: Tournament) -> None:
    """Give starting numbers 1..n by rating (desc), then name, then federation id (C.04.2 A.2).

    Only the entries whose number changes are written, with one history row each (so the history's
    "before" of a later change is the number the entry really had)."""
    from simple_history.utils import bulk_update_with_history

    from federation.audit import current

    entries = list(tournament.entries.select_related("player"))
    entries.sort(key=lambda e: (-e.rating, e.player.last_name.casefold(), e.player.first_name.casefold(), e.player.federation_id))
    changed = [(i, e) for i, e in enumerate(entries, start=1) if e.start_no != i]
    if not changed:
        return
    tournament_touch(tournament)
    # two passes so the unique (tournament, start_no) constraint holds at every step
    for i, e in changed:
        Entry.objects.filter(pk=e.pk).update(start_no=10000 + i)
    for i, e in changed:
        e.start_no = i
    ctx = current()
    bulk_update_with_history(
        [e for _i, e in changed], Entry, ["start_no"],
        default_user=ctx.user if ctx else None, default_change_reason=(ctx.reason or None) if ctx else None,
        custom_historical_attrs={
            "audit_action": ctx.action if ctx else "entry.renumber",
            "audit_action_id": ctx.action_id if ctx else "",
            "audit_tournament_id": tournament.pk,
        },
    )


@audited("entry.withdraw")
@transaction.atomic
def entry_withdraw(*, entry: Entry, user=None, reason: str = "") -> Entry:
    """Withdraw ``entry`` from the following rounds (it is not paired any more). Conflict when it is
    withdrawn already; :func:`entry_reinstate` undoes it."""
    if user is not None:
        access.require(access.can_organise(user, entry.tournament))
    # the tournament first (house lock order, issue 23): tournament_touch below writes it
    Tournament.objects.select_for_update().filter(pk=entry.tournament_id).values_list("pk").first()
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.withdrawn:
        raise Conflict(_("%(p)s is already withdrawn.") % {"p": entry.player.full_name})
    last = entry.tournament.rounds.exclude(status=Round.Status.DRAFT).aggregate(m=Max("number"))["m"] or 0
    entry.withdrawn = True
    entry.withdrawn_after_round = last
    entry.save(update_fields=["withdrawn", "withdrawn_after_round"])
    tournament_touch(entry.tournament)
    return entry


@audited("entry.reinstate")
@transaction.atomic
def entry_reinstate(*, entry: Entry, user=None, reason: str = "") -> Entry:
    """Undo a withdrawal: the player is paired again from the next round. Rounds paired while they
    were withdrawn get a zero-point bye each (an explicit absence). While the last round is paired
    but not played, Conflict ``round_paired_not_played`` (delete that pairing first)."""
    tournament = entry.tournament
    if user is not None:
        access.require(access.can_organise(user, tournament))
    # the tournament first (house lock order, issue 23): byes are written in its rounds, then it is touched
    Tournament.objects.select_for_update().filter(pk=tournament.pk).values_list("pk").first()
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if not entry.withdrawn:
        raise Conflict(_("%(p)s is not withdrawn.") % {"p": entry.player.full_name})
    last_round = tournament.rounds.order_by("-number").first()
    after = entry.withdrawn_after_round or 0
    if last_round is not None and last_round.number > after and _unplayed_pairing(last_round):
        _refuse_unplayed_pairing(last_round, entry.player.full_name, reinstating=True)
    _give_missed_byes(entry=entry, rounds=tournament.rounds.filter(number__gt=after).order_by("number"), kind="zero")
    entry.withdrawn = False
    entry.withdrawn_after_round = None
    entry.save(update_fields=["withdrawn", "withdrawn_after_round"])
    tournament_touch(tournament)
    return entry


# --------------------------------------------------------------------------------------------
# Rounds
# --------------------------------------------------------------------------------------------


def coin_toss_outcome(seed: str) -> str:
    """The colour of the top seed on board 1 decided by ``seed``: ``"w"`` or ``"b"``.

    The first byte of SHA-256(seed) decides: even → white. Anyone can re-check a published seed.
    """
    return "w" if hashlib.sha256(seed.encode()).digest()[0] % 2 == 0 else "b"


@audited("round.pair")
@transaction.atomic
def round_pair(*, tournament: Tournament, user=None, coin_seed: str | None = None) -> Round:
    """Pair the next round and store its boards (status ``paired``, not public yet).

    Round 1 starts with a recorded coin toss (Kural 5): ``coin_seed`` (random when omitted)
    decides the colour of the top seed; the pairing system does the rest (FIDE C.04.3 / C.05), with
    the forbidden pairs of the round and the event's accelerated pairing
    (:func:`tournaments.pairing_adapter.pair_next_round`). A bye assigned ahead for the round
    (:class:`Absence`) becomes a bye board of its kind: half (½), zero (0), full (1) or ``pab`` (worth
    ``bye_points`` and counted as the player's pairing-allocated bye, C.04.1 c).
    Raises Conflict when the previous round is not closed, all rounds are paired, or fewer than two
    players are available; ValidationFailed (code ``no_pairing``) when no legal pairing exists.
    """
    if user is not None:
        access.require(access.can_organise(user, tournament), _("Only the organiser can pair rounds."))
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.system == Tournament.System.KNOCKOUT:  # the bracket (issue 14)
        from tournaments.knockout import services as knockout

        rnd = knockout.round_pair_knockout(tournament=tournament, user=user, coin_seed=coin_seed)
        tournament_touch(tournament)
        return rnd
    last = tournament.rounds.order_by("-number").first()
    if last is not None and last.status != Round.Status.CLOSED:
        raise Conflict(_("Round %(n)d is not closed yet.") % {"n": last.number})
    number = (last.number if last else 0) + 1
    if number > tournament.rounds_total:
        raise Conflict(_("All %(n)d rounds are already paired.") % {"n": tournament.rounds_total})
    entries = list(tournament.entries.select_related("player").order_by("start_no"))
    active = [e for e in entries if not e.withdrawn]
    if len(active) < 2:
        raise Conflict(_("At least two players are needed to pair a round."))

    if number == 1 and tournament.system == Tournament.System.ROUND_ROBIN:
        needed = (len(active) if len(active) % 2 else len(active) - 1) * (2 if tournament.double_round_robin else 1)
        if tournament.rounds_total != needed:
            tournament.rounds_total = needed  # C.05: n − 1 rounds (n odd: n), twice for a double round robin
            tournament.save(update_fields=["rounds_total"])
    toss = None
    if number == 1:
        seed = coin_seed or secrets.token_hex(16)
        toss = (seed, coin_toss_outcome(seed))
        first_colour = toss[1]
    else:
        # the round-1 toss stays the initial colour of the event (C.04.3: used when colour rules tie)
        first_toss = CoinToss.objects.filter(round__tournament=tournament, round__number=1).first()
        first_colour = first_toss.outcome if first_toss else "w"

    absent = {a.entry_id: a.kind for a in Absence.objects.filter(entry__tournament=tournament, round_number=number)}
    boards = pair_next_round(
        tournament=tournament, entries=entries, round_no=number, first_colour=first_colour, absent=set(absent)
    )
    if tournament.system == Tournament.System.SWISS:
        by_id = {e.id: e for e in entries}
        boards += [(by_id[eid].start_no, None, kind) for eid, kind in sorted(absent.items(), key=lambda x: by_id[x[0]].start_no)
                   if not by_id[eid].withdrawn]
    rnd = Round.objects.create(tournament=tournament, number=number, status=Round.Status.PAIRED, paired_at=timezone.now())
    if toss:
        CoinToss.objects.create(
            round=rnd, seed=toss[0], outcome=toss[1], tossed_at=timezone.now(),
            tossed_by=user if getattr(user, "is_authenticated", False) else None,
        )
    by_no = {e.start_no: e for e in entries}
    for board_no, (white_no, black_no, bye_kind) in enumerate(boards, start=1):
        m = Match(round=rnd, board=board_no, white=by_no[white_no])
        if black_no is None:
            m.kind = Match.Kind.BYE
            m.bye_kind = bye_kind
            m.white_points = {"pab": tournament.bye_points, "half": HALF, "full": ONE, "zero": ZERO}[bye_kind]
        else:
            m.black = by_no[black_no]
        m.save()
    if tournament.status == Tournament.Status.DRAFT:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    tournament_touch(tournament)
    return rnd


@audited("round.delete")
@transaction.atomic
def round_delete(*, round: Round, user=None, reason: str = "") -> int:
    """Undo the pairing of the last round: delete it with its boards (and round 1's coin toss) while
    no game result is entered in it; then it can be paired again (a player added meanwhile is
    included). Requested byes stay. Returns the deleted round's number.

    Raises Conflict for a round that is not the last one, is closed, or has a result entered.
    """
    tournament = round.tournament
    if user is not None:
        access.require(access.can_organise(user, tournament), _("Only the organiser can delete a pairing."))
    tournament, rnd, matches = races.round_lock(round)  # tournament, round, boards (tournaments.races)
    last = tournament.rounds.order_by("-number").first()
    if last.pk != rnd.pk:
        raise Conflict(_("Only the last round (%(n)d) can be deleted.") % {"n": last.number})
    if rnd.status == Round.Status.CLOSED:
        raise Conflict(_("Round %(n)d is closed; correct its results instead.") % {"n": rnd.number})
    entered = [m.board for m in matches if m.kind == Match.Kind.GAME and m.result_entered_at is not None]
    if entered:
        raise Conflict(
            _("Results are entered on boards %(b)s; a round with results cannot be deleted.")
            % {"b": ", ".join(str(b) for b in entered)}
        )
    if rnd.status == Round.Status.PUBLISHED:
        _reason(reason, message=_("The pairing of round %(n)d is published: say why it is deleted.") % {"n": rnd.number})
    number = rnd.number
    rnd.matches.all().delete()
    rnd.delete()
    if not tournament.rounds.exists() and tournament.status == Tournament.Status.RUNNING:
        tournament.status = Tournament.Status.DRAFT
        tournament.save(update_fields=["status"])
    tournament_touch(tournament)
    return number


@audited("round.reopen")
@transaction.atomic
def round_reopen(*, round: Round, user=None, reason: str = "") -> Round:
    """Reopen the last round after it was closed (closed → published) so results can be entered
    again by referees; a reason is required. Public standings fall back to the round before it; a
    finished event becomes running again and its rating is withdrawn until it is final again.

    Raises Conflict when the round is not closed or a later round exists.
    """
    tournament = round.tournament
    if user is not None:
        access.require(access.can_organise(user, tournament), _("Only the organiser can reopen a round."))
    reason = _reason(reason)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.status != Round.Status.CLOSED:
        raise Conflict(_("Only a closed round can be reopened."))
    if tournament.rounds.filter(number__gt=rnd.number).exists():
        raise Conflict(_("Round %(n)d is already paired; delete it before reopening this one.") % {"n": rnd.number + 1})
    rnd.status = Round.Status.PUBLISHED
    rnd.closed_at = None
    rnd.save(update_fields=["status", "closed_at"])
    fields = []
    if tournament.standings_round is not None and tournament.standings_round >= rnd.number:
        if rnd.number > 1:
            tournament.standings_round = rnd.number - 1
            fields.append("standings_round")
        else:
            tournament.standings_round = None
            tournament.standings_published_at = None
            fields += ["standings_round", "standings_published_at"]
    rerate = False
    if tournament.status == Tournament.Status.FINISHED:
        tournament.status = Tournament.Status.RUNNING
        fields.append("status")
        rerate = signals.tournament_was_rated(tournament)
    if fields:
        tournament.save(update_fields=fields)
    tournament_touch(tournament)
    if rerate:
        signals.rerate_on_commit(tournament)
    return rnd


@audited("round.publish")
@transaction.atomic
def round_publish(*, round: Round, user=None) -> Round:
    """Make a paired round's pairing list public (paired → published)."""
    if user is not None:
        access.require(access.can_organise(user, round.tournament), _("Only the organiser can publish pairings."))
    # tournament, round, boards locked in that order (tournaments.races; issue 23): never the round first
    _tournament, round, _boards = races.round_lock(round)
    if round.status != Round.Status.PAIRED:
        raise Conflict(_("Only a paired round can be published (this one is %(s)s).") % {"s": round.get_status_display()})
    round.status = Round.Status.PUBLISHED
    round.published_at = timezone.now()
    round.save(update_fields=["status", "published_at"])
    tournament_touch(round.tournament)
    return round


@audited("round.close")
@transaction.atomic
def round_close(*, round: Round, user=None) -> Round:
    """Close a published round once every board has a result (published → closed)."""
    if user is not None:
        access.require(access.can_organise(user, round.tournament), _("Only the organiser can close rounds."))
    # tournament, round, boards locked in that order (tournaments.races): a result being written meanwhile is
    # waited for and its board seen as written; one written after waits for this close and sees the round closed
    _tournament, round, matches = races.round_lock(round)
    if round.status != Round.Status.PUBLISHED:
        raise Conflict(_("Only a published round can be closed."))
    missing = [m.board for m in matches if m.white_points is None]
    if missing:
        raise Conflict(
            _("Boards without a result: %(b)s.") % {"b": ", ".join(str(b) for b in missing)}, field="matches"
        )
    round.status = Round.Status.CLOSED
    round.closed_at = timezone.now()
    round.save(update_fields=["status", "closed_at"])
    tournament_touch(round.tournament)
    return round


@audited("pairing.change")
@transaction.atomic
def round_swap_pairing(*, round: Round, board_a: int, board_b: int, swap: str, reason: str, user=None) -> Round:
    """Change a pairing by hand before publication: exchange the ``swap`` player ("white"/"black")
    of boards ``board_a`` and ``board_b``. Recorded with who, when and why (PairingChange)."""
    if user is not None:
        access.require(access.can_organise(user, round.tournament))
    _tournament, round, _boards = races.round_lock(round)  # tournament, round, boards (tournaments.races)
    if round.status != Round.Status.PAIRED:
        raise Conflict(_("Pairings can only be changed before they are published."))
    if round.tournament.system == Tournament.System.KNOCKOUT:
        raise Conflict(_("A knockout bracket follows from the seeds and the winners; it is not changed by hand. "
                         "Delete the pairing and pair the round again."))
    if not reason.strip():
        raise ValidationFailed(_("Say why the pairing is changed."), field="reason")
    a = round.matches.select_for_update().filter(board=board_a).first()
    b = round.matches.select_for_update().filter(board=board_b).first()
    if a is None or b is None or a == b:
        raise ValidationFailed(_("Choose two different existing boards."), field="board_b")
    if swap not in ("white", "black") or (swap == "black" and (a.black_id is None or b.black_id is None)):
        raise ValidationFailed(_("Choose white or black of two games."), field="swap")
    before = [[a.board, a.white_id, a.black_id], [b.board, b.white_id, b.black_id]]
    field = f"{swap}_id"
    va, vb = getattr(a, field), getattr(b, field)
    setattr(a, field, vb)
    setattr(b, field, va)
    for m in (a, b):
        if m.black_id is not None and m.white_id == m.black_id:
            raise ValidationFailed(_("A player cannot play themself."), field="swap")
        if m.black_id is not None and Match.objects.filter(
            round__tournament=round.tournament, round__number__lt=round.number, forfeit=""
        ).filter(Q(white_id=m.white_id, black_id=m.black_id) | Q(white_id=m.black_id, black_id=m.white_id)).exists():
            raise ValidationFailed(
                _("%(w)s and %(b)s have already played each other (C.04.1: no rematches).")
                % {"w": m.white.player.full_name, "b": m.black.player.full_name},
                field="swap",
            )
    # move one aside first: (round, board) is unique, entries are not, so a plain save is fine
    a.save(update_fields=[field])
    b.save(update_fields=[field])
    PairingChange.objects.create(
        round=round, user=user if getattr(user, "is_authenticated", False) else None, reason=reason.strip(),
        before=before, after=[[a.board, a.white_id, a.black_id], [b.board, b.white_id, b.black_id]],
    )
    round.modified_by_hand = True
    round.save(update_fields=["modified_by_hand"])
    tournament_touch(round.tournament)
    return round


# --------------------------------------------------------------------------------------------
# Forbidden pairs
# --------------------------------------------------------------------------------------------


def _last_paired_round(tournament: Tournament) -> int:
    return tournament.rounds.aggregate(m=Max("number"))["m"] or 0


def _round_span(first_round: int, last_round: int | None) -> tuple[int, float]:
    return first_round, float("inf") if last_round is None else last_round


@audited("forbidden_pair.add")
@transaction.atomic
def forbidden_pair_add(
    *, tournament: Tournament, first: Entry, second: Entry, first_round: int = 1, last_round: int | None = None,
    reason: str = "", user=None,
) -> ForbiddenPair:
    """Forbid pairing ``first`` with ``second`` in rounds ``first_round`` .. ``last_round`` (blank: to
    the end) of a Swiss — siblings, club mates in the first rounds (C.04.1 allows such restrictions
    when announced). The pairing treats it like the no-rematch rule (an absolute criterion).

    A paired round never changes: the range must start after the last paired round. Recorded in the
    history (who, when, ``reason``). Raises PermissionDenied for anyone but the organisers;
    ValidationFailed naming the field (``second``: the same player twice or another tournament's
    entry, ``first_round``/``last_round``: a range outside the event, backwards or over a paired
    round, ``reason``: too long); Conflict for a round robin (the Berger table fixes its pairings),
    a finished event, or a range overlapping a forbidden pair of the same two players.
    """
    if user is not None:
        access.require(access.can_organise(user, tournament), _("Only the organiser can change forbidden pairs."))
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.system == Tournament.System.ROUND_ROBIN:
        raise Conflict(_("A round robin's pairings are fixed by the Berger table; forbidden pairs apply to Swiss "
                         "events only."))
    if tournament.system == Tournament.System.KNOCKOUT:
        raise Conflict(_("A knockout bracket follows from the seeds; forbidden pairs apply to Swiss events only."))
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict(_("The tournament is finished."))
    for field, entry in (("first", first), ("second", second)):
        if entry is None or entry.tournament_id != tournament.pk:
            raise ValidationFailed(_("Choose a player of this tournament."), field=field)
    if first.pk == second.pk:
        raise ValidationFailed(_("Choose two different players."), field="second")
    try:
        first_round = int(first_round)
        last_round = None if last_round in (None, "") else int(last_round)
    except (TypeError, ValueError):
        raise ValidationFailed(_("Rounds are whole numbers."), field="first_round") from None
    n = tournament.rounds_total
    if not 1 <= first_round <= n:
        raise ValidationFailed(_("Round must be between 1 and %(n)d.") % {"n": n}, field="first_round")
    if last_round is not None and not 1 <= last_round <= n:
        raise ValidationFailed(_("Round must be between 1 and %(n)d.") % {"n": n}, field="last_round")
    if last_round is not None and last_round < first_round:
        raise ValidationFailed(_("The last round is before the first one."), field="last_round")
    paired = _last_paired_round(tournament)
    if first_round <= paired:
        if paired >= n or (last_round is not None and last_round <= paired):
            raise ValidationFailed(
                _("Round %(p)d is already paired; a forbidden pair cannot change a paired round and no later "
                  "round is in this range.") % {"p": paired},
                field="last_round" if last_round is not None else "first_round",
            )
        raise ValidationFailed(
            _("Round %(p)d is already paired; a forbidden pair cannot change a paired round: start it at round "
              "%(next)d or later.") % {"p": paired, "next": paired + 1},
            field="first_round",
        )
    if len(reason or "") > ForbiddenPair._meta.get_field("reason").max_length:
        raise ValidationFailed(
            _("At most %(n)d characters.") % {"n": ForbiddenPair._meta.get_field("reason").max_length}, field="reason"
        )
    a, b = sorted((first, second), key=lambda e: e.pk)
    lo, hi = _round_span(first_round, last_round)
    for other in ForbiddenPair.objects.filter(tournament=tournament, first=a, second=b):
        olo, ohi = _round_span(other.first_round, other.last_round)
        if lo <= ohi and olo <= hi:
            raise Conflict(
                _("%(a)s and %(b)s are already a forbidden pair in rounds %(r)s.")
                % {"a": a.player.full_name, "b": b.player.full_name, "r": forbidden_pair_rounds_text(other)},
                field="second",
            )
    pair = ForbiddenPair.objects.create(
        tournament=tournament, first=a, second=b, first_round=first_round, last_round=last_round,
        reason=reason or "", created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    tournament_touch(tournament)
    return pair


def forbidden_pair_rounds_text(pair: ForbiddenPair) -> str:
    """``3``, ``1–4`` or ``2–…`` (open-ended)."""
    if pair.last_round is None:
        return f"{pair.first_round}–…"
    if pair.last_round == pair.first_round:
        return str(pair.first_round)
    return f"{pair.first_round}–{pair.last_round}"


@audited("forbidden_pair.remove")
@transaction.atomic
def forbidden_pair_remove(*, pair: ForbiddenPair, user=None, reason: str = "") -> None:
    """Remove a forbidden pair: the next rounds may pair the two players again (rounds already paired
    stay as they are). Recorded in the history with ``reason`` (optional). Raises PermissionDenied
    for anyone but the organisers; NotFound when it is already gone."""
    from federation.errors import NotFound

    tournament = Tournament.objects.select_for_update().get(pk=pair.tournament_id)
    if user is not None:
        access.require(access.can_organise(user, tournament), _("Only the organiser can change forbidden pairs."))
    row = ForbiddenPair.objects.select_for_update().filter(pk=pair.pk).first()
    if row is None:
        raise NotFound(_("This forbidden pair no longer exists."))
    row.delete()
    tournament_touch(tournament)


# --------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SetInput:
    """One set as the referee enters it.

    ``white_store``/``black_store``: stones in each store at the end of the set (sum 48) or at the
    moment of a withdrawal (sum ≤ 48). ``termination``: ``completed``, ``white_withdrew`` or
    ``black_withdrew`` (Kural 14.5). ``moves``: optional move record ("4 1 3 …").
    """

    white_store: int
    black_store: int
    termination: str = SetResult.Termination.COMPLETED
    moves: str = ""


def rules_error_message(exc: ValueError, stores: tuple[int, int] | None = None) -> str:
    """The user's-language reason for a refusal of the rules engine (``games.engine`` errors).

    Result errors get a translated sentence naming the rule; move-record errors keep the engine's
    detail (it names the ply) behind a translated prefix.
    """
    from games.record_messages import engine_error_message

    e = engine
    if isinstance(exc, e.WithdrawalTooEarlyError):
        return _("a withdrawal is allowed only once a player has at least 25 stones in the store (Kural 14.5)")
    if stores is not None and min(stores) >= 25 and isinstance(exc, e.StonesNotConservedError):
        # e.g. a withdrawal entered at 25-25: only one player can reach 25 — the stones say so, not the rule
        return _("both stores cannot hold 25 or more: %(w)d and %(b)d make %(n)d stones, and a set has 48; "
                 "only one player can reach 25 (Kural 1, 14.5)") % {"w": stores[0], "b": stores[1], "n": sum(stores)}
    if isinstance(exc, e.AgreedDrawError) and stores is not None:
        # 20-20 "completed": a sum error (the stones of a finished set total 48), not an agreed draw
        return _("the two stores hold %(n)d stones, not 48: at the end of a set every stone is in a store "
                 "(Kural 1); a drawn set is 24–24. A withdrawal is possible only once a player has 25 stones "
                 "(Kural 14.5)") % {"n": sum(stores)}
    if isinstance(exc, e.AgreedDrawError):
        return _("there are no agreed draws: a set ends only when a side is empty (Kural 14.6)")
    if isinstance(exc, e.StonesNotConservedError) and stores is not None and sum(stores) > 48:
        return _("the two stores hold %(n)d stones, more than the 48 of a set (Kural 1)") % {"n": sum(stores)}
    if isinstance(exc, e.StonesNotConservedError) and stores is not None:
        return _("the two stores hold %(n)d stones; at the end of a set they hold all 48 "
                 "(at a withdrawal, choose who withdrew) (Kural 1, 14.5)") % {"n": sum(stores)}
    if isinstance(exc, e.StonesNotConservedError):
        return _("the two stores must hold 48 stones together at the end of a set; at a withdrawal, "
                 "choose who withdrew (Kural 1, 14.5)")
    if isinstance(exc, e.InvalidStonesError):
        return _("a store holds 0 to 48 stones")
    if isinstance(exc, e.MatchSetsError):
        return _("these sets cannot form a match: the match is decided as soon as the lead cannot be caught "
                 "(2–0 ends a three-set match), and no set is played after that")
    if isinstance(exc, (e.IllegalMoveError, e.IncompleteRecordError, e.RecordMismatchError)):
        return _("the move record does not fit: %(detail)s") % {"detail": engine_error_message(exc)}
    return str(exc)


def _points(x: float) -> Decimal:
    return {1.0: ONE, 0.5: HALF, 0.0: ZERO}[float(x)]


def result_snapshot(match: Match, *, stored: Sequence[SetResult] | None = None) -> dict:
    """A match result as JSON-ready data: ``version``, ``white_points``/``black_points`` (floats or
    None), ``forfeit`` and ``sets`` as ``[{"number", "white_stones", "black_stones", "termination"}]``
    (``stored``: the match's sets in order, when the caller has read them; else they are read)."""
    return {
        "version": match.version,
        "white_points": None if match.white_points is None else float(match.white_points),
        "black_points": None if match.black_points is None else float(match.black_points),
        "forfeit": match.forfeit,
        "sets": [
            {"number": s.number, "white_stones": s.white_stones, "black_stones": s.black_stones,
             "termination": s.termination}
            for s in (match.sets.order_by("number") if stored is None else stored)
        ],
    }


# the match locked with its round and tournament: the SQL built once (federation.prepared; issue 22)
_MATCH_LOCKED = PreparedRead(
    lambda pk: Match.objects.select_for_update(of=("self",)).select_related("round__tournament").filter(pk=pk),
    pk=-987_654_321,  # a placeholder
)


# a match's sets in order (the result write reads them once): the SQL built once
_MATCH_SETS = PreparedRead(lambda match_id: SetResult.objects.filter(match_id=match_id).order_by("number"),
                           match_id=-987_654_322)


def match_result_enter(
    *,
    match: Match,
    sets: Sequence[SetInput] = (),
    forfeit: str = "",
    user=None,
    expected_version: int | None = None,
    reason: str = "",
    decider_starter: str = "",
) -> Match:
    """Record or correct a match result from its sets (RULES.md "Match and tournament scoring").

    ``sets`` in play order; set k is started by white when k is odd (003 "Turnuva maçı"). Each set's
    recorded stones come from ``games.engine.set_result`` (Kural 14.5 withdrawals), the match points
    from ``games.engine.match_result``: 2–0 ends a 3-set match, equal set points draw, 1 / ½ / 0.
    Entering fewer sets than needed saves them and leaves the match open.
    ``forfeit`` (``white``/``black``/``both``) records a game not played: no sets, 0–1 / 1–0 / 0–0.

    Stale writes never win: once a result was entered, a change must carry ``expected_version`` (the
    version the writer saw): missing → PreconditionRequired (428), old → Conflict (409) with the
    current result in ``extra["current"]``.

    A result of a **closed** round is corrected by the organiser (or staff) only, with a ``reason``;
    referees get Conflict. Later pairings are not changed (C.04.1); the event's version is bumped (so
    standings, crosstables and PDFs are recomputed) and a rated event is re-rated with every later one.

    A **knockout** match (issue 14; RULES.md "Knockout matches") plays its round's planned sets
    (:func:`tournaments.knockout.services.sets_for_round`); a level match goes on with decider sets (accepted only
    while it is level, as the event's rule allows: :func:`games.engine.knockout_match_result`). The first
    decider's starter is the lot recorded at the table (``decider_starter``: ``white``/``black``) or drawn
    here when the planned sets end level; later deciders alternate. The winner gets 1–0 and
    ``Match.decided_by`` says how (``sets``, ``deciders``, ``seed``, ``forfeit``). Once the next round is
    paired, a correction may not change who advances (Conflict).

    Raises ValidationFailed naming the set and the reason; PermissionDenied; Conflict when the round
    is closed (for a referee) or not published yet.
    """
    tournament = match.round.tournament
    if user is not None:
        access.require(access.can_enter_results(user, tournament), _("Only referees and organisers can enter results."))
    number = match.round.number
    try:
        with transaction.atomic():
            # lock order tournament, round, board (issue 23): the tournament first, in KEY SHARE — result writers
            # do not wait for each other, but a round close or an undone pairing (FOR UPDATE of the tournament)
            # waits for this result, or this result for it. Then the match row only (of="self"), with its round's
            # status and the tournament's versions read in the same statement: a fresh snapshot taken once the
            # tournament is held, which nobody may close, reopen or undo until this transaction ends.
            races.result_write_lock(tournament.pk)
            locked = _MATCH_LOCKED.first(pk=match.pk)
            if locked is None:  # the pairing was undone meanwhile (round_delete)
                raise Conflict(_("The pairing of round %(n)d was undone meanwhile; this board no longer exists. "
                                 "Reload the round.") % {"n": number}, code="pairing_undone")
            closed = locked.round.status == Round.Status.CLOSED
            with audit_context(action="result.correct" if closed else "result.enter", user=user, reason=reason,
                               tournament_id=tournament.pk):
                return _match_result_write(
                    match=locked, sets=sets, forfeit=forfeit, user=user, expected_version=expected_version,
                    reason=reason, decider_starter=decider_starter,
                )
    except (OperationalError, IntegrityError) as exc:  # a race the lock order should prevent: a 409, not a 500
        if not races.race_lost(exc):
            raise
        raise Conflict(_("Round %(n)d was changed at the same moment (closed, reopened or its pairing undone); "
                         "reload it and check the result.") % {"n": number}, code="race_lost") from exc


def _same_result(match: Match, sets, forfeit: str, stored: list[SetResult]) -> bool:
    """True when ``sets``/``forfeit`` are exactly the stored result (``stored``: the match's sets in
    order; stores, terminations, and move records where given)."""
    if match.result_entered_at is None:
        return False
    if forfeit or match.forfeit:
        return forfeit == match.forfeit and not sets
    if len(stored) != len(sets):
        return False
    for given, have in zip(sets, stored):
        term = given.termination or SetResult.Termination.COMPLETED
        stores = (
            (have.white_stones, have.black_stones) if have.termination == "completed"
            else (have.white_store, have.black_store)
        )
        if term != have.termination or (int(given.white_store), int(given.black_store)) != stores:
            return False
        if given.moves.strip() and " ".join(given.moves.split()) != have.moves:
            return False
    return True


def _remember_sets(match: Match, sets: list[SetResult]) -> None:
    """Let ``match.sets.all()`` answer ``sets`` from memory (as ``prefetch_related("sets")`` would), so the
    answer to a result entry does not read back what was just written."""
    qs = SetResult.objects.filter(match_id=match.pk).order_by("number")
    qs._result_cache = list(sets)
    qs._prefetch_done = True
    match._prefetched_objects_cache = {**getattr(match, "_prefetched_objects_cache", {}), "sets": qs}


def _sets_delete(stored: list[SetResult]) -> bool:
    """Delete the sets ``stored`` and what cascades from them (the rating lines of a rated event) without
    the delete collector's reads and per-row signals: one ``DELETE`` per cascading relation, then one of the
    sets. True when their history rows are left to the caller (:func:`federation.audit.history_bulk_create`);
    False when a relation that is not a plain cascade made it the ordinary delete (history by its signals)."""
    ids = [x.pk for x in stored]
    related = [rel for rel in SetResult._meta.related_objects if rel.on_delete is not models.DO_NOTHING]
    if any(rel.on_delete is not models.CASCADE for rel in related):  # SET_NULL, PROTECT, …: Django's own delete
        SetResult.objects.filter(pk__in=ids).delete()
        return False
    db = router.db_for_write(SetResult)
    for rel in related:
        if Collector(using=db, origin=None).can_fast_delete(rel.related_model):  # no signals, nothing cascading
            delete_in(rel.related_model, rel.field.name, ids, using=db)  # one DELETE, its SQL built once
        else:
            rel.related_model._base_manager.using(db).filter(**{f"{rel.field.name}__in": ids}).delete()
    delete_in(SetResult, "id", ids, using=db)
    return True


# what _match_result_write changes in a match: its result, who entered it and when, its version
_RESULT_COLUMNS = ("forfeit", "white_points", "black_points", "rated", "decider_starter", "decided_by",
                   "result_entered_at", "result_entered_by", "version")


def _match_result_write(*, match: Match, sets, forfeit: str, user, expected_version: int | None, reason: str,
                        decider_starter: str = "") -> Match:
    """The write of :func:`match_result_enter`, on ``match`` as just locked (``select_for_update``, with its
    round and tournament), inside its transaction and audit context."""
    tournament = match.round.tournament
    if match.kind == Match.Kind.BYE:
        raise Conflict(_("A bye has no result to enter."))
    if match.round.status not in (Round.Status.PUBLISHED, Round.Status.CLOSED):
        raise Conflict(_("Results are entered once the pairing is published."))
    closed = match.round.status == Round.Status.CLOSED
    if closed:
        if user is not None and not access.can_organise(user, tournament):
            raise Conflict(
                _("The round is closed; only the organiser can correct a result, with a reason."), code="round_closed"
            )
        reason = _reason(reason, message=_("Say why the result of a closed round is corrected (recorded in the history)."))
    stored = _MATCH_SETS.all(match_id=match.pk)  # read once, used below
    if _same_result(match, sets, forfeit, stored) and (not decider_starter or decider_starter == match.decider_starter):
        _remember_sets(match, stored)
        return match  # a double submit or a re-sent correction: nothing changes, nothing is recorded
    if match.result_entered_at is not None:
        if expected_version is None:
            raise PreconditionRequired(
                _("This board already has a result: send the version you saw (\"version\" or If-Match) to change it."),
                field="version", extra={"current": result_snapshot(match, stored=stored)},
            )
    if expected_version is not None and expected_version != match.version:
        raise Conflict(
            _("Someone else changed this result meanwhile; reload and check it."), field="version",
            extra={"current": result_snapshot(match, stored=stored)},
        )
    was_final = match.white_points is not None
    from tournaments.knockout import services as knockout

    ko = knockout.match_plan(match)  # a knockout game (issue 14): planned sets of its round, decider sets
    old_decided, old_winner = knockout.match_winner(match) if ko else (False, None)
    n = ko.planned if ko else tournament.sets_per_match
    old_moves = {
        (x.number, x.termination, x.white_store if x.white_store is not None else x.white_stones,
         x.black_store if x.black_store is not None else x.black_stones): x.moves
        for x in stored if x.moves
    }
    gone = stored if stored and _sets_delete(stored) else []  # deleted sets whose history is written below
    new_sets: list[SetResult] = []  # the sets written, in order
    new_history: list[SetResult] = []  # those whose history row is written below (not by their signal)
    if forfeit:
        if forfeit not in ("white", "black", "both"):
            raise ValidationFailed(_("Forfeit must be white, black or both."), field="forfeit")
        if sets:
            raise ValidationFailed(_("A forfeited match has no sets."), field="sets")
        match.forfeit = forfeit
        match.white_points, match.black_points = {"white": (ZERO, ONE), "black": (ONE, ZERO), "both": (ZERO, ZERO)}[forfeit]
        match.rated = False
        if ko:
            match.decided_by = "forfeit"
    else:
        if not sets:
            raise ValidationFailed(_("Enter at least one set."), field="sets")
        if len(sets) > (knockout.MAX_SETS if ko else n):  # a knockout's deciders: the rule says how many
            raise ValidationFailed(
                _("A match has at most %(n)d sets.") % {"n": knockout.MAX_SETS if ko else n}, field=f"sets[{len(sets)}]"
            )
        if ko:
            ko = knockout.plan_with_lot(ko, sets_count=len(sets), decider_starter=decider_starter)
            match.decider_starter = ko.decider_starter

        def starts(i: int) -> str:
            """Who starts set ``i``: white in odd sets, black in even ones; a knockout's deciders by the lot."""
            if ko:
                return knockout.plan_starter(ko, i) or "white"
            return "white" if engine.set_starter(i) == 0 else "black"

        recorded = []
        rows = []
        for i, s in enumerate(sets, start=1):
            fld = f"sets[{i}]"
            term = s.termination or SetResult.Termination.COMPLETED
            if term == "agreed_draw":
                raise ValidationFailed(_("Set %(i)d: there are no agreed draws (Kural 14.6).") % {"i": i}, field=fld)
            if term not in SetResult.Termination.values:
                raise ValidationFailed(_("Set %(i)d: unknown termination %(t)s.") % {"i": i, "t": term}, field=fld)
            withdrawn_by = {"completed": None, "white_withdrew": "first", "black_withdrew": "second"}[term]
            try:
                res = engine.set_result(int(s.white_store), int(s.black_store), withdrawn_by=withdrawn_by)
                if s.moves.strip():
                    starter_first = starts(i) == "white"
                    moves = [int(x) if x.isdecimal() else x for x in s.moves.split()]
                    # the record is from the starter's point of view: first = starter
                    a, b = (res.first, res.second) if starter_first else (res.second, res.first)
                    wb = withdrawn_by
                    if wb and not starter_first:
                        wb = "second" if wb == "first" else "first"
                    engine.validate_record(
                        moves, variant=tournament.variant, first_stones=a, second_stones=b, withdrawn_by=wb
                    )
            except ValueError as exc:
                if isinstance(exc, engine.RecordMismatchError) and hasattr(exc, "played"):
                    starter_white = starts(i) == "white"
                    pw, pb = exc.played if starter_white else exc.played[::-1]
                    raise ValidationFailed(
                        _("Set %(i)d: the move record gives %(pw)d-%(pb)d (white-black), not the %(w)s-%(b)s "
                          "entered; check the stones or the record.")
                        % {"i": i, "pw": pw, "pb": pb, "w": s.white_store, "b": s.black_store},
                        field=fld,
                    ) from exc
                raise ValidationFailed(
                    _("Set %(i)d (%(w)s-%(b)s): %(reason)s")
                    % {"i": i, "w": s.white_store, "b": s.black_store, "reason": rules_error_message(exc, (int(s.white_store), int(s.black_store)))},
                    field=fld,
                ) from exc
            recorded.append((res.first, res.second))
            moves_text = " ".join(s.moves.split()) or old_moves.get(
                (i, term, int(s.white_store), int(s.black_store)), ""
            )  # a correction that leaves a set as it was keeps its move record
            rows.append(
                SetResult(
                    match=match, number=i, starter=starts(i),
                    white_stones=res.first, black_stones=res.second, termination=term,
                    white_store=None if term == "completed" else int(s.white_store),
                    black_store=None if term == "completed" else int(s.black_store),
                    moves=moves_text,
                )
            )
        try:
            mr = knockout.plan_result(ko, recorded) if ko else engine.match_result(
                recorded, sets_per_match=n, allow_incomplete=True
            )
        except engine.KnockoutSetsError as exc:
            raise knockout.knockout_error(exc, ko) from exc
        except ValueError as exc:
            decided = next(
                (k for k in range(1, min(len(recorded), n + 1))
                 if engine.match_result(recorded[:k], sets_per_match=n, allow_incomplete=True).complete),
                None,
            )
            if decided is not None:
                raise ValidationFailed(
                    _("The match was decided after set %(k)d; set %(m)d is not played (tournament match: the match "
                      "ends as soon as the lead cannot be caught). Leave set %(m)d empty.")
                    % {"k": decided, "m": decided + 1},
                    field="sets",
                ) from exc
            raise ValidationFailed(rules_error_message(exc), field="sets") from exc
        if connection.features.can_return_rows_from_bulk_insert:  # the new ids come back: one INSERT
            insert_rows(rows)  # as bulk_create, its statement built once (federation.prepared)
            new_history = rows
        else:
            for row in rows:  # one by one (each gets its history row from its signal)
                row.save()
        new_sets = rows
        match.forfeit = ""
        match.rated = True
        if mr.complete:
            match.white_points, match.black_points = _points(mr.match_points[0]), _points(mr.match_points[1])
        else:
            match.white_points = match.black_points = None
        if ko:
            match.decided_by = mr.decided_by or ""
            if mr.needs_decider and not match.decider_starter:
                match.decider_starter = knockout.draw_decider_starter()  # the lot, shown before the decider
    # the history of the sets in one INSERT: each deleted set ("-") and each new one ("+"), as their signals would
    if gone or new_history:
        history_bulk_create(SetResult, [(x, "-") for x in gone] + [(x, "+") for x in new_history])
    if ko:
        knockout.check_correction(match, old_winner=old_winner, old_decided=old_decided)
    match.result_entered_at = timezone.now()
    match.result_entered_by = user if getattr(user, "is_authenticated", False) else None
    match.version += 1
    if closed and match.white_points is None and was_final:
        raise ValidationFailed(
            _("A result of a closed round must stay complete: enter every set up to the deciding one."), field="sets"
        )
    try:  # no savepoint: a failure here rolls back the whole result (match_result_enter's transaction)
        # the columns a result writes, in one UPDATE (not save()'s every column), and the match's history row
        # ("~"), as its post_save signal would write it (federation.audit.history_bulk_create)
        update_columns(match, _RESULT_COLUMNS)
    except IntegrityError as exc:  # a constraint the checks above should have caught: said in words
        from federation.errors import integrity_error_message

        raise ValidationFailed(integrity_error_message(exc), field="sets") from exc
    history_bulk_create(Match, [(match, "~")])
    _remember_sets(match, new_sets)
    # a result of a round not closed is not in the public standings: their cached copies stay valid. The
    # round's status and `tournament`'s standings_version were read with the lock of the match (one statement):
    # a round close committed since has bumped standings_version, which tournament_touch then bumps again.
    tournament_touch(tournament, standings=closed)
    if closed and tournament.status == Tournament.Status.FINISHED and tournament.standings_published_at is not None:
        signals.rerate_on_commit(tournament)
    return match


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
