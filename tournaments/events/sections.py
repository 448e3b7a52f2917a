"""Which section of a multi-section event a player fits (issue 14) — a pure rule, no database.

A section's rule (:class:`SectionRule`, from ``Tournament.section_birth_year_min`` /
``section_birth_year_max`` / ``section_sex``) admits players born in ``birth_year_min`` ..
``birth_year_max`` (both ends included, either end open) and of ``sex`` (``"f"`` girls / women,
``"m"`` boys / men, ``""`` anyone). Only the birth year of a player is known, so an age is "the age
reached in the event's age year" (``Event.age_year``: the year of its reference date, else of its
start date): born 2016, age year 2026 → 10.

Examples, for a school championship in 2026 (age year 2026)::

    >>> ilk_kiz = SectionRule(key="ilkokul-kiz", birth_year_min=2015, birth_year_max=2018, sex="f")
    >>> ilk_erkek = SectionRule(key="ilkokul-erkek", birth_year_min=2015, birth_year_max=2018, sex="m")
    >>> orta = SectionRule(key="ortaokul", birth_year_min=2011, birth_year_max=2014)
    >>> rules = [ilk_kiz, ilk_erkek, orta]
    >>> [r.key for r in fitting_sections(rules, birth_year=2016, sex="f")]     # a girl of 10
    ['ilkokul-kiz']
    >>> [r.key for r in fitting_sections(rules, birth_year=2013, sex="m")]     # a boy of 13
    ['ortaokul']
    >>> [r.key for r in fitting_sections(rules, birth_year=2009, sex="f")]     # 17: no section fits
    []
    >>> acik = SectionRule(key="acik")                                         # an open section: anyone
    >>> [r.key for r in fitting_sections(rules + [acik], birth_year=2016, sex="f")]   # several fit
    ['ilkokul-kiz', 'acik']
    >>> [r.key for r in fitting_sections(rules, birth_year=None, sex="f")]     # birth year unknown
    []
    >>> birth_years_for_ages(2026, min_age=8, max_age=11)                      # İlkokul by age
    (2015, 2018)
    >>> ages_for_birth_years(2026, 2015, 2018)
    (8, 11)

A player whose birth year or sex is not known fits only the sections that do not ask for it. A
player "born" after the age year fits nothing with a birth-year bound (a typing error, not a baby).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

SEXES = ("", "f", "m")


@dataclass(frozen=True)
class SectionRule:
    """One section's rule. ``key`` is whatever identifies the section to the caller (a
    ``Tournament`` id, a slug); ``None`` bounds are open."""

    key: Any = None
    birth_year_min: int | None = None
    birth_year_max: int | None = None
    sex: str = ""

    @classmethod
    def of(cls, tournament) -> SectionRule:
        """The rule of a section (a ``Tournament`` or anything with its ``section_*`` attributes); the
        key is the object itself."""
        return cls(
            key=tournament, birth_year_min=tournament.section_birth_year_min,
            birth_year_max=tournament.section_birth_year_max, sex=tournament.section_sex or "",
        )

    @property
    def asks_birth_year(self) -> bool:
        return self.birth_year_min is not None or self.birth_year_max is not None

    def fits(self, *, birth_year: int | None, sex: str | None, age_year: int | None = None) -> bool:
        """True when a player born in ``birth_year`` of ``sex`` may play in this section."""
        if self.sex and (sex or "") != self.sex:
            return False
        if not self.asks_birth_year:
            return True
        if birth_year is None:
            return False
        if age_year is not None and birth_year > age_year:
            return False
        if self.birth_year_min is not None and birth_year < self.birth_year_min:
            return False
        if self.birth_year_max is not None and birth_year > self.birth_year_max:
            return False
        return True

    def ages(self, age_year: int | None) -> tuple[int | None, int | None]:
        """The (youngest, oldest) age reached in ``age_year``; ``(None, None)`` without an age year."""
        if age_year is None:
            return None, None
        return ages_for_birth_years(age_year, self.birth_year_min, self.birth_year_max)


def fitting_sections(
    rules: Iterable[SectionRule], *, birth_year: int | None, sex: str | None, age_year: int | None = None
) -> list[SectionRule]:
    """The rules (in the order given) that admit a player born in ``birth_year`` of ``sex``: none, one
    or several. With ``age_year``, a birth year after it fits no section with a birth-year bound."""
    return [r for r in rules if r.fits(birth_year=birth_year, sex=sex, age_year=age_year)]


def birth_years_for_ages(age_year: int, *, min_age: int | None = None, max_age: int | None = None
                         ) -> tuple[int | None, int | None]:
    """The birth years (``birth_year_min``, ``birth_year_max``) of players aged ``min_age`` ..
    ``max_age`` in ``age_year`` (either end open): ages 8-11 in 2026 → born 2015-2018."""
    lowest = age_year - max_age if max_age is not None else None
    highest = age_year - min_age if min_age is not None else None
    return lowest, highest


def ages_for_birth_years(age_year: int, birth_year_min: int | None, birth_year_max: int | None
                         ) -> tuple[int | None, int | None]:
    """The (youngest, oldest) age in ``age_year`` of players born ``birth_year_min`` ..
    ``birth_year_max``: born 2015-2018, 2026 → (8, 11)."""
    youngest = age_year - birth_year_max if birth_year_max is not None else None
    oldest = age_year - birth_year_min if birth_year_min is not None else None
    return youngest, oldest


def overlapping(rules: Sequence[SectionRule]) -> list[tuple[SectionRule, SectionRule]]:
    """Pairs of rules some player would fit both of (then that player stays unplaced until the
    organiser chooses): same or open sex, and birth-year ranges that meet."""
    out = []
    for i, a in enumerate(rules):
        for b in rules[i + 1:]:
            if a.sex and b.sex and a.sex != b.sex:
                continue
            low = max(y for y in (a.birth_year_min, b.birth_year_min, -10**6) if y is not None)
            high = min(y for y in (a.birth_year_max, b.birth_year_max, 10**6) if y is not None)
            if low <= high:
                out.append((a, b))
    return out
