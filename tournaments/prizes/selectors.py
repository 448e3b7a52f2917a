"""Reads of category rankings and the prize list (issue 14), each with a fixed number of queries.

A category's table is read out of the overall standings (:func:`tournaments.selectors.tournament_standings`,
the same rounds and tie-breaks): its members in standings order, ranked within the category
(:func:`tournaments.standings.categories.rank_in_category`), each line keeping its overall rank
(``StandingLine.overall_rank``). Membership is decided by the pure core
:mod:`tournaments.standings.categories` from one query of the entries' facts (birth year, sex, rating at
entry, club, city); the prize list by :mod:`tournaments.standings.prizes`.

Queries: the categories (1), the entries' facts (1), the prizes (1, prize list only), the rounds the
withdrawn players left after (1, prize list only, only when a player withdrew), the event's year (1, only
when the tournament has no start date and is a section of an event), plus the standings' own.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from decimal import Decimal

from django.utils import timezone
from django.utils.translation import gettext as _

from federation.collation import search_fold
from federation.errors import ValidationFailed
from tournaments import selectors
from tournaments.models import Category, Entry, Prize, Tournament
from tournaments.standings.categories import (
    CategoryRule,
    PlayerFacts,
    age_year,
    members,
    rank_in_category,
)
from tournaments.standings.prizes import PrizeSpec, Ranked, distribute


@dataclass(frozen=True, slots=True)
class CategoryInfo:
    """What lists and menus show of a category: ``code`` (what ``?category=`` takes), ``name``, ``kind``."""

    code: str
    name: str
    kind: str


def tournament_categories(*, tournament: Tournament) -> list[Category]:
    """The tournament's categories in their order (one query)."""
    return list(Category.objects.filter(tournament=tournament).select_related("club").order_by("order", "code"))


def category_infos(*, tournament: Tournament) -> tuple[CategoryInfo, ...]:
    """:class:`CategoryInfo` of each category, in order (one query; plain values, safe to cache)."""
    rows = Category.objects.filter(tournament=tournament).order_by("order", "code").values_list("code", "name", "kind")
    return tuple(CategoryInfo(code, name, kind) for code, name, kind in rows)


def find_category(categories, code: str):
    """The category (a :class:`Category` or :class:`CategoryInfo`) of ``categories`` with ``code`` (case
    does not matter); ValidationFailed with field ``category`` when there is none."""
    wanted = str(code or "").strip().upper()
    found = next((c for c in categories if c.code == wanted), None)
    if found is None:
        valid = ", ".join(c.code for c in categories) or _("none")
        raise ValidationFailed(
            _("No category %(code)s in this tournament; its categories: %(valid)s.")
            % {"code": str(code or "")[:40], "valid": valid},
            field="category",
        )
    return found


def category_age_year(tournament: Tournament) -> int:
    """The year ages are counted in (:func:`tournaments.standings.categories.age_year`): its event's
    reference year, else the tournament's start year, else this year."""
    event_year = tournament.event.age_year if tournament.event_id is not None else None
    return age_year(
        start_year=tournament.start_date.year if tournament.start_date else None,
        event_year=event_year, current_year=timezone.localdate().year,
    )


def rule_text(category: Category, year: int) -> str:
    """The rule of ``category`` in words, in the current language: "born in 2014 or later", "girls /
    women", "rating 1200–1499", "club: Ankara Mangala Kulübü" (ages counted in ``year``)."""
    from tournaments.standings.categories import birth_year_bounds

    kind = category.kind
    if kind == Category.Kind.AGE:
        earliest, latest = birth_year_bounds(category_rule(category), year)
        if earliest is not None and latest is not None:
            return _("born in %(a)d–%(b)d") % {"a": earliest, "b": latest}
        if earliest is not None:
            return _("born in %(a)d or later") % {"a": earliest}
        return _("born in %(b)d or earlier") % {"b": latest}
    if kind == Category.Kind.RATING:
        lo, hi = category.rating_min, category.rating_max
        if lo is not None and hi is not None:
            return _("rating at entry %(lo)d–%(hi)d") % {"lo": lo, "hi": hi}
        if lo is not None:
            return _("rating at entry %(lo)d or more") % {"lo": lo}
        return _("rating at entry up to %(hi)d") % {"hi": hi}
    if kind == Category.Kind.UNRATED:
        return _("no rating at entry")
    if kind == Category.Kind.CLUB:
        return _("club: %(name)s") % {"name": category.club.name if category.club_id else "—"}
    if kind == Category.Kind.CITY:
        return _("city: %(name)s") % {"name": category.city}
    return str(category.get_kind_display())


def category_rule(category: Category) -> CategoryRule:
    """The pure core's rule of ``category`` (its city folded like the players')."""
    return CategoryRule(
        code=category.code, kind=category.kind, max_age=category.max_age, min_age=category.min_age,
        rating_min=category.rating_min, rating_max=category.rating_max, club_id=category.club_id,
        city=search_fold(category.city), includes_unrated=category.includes_unrated,
    )


def entry_facts(*, tournament: Tournament) -> list[PlayerFacts]:
    """One :class:`PlayerFacts` per entry (``id`` = entry id; one query): birth year and sex of the
    player, the rating at entry, the player's club, the player's city (else the club's), folded
    (:func:`federation.collation.search_fold`)."""
    rows = Entry.objects.filter(tournament=tournament).values_list(
        "id", "rating", "player__birth_year", "player__sex", "player__club_id", "player__city", "player__club__city"
    )
    return [
        PlayerFacts(id=pk, birth_year=born, sex=sex or "", rating=rating or 0, club_id=club_id,
                    city=search_fold(city or club_city or ""))
        for pk, rating, born, sex, club_id, city, club_city in rows
    ]


def category_members(*, tournament: Tournament, categories) -> dict[str, frozenset[int]]:
    """Category code → the entry ids of its members (one query for the entries)."""
    facts = entry_facts(tournament=tournament)
    year = category_age_year(tournament)
    return {c.code: members(facts, category_rule(c), year=year) for c in categories}


def standings_in_category(standings: selectors.Standings, member_ids) -> selectors.Standings:
    """``standings`` reduced to ``member_ids`` (entry ids), ranked within the category; each line's
    ``overall_rank`` is its rank in the whole field."""
    places = rank_in_category([(ln.entry_id, ln.rank) for ln in standings.lines], member_ids)
    by_id = {ln.entry_id: ln for ln in standings.lines}
    lines = tuple(
        dataclasses.replace(by_id[p.id], rank=p.rank, shared=p.shared, overall_rank=p.overall_rank) for p in places
    )
    return dataclasses.replace(standings, lines=lines, official_ranks_differ=False)


def category_standings(
    *, tournament: Tournament, code: str, public_only: bool = False, lang: str = "tr"
) -> tuple[Category, selectors.Standings]:
    """The table of category ``code`` (as :func:`tournaments.selectors.tournament_standings` with
    ``public_only``, reduced to the category). ValidationFailed (field ``category``) for an unknown code."""
    category = find_category(tournament_categories(tournament=tournament), code)
    ids = category_members(tournament=tournament, categories=[category])[category.code]
    st = selectors.tournament_standings(tournament=tournament, public_only=public_only, lang=lang)
    return category, standings_in_category(st, ids)


def category_crosstable(*, tournament: Tournament, code: str, public_only: bool = True, lang: str = "tr"):
    """The crosstable's rows of category ``code`` (:func:`tournaments.selectors.tournament_crosstable`),
    ranked within the category; the cells still name the opponents by starting number."""
    category = find_category(tournament_categories(tournament=tournament), code)
    ids = category_members(tournament=tournament, categories=[category])[category.code]
    table = selectors.tournament_crosstable(tournament=tournament, public_only=public_only, lang=lang)
    st = standings_in_category(table.standings, ids)
    by_id = {row.line.entry_id: row for row in table.rows}
    rows = tuple(dataclasses.replace(by_id[ln.entry_id], line=ln) for ln in st.lines)
    return category, dataclasses.replace(table, standings=st, rows=rows)


# --------------------------------------------------------------------------------------------
# The prize list
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PrizeLine:
    """One prize and its winner: ``winner`` is the winner's overall standings line (None: unawarded,
    shared or pending a lot), ``place_in_list`` the winner's rank within the prize's list (the category's
    rank; for an overall prize the overall rank). A shared money prize: ``shares`` (each sharer's line
    and amount) and ``pooled_places`` (the places of the list pooled together). ``tied``: the players
    level on everything who drew (``by_lot``) or still have to draw (``lot_pending``) lots for it."""

    prize_id: int
    place: int
    label: str
    value: Decimal
    category_code: str | None
    category_name: str
    winner: selectors.StandingLine | None
    place_in_list: int | None
    money: bool = False
    shares: tuple = ()
    pooled_places: tuple[int, ...] = ()
    tied: tuple = ()
    by_lot: bool = False
    lot_pending: bool = False


@dataclass(frozen=True, slots=True)
class PassedOverLine:
    """A player who would have had ``prize`` (its list name and label) but withdrew before the last round."""

    line: selectors.StandingLine
    list_name: str
    label: str


@dataclass(frozen=True, slots=True)
class OutsideLine:
    """A player tied just outside the prizes of a list: ``reason`` ``"lot"`` or ``"tiebreaks"``."""

    line: selectors.StandingLine
    list_name: str
    reason: str


@dataclass(frozen=True, slots=True)
class CategoryTable:
    """A category with its table (:func:`standings_in_category`)."""

    code: str
    name: str
    kind: str
    standings: selectors.Standings


@dataclass(frozen=True, slots=True)
class PrizeList:
    """The prize list: ``prizes`` (overall first by place, then each category's, in the categories'
    order), the overall ``standings`` it was decided on, ``tables`` (each category's table) and
    ``final`` (every round is closed and counted: the allocation no longer changes unless a result is
    corrected); ``passed_over`` (withdrawn players passed over, and why), ``outside`` (players tied just
    outside the prizes), the event's ``sharing`` and ``withdrawn_may_win`` settings and the lot's ``seed``."""

    standings: selectors.Standings
    prizes: tuple[PrizeLine, ...]
    tables: tuple[CategoryTable, ...]
    final: bool
    passed_over: tuple[PassedOverLine, ...] = ()
    outside: tuple[OutsideLine, ...] = ()
    sharing: str = "tiebreaks"
    withdrawn_may_win: bool = False
    seed: str = ""

    @property
    def awarded(self) -> int:
        return sum(1 for p in self.prizes if p.winner is not None or p.shares)

    @property
    def lot_pending(self) -> bool:
        return any(p.lot_pending for p in self.prizes)

    @property
    def lot_drawn(self) -> bool:
        return any(p.by_lot for p in self.prizes)


def withdrawn_early(*, tournament: Tournament) -> frozenset[int]:
    """Entry ids of the players who withdrew before the last round (one query)."""
    rows = Entry.objects.filter(tournament=tournament, withdrawn=True).values_list("id", "withdrawn_after_round")
    return frozenset(pk for pk, after in rows if after is None or after < tournament.rounds_total)


def prize_list(*, tournament: Tournament, public_only: bool = False, lang: str = "tr") -> PrizeList:
    """Who wins which prize (:func:`tournaments.standings.prizes.distribute`: one prize per player, the most
    valuable; each to the best-ranked eligible player not awarded yet; players level on everything
    treated alike; the event's sharing and withdrawal settings) on the standings ``public_only`` would
    show, with every category's table."""
    categories = tournament_categories(tournament=tournament)
    by_code = {c.code: c for c in categories}
    by_pk = {c.pk: c for c in categories}
    member_ids = category_members(tournament=tournament, categories=categories)
    st = selectors.tournament_standings(tournament=tournament, public_only=public_only, lang=lang)
    prizes = list(Prize.objects.filter(tournament=tournament))
    specs = [
        PrizeSpec(id=p.pk, place=p.place, value=p.value,
                  category=by_pk[p.category_id].code if p.category_id else None,
                  order=by_pk[p.category_id].order if p.category_id else 0, money=p.money)
        for p in prizes
    ]
    early = withdrawn_early(tournament=tournament) if any(ln.withdrawn for ln in st.lines) else frozenset()
    ranking = [
        Ranked(id=ln.entry_id, rank=ln.rank, points=Decimal(str(ln.points)), lot_key=ln.start_no,
               withdrawn_early=ln.entry_id in early)
        for ln in st.lines
    ]
    result = distribute(
        specs, ranking=ranking, eligible=member_ids, sharing=tournament.prize_sharing,
        seed=tournament.prize_lot_seed, withdrawn_may_win=tournament.prizes_to_withdrawn,
    )
    awards = {a.prize_id: a for a in result.awards}
    tables = {c.code: standings_in_category(st, member_ids[c.code]) for c in categories}
    line_of = {ln.entry_id: ln for ln in st.lines}
    category_rank = {code: {ln.entry_id: ln.rank for ln in t.lines} for code, t in tables.items()}
    position = {c.pk: i for i, c in enumerate(categories)}
    prizes.sort(key=lambda p: (p.category_id is not None, position.get(p.category_id, -1), p.place))
    place_of = {p.pk: p.place for p in prizes}
    lines = []
    for p in prizes:
        code = by_pk[p.category_id].code if p.category_id else None
        award = awards[p.pk]
        line = line_of.get(award.winner) if award.winner is not None else None
        if line is None:
            rank_in_list = None
        elif code is None:
            rank_in_list = line.rank
        else:
            rank_in_list = category_rank[code].get(award.winner)
        lines.append(PrizeLine(
            prize_id=p.pk, place=p.place, label=p.label, value=p.value, category_code=code,
            category_name=by_code[code].name if code else _("Overall"), winner=line, place_in_list=rank_in_list,
            money=p.money, shares=tuple((line_of[pid], amount) for pid, amount in award.shares),
            pooled_places=tuple(sorted(place_of[q] for q in award.pooled)),
            tied=tuple(line_of[pid] for pid in award.tied), by_lot=award.by_lot, lot_pending=award.lot_pending,
        ))
    list_name = {c.code: c.name for c in categories}
    prize_by_pk = {p.pk: p for p in prizes}

    def name_of(code):
        return list_name[code] if code else _("Overall")

    passed = tuple(
        PassedOverLine(
            line=line_of[o.player],
            list_name=name_of(by_pk[prize_by_pk[o.prize_id].category_id].code
                              if prize_by_pk[o.prize_id].category_id else None),
            label=prize_by_pk[o.prize_id].label,
        )
        for o in result.passed_over
    )
    outside = tuple(OutsideLine(line=line_of[o.player], list_name=name_of(o.category), reason=o.reason)
                    for o in result.outside)
    final = st.rounds >= tournament.rounds_total and not st.provisional
    return PrizeList(
        standings=st, prizes=tuple(lines),
        tables=tuple(CategoryTable(c.code, c.name, c.kind, tables[c.code]) for c in categories), final=final,
        passed_over=passed, outside=outside, sharing=tournament.prize_sharing,
        withdrawn_may_win=tournament.prizes_to_withdrawn, seed=tournament.prize_lot_seed,
    )
