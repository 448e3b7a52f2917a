"""Writes of a tournament's categories and prize list (issue 14): ``category_create/update/delete``,
``category_quick_add`` (U8, U10, U12, U14, girls) and ``prize_create/update/delete``.

Same style as :mod:`tournaments.services`: keyword-only, ``@transaction.atomic``, one audited action each
(:func:`federation.audit.audit_context`: who, when, why, before and after in the tournament's history),
the tournament's versions bumped (:func:`tournaments.services.tournament_touch`: the cached standings,
crosstables and PDFs are keyed on them), a refusal raised as a
:class:`federation.errors.ApplicationError` naming the field at fault. Only the tournament's organisers
(and staff) write (:func:`tournaments.access.can_organise`).

Membership of a category is decided when the tables are read (``tournaments.prizes.selectors`` with
the pure core :mod:`tournaments.standings.categories`), never stored: a corrected birth year or a new
category simply shows in the next table.
"""
from __future__ import annotations

import functools
import re
import secrets
from decimal import Decimal, InvalidOperation

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from federation.audit import audit_context
from federation.errors import Conflict, NotFound, ValidationFailed
from federation.models import Club
from tournaments import access
from tournaments.models import Category, Prize, Tournament
from tournaments.services import _clean_text, check_reason_text, tournament_touch

#: A category code: Latin capitals, digits, ``-``, ``_``, ``+`` (``U12``, ``KIZ``, ``1500-1799``, ``50+``);
#: stored in capitals, looked up without regard to case (``?category=u12``).
CODE_RE = re.compile(r"^[A-Z0-9][A-Z0-9_+\-]{0,19}$")

#: The quick-add buttons: code → (kind, max age). Names are given in the organiser's language.
PRESETS = {"U8": ("age", 8), "U10": ("age", 10), "U12": ("age", 12), "U14": ("age", 14), "KIZ": ("girls", None)}

MAX_AGE = 120
MAX_RATING = 4000
MAX_PLACE = 999
MAX_VALUE = Decimal("99999999.99")


def _tournament_of(kwargs: dict) -> int | None:
    if kwargs.get("tournament") is not None:
        return kwargs["tournament"].pk
    for key in ("category", "prize"):
        if kwargs.get(key) is not None:
            return kwargs[key].tournament_id
    return None


def audited(action: str):
    """The service as one audited action (as :func:`tournaments.services.audited`), its tournament
    taken from ``tournament``, ``category`` or ``prize``."""

    def decorate(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            if kwargs.get("reason"):
                kwargs["reason"] = check_reason_text(kwargs["reason"])
            with audit_context(action=action, user=kwargs.get("user"), reason=kwargs.get("reason") or "",
                               tournament_id=_tournament_of(kwargs)):
                return func(*args, **kwargs)

        return wrapper

    return decorate


def normalise_code(code) -> str:
    """``code`` as stored: stripped, in capitals (ASCII: ``kiz`` → ``KIZ``)."""
    return str(code or "").strip().upper()


def _check_code(code) -> str:
    text = normalise_code(code)
    if not text:
        raise ValidationFailed(_("A category needs a code (e.g. U12 or KIZ)."), field="code")
    if not CODE_RE.match(text):
        raise ValidationFailed(
            _("A code is at most 20 characters: Latin letters without accents, digits, -, _ or + (e.g. U12, KIZ, "
              "1500-1799)."),
            field="code",
        )
    return text


def _whole(value, field: str, lo: int, hi: int) -> int | None:
    if value in (None, ""):
        return None
    try:
        n = int(value)
    except (TypeError, ValueError):
        raise ValidationFailed(_("Must be a whole number from %(lo)d to %(hi)d.") % {"lo": lo, "hi": hi},
                               field=field) from None
    if isinstance(value, float) and value != n or not lo <= n <= hi:
        raise ValidationFailed(_("Must be a whole number from %(lo)d to %(hi)d.") % {"lo": lo, "hi": hi}, field=field)
    return n


def _check_flag(value, field: str) -> bool:
    if not isinstance(value, bool):
        raise ValidationFailed(_("Choose yes or no."), field=field)
    return value


def _organiser(user, tournament: Tournament, message: str) -> None:
    if user is not None:
        access.require(access.can_organise(user, tournament), message)


def _locked(tournament: Tournament) -> Tournament:
    """The tournament row, locked: writes of one tournament's lists run one at a time."""
    return Tournament.objects.select_for_update(of=("self",)).get(pk=tournament.pk)


# --------------------------------------------------------------------------------------------
# Categories
# --------------------------------------------------------------------------------------------

_RULE_FIELDS = ("max_age", "min_age", "rating_min", "rating_max", "club", "city")


def _check_rule(kind: str, values: dict) -> dict:
    """The fields of a ``kind`` rule, checked; the fields other kinds use are cleared."""
    if kind not in Category.Kind.values:
        raise ValidationFailed(
            _("Unknown kind of category %(k)s; valid: %(valid)s.") % {"k": kind, "valid": ", ".join(Category.Kind.values)},
            field="kind",
        )
    out = {"max_age": None, "min_age": None, "rating_min": None, "rating_max": None, "club": None, "city": ""}
    if kind == Category.Kind.AGE:
        out["max_age"] = _whole(values.get("max_age"), "max_age", 1, MAX_AGE)
        out["min_age"] = _whole(values.get("min_age"), "min_age", 1, MAX_AGE)
        if out["max_age"] is None and out["min_age"] is None:
            raise ValidationFailed(_("Give the highest age (e.g. 12 for U12), the lowest age, or both."), field="max_age")
        if out["max_age"] is not None and out["min_age"] is not None and out["min_age"] > out["max_age"]:
            raise ValidationFailed(_("The lowest age is above the highest age."), field="min_age")
    elif kind == Category.Kind.RATING:
        out["rating_min"] = _whole(values.get("rating_min"), "rating_min", 0, MAX_RATING)
        out["rating_max"] = _whole(values.get("rating_max"), "rating_max", 0, MAX_RATING)
        if out["rating_min"] is None and out["rating_max"] is None:
            raise ValidationFailed(_("Give the lowest rating, the highest rating, or both."), field="rating_min")
        if out["rating_min"] is not None and out["rating_max"] is not None and out["rating_min"] > out["rating_max"]:
            raise ValidationFailed(_("The rating band's ends are in the wrong order."), field="rating_max")
    elif kind == Category.Kind.CLUB:
        club = values.get("club")
        if club is not None and not isinstance(club, Club):
            club = Club.objects.filter(pk=club).first() if str(club).isdecimal() else None
            if club is None:
                raise ValidationFailed(_("No such club."), field="club")
        if club is None:
            raise ValidationFailed(_("Choose the club."), field="club")
        out["club"] = club
    elif kind == Category.Kind.CITY:
        out["city"] = _clean_text(values.get("city"), "city", 60, required=True)
    return out


def _code_taken(tournament: Tournament, code: str, *, exclude: int | None = None) -> None:
    qs = Category.objects.filter(tournament=tournament, code=code)
    if exclude is not None:
        qs = qs.exclude(pk=exclude)
    if qs.exists():
        raise ValidationFailed(_("This tournament already has a category %(code)s.") % {"code": code}, field="code")


@audited("category.create")
@transaction.atomic
def category_create(
    *, tournament: Tournament, code: str, name: str, kind: str, max_age=None, min_age=None, rating_min=None,
    rating_max=None, club=None, city: str = "", order: int | None = None, includes_unrated: bool = False,
    user=None,
) -> Category:
    """Add a category to ``tournament``'s rankings (a table read out of the overall standings, with its
    own prizes). ``kind`` and its fields: ``age`` — ``max_age`` (U12: 12) and/or ``min_age``;
    ``girls``/``boys``/``unrated``; ``rating`` — ``rating_min``/``rating_max``; ``club`` — ``club`` (a
    :class:`~federation.models.Club` or its id); ``city`` — ``city``. Fields of other kinds are ignored.
    ``includes_unrated``: a rating band that also takes the unrated players (default: it does not).
    ``code`` is stored in capitals and is unique in the tournament. ``order``: its position in lists
    (default: last). Raises PermissionDenied; ValidationFailed naming the field."""
    _organiser(user, tournament, _("Only the organiser can change the categories."))
    tournament = _locked(tournament)
    code = _check_code(code)
    name = _clean_text(name, "name", 120, required=True)
    rule = _check_rule(str(kind or ""), {"max_age": max_age, "min_age": min_age, "rating_min": rating_min,
                                         "rating_max": rating_max, "club": club, "city": city})
    _code_taken(tournament, code)
    if order is None:
        order = (Category.objects.filter(tournament=tournament).aggregate(m=Max("order"))["m"] or 0) + 1
    order = _whole(order, "order", 0, 32767)
    try:
        with transaction.atomic():
            category = Category.objects.create(tournament=tournament, code=code, name=name, kind=kind, order=order,
                                               includes_unrated=_check_flag(includes_unrated, "includes_unrated"),
                                               **rule)
    except IntegrityError:  # a concurrent create of the same code
        raise ValidationFailed(_("This tournament already has a category %(code)s.") % {"code": code},
                               field="code") from None
    tournament_touch(tournament)
    return category


def category_quick_add(*, tournament: Tournament, preset: str, user=None) -> Category:
    """One of the usual categories in one click: ``U8``, ``U10``, ``U12``, ``U14`` (age, born in or
    after the year − 8 …) or ``KIZ`` (girls), named in the current language. Raises ValidationFailed
    (field ``code``) for an unknown preset or one the tournament already has."""
    preset = normalise_code(preset)
    if preset not in PRESETS:
        raise ValidationFailed(_("Unknown category %(code)s; valid: %(valid)s.") % {"code": preset,
                                                                                     "valid": ", ".join(PRESETS)},
                               field="code")
    kind, age = PRESETS[preset]
    name = _("Girls") if kind == "girls" else _("Under %(n)d") % {"n": age}
    return category_create(tournament=tournament, code=preset, name=name, kind=kind, max_age=age, user=user)


#: What :func:`category_update` may change.
CATEGORY_FIELDS = ("code", "name", "kind", "order", "includes_unrated", *_RULE_FIELDS)


@audited("category.edit")
@transaction.atomic
def category_update(*, category: Category, user=None, reason: str = "", **changes) -> Category:
    """Change a category: any of :data:`CATEGORY_FIELDS`. A change of ``kind`` clears the fields the new
    kind does not use. Recorded in the history with ``reason`` (optional). Raises PermissionDenied,
    NotFound (deleted meanwhile), ValidationFailed naming the field."""
    tournament = _locked(Tournament(pk=category.tournament_id))
    _organiser(user, tournament, _("Only the organiser can change the categories."))
    unknown = sorted(set(changes) - set(CATEGORY_FIELDS))
    if unknown:
        raise ValidationFailed(_("%(f)s cannot be edited.") % {"f": unknown[0]}, field=unknown[0])
    row = Category.objects.select_for_update(of=("self",)).filter(pk=category.pk).first()
    if row is None:
        raise NotFound(_("This category no longer exists."))
    if "code" in changes:
        changes["code"] = _check_code(changes["code"])
        _code_taken(tournament, changes["code"], exclude=row.pk)
    if "name" in changes:
        changes["name"] = _clean_text(changes["name"], "name", 120, required=True)
    if "order" in changes:
        changes["order"] = _whole(changes["order"], "order", 0, 32767) or 0
    if "includes_unrated" in changes:
        changes["includes_unrated"] = _check_flag(changes["includes_unrated"], "includes_unrated")
    kind = str(changes.get("kind", row.kind) or "")
    current = {f: getattr(row, f) for f in _RULE_FIELDS}
    rule = _check_rule(kind, {**current, **{f: v for f, v in changes.items() if f in _RULE_FIELDS}})
    new = {**{f: v for f, v in changes.items() if f in ("code", "name", "order", "includes_unrated")}, "kind": kind,
           **rule}
    return _save_changes(row, new, tournament)


@audited("category.delete")
@transaction.atomic
def category_delete(*, category: Category, user=None, reason: str = "") -> None:
    """Delete a category and its prizes (the history keeps both). Raises PermissionDenied; NotFound
    when it is already gone."""
    tournament = _locked(Tournament(pk=category.tournament_id))
    _organiser(user, tournament, _("Only the organiser can change the categories."))
    row = Category.objects.select_for_update(of=("self",)).filter(pk=category.pk).first()
    if row is None:
        raise NotFound(_("This category no longer exists."))
    for prize in Prize.objects.filter(category=row):
        prize.delete()  # one by one: a history row each
    row.delete()
    tournament_touch(tournament)


# --------------------------------------------------------------------------------------------
# Prizes
# --------------------------------------------------------------------------------------------


def _save_changes(row, new: dict, tournament: Tournament):
    """Write the fields of ``new`` that differ from ``row`` (nothing, and no version bump, when none do);
    returns ``row``."""
    changed = [f for f, v in new.items() if getattr(row, f) != v]
    if not changed:
        return row
    for f in changed:
        setattr(row, f, new[f])
    row.save(update_fields=changed)
    tournament_touch(tournament)
    return row


def _amount_text(text: str) -> str:
    """A prize value as typed, in Turkish or English style, as a plain decimal string: "1.000" and
    "1.000,50" (Turkish thousands and decimal comma) → "1000", "1000.50"; "1,000.50" → "1000.50";
    "500,00" → "500.00"; "250.50" stays. Groups of exactly three digits after a separator are thousands
    (a prize has at most two decimals, so "1.000" cannot mean one)."""
    s = text.strip().replace(" ", "").replace("\u00a0", "")
    if re.fullmatch(r"\d{1,3}(\.\d{3})+(,\d{1,2})?", s):
        return s.replace(".", "").replace(",", ".")
    if re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d{1,2})?", s):
        return s.replace(",", "")
    return s.replace(",", ".")


def _check_value(value) -> Decimal:
    if value in (None, ""):
        return Decimal("0")
    try:
        text = _amount_text(str(value))
        if not re.fullmatch(r"\d+(\.\d+)?", text):  # no sign, exponent, NaN or Infinity
            raise ValueError(text)
        d = Decimal(text)
    except (InvalidOperation, ValueError):
        raise ValidationFailed(_("Give the value as a number, e.g. 1000 or 250.50."), field="value") from None
    if not d.is_finite() or d < 0 or d > MAX_VALUE or d != d.quantize(Decimal("0.01")):
        raise ValidationFailed(_("The value is a number from 0 to 99,999,999.99 with at most two decimals."),
                               field="value")
    return d.quantize(Decimal("0.01"))


def _check_category(tournament: Tournament, category) -> Category | None:
    if category in (None, ""):
        return None
    if not isinstance(category, Category):
        category = Category.objects.filter(tournament=tournament, pk=category).first() \
            if str(category).isdecimal() else None
    if category is None or category.tournament_id != tournament.pk:
        raise ValidationFailed(_("Choose a category of this tournament."), field="category")
    return category


def _list_name(category: Category | None) -> str:
    return category.name if category is not None else _("overall")


def _check_list(tournament: Tournament, *, category: Category | None, place: int, value: Decimal,
                exclude: int | None = None) -> None:
    """Place unique in its list (overall or the category's), and a better place worth at least as much as
    a worse one (so places are handed out in order: ``tournaments.standings.prizes``)."""
    same = Prize.objects.filter(tournament=tournament, category=category)
    if exclude is not None:
        same = same.exclude(pk=exclude)
    if same.filter(place=place).exists():
        raise ValidationFailed(
            _("The %(list)s prize list already has a prize for place %(p)d.") % {"list": _list_name(category), "p": place},
            field="place",
        )
    better = same.filter(place__lt=place, value__lt=value).order_by("place").first()
    if better is not None:
        raise ValidationFailed(
            _("Place %(p)d would be worth more than place %(q)d (%(v)s); a better place is worth at least as much.")
            % {"p": place, "q": better.place, "v": better.value},
            field="value",
        )
    worse = same.filter(place__gt=place, value__gt=value).order_by("place").first()
    if worse is not None:
        raise ValidationFailed(
            _("Place %(p)d would be worth less than place %(q)d (%(v)s); a better place is worth at least as much.")
            % {"p": place, "q": worse.place, "v": worse.value},
            field="value",
        )


@audited("prize.create")
@transaction.atomic
def prize_create(
    *, tournament: Tournament, place: int, label: str, value=Decimal("0"), category: Category | int | None = None,
    money: bool = False, user=None,
) -> Prize:
    """Add a prize: for ``place`` (1 = first) of the overall standings (``category`` None) or of a
    category, described by ``label`` (an amount, a trophy, a medal), worth ``value`` (orders the prizes
    for the rule "one prize per player, the most valuable": money, or points given to trophies);
    ``money``: a cash prize, shared among tied players (else indivisible: a lot decides a tie).
    Raises PermissionDenied; ValidationFailed naming the field (``place`` taken in that list or out of
    1..999, ``value`` negative or above a better place's, ``category`` of another tournament, ``label``
    empty or too long)."""
    _organiser(user, tournament, _("Only the organiser can change the prize list."))
    tournament = _locked(tournament)
    category = _check_category(tournament, category)
    place = _whole(place, "place", 1, MAX_PLACE)
    if place is None:
        raise ValidationFailed(_("Give the place (1 = first)."), field="place")
    label = _clean_text(label, "label", 120, required=True)
    value = _check_value(value)
    _check_list(tournament, category=category, place=place, value=value)
    prize = Prize.objects.create(tournament=tournament, category=category, place=place, label=label, value=value,
                                 money=_check_flag(money, "money"))
    tournament_touch(tournament)
    return prize


PRIZE_FIELDS = ("place", "label", "value", "category", "money")


@audited("prize.edit")
@transaction.atomic
def prize_update(*, prize: Prize, user=None, reason: str = "", **changes) -> Prize:
    """Change a prize: any of :data:`PRIZE_FIELDS` (checked as by :func:`prize_create`). Recorded in
    the history with ``reason`` (optional)."""
    tournament = _locked(Tournament(pk=prize.tournament_id))
    _organiser(user, tournament, _("Only the organiser can change the prize list."))
    unknown = sorted(set(changes) - set(PRIZE_FIELDS))
    if unknown:
        raise ValidationFailed(_("%(f)s cannot be edited.") % {"f": unknown[0]}, field=unknown[0])
    row = Prize.objects.select_for_update(of=("self",)).filter(pk=prize.pk).first()
    if row is None:
        raise NotFound(_("This prize no longer exists."))
    new = {
        "category": _check_category(tournament, changes["category"]) if "category" in changes else row.category,
        "place": _whole(changes["place"], "place", 1, MAX_PLACE) if "place" in changes else row.place,
        "label": _clean_text(changes["label"], "label", 120, required=True) if "label" in changes else row.label,
        "value": _check_value(changes["value"]) if "value" in changes else row.value,
        "money": _check_flag(changes["money"], "money") if "money" in changes else row.money,
    }
    if new["place"] is None:
        raise ValidationFailed(_("Give the place (1 = first)."), field="place")
    _check_list(tournament, category=new["category"], place=new["place"], value=new["value"], exclude=row.pk)
    return _save_changes(row, new, tournament)


@audited("prize.delete")
@transaction.atomic
def prize_delete(*, prize: Prize, user=None, reason: str = "") -> None:
    """Delete a prize (the history keeps it). Raises PermissionDenied; NotFound when it is already gone."""
    tournament = _locked(Tournament(pk=prize.tournament_id))
    _organiser(user, tournament, _("Only the organiser can change the prize list."))
    row = Prize.objects.select_for_update(of=("self",)).filter(pk=prize.pk).first()
    if row is None:
        raise NotFound(_("This prize no longer exists."))
    row.delete()
    tournament_touch(tournament)


# --------------------------------------------------------------------------------------------
# The prize rules of the event (issue 25)
# --------------------------------------------------------------------------------------------


@audited("tournament.prize_rules")
@transaction.atomic
def tournament_prize_rules_update(
    *, tournament: Tournament, user=None, reason: str = "", prize_sharing: str | None = None,
    prizes_to_withdrawn: bool | None = None,
) -> Tournament:
    """Set how the prize list treats ties and withdrawals (``tournaments.standings.prizes``):
    ``prize_sharing`` (``tiebreaks``: only players level on points and every tie-break share; ``points``:
    players level on points share equally; ``hort``: the Hort system) is announced before the event and
    fixed once round 1 is paired; ``prizes_to_withdrawn`` (a player who withdrew before the last round
    can take a prize; default no) at any time. None leaves a setting as it is. Recorded in the history
    with ``reason``. Raises PermissionDenied; ValidationFailed naming the field; Conflict."""
    _organiser(user, tournament, _("Only the organiser can change the prize list."))
    tournament = _locked(tournament)
    changes = {}
    if prize_sharing is not None:
        if prize_sharing not in Tournament.PrizeSharing.values:
            raise ValidationFailed(
                _("Unknown way of sharing prizes %(v)s; valid: %(valid)s.")
                % {"v": str(prize_sharing)[:20], "valid": ", ".join(Tournament.PrizeSharing.values)},
                field="prize_sharing",
            )
        if prize_sharing != tournament.prize_sharing:
            if tournament.rounds.exists():
                raise Conflict(
                    _("How prize money is shared is announced before the event: it is fixed once round 1 is paired."),
                    field="prize_sharing",
                )
            changes["prize_sharing"] = prize_sharing
    if prizes_to_withdrawn is not None:
        flag = _check_flag(prizes_to_withdrawn, "prizes_to_withdrawn")
        if flag != tournament.prizes_to_withdrawn:
            changes["prizes_to_withdrawn"] = flag
    if changes:
        for field, value in changes.items():
            setattr(tournament, field, value)
        tournament.save(update_fields=list(changes))
        tournament_touch(tournament)
    return tournament


@audited("tournament.prize_lot")
@transaction.atomic
def tournament_prize_lot_draw(*, tournament: Tournament, user=None, reason: str = "") -> Tournament:
    """Draw the seed of the lot for indivisible prizes among players level on everything: a random
    secret (:func:`secrets.token_hex`), stored once and shown on the prize list, from which
    :func:`tournaments.standings.prizes.lot_order` derives the order (anyone can re-check it). Raises
    PermissionDenied; Conflict when it is drawn already."""
    _organiser(user, tournament, _("Only the organiser can change the prize list."))
    tournament = _locked(tournament)
    if tournament.prize_lot_seed:
        raise Conflict(_("The prize lot is drawn already; it is drawn only once."), field="prize_lot_seed")
    tournament.prize_lot_seed = secrets.token_hex(16)
    tournament.save(update_fields=["prize_lot_seed"])
    tournament_touch(tournament)
    return tournament
