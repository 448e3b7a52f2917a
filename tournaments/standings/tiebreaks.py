"""Tie-breaks of FIDE C.07 (Tie-Break Regulations, 2023 text) plus Mangala's set points and stones.

Every tie-break is a pure function of an :class:`~tournaments.standings.event.Event` returning one
float per player; direct encounter depends on the tied group and is computed group by group
(see :func:`direct_encounter_split`). The registry :data:`TIEBREAKS` maps a key to its
:class:`TieBreak` (labels in English and Turkish, short name, source).

Unplayed rounds (C.07 Art. 16, Swiss events; used by Buchholz, its modifiers and
Sonneborn-Berger):

* **Own unplayed rounds** (Art. 16.4): every round the participant did not play over the board —
  PAB, full/half/zero-point bye, absence, forfeit win or loss — is evaluated as a game against a
  *dummy opponent* whose score equals the participant's own score. In Buchholz it contributes
  that score; in Sonneborn-Berger that score times the points obtained in the round.
  With ``rules="2026"`` (amendment applied from 1 March 2026) the dummy's score is capped by the
  scheduled opponent's adjusted score for a forfeit (16.4.1) and by ½ × rounds otherwise (16.4.2).
* **Opponents' unplayed rounds** (Art. 16.2, 16.3): an opponent's score enters with the points
  actually obtained, except requested byes (half/zero-point byes, absences) that are followed
  only by voluntarily unplayed rounds or that fall in the last round (category 16.2.5, e.g. after
  a withdrawal): those count as draws. See :attr:`Event.adjusted`.
* **Cut modifiers** (Art. 14.1, 16.5): when a participant has voluntarily unplayed rounds (VUR:
  requested byes, absences, forfeit losses), Cut-1 removes a VUR contribution (the lowest)
  before any other value.
* **Pre-determined pairings** (``round_robin=True``): Art. 16 does not apply; a forfeit counts as
  a match against the scheduled opponent, a bye contributes nothing, scores are not adjusted.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from tournaments.standings.base import RoundKind, StandingsError
from tournaments.standings.event import DRAW_POINTS, NO_OPPONENT, WIN_POINTS, Event

_PLAYED = RoundKind.PLAYED

# --------------------------------------------------------------------------------------------
# Buchholz family (C.07 Art. 8.1, modifiers Art. 14, unplayed rounds Art. 16)
# --------------------------------------------------------------------------------------------


def _opponent_rounds(event: Event) -> list[list[tuple[float, bool, float]]]:
    """Per player, per counted round: ``(opponent score, is_vur, points scored)``, the material
    of Buchholz and Sonneborn-Berger.

    * A match played over the board: the opponent's adjusted score (Art. 16.3).
    * Any other round (Swiss): a dummy opponent (Art. 16.4) with the participant's own score;
      with ``rules="2026"`` capped by the scheduled opponent's adjusted score for a forfeit
      (16.4.1) and by ½ × rounds otherwise (16.4.2). ``is_vur`` marks requested byes, absences
      and forfeit losses (Art. 16.1), which Cut modifiers remove first (Art. 16.5).
    * Pre-determined pairings (``event.round_robin``): a forfeit counts as played against the
      scheduled opponent; a bye contributes nothing and is left out."""
    cached = event.cache.get("opp")
    if cached is not None:
        return cached  # type: ignore[return-value]
    adjusted, score = event.adjusted, event.score
    capped = event.rules == "2026"
    bye_cap = DRAW_POINTS * event.rounds
    out: list[list[tuple[float, bool, float]]] = []
    for i in range(len(event)):
        own = score[i]
        row = []
        for k, j, p in zip(event.kind[i], event.opponent[i], event.points[i]):
            if k is _PLAYED:
                row.append((adjusted[j], False, p))
            elif event.round_robin:
                if j != NO_OPPONENT:
                    row.append((adjusted[j], False, p))
            else:
                dummy = own
                if capped:
                    dummy = min(own, adjusted[j] if j != NO_OPPONENT else bye_cap)
                row.append((dummy, k.voluntarily_unplayed, p))
        out.append(row)
    event.cache["opp"] = out
    return out


def _bh_contributions(event: Event) -> list[list[tuple[float, bool]]]:
    """Per player: ``(contribution, is_vur)`` for each round counted by Buchholz."""
    cached = event.cache.get("bh")
    if cached is None:
        cached = [[(v, vur) for v, vur, _ in row] for row in _opponent_rounds(event)]
        event.cache["bh"] = cached
    return cached  # type: ignore[return-value]


def _cut(contributions: list[tuple[float, bool]], low: int, high: int) -> float:
    """Sum of the contributions after cutting ``low`` least and ``high`` most significant values.

    Low cuts take a VUR contribution first when there is one (C.07 Art. 16.5), the lowest of them;
    otherwise the lowest value (Art. 14.1). High cuts take the highest value (Art. 14.2)."""
    items = list(contributions)
    low = min(low, len(items))
    high = min(high, len(items) - low)
    for _ in range(low):
        vurs = [pos for pos, (_, vur) in enumerate(items) if vur]
        pool = vurs if vurs else range(len(items))
        pos = min(pool, key=lambda q: items[q][0])
        items.pop(pos)
    for _ in range(high):
        pos = max(range(len(items)), key=lambda q: items[q][0])
        items.pop(pos)
    return sum(v for v, _ in items)


def buchholz(event: Event) -> list[float]:
    """BH, C.07 Art. 8.1: sum of the (adjusted, Art. 16.3) scores of the opponents; own unplayed
    rounds count the participant's own score (dummy opponent, Art. 16.4)."""
    return [sum(v for v, _ in row) for row in _bh_contributions(event)]


def buchholz_cut1(event: Event) -> list[float]:
    """BH-C1, C.07 Art. 8.1 with the Cut-1 modifier (Art. 14.1; VUR cut first, Art. 16.5)."""
    return [_cut(row, 1, 0) for row in _bh_contributions(event)]


def buchholz_cut2(event: Event) -> list[float]:
    """BH-C2, C.07 Art. 8.1 with the Cut-2 modifier (Art. 14.1; VURs cut first, Art. 16.5)."""
    return [_cut(row, 2, 0) for row in _bh_contributions(event)]


def median_buchholz(event: Event) -> list[float]:
    """BH-M1, C.07 Art. 8.1 with the Median-1 modifier (Art. 14.2): cut the least significant
    value (a VUR first, Art. 16.5) and the most significant value."""
    return [_cut(row, 1, 1) for row in _bh_contributions(event)]


def median_buchholz2(event: Event) -> list[float]:
    """BH-M2, C.07 Art. 8.1 with the Median-2 modifier (Art. 14.2): two lowest, two highest."""
    return [_cut(row, 2, 2) for row in _bh_contributions(event)]


# --------------------------------------------------------------------------------------------
# Sonneborn-Berger (C.07 Art. 9.1)
# --------------------------------------------------------------------------------------------


def sonneborn_berger(event: Event) -> list[float]:
    """SB, C.07 Art. 9.1: Σ over rounds of (opponent's adjusted score × points scored against that
    opponent). Own unplayed rounds: dummy opponent's score × points obtained in the round
    (Art. 16.4; see :func:`_opponent_rounds`)."""
    return [sum(v * p for v, _, p in row if p) for row in _opponent_rounds(event)]


def sonneborn_berger_cut1(event: Event) -> list[float]:
    """SB-C1, C.07 Art. 9.1 with Cut-1 (Art. 14.1.1, 16.5).

    The least significant value is the contribution of the opponent (real or dummy) with the
    lowest score, the smallest such contribution when several share that score. When the
    participant has VURs, the smallest VUR contribution is cut instead, unless it is lower than
    the least significant value (the larger of the two is cut)."""
    out = []
    for row in _opponent_rounds(event):
        items = [(v, v * p, vur) for v, vur, p in row]
        if not items:
            out.append(0.0)
            continue
        least = min(items, key=lambda it: (it[0], it[1]))
        vurs = [it for it in items if it[2]]
        cut = least
        if vurs:
            lowest_vur = min(vurs, key=lambda it: (it[1], it[0]))
            if lowest_vur[1] >= least[1]:
                cut = lowest_vur
        out.append(sum(it[1] for it in items) - cut[1])
    return out


# --------------------------------------------------------------------------------------------
# Own results (C.07 Art. 7)
# --------------------------------------------------------------------------------------------


def wins(event: Event) -> list[float]:
    """WIN, C.07 Art. 7.1: rounds in which the participant obtained, with or without playing, as
    many points as for a win (over-the-board wins, forfeit wins, 1-point PAB, full-point byes)."""
    return [float(sum(1 for p in row if p == WIN_POINTS)) for row in event.points]


def games_won_otb(event: Event) -> list[float]:
    """WON, C.07 Art. 7.2: matches won over the board (forfeit wins and byes do not count)."""
    return [
        float(sum(1 for k, p in zip(ks, ps) if k is _PLAYED and p == WIN_POINTS))
        for ks, ps in zip(event.kind, event.points)
    ]


def black_games(event: Event) -> list[float]:
    """BPG, C.07 Art. 7.3: matches played over the board with black (forfeits do not count)."""
    return [
        float(sum(1 for k, c in zip(ks, cs) if k is _PLAYED and c == "b"))
        for ks, cs in zip(event.kind, event.colour)
    ]


def black_wins(event: Event) -> list[float]:
    """BWG, C.07 Art. 7.4: matches won over the board with black."""
    return [
        float(sum(1 for k, c, p in zip(ks, cs, ps) if k is _PLAYED and c == "b" and p == WIN_POINTS))
        for ks, cs, ps in zip(event.kind, event.colour, event.points)
    ]


def progressive(event: Event) -> list[float]:
    """PS, C.07 Art. 7.5: sum of the participant's running score after each round (all points,
    played or not)."""
    out = []
    for row in event.points:
        running = total = 0.0
        for p in row:
            running += p
            total += running
        out.append(total)
    return out


def progressive_cut1(event: Event) -> list[float]:
    """PS-C1, C.07 Art. 7.5 with Cut-1 (Art. 14.1): PS without its least significant addend,
    the score after round 1 (which still counts inside the later running scores)."""
    return [ps - (row[0] if row else 0.0) for ps, row in zip(progressive(event), event.points)]


def rounds_elected(event: Event) -> list[float]:
    """REP (also called GE), C.07 Art. 7.6: rounds one elected to play — every round that is not a
    VUR (played, forfeit win, PAB, full-point bye); requested byes, absences and forfeit losses
    do not count."""
    return [float(sum(1 for k in row if not k.voluntarily_unplayed)) for row in event.kind]


# --------------------------------------------------------------------------------------------
# Ratings (C.07 Art. 10.1)
# --------------------------------------------------------------------------------------------


def _round_half_up(total: int, count: int) -> float:
    """``total / count`` rounded to the nearest whole number, 0.5 up, in exact arithmetic."""
    return float((2 * total + count) // (2 * count))


def _otb_opponent_ratings(event: Event) -> list[list[int]]:
    """Per player: the ratings of the *rated* opponents met over the board. An unrated opponent
    (rating 0 in :class:`~tournaments.standings.base.PlayerRecord`) is left out, as the FIDE
    tie-break server does: an unrated opponent has no rating to average, it does not count as 0."""
    ratings = event.ratings
    return [[ratings[j] for k, j in zip(ks, js) if k is _PLAYED and ratings[j] > 0]
            for ks, js in zip(event.kind, event.opponent)]


def aro(event: Event) -> list[float]:
    """ARO, C.07 Art. 10.1: average rating of the opponents met over the board, rounded to the
    nearest whole number (0.5 rounded up). Forfeits and byes are not games; unrated opponents
    (rating 0) are left out of the average; no rated opponent → 0."""
    return [_round_half_up(sum(rs), len(rs)) if rs else 0.0 for rs in _otb_opponent_ratings(event)]


def aro_cut1(event: Event) -> list[float]:
    """ARO-C1, C.07 Art. 10.1 with Cut-1 (Art. 14.1): the lowest-rated of the *rated* opponents is
    left out before averaging (unrated opponents are not in the average at all, see :func:`aro`).
    Fewer than two rated opponents → 0 (the value is undefined)."""
    out = []
    for rs in _otb_opponent_ratings(event):
        if len(rs) < 2:
            out.append(0.0)
        else:
            out.append(_round_half_up(sum(rs) - min(rs), len(rs) - 1))
    return out


# --------------------------------------------------------------------------------------------
# Mangala (federation rules, RULES.md "Match and tournament scoring", "Stone margin")
# --------------------------------------------------------------------------------------------


def set_points(event: Event) -> list[float]:
    """Σ set points over the matches (set win 1, drawn set ½). Rounds without set detail
    (``set_points is None``: byes, forfeits, unrecorded matches) add nothing."""
    return [float(sum(v for v in row if v is not None)) for row in event.set_points]


def stone_margin(event: Event) -> list[float]:
    """Σ stone margin over the matches: Σ over sets of (own stones − 24) (Kural 14.4, "+k").
    Rounds without set detail add nothing."""
    return [float(sum(v for v in row if v is not None)) for row in event.stone_margin]


# --------------------------------------------------------------------------------------------
# Direct encounter (C.07 Art. 6)
# --------------------------------------------------------------------------------------------


def _encounters(event: Event, members: Sequence[int]) -> tuple[dict[int, float], dict[int, int]]:
    """Points each member scored against the other members (average per opponent when they met
    more than once) and how many distinct members each one met.

    Swiss: only matches played over the board count. Pre-determined pairings
    (``event.round_robin``): forfeits count with the points recorded."""
    inside = set(members)
    scores: dict[int, float] = {}
    met: dict[int, int] = {}
    rr = event.round_robin
    for i in members:
        per_opp: dict[int, list[float]] = {}
        for k, j, p in zip(event.kind[i], event.opponent[i], event.points[i]):
            if j in inside and (k is _PLAYED or (rr and j != NO_OPPONENT)):
                per_opp.setdefault(j, []).append(p)
        scores[i] = sum(sum(v) / len(v) for v in per_opp.values())
        met[i] = len(per_opp)
    return scores, met


def direct_encounter_groups(
    members: Sequence[int], encounters, win: float
) -> list[list[int]]:
    """Order a tied group by direct encounter; returns sub-groups, best first (FIDE C.07 Art. 6).

    ``encounters(members)`` -> ``(scores, met)``: each member's points in the encounters inside the group
    (per opponent, averaged when they met more than once) and how many of the others they met; ``win`` is
    what winning one encounter scores (1 for players, 2 match points for teams). Shared by the individual
    (:func:`_de_order`) and the team tie-break (``tournaments.standings.teams``).

    * Every encounter inside the group took place (Art. 6.2): ranked by the points scored in
      them; members level on those points stay tied, and each smaller tied sub-group is ranked
      again among itself.
    * Encounters are missing (Art. 6.3, typical of a Swiss): a member is placed first only when
      alone at the top whatever the missing encounters would have given, i.e. their score is
      higher than the score any other member could reach by winning every encounter they did
      not play; Art. 6 is then applied again to the rest. Otherwise the whole group stays tied."""
    members = list(members)
    if len(members) < 2:
        return [members]
    scores, met = encounters(members)
    size = len(members)
    if all(met[m] == size - 1 for m in members):
        groups: list[list[int]] = []
        for m in sorted(members, key=lambda m: -scores[m]):
            if groups and scores[groups[-1][0]] == scores[m]:
                groups[-1].append(m)
            else:
                groups.append([m])
        if len(groups) == 1:
            return groups
        result: list[list[int]] = []
        for g in groups:
            result.extend(direct_encounter_groups(g, encounters, win) if len(g) > 1 else [g])
        return result
    leader = max(members, key=lambda m: scores[m])
    reachable = max(scores[m] + (size - 1 - met[m]) * win for m in members if m != leader)
    if scores[leader] > reachable:
        rest = [m for m in members if m != leader]
        return [[leader], *direct_encounter_groups(rest, encounters, win)]
    return [members]


def _de_order(event: Event, members: list[int]) -> list[list[int]]:
    """Order a tied group of players by direct encounter (:func:`direct_encounter_groups`, C.07 Art. 6)."""
    return direct_encounter_groups(members, lambda ms: _encounters(event, ms), WIN_POINTS)


def direct_encounter(event: Event) -> list[float]:
    """DE points of every player as the first tie-break: points scored against the players tied
    with them on match points (see :func:`direct_encounter_split`; :func:`compute_standings`
    evaluates DE inside the groups still tied after the earlier tie-breaks instead)."""
    groups: dict[float, list[int]] = {}
    for i, s in enumerate(event.score):
        groups.setdefault(s, []).append(i)
    out = [0.0] * len(event)
    for members in groups.values():
        if len(members) > 1:
            for i, v in _encounters(event, members)[0].items():
                out[i] = v
    return out


def direct_encounter_split(event: Event, group: list[int]) -> tuple[dict[int, float], list[list[int]]]:
    """DE for one tied group: (points each member scored against the other members — see
    :func:`_encounters` —, ordered sub-groups, best first). A member of a group of one scores 0."""
    if len(group) < 2:
        return {m: 0.0 for m in group}, [list(group)]
    scores, _ = _encounters(event, group)
    return scores, _de_order(event, list(group))


# --------------------------------------------------------------------------------------------
# Registry
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class TieBreak:
    """A registered tie-break.

    ``func(event)`` returns one float per player of the :class:`~tournaments.standings.event.Event`
    (indexed like ``event.ids``). A group-wise tie-break (direct encounter) also has
    ``split(event, group)`` returning ``(values, subgroups)``: a value per member of the tied
    group and the ordered list of sub-groups it separates the group into; the ranking uses
    ``split`` (its ``func`` gives the values for groups tied on points alone).
    ``source`` names the regulation article it follows."""

    key: str
    label_en: str
    label_tr: str
    short: str
    func: Callable[[Event], list[float]]
    source: str = ""
    split: Callable[[Event, list[int]], tuple[dict[int, float], list[list[int]]]] | None = None

    @property
    def group_wise(self) -> bool:
        """True when the value depends on the tied group (direct encounter, C.07 Art. 6)."""
        return self.split is not None

    def __repr__(self) -> str:  # keep reprs short: the callables are noise
        return f"TieBreak(key={self.key!r}, short={self.short!r})"


_ENTRIES = (
    TieBreak("buchholz", "Buchholz", "Buchholz", "BH", buchholz, "FIDE C.07 §8.1, §16"),
    TieBreak("buchholz_cut1", "Buchholz Cut-1", "Buchholz (1 kesik)", "BH-C1", buchholz_cut1,
             "FIDE C.07 §8.1, §14.1, §16.5"),
    TieBreak("buchholz_cut2", "Buchholz Cut-2", "Buchholz (2 kesik)", "BH-C2", buchholz_cut2,
             "FIDE C.07 §8.1, §14.1, §16.5"),
    TieBreak("median_buchholz", "Median Buchholz", "Medyan Buchholz", "BH-M1", median_buchholz,
             "FIDE C.07 §8.1, §14.2, §16.5"),
    TieBreak("median_buchholz2", "Median Buchholz 2", "Medyan Buchholz (2)", "BH-M2", median_buchholz2,
             "FIDE C.07 §8.1, §14.2, §16.5"),
    TieBreak("sonneborn_berger", "Sonneborn-Berger", "Sonneborn-Berger", "SB", sonneborn_berger,
             "FIDE C.07 §9.1, §16"),
    TieBreak("sonneborn_berger_cut1", "Sonneborn-Berger Cut-1", "Sonneborn-Berger (1 kesik)", "SB-C1",
             sonneborn_berger_cut1, "FIDE C.07 §9.1, §14.1, §16.5"),
    TieBreak("direct_encounter", "Direct encounter", "Aralarındaki maç", "DE", direct_encounter,
             "FIDE C.07 §6", split=direct_encounter_split),
    TieBreak("wins", "Number of wins", "Galibiyet sayısı", "WIN", wins, "FIDE C.07 §7.1"),
    TieBreak("games_won_otb", "Matches won over the board", "Oynanarak kazanılan maç sayısı", "WON",
             games_won_otb, "FIDE C.07 §7.2"),
    TieBreak("black_games", "Matches played with black", "Siyahla oynanan maç sayısı", "BPG", black_games,
             "FIDE C.07 §7.3"),
    TieBreak("black_wins", "Matches won with black", "Siyahla kazanılan maç sayısı", "BWG", black_wins,
             "FIDE C.07 §7.4"),
    TieBreak("aro", "Average rating of opponents", "Rakiplerin ortalama reytingi", "ARO", aro,
             "FIDE C.07 §10.1"),
    TieBreak("aro_cut1", "Average rating of opponents Cut-1", "Rakiplerin ortalama reytingi (1 kesik)",
             "ARO-C1", aro_cut1, "FIDE C.07 §10.1, §14.1"),
    TieBreak("progressive", "Progressive score", "İlerleyen puan", "PS", progressive, "FIDE C.07 §7.5"),
    TieBreak("progressive_cut1", "Progressive score Cut-1", "İlerleyen puan (1 kesik)", "PS-C1",
             progressive_cut1, "FIDE C.07 §7.5, §14.1"),
    TieBreak("rounds_elected", "Rounds elected to play", "Oynamayı seçtiği tur sayısı", "REP",
             rounds_elected, "FIDE C.07 §7.6"),
    TieBreak("set_points", "Set points", "Set puanı", "SP", set_points, "RULES.md, Kural 14.3"),
    TieBreak("stone_margin", "Stone margin", "Taş averajı", "SM", stone_margin, "RULES.md, Kural 14.4"),
)

#: Registry of tie-breaks by key (read-only).
TIEBREAKS: Mapping[str, TieBreak] = MappingProxyType({tb.key: tb for tb in _ENTRIES})


def get_tiebreak(key: str) -> TieBreak:
    """The registered tie-break for ``key``; :class:`StandingsError` listing the valid keys if
    there is none."""
    try:
        return TIEBREAKS[key]
    except (KeyError, TypeError):
        raise StandingsError(
            f"unknown tie-break {key!r}; valid keys: {', '.join(sorted(TIEBREAKS))}"
        ) from None


def tiebreak_label(key: str, lang: str = "tr") -> str:
    """Display label of a tie-break in Turkish (``"tr"``, default) or English (``"en"``).

    Raises :class:`StandingsError` for an unknown key or language."""
    tb = get_tiebreak(key)
    if lang == "tr":
        return tb.label_tr
    if lang == "en":
        return tb.label_en
    raise StandingsError(f"unknown language {lang!r}; valid: 'tr', 'en'")
