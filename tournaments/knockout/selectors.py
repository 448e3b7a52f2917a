"""Reads of knockout sections (issue 14): the bracket, its final ranking (the standings of a knockout), and
the play-offs that break ties of an event's final standings (:func:`apply_playoffs`, called by
:func:`tournaments.selectors.tournament_standings`)."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from django.db.models import Prefetch

from tournaments.knockout.settings import DECIDED_BY_LABELS, sets_for_round, stage_label
from tournaments.models import Entry, Match, Round, SetResult, Tournament
from tournaments.pairing import knockout as core
from tournaments.publication import published_round
from tournaments.races import read_snapshot


# --------------------------------------------------------------------------------------------
# Reads: the bracket and the final ranking
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Side:
    """A player in a bracket match: seed (= starting number), name, club, rating, federation id."""

    entry_id: int
    seed: int
    name: str
    club: str
    rating: int
    federation_id: str


@dataclass(frozen=True, slots=True)
class BracketSet:
    number: int
    starter: str
    white_stones: int
    black_stones: int
    decider: bool
    termination: str


@dataclass(frozen=True, slots=True)
class BracketGame:
    """One slot of a round: ``kind`` ``game``, ``bye`` or ``empty`` (nobody holds it); ``white``/``black``
    (a bye: ``white`` only); the sets; ``winner`` (``"white"``/``"black"``, ``None`` undecided or nobody),
    ``decided``, ``decided_by`` (:data:`DECIDED_BY`), set points (white, black) of every set played."""

    round_no: int
    slot: int
    kind: str
    white: Side | None = None
    black: Side | None = None
    sets: tuple[BracketSet, ...] = ()
    winner: str | None = None
    decided: bool = False
    decided_by: str = ""
    forfeit: str = ""
    third_place: bool = False
    set_points: tuple[float, float] = (0.0, 0.0)
    decider_starter: str = ""
    planned: int = 3

    @property
    def winner_side(self) -> Side | None:
        return self.white if self.winner == "white" else self.black if self.winner == "black" else None

    @property
    def decided_by_label(self) -> str:
        return str(DECIDED_BY_LABELS.get(self.decided_by, ""))

    @property
    def flipped(self) -> bool:
        """True when black is the higher seed (listed first in the bracket)."""
        return self.white is not None and self.black is not None and self.black.seed < self.white.seed

    @property
    def lines(self) -> list[dict]:
        """The bracket's two lines in seed order (the higher seed first): ``colour``, ``side``, ``points``
        (set points), ``winner``."""
        out = [
            {"colour": "white", "side": self.white, "points": self.set_points[0], "winner": self.winner == "white"},
            {"colour": "black", "side": self.black, "points": self.set_points[1], "winner": self.winner == "black"},
        ]
        return out[::-1] if self.flipped else out

    @property
    def scores(self) -> list[dict]:
        """Every set as the lines read it (the first line's stones first): ``number``, ``first``, ``second``,
        ``decider`` and ``starter`` (``"first"``/``"second"``: whose line started the set)."""
        out = []
        for s in self.sets:
            first, second = (s.black_stones, s.white_stones) if self.flipped else (s.white_stones, s.black_stones)
            starts_first = (s.starter == "black") == self.flipped
            out.append({"number": s.number, "first": first, "second": second, "decider": s.decider,
                        "starter": "first" if starts_first else "second"})
        return out


@dataclass(frozen=True, slots=True)
class BracketRound:
    number: int
    label: str
    planned: int
    status: str  # a Round.Status, or "" for a round not paired yet
    games: tuple[BracketGame, ...]
    third_place: BracketGame | None = None


@dataclass(frozen=True, slots=True)
class RankingLine:
    rank: int | None
    shared: bool
    side: Side
    out_in: int | None
    out_label: str
    withdrawn: bool


@dataclass(frozen=True, slots=True)
class Bracket:
    """A knockout's bracket as the public (``public_only``) or the organisers see it: every round (those
    not paired yet with empty slots), the match for third place, the champion and the final ranking."""

    tournament_id: int
    total_rounds: int
    rounds: tuple[BracketRound, ...]
    champion: Side | None
    ranking: tuple[RankingLine, ...]
    third_place_planned: bool
    final: bool  # the final (and the match for third place) are decided
    players: int = 0
    rule: str = ""
    extra: dict = field(default_factory=dict)


def _side(e: Entry) -> Side:
    p = e.player
    club = p.club.name if p.club_id else (p.city or e.federation)
    return Side(entry_id=e.id, seed=e.start_no, name=p.full_name, club=club or "", rating=e.rating,
                federation_id=p.federation_id)


def _game(m: Match, sides: dict[int, Side], planned: int) -> BracketGame:
    if m.kind == Match.Kind.BYE:
        return BracketGame(round_no=m.round.number, slot=m.board, kind="bye", white=sides[m.white_id], winner="white",
                           decided=True, planned=planned)
    sets = tuple(
        BracketSet(s.number, s.starter, s.white_stones, s.black_stones, s.number > planned, s.termination)
        for s in m.sets.all()
    )
    wsp = sum(1.0 if s.white_stones > 24 else 0.5 if s.white_stones == 24 else 0.0 for s in sets)
    decided = m.white_points is not None
    winner = None
    if decided and m.white_points != m.black_points:
        winner = "white" if m.white_points > m.black_points else "black"
    return BracketGame(
        round_no=m.round.number, slot=m.board, kind="game", white=sides[m.white_id], black=sides[m.black_id],
        sets=sets, winner=winner, decided=decided, decided_by=m.decided_by, forfeit=m.forfeit,
        third_place=m.third_place, set_points=(wsp, len(sets) - wsp), decider_starter=m.decider_starter,
        planned=planned,
    )


def knockout_bracket(*, tournament: Tournament, public_only: bool = True) -> Bracket:
    """The bracket of ``tournament`` (a fixed number of queries). ``public_only``: the rounds the public
    sees (published and closed: the publish gate of :mod:`tournaments.publication`); otherwise every
    paired round. The final ranking counts the rounds shown (:func:`final_ranking` for the standings)."""

    with read_snapshot():
        entries = list(tournament.entries.select_related("player__club"))
        rounds_qs = tournament.rounds.order_by("number")
        if public_only:
            rounds_qs = rounds_qs.filter(status__in=[Round.Status.PUBLISHED, Round.Status.CLOSED])
        rounds = list(rounds_qs)
        matches = list(
            Match.objects.filter(round__in=rounds).select_related("round")
            .prefetch_related(Prefetch("sets", queryset=SetResult.objects.order_by("number")))
            .order_by("round__number", "board")
        )
    return _bracket(tournament, entries, rounds, matches)


def _bracket(tournament: Tournament, entries: list[Entry], rounds: list[Round], matches: list[Match]) -> Bracket:
    sides = {e.id: _side(e) for e in entries}
    players_in_field = sum(1 for e in entries if not e.withdrawn) if not rounds else None
    total = tournament.rounds_total
    if not rounds and players_in_field and players_in_field >= 2:
        total = core.knockout_rounds(players_in_field)
    by_round: dict[int, list[Match]] = defaultdict(list)
    for m in matches:
        by_round[m.round.number].append(m)
    status = {r.number: r.status for r in rounds}
    out_rounds = []
    for number in range(1, total + 1):
        planned = sets_for_round(tournament, number)
        count = 2 ** (total - number)
        ms = by_round.get(number, [])
        slots = _slots(ms, count)
        games = tuple(
            _game(m, sides, planned) if m is not None else BracketGame(round_no=number, slot=k, kind="empty", planned=planned)
            for k, m in enumerate(slots, start=1)
        )
        third = next((m for m in ms if m.third_place), None)
        out_rounds.append(BracketRound(
            number=number, label=stage_label(number, total), planned=planned, status=status.get(number, ""),
            games=games, third_place=_game(third, sides, planned) if third is not None else None,
        ))
    ranking, champion, final = _ranking(tournament, entries, out_rounds, [r.number for r in rounds], total)
    return Bracket(
        tournament_id=tournament.id, total_rounds=total, rounds=tuple(out_rounds), champion=champion,
        ranking=tuple(ranking), third_place_planned=tournament.third_place_match, final=final,
        players=len(sides), rule=tournament.level_match_rule,
    )


def _core_match(g: BracketGame) -> core.BracketMatch | None:
    if g.kind == "empty":
        return None
    if g.kind == "bye":
        return core.BracketMatch(g.white.seed, None, g.white.seed, True)
    winner = g.winner_side.seed if g.winner_side is not None else None
    return core.BracketMatch(g.white.seed, g.black.seed, winner, g.decided)


def _ranking(tournament, entries, rounds: list[BracketRound], paired: list[int], total: int):
    by_seed = {e.start_no: e for e in entries}
    core_rounds = []
    for r in rounds:
        if r.number not in paired:
            break
        core_rounds.append([cm for cm in (_core_match(g) for g in r.games) if cm is not None])
    third = None
    if core_rounds and len(core_rounds) == total and rounds[total - 1].third_place is not None:
        third = _core_match(rounds[total - 1].third_place)
    lines = core.knockout_ranking(core_rounds, total, third, third_place_planned=tournament.third_place_match) \
        if core_rounds else []
    out = []
    champion = None
    for line in lines:
        e = by_seed[line.player]
        side = _side(e)
        if line.rank == 1 and not line.shared:
            champion = side
        out.append(RankingLine(
            rank=line.rank, shared=line.shared, side=side, out_in=line.out_in,
            out_label=stage_label(line.out_in, total) if line.out_in else "", withdrawn=e.withdrawn,
        ))
    final = bool(lines) and all(line.rank is not None for line in lines)
    return out, champion, final


def final_ranking(*, tournament: Tournament, public_only: bool = True) -> Bracket:
    """The bracket with its final ranking as the standings page shows it: for the public, the closed rounds
    up to the round the standings were published after (:func:`tournaments.publication.published_round`);
    for organisers every round paired."""
    with read_snapshot():
        entries = list(tournament.entries.select_related("player__club"))
        rounds_qs = tournament.rounds.order_by("number")
        if public_only:
            rounds_qs = rounds_qs.filter(status=Round.Status.CLOSED, number__lte=published_round(tournament))
        rounds = list(rounds_qs)
        matches = list(
            Match.objects.filter(round__in=rounds).select_related("round")
            .prefetch_related(Prefetch("sets", queryset=SetResult.objects.order_by("number")))
            .order_by("round__number", "board")
        )
    return _bracket(tournament, entries, rounds, matches)


def ranking_as_dicts(bracket: Bracket) -> list[dict]:
    """JSON-ready lines of the final ranking: ``rank`` (None while not known), ``shared``, ``seed``,
    ``name``, ``club``, ``rating``, ``out_in`` (the round the player was knocked out in, None for the winner
    and players still in)."""
    return [
        {"rank": line.rank, "shared": line.shared, "seed": line.side.seed, "name": line.side.name,
         "club": line.side.club, "rating": line.side.rating, "out_in": line.out_in, "withdrawn": line.withdrawn}
        for line in bracket.ranking
    ]


def _slots(matches: Sequence[Match], count: int) -> list[Match | None]:
    """The bracket matches of a round by slot (board k = slot k), the match for third place left out."""
    by_board = {m.board: m for m in matches if not m.third_place}
    return [by_board.get(k) for k in range(1, count + 1)]


# --------------------------------------------------------------------------------------------
# Play-offs (tournaments.knockout.playoffs)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayoffNote:
    """A play-off as the event's standings name it: the place it decided, its slug and name, the players
    in the order it gave (``names``) and its system (a knockout or a round robin)."""

    rank: int
    slug: str
    name: str
    names: tuple[str, ...]
    system: str = Tournament.System.KNOCKOUT


#: The systems of a play-off (issue 25): a knockout, or a round robin of 3 or 4 tied players.
PLAYOFF_SYSTEMS = (Tournament.System.KNOCKOUT, Tournament.System.ROUND_ROBIN)


def playoffs_of(tournament: Tournament):
    """The play-offs of ``tournament`` (not archived), oldest first."""
    return Tournament.objects.filter(
        qualified_from=tournament, system__in=PLAYOFF_SYSTEMS, qualifiers__isnull=True, archived_at__isnull=True,
    ).order_by("id")


def _playoff_places(p: Tournament, standings) -> dict[str, tuple[int, bool]] | None:
    """{federation id: (rank, shared)} of a finished play-off as published, ``None`` while not final: a
    knockout's final ranking, or a round robin's final standings (``standings``:
    :func:`tournaments.selectors.tournament_standings`, handed in by the caller)."""
    if p.system == Tournament.System.KNOCKOUT:
        ranking = final_ranking(tournament=p, public_only=True)
        if not ranking.final:
            return None
        return {line.side.federation_id: (line.rank, line.shared) for line in ranking.ranking}
    if standings is None:
        return None
    st = standings(tournament=p, public_only=True)
    if st.provisional or st.rounds < p.rounds_total:
        return None
    fid = dict(Entry.objects.filter(tournament=p).values_list("id", "player__federation_id"))
    return {fid[line.entry_id]: (line.rank, line.shared) for line in st.lines}


def apply_playoffs(tournament: Tournament, lines: list, *, standings=None) -> tuple[list, tuple[PlayoffNote, ...]]:
    """The final standings ``lines`` (:class:`tournaments.selectors.StandingLine`) of ``tournament`` with the
    ties broken by its play-offs whose final standings are published: the tied players of a place r get
    r, r + 1, … in the play-off's final ranking order (a place the play-off shares stays shared). A play-off
    whose players no longer share one place (a result was corrected since) is left out. A round-robin
    play-off is read with ``standings`` (:func:`tournaments.selectors.tournament_standings`, handed in so
    this module does not import it). Returns the lines in rank order and a :class:`PlayoffNote` per
    play-off applied. Two queries, plus the play-offs' own."""
    playoffs = [p for p in playoffs_of(tournament).filter(status=Tournament.Status.FINISHED,
                                                           standings_published_at__isnull=False)]
    if not playoffs:
        return lines, ()
    player_of = dict(Entry.objects.filter(tournament=tournament).values_list("id", "player__federation_id"))
    lines = list(lines)
    notes = []
    for p in playoffs:
        place = _playoff_places(p, standings)
        if place is None:
            continue
        group = [i for i, line in enumerate(lines) if player_of.get(line.entry_id) in place]
        if len(group) != len(place) or len({lines[i].rank for i in group}) != 1 or not all(lines[i].shared for i in group):
            continue
        base = lines[group[0]].rank
        for i in group:
            rank, shared = place[player_of[lines[i].entry_id]]
            lines[i] = replace(lines[i], rank=base + rank - 1, shared=shared)
        ordered = sorted(group, key=lambda i: (lines[i].rank, lines[i].start_no))
        notes.append(PlayoffNote(rank=base, slug=p.slug, name=p.name, names=tuple(lines[i].name for i in ordered),
                                 system=p.system))
        moved = [lines[i] for i in ordered]
        for slot, line in zip(sorted(group), moved):
            lines[slot] = line
    return lines, tuple(notes)


