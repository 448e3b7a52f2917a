"""Category rankings inside one tournament (issue 14): who belongs to a category, and the ranks within it
(pure Python, no Django).

School and youth events rank one open field and then read several tables out of it: the under-12s, the
girls, the unrated players, a rating band, a club, a city. A category never changes the pairings or the
overall standings; it is a filter on the final order.

Shapes::

    PlayerFacts(id=17, birth_year=2014, sex="f", rating=0, club_id=3, city="ankara")
    CategoryRule(code="U12", kind="age", max_age=12)
    is_member(player, rule, year=2026)            -> bool
    members(players, rule, year=2026)             -> frozenset of ids
    rank_in_category(ranking, member_ids)         -> tuple[CategoryPlace, ...]

Ages (birth year only is known): a player's age in ``year`` is ``year - birth_year`` (the age reached
during that year), as in FIDE youth and senior events and the federation's rating list
(``federation.privacy.age_category``). So **U12 = born in or after year − 12**: in 2026, born 2014 or
later. This is the FIDE style "under 12 on 1 January of the year" of the youth championships (a player
born in 2014 is 11 on 1 January 2026; only a birthday on 1 January itself differs, and the day is not
known). ``min_age`` works the other way: ``min_age=50``
(a 50+ table) = born in or before year − 50. The year ages are counted in is, by
:func:`age_year`, the reference year of the event the tournament is a section of (``Event.age_year``:
one year for the sections' rules and their categories alike), else the tournament's start year, else the
current year.

Sources: FIDE Handbook (World Youth / Cadet / Senior Championships regulations, age on 1 January);
common practice of national youth championships (one open, category prizes).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: The kinds of category (``tournaments.models.Category.Kind``).
AGE, GIRLS, BOYS, UNRATED, RATING, CLUB, CITY = "age", "girls", "boys", "unrated", "rating", "club", "city"
KINDS = (AGE, GIRLS, BOYS, UNRATED, RATING, CLUB, CITY)


@dataclass(frozen=True, slots=True)
class PlayerFacts:
    """What membership is decided on, for one participant.

    ``id``: the caller's id (an entry id). ``birth_year``: None when unknown (then in no age category).
    ``sex``: ``"f"``, ``"m"`` or ``""`` (unknown: in neither girls nor boys). ``rating``: the rating at
    entry (``Entry.rating``); 0 = unrated. ``club_id``: None = no club. ``city``: compared as given —
    the caller folds it and the rule's city the same way (the selectors use
    ``federation.collation.search_fold``: "İZMİR" and "izmir" are one city)."""

    id: int
    birth_year: int | None = None
    sex: str = ""
    rating: int = 0
    club_id: int | None = None
    city: str = ""


@dataclass(frozen=True, slots=True)
class CategoryRule:
    """A category's rule (``tournaments.models.Category``): ``kind`` one of :data:`KINDS` and its bounds —
    ``age``: ``max_age`` and/or ``min_age`` (ages as in the module docstring; either end open);
    ``rating``: ``rating_min`` <= rating <= ``rating_max`` (either end open); an unrated player (rating
    0) is in a rating band only when ``includes_unrated`` (then whatever the band: "U1600 and unrated");
    ``club``: ``club_id``; ``city``: ``city`` (folded like :attr:`PlayerFacts.city`); ``girls``,
    ``boys`` and ``unrated`` need nothing else."""

    code: str
    kind: str
    max_age: int | None = None
    min_age: int | None = None
    rating_min: int | None = None
    rating_max: int | None = None
    club_id: int | None = None
    city: str = ""
    includes_unrated: bool = False


@dataclass(frozen=True, slots=True)
class CategoryPlace:
    """One line of a category's table: ``id`` (the player's), ``rank`` within the category (players
    equal on points and every tie-break share it: 1, 2, 2, 4), ``shared`` and ``overall_rank`` (the
    rank in the whole field)."""

    id: int
    rank: int
    shared: bool
    overall_rank: int


def age_year(*, start_year: int | None, event_year: int | None, current_year: int) -> int:
    """The year ages are counted in: the reference year of the event the tournament is a section of
    (``Event.age_year``, which also places players in sections), else the tournament's start year, else
    ``current_year``. ``age_year(start_year=2026, event_year=2025, current_year=2030)`` → 2025."""
    if event_year is not None:
        return event_year
    if start_year is not None:
        return start_year
    return current_year


def birth_year_bounds(rule: CategoryRule, year: int) -> tuple[int | None, int | None]:
    """``(born in or after, born in or before)`` of an age rule in ``year`` (None = open):
    ``max_age=12`` in 2026 → ``(2014, None)``; ``min_age=50`` → ``(None, 1976)``."""
    earliest = None if rule.max_age is None else year - rule.max_age
    latest = None if rule.min_age is None else year - rule.min_age
    return earliest, latest


def is_member(player: PlayerFacts, rule: CategoryRule, *, year: int) -> bool:
    """Does ``player`` belong to the category ``rule`` in ``year`` (module docstring)? An unknown birth
    year or sex keeps a player out of age and girls/boys categories; an unknown kind raises ValueError."""
    kind = rule.kind
    if kind == AGE:
        if player.birth_year is None:
            return False
        earliest, latest = birth_year_bounds(rule, year)
        if earliest is not None and player.birth_year < earliest:
            return False
        return latest is None or player.birth_year <= latest
    if kind == GIRLS:
        return player.sex == "f"
    if kind == BOYS:
        return player.sex == "m"
    if kind == UNRATED:
        return not player.rating
    if kind == RATING:
        if not player.rating:
            return rule.includes_unrated
        rating = player.rating
        if rule.rating_min is not None and rating < rule.rating_min:
            return False
        return rule.rating_max is None or rating <= rule.rating_max
    if kind == CLUB:
        return rule.club_id is not None and player.club_id == rule.club_id
    if kind == CITY:
        return bool(rule.city) and player.city == rule.city
    raise ValueError(f"unknown category kind {kind!r}; valid: {', '.join(KINDS)}")


def members(players: Iterable[PlayerFacts], rule: CategoryRule, *, year: int) -> frozenset[int]:
    """The ids of ``players`` in the category ``rule`` in ``year``."""
    return frozenset(p.id for p in players if is_member(p, rule, year=year))


def rank_in_category(ranking: Sequence[tuple[int, int]], member_ids: Iterable[int]) -> tuple[CategoryPlace, ...]:
    """The category's table from the overall standings.

    ``ranking``: ``(id, overall rank)`` in standings order (ties already broken by the tie-breaks;
    players equal on everything share the overall rank, listed in the standings' order). Returns the
    members in that order; a member's rank is 1 + the number of members with a better overall rank,
    so the order and the shared places of the overall table carry over: overall 2, 5, 5, 9 → 1, 2, 2, 4.
    """
    wanted = frozenset(member_ids)
    picked = [(pid, rank) for pid, rank in ranking if pid in wanted]
    count = Counter(rank for _pid, rank in picked)
    out: list[CategoryPlace] = []
    better = 0
    for i, (pid, rank) in enumerate(picked):
        if i and rank != picked[i - 1][1]:
            better = i
        out.append(CategoryPlace(id=pid, rank=better + 1, shared=count[rank] > 1, overall_rank=rank))
    return tuple(out)
