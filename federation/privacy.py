"""Personal data of players (KVKK): who sees what, and what the public sees instead.

* The public (anonymous visitors, players, referees) sees a player's name, club, city, rating and
  **age category** (:func:`age_category`: U10…U20, open, 50+, 65+ — the groups of
  :data:`AGE_GROUPS`), never the birth year or the sex: not in the API (players,
  rating list, tournament entries), not on the pages (player list and page, rating list), not in the
  public TRF export (birth date and sex columns blank).
* Federation staff see everything (:func:`sees_personal_data`); organisers of an event see the
  birth year and sex of its entries (API) and get them in its TRF export
  (:func:`tournaments.access.sees_event_personal_data`); a player logged in with their own account sees their own.
* People are named by :func:`display_name` (first and last name, or "—"), never by their user name.
"""
from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from federation import roles

#: What a user without first and last name is shown as.
NO_NAME = "—"

#: Age groups of the rating list, the official lists and the public age category: key -> (label, youngest
#: age, oldest age) with age = year - birth year ("U12": born in year-12 or later, FIDE youth style;
#: "50+": 50 or older during the year).
AGE_GROUPS: dict[str, tuple[str, int | None, int | None]] = {
    "u10": ("U10", None, 10),
    "u12": ("U12", None, 12),
    "u14": ("U14", None, 14),
    "u16": ("U16", None, 16),
    "u18": ("U18", None, 18),
    "u20": ("U20", None, 20),
    "open": ("Open", None, None),
    "50plus": ("50+", 50, None),
    "65plus": ("65+", 65, None),
}


def sees_personal_data(user, player=None) -> bool:
    """Federation staff; or the user linked to ``player`` (their own data)."""
    if roles.is_staff(user):
        return True
    return (
        player is not None
        and getattr(user, "is_authenticated", False)
        and player.user_id is not None
        and player.user_id == user.pk
    )


def _groups() -> tuple[list[tuple[str, int]], list[tuple[str, int]], str]:
    """(youth groups by oldest age ascending, senior groups by youngest age descending, open key)."""
    youth = sorted(((k, old) for k, (_l, young, old) in AGE_GROUPS.items() if young is None and old is not None),
                   key=lambda kv: kv[1])
    senior = sorted(((k, young) for k, (_l, young, old) in AGE_GROUPS.items() if young is not None and old is None),
                    key=lambda kv: -kv[1])
    open_key = next((k for k, (_l, young, old) in AGE_GROUPS.items() if young is None and old is None), "open")
    return youth, senior, open_key


def age_category(birth_year: int | None, year: int | None = None) -> str | None:
    """The narrowest age group of :data:`AGE_GROUPS` a player born in
    ``birth_year`` belongs to in ``year`` (default: this year), by the rating list's rule
    age = year − birth year: ``"u12"`` for 11 or 12, ``"50plus"`` for 50…64, ``"open"`` between the
    youth and senior groups. ``None`` when the birth year is unknown."""
    if birth_year is None:
        return None
    age = (year or timezone.localdate().year) - birth_year
    youth, senior, open_key = _groups()
    for key, oldest in youth:
        if age <= oldest:
            return key
    for key, youngest in senior:
        if age >= youngest:
            return key
    return open_key


def age_category_label(key: str | None) -> str:
    """``"U12"``, ``"50+"``, the translated "Open"; "—" for None."""
    if key is None:
        return NO_NAME
    if key == "open":
        return _("Open")
    return AGE_GROUPS[key][0]


def display_name(user) -> str:
    """What pages and the API call a user: "First Last", or "—" (never the user name)."""
    if user is None:
        return NO_NAME
    name = f"{getattr(user, 'first_name', '') or ''} {getattr(user, 'last_name', '') or ''}".strip()
    return name or NO_NAME


def public_player_fields(data: dict, *, personal: bool) -> dict:
    """Remove ``birth_year`` and ``sex`` from a serialized player unless ``personal``."""
    if not personal:
        data.pop("birth_year", None)
        data.pop("sex", None)
    return data
