"""The one error hierarchy of the product, rendered the same way by the API and the UI.

Services raise :class:`ApplicationError` subclasses for anything a user can act on; the DRF
exception handler (``federation.api.exception_handler``) renders them as
``{"error": {"code", "message", "field"}}`` with ``status``; views show ``message`` to the user.
Anything else is a bug and becomes a 500.
"""
from __future__ import annotations

import re


class ApplicationError(Exception):
    """A refusal a user can act on.

    Attributes:
        message: human-readable reason (already translated where it comes from the UI layer).
        field: the input field at fault, or ``None`` when the whole request is.
        code: a stable machine-readable code, e.g. ``"invalid"``, ``"conflict"``.
        status: HTTP status used by the API (400 unless a subclass says otherwise).
    """

    status = 400
    default_code = "invalid"

    def __init__(self, message: str, *, field: str | None = None, code: str | None = None, extra: dict | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code or self.default_code
        self.extra = extra or {}

    def as_dict(self) -> dict:
        """``{"code", "message", "field"}`` — the body of an API error — plus any ``extra`` keys
        (e.g. ``"current"``: the stored value a stale write lost to)."""
        return {"code": self.code, "message": self.message, "field": self.field, **self.extra}


class ValidationFailed(ApplicationError):
    """Input that breaks a rule (RULES.md, a constraint, a format). HTTP 400."""


class PermissionDenied(ApplicationError):
    """The user may not do this (role or ownership). HTTP 403."""

    status = 403
    default_code = "permission_denied"


class NotFound(ApplicationError):
    """The object does not exist or is not visible to this user. HTTP 404."""

    status = 404
    default_code = "not_found"


class Conflict(ApplicationError):
    """The request does not fit the current state (e.g. pairing a round twice). HTTP 409."""

    status = 409
    default_code = "conflict"


class PreconditionRequired(ApplicationError):
    """A write that would change an existing value did not say which version it saw (``version`` in
    the body or ``If-Match``). HTTP 428 (RFC 6585)."""

    status = 428
    default_code = "version_required"


# --------------------------------------------------------------------------------------------
# Database refusals in words (a constraint name such as ``set_stones_sum_48`` never reaches a user)
# --------------------------------------------------------------------------------------------

def _constraint_messages() -> dict:
    from django.utils.translation import gettext_lazy as _

    return {
        # sets and matches (RULES.md, Kural 1 and 14)
        "set_stones_sum_48": _("The stones of a set must total 48 (Kural 1)."),
        "set_stones_range": _("A store holds 0 to 48 stones."),
        "set_number_range": _("A match has at most 7 sets."),
        "set_unique_number": _("A set was entered twice."),
        "set_starter_values": _("A set is started by white or black."),
        "match_white_points_values": _("A match gives each player 1, ½ or 0 points."),
        "match_black_points_values": _("A match gives each player 1, ½ or 0 points."),
        "match_points_both_or_none": _("A match result gives points to both players or to neither."),
        "match_kind_shape": _("A game has two players, a bye one."),
        "match_not_self": _("A player cannot play against themselves."),
        "match_unique_board": _("Two games cannot share a board."),
        "match_board_positive": _("Boards are numbered from 1."),
        # entries, rounds, byes, forbidden pairs, roles
        "entry_unique_player": _("This player is already in the tournament."),
        "entry_unique_start_no": _("Two players cannot share a starting number."),
        "entry_start_no_positive": _("Starting numbers begin at 1."),
        "round_unique_number": _("This round exists already."),
        "round_number_positive": _("Rounds are numbered from 1."),
        "absence_unique_round": _("This player already has a bye or absence in that round."),
        "absence_round_positive": _("Rounds are numbered from 1."),
        "forbidden_pair_unique": _("These two players are already a forbidden pair."),
        "forbidden_pair_ordered": _("A forbidden pair needs two different players."),
        "forbidden_pair_round_range": _("The last round of a forbidden pair cannot be before its first."),
        "tournament_role_unique": _("This user already has this role in the tournament."),
        "tournament_rounds_range": _("The number of rounds must be between 1 and 99."),
        "tournament_sets_per_match_odd": _("Sets per match must be odd (1, 3, 5 or 7)."),
        "tournament_dates_ordered": _("The end date is before the start date."),
        # members and ratings
        "player_birth_year_range": _("The birth year must be between 1900 and 2100."),
        "player_rating_range": _("A rating is at most 4000."),
        "player_not_merged_into_self": _("A player cannot be merged into themselves."),
        "initial_rating_range": _("A rating is at most 4000."),
        # unique columns (PostgreSQL names them <table>_<column>_key, SQLite <table>.<column>)
        "federation_player_federation_id": _("This federation id is taken."),
        "federation_player.federation_id": _("This federation id is taken."),
        "federation_club_name": _("There is already a club with this name."),
        "federation_club.name": _("There is already a club with this name."),
        "tournaments_tournament_slug": _("There is already a tournament with this short name."),
        "tournaments_tournament.slug": _("There is already a tournament with this short name."),
        # SQLite names the columns of a unique constraint, not the constraint
        "tournaments_entry.tournament_id, tournaments_entry.player_id": _("This player is already in the tournament."),
        "tournaments_entry.tournament_id, tournaments_entry.start_no": _("Two players cannot share a starting number."),
        "tournaments_round.tournament_id, tournaments_round.number": _("This round exists already."),
        "tournaments_match.round_id, tournaments_match.board": _("Two games cannot share a board."),
        "tournaments_setresult.match_id, tournaments_setresult.number": _("A set was entered twice."),
    }


def integrity_error_message(exc: BaseException) -> str:
    """What a database refusal (``IntegrityError``) means, in the user's language — never the
    constraint's name or the SQL text. Known constraints get their own sentence (``set_stones_sum_48`` →
    "The stones of a set must total 48"), anything else a general one."""
    from django.utils.translation import gettext

    cause = getattr(exc, "__cause__", None)
    name = getattr(getattr(cause, "diag", None), "constraint_name", None) or ""  # psycopg
    text = f"{name} {exc}"
    messages = _constraint_messages()
    for key in sorted(messages, key=len, reverse=True):  # the longest name first (…_range_x before …_range)
        if key in text:
            return str(messages[key])
    return gettext("The change breaks a rule of the database and was not saved. Reload the page and check "
                   "the data.")


def validation_error_message(exc) -> str:
    """The messages of a Django ``ValidationError`` as one text, a constraint's default message
    ("Constraint “set_stones_sum_48” is violated.") replaced by its sentence (:func:`integrity_error_message`)."""
    messages = _constraint_messages()
    out = []
    for text in getattr(exc, "messages", None) or [str(exc)]:
        known = next((str(messages[k]) for k in sorted(messages, key=len, reverse=True) if k in text), None)
        if known is None and re.search(r"[“\"«][a-z0-9]+(?:_[a-z0-9]+)+[”\"»]", str(text)):
            known = integrity_error_message(exc)  # another constraint's name: the general sentence
        out.append(known or str(text))
    return " ".join(dict.fromkeys(out))
