"""The format of a tournament archive (``"format": "mangala-tournament"``, ``"format_version": 1``): the
keys of each object, and the fields of the tables the archive leaves out and why. Written by
:func:`tournaments.archive.selectors.tournament_export`, read by :mod:`tournaments.archive.reading`
and imported by :func:`tournaments.archive.services.tournament_import`.

The archive is everything the tournament owns, as plain JSON (no database ids: entries are named by
their starting number, players by their federation id):

* ``"format": "mangala-tournament"``, ``"format_version": 1``;
* ``tournament`` — every setting and state field (dates, system, rounds, tie-breaks and their rules
  text, accelerated pairing, round dates, sets per match, variant, bye points, status, which round the
  standings are published after and when, archived, imported from TRF, created at, ``version`` and
  ``standings_version``) and ``rated`` (whether the national rating counted it when it was exported);
* ``entries`` — starting number, rating at entry, withdrawal (and after which round), federation code,
  official rank, accelerations (virtual points), and the ``player`` (federation id, names, sex, birth
  year, city, active, and the ``club``'s own fields) so that a fresh database can register them;
* ``rounds`` — number, status and its times, modified by hand, the coin toss (seed, outcome, time), the
  hand changes of the pairing (time, reason, boards before and after by starting number) and the
  ``matches``: board, game or bye (and its kind), white and black, forfeit, points, rated, when the
  result was entered, ``version``, and the ``sets`` (number, starter, recorded stones, termination,
  stores at a withdrawal, move record);
* ``absences`` (byes requested ahead) and ``forbidden_pairs`` (with their rounds and reason).

Left out, on purpose: database ids; user accounts (who created the tournament, entered a result,
tossed the coin, changed a pairing, and the per-tournament organiser/referee roles) — accounts are not
part of a tournament and are never matched by name across databases (that would hand a stranger the
rights of ``created_by``); the importing user becomes ``created_by`` (and of the requested byes and
forbidden pairs, as the TRF import does); ``Player.rating`` and the rating history (rating events,
changes and lines, initial ratings) — they belong to the national rating, which computes them from
the results (a new player is registered with the rating of their entry, as ``player_register`` takes a
starting rating); the history rows (django-simple-history) of the exported rows; the search keys
(derived); records of jobs (TRF and record imports).
"""
from __future__ import annotations

FORMAT = "mangala-tournament"
FORMAT_VERSION = 1

#: Fields of the tables that the archive leaves out, and why (a test checks that every other field is in it).
LEFT_OUT = {
    "Tournament": {"id": "database id", "created_by": "user account",
                   # a section of a multi-section event (issue 14): the event, its list and the rule that placed
                   # players belong to the event, not to one tournament; an archived section comes back standalone
                   "event": "the event it is a section of", "section_birth_year_min": "the event's section rule",
                   "section_birth_year_max": "the event's section rule", "section_sex": "the event's section rule",
                   "section_order": "the event's section rule",
                   # knockout and team events (issue 14) are not in archive format 1 yet: a knockout comes back
                   # with its system and sets but these settings at their defaults; teams are left out
                   "knockout_sets": "knockout settings (format 1)", "third_place_match": "knockout settings (format 1)",
                   "level_match_rule": "knockout settings (format 1)", "max_deciders": "knockout settings (format 1)",
                   "qualified_from": "another tournament", "qualifiers": "knockout settings (format 1)",
                   # a play-off's lot (issue 25) belongs with the event whose tie it broke (qualified_from)
                   "playoff_lot": "a play-off's lot, with qualified_from (format 1)",
                   # the prize rules (issue 25) go with the prize list, which archive format 1 does not carry
                   "prize_sharing": "prize rules (format 1)", "prizes_to_withdrawn": "prize rules (format 1)",
                   "prize_lot_seed": "prize rules (format 1)",
                   "format": "team events (format 1)", "boards_per_team": "team events (format 1)"},
    "Entry": {"id": "database id", "tournament": "the archive's tournament"},
    "Player": {"id": "database id", "rating": "owned by the national rating", "user": "user account",
               "merged_into": "another player's record", "search_key": "derived", "city_key": "derived",
               "sort_key": "derived"},
    "Club": {"id": "database id", "search_key": "derived", "short_key": "derived", "city_key": "derived"},
    "Round": {"id": "database id", "tournament": "the archive's tournament"},
    "CoinToss": {"id": "database id", "round": "its round", "tossed_by": "user account"},
    "PairingChange": {"id": "database id", "round": "its round", "user": "user account"},
    "Match": {"id": "database id", "round": "its round", "result_entered_by": "user account",
              "third_place": "knockout (format 1)", "decider_starter": "knockout (format 1)",
              "decided_by": "knockout (format 1)", "team_match": "team events (format 1)",
              "team_board": "team events (format 1)"},
    "SetResult": {"id": "database id", "match": "its match"},
    "Absence": {"id": "database id", "created_by": "user account"},
    "ForbiddenPair": {"id": "database id", "tournament": "the archive's tournament", "created_by": "user account"},
}

TOURNAMENT_FIELDS = (
    "slug", "name", "start_date", "end_date", "venue", "city", "federation", "system", "rounds_total",
    "double_round_robin", "second_cycle_swap", "acceleration", "tiebreak_rules", "tiebreaks", "round_dates",
    "sets_per_match", "variant", "bye_points", "status", "standings_published_at", "standings_round",
    "chief_arbiter", "time_control", "imported_from_trf", "created_at", "archived_at", "version", "standings_version",
)

#: The keys of each object of the archive, in the order the export writes them (the reading refuses any other key).
ENTRY_KEYS = ("start_no", "rating", "withdrawn", "withdrawn_after_round", "federation", "official_rank",
              "accelerations", "player")
PLAYER_KEYS = ("federation_id", "first_name", "last_name", "sex", "birth_year", "city", "active", "club")
CLUB_KEYS = ("name", "short_name", "city", "active")
ROUND_KEYS = ("number", "status", "paired_at", "published_at", "closed_at", "modified_by_hand", "coin_toss",
              "pairing_changes", "matches")
TOSS_KEYS = ("seed", "outcome", "tossed_at")
CHANGE_KEYS = ("at", "reason", "before", "after")
MATCH_KEYS = ("board", "kind", "bye_kind", "white", "black", "forfeit", "white_points", "black_points", "rated",
              "result_entered_at", "version", "sets")
SET_KEYS = ("number", "starter", "white_stones", "black_stones", "termination", "white_store", "black_store", "moves")
ABSENCE_KEYS = ("entry", "round_number", "kind", "created_at")
PAIR_KEYS = ("first", "second", "first_round", "last_round", "reason", "created_at")
