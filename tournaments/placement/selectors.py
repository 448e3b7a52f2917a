"""Explain a player's place in the standings against the neighbours (issue 25, "why am I placed here").

The values are those of the standings page (:func:`tournaments.selectors.standings_with_records`: the
same rounds, tie-breaks, C.07 text and publish gate); the step that separated two players comes from
the standings core (:func:`tournaments.standings.separating_step`): a differing value does not always
separate (direct encounter with missing encounters leaves the group tied, FIDE C.07 Art. 6.3).
"""
from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from federation.errors import NotFound
from tournaments import selectors as tournament_selectors
from tournaments.models import Tournament
from tournaments.selectors import StandingLine, Standings
from tournaments.standings import separating_step


@dataclass(frozen=True, slots=True)
class Step:
    """One compared value: ``label`` (points or a tie-break), the player's value (``own``) and the
    neighbour's (``other``); ``decisive`` on the step that separated them; ``is_points`` for points."""

    label: str
    own: float
    other: float
    decisive: bool = False
    is_points: bool = False


@dataclass(frozen=True, slots=True)
class Comparison:
    """The player against one neighbour (``line``; ``above``: the neighbour is placed above).

    ``steps``: the values compared in the tie-break order, up to the one that separated them (all of
    them when nothing did). ``decided_by``: the label of that step, ``None`` when they are level on
    points and every tie-break; ``playoff``: level on everything, a play-off decided the places."""

    line: StandingLine
    above: bool
    steps: tuple[Step, ...]
    decided_by: str | None
    playoff: bool = False

    @property
    def shared(self) -> bool:
        """True when the two share the rank (level on everything, no play-off)."""
        return self.decided_by is None and not self.playoff


@dataclass(frozen=True, slots=True)
class Placement:
    """A player's place: the standings (``standings``), the player's line and the two comparisons
    (``None`` at the top or the bottom of the table)."""

    standings: Standings
    line: StandingLine
    above: Comparison | None
    below: Comparison | None


def _compare(st: Standings, records, tournament: Tournament, line: StandingLine, other: StandingLine,
             *, above: bool) -> Comparison:
    step = separating_step(
        records, tiebreaks=st.tiebreak_keys, first=line.start_no, second=other.start_no, rounds=st.rounds,
        round_robin=tournament.system == Tournament.System.ROUND_ROBIN, rules=st.tiebreak_rules,
    )
    labels = (_("Points"), *st.tiebreak_labels)
    own = (line.points, *line.tiebreaks)
    theirs = (other.points, *other.tiebreaks)
    last = len(labels) - 1 if step is None else step
    steps = tuple(
        Step(label=labels[k], own=own[k], other=theirs[k], decisive=k == step, is_points=k == 0)
        for k in range(last + 1)
    )
    # level on everything yet on different ranks: a play-off decided the place (tournaments.knockout.playoffs)
    playoff = step is None and line.rank != other.rank
    return Comparison(line=other, above=above, steps=steps, decided_by=None if step is None else labels[step],
                      playoff=playoff)


def player_placement(*, tournament: Tournament, start_no: int, public_only: bool = True,
                     lang: str = "tr") -> Placement:
    """The place of the player with starting number ``start_no`` in the standings the page shows
    (``public_only``: what the public sees, the standings published after their round), compared with
    the line just above and just below. Raises :class:`~federation.errors.NotFound` when the player
    has no line in these standings."""
    st, records = tournament_selectors.standings_with_records(
        tournament=tournament, public_only=public_only, lang=lang
    )
    lines = list(st.lines)
    index = next((i for i, ln in enumerate(lines) if ln.start_no == start_no), None)
    if index is None:
        raise NotFound(_("No player with starting number %(no)s in these standings.") % {"no": start_no})
    line = lines[index]
    above = _compare(st, records, tournament, line, lines[index - 1], above=True) if index > 0 else None
    below = (_compare(st, records, tournament, line, lines[index + 1], above=False)
             if index + 1 < len(lines) else None)
    return Placement(standings=st, line=line, above=above, below=below)
