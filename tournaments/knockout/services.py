"""Knockout sections (issue 14): pairing the bracket. The package holds the rest by responsibility: the
settings (:mod:`tournaments.knockout.settings`), results with decider sets (:mod:`tournaments.knockout.matches`),
the bracket and the final ranking (:mod:`tournaments.knockout.selectors`), final stages seeded from a Swiss
(:mod:`tournaments.knockout.stages`) and play-offs (:mod:`tournaments.knockout.playoffs`).

The thinking is done by the pure cores: :func:`games.engine.knockout_match_result` (who advances from a
match: the planned sets, then decider sets or the higher seed — RULES.md "Knockout matches") and
:mod:`tournaments.pairing.knockout` (seeding, later rounds from the winners, the match for third place,
the final ranking). This module loads rows into them and writes what they decide, reusing the
Round / Match / SetResult machinery of every tournament:

* Round r's boards are the bracket's slots in bracket order (board k = slot k; a bye is a bye board;
  a slot nobody holds has no board), the match for third place is the board after the final
  (``Match.third_place``). The pairing is done by :func:`tournaments.rounds.services.round_pair`, which hands a
  knockout to :func:`round_pair_knockout`.
* Colours: a coin toss per match (Kural 5). One seed is recorded per round (:class:`CoinToss`); board k's
  toss is ``coin_toss_outcome("<seed>:<k>")`` — white: the higher seed of the match takes white. Anyone
  can re-check a published seed.
* Results go through :func:`tournaments.results.services.match_result_enter` like every result: the round's
  planned sets (:func:`sets_for_round`), decider sets only while the match is level, the first decider's
  starter drawn by lot (``Match.decider_starter``) and later ones alternating, ``Match.decided_by``
  (``sets``, ``deciders``, ``seed`` or ``forfeit``). Match points are 1–0 for the winner; they are not
  used for standings (:func:`final_ranking` is).
* Seeds are the starting numbers: by rating (the usual order), or for a final stage
  (``qualified_from``) the ranks of the top ``qualifiers`` of the earlier stage's final standings
  (:func:`knockout_qualifiers_take`).
"""
from __future__ import annotations

import secrets

from django.utils import timezone
from django.utils.translation import gettext as _

from federation.errors import Conflict
from tournaments.knockout.matches import _loser_entry_id, _winner_entry_id
from tournaments.knockout.selectors import _slots
from tournaments.knockout.stages import take_qualifiers
from tournaments.knockout.walkovers import third_place_walkover, walkover_record
from tournaments.models import CoinToss, Entry, Match, Round, Tournament
from tournaments.pairing import PairingError
from tournaments.pairing import knockout as core
from tournaments.services import coin_toss_outcome

# --------------------------------------------------------------------------------------------
# Pairing the bracket
# --------------------------------------------------------------------------------------------


def board_toss(seed: str, board: int) -> str:
    """The coin toss of board ``board`` of a knockout round whose recorded seed is ``seed``: ``"w"`` —
    the higher seed of the match takes white —, or ``"b"`` (:func:`tournaments.services.coin_toss_outcome`
    of ``"<seed>:<board>"``)."""
    return coin_toss_outcome(f"{seed}:{board}")


def round_pair_knockout(*, tournament: Tournament, user=None, coin_seed: str | None = None) -> Round:
    """Pair the next round of a knockout (called by :func:`tournaments.rounds.services.round_pair` inside its
    transaction, with the tournament's row locked and the permission checked).

    Round 1: the seeds are the entries not withdrawn in starting-number order (a final stage first takes
    its qualifiers, :func:`take_qualifiers`); the bracket is 1 v N, 2 v N-1, … in standard order with
    byes to the top seeds (:func:`tournaments.pairing.knockout_bracket`); ``rounds_total`` becomes the
    bracket's number of rounds. Later rounds: the winners of the previous round, in bracket order
    (:func:`tournaments.pairing.next_round_pairs`); a winner who withdrew leaves the slot empty (the
    opponent has a bye, shown as a walkover). The final round adds the match for third place between the
    semi-final losers when the event has one; a loser who withdrew forfeits it at once, so the other takes
    3rd by walkover (:func:`tournaments.knockout.walkovers.third_place_walkover`). Colours: a coin toss per match (:func:`board_toss`).

    Conflict (a clear sentence) when a match of the previous round is undecided, the previous round is
    not closed, every round is paired, or fewer than two players are left.
    """
    last = tournament.rounds.order_by("-number").first()
    if last is not None:
        open_boards = [m.board for m in last.matches.filter(kind=Match.Kind.GAME, white_points__isnull=True)]
        if open_boards:
            raise Conflict(
                _("Round %(n)d is not decided yet: boards %(b)s have no winner. A knockout match is played until "
                  "someone wins it (decider sets on a level match) before the next round is paired.")
                % {"n": last.number, "b": ", ".join(map(str, open_boards))},
                code="knockout_undecided",
            )
        if last.status != Round.Status.CLOSED:
            raise Conflict(_("Round %(n)d is not closed yet.") % {"n": last.number})
        if last.number >= tournament.rounds_total:
            raise Conflict(_("The final has been played: every round of the bracket is paired."))
    number = (last.number if last else 0) + 1
    entries = {e.id: e for e in tournament.entries.select_related("player")}
    if number == 1:
        if tournament.qualified_from_id and tournament.qualifiers:  # a final stage (a play-off has its players)
            take_qualifiers(tournament)
            entries = {e.id: e for e in tournament.entries.select_related("player")}
        seeds = [e for e in sorted(entries.values(), key=lambda e: e.start_no) if not e.withdrawn]
        if len(seeds) < 2:
            raise Conflict(_("At least two players are needed to pair a round."))
        by_no = {e.start_no: e for e in seeds}
        bracket = core.knockout_bracket([e.start_no for e in seeds])
        pairs = [(by_no[a], by_no[b] if b is not None else None) for a, b in bracket]
        total = core.knockout_rounds(len(seeds))
        if tournament.rounds_total != total:
            tournament.rounds_total = total
            tournament.save(update_fields=["rounds_total"])
        third = None
    else:
        prev = list(last.matches.all())
        slots = _slots(prev, 2 ** (tournament.rounds_total - last.number))
        winners = []
        for m in slots:
            w = _winner_entry_id(m) if m is not None else None
            winners.append(w if w is not None and not entries[w].withdrawn else None)
        try:
            raw = core.next_round_pairs(winners)
        except PairingError as exc:
            raise Conflict(_("No pairing possible: %(r)s") % {"r": exc}) from exc
        pairs = []
        for a, b in raw:
            if a is None and b is not None:
                a, b = b, None
            if a is not None and b is not None and entries[b].start_no < entries[a].start_no:
                a, b = b, a  # the higher seed first
            pairs.append((entries[a] if a is not None else None, entries[b] if b is not None else None))
        third = None
        if number == tournament.rounds_total and tournament.third_place_match:
            losers = []
            for m in slots:
                lid = _loser_entry_id(m) if m is not None else None
                losers.append(entries[lid] if lid is not None else None)
            # a semi-final loser who withdrew forfeits it: the other takes 3rd by walkover (issue 25)
            third = third_place_walkover(*losers) if len(losers) == 2 else None
    seed = coin_seed or secrets.token_hex(16)
    rnd = Round.objects.create(tournament=tournament, number=number, status=Round.Status.PAIRED, paired_at=timezone.now())
    CoinToss.objects.create(
        round=rnd, seed=seed, outcome=board_toss(seed, 1), tossed_at=timezone.now(),
        tossed_by=user if getattr(user, "is_authenticated", False) else None,
    )
    boards: list[tuple[int, Entry, Entry | None, bool | str]] = []  # (board, a, b, the match for third place's forfeit / False)
    for k, (a, b) in enumerate(pairs, start=1):
        if a is not None:
            boards.append((k, a, b, False))
    if third is not None:
        boards.append((len(pairs) + 1, third[0], third[1], third[2]))
    if not any(b is not None for _k, _a, b, _t in boards) and number == 1:
        raise Conflict(_("At least two players are needed to pair a round."))
    for k, a, b, third_forfeit in boards:
        if b is None:
            Match.objects.create(round=rnd, board=k, kind=Match.Kind.BYE, bye_kind=Match.ByeKind.PAIRING, white=a,
                                 white_points=tournament.bye_points)
            continue
        white, black = (a, b) if board_toss(seed, k) == "w" else (b, a)
        m = Match.objects.create(round=rnd, board=k, white=white, black=black, third_place=third_forfeit is not False)
        if third_forfeit:  # the match for third place, a semi-final loser having withdrawn: a walkover
            gone = "both" if third_forfeit == "both" else "white" if (a if third_forfeit == "a" else b) == white else "black"
            walkover_record(match=m, side=gone, user=user)
    if tournament.status == Tournament.Status.DRAFT:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return rnd


