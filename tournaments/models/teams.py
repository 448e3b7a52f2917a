"""Team championships (issue 14): :class:`Team`, :class:`TeamMember` and :class:`TeamMatch`."""
from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from federation.audit import history
from federation.validators import no_control_characters

from .rounds import Round
from .tournament import Entry, Tournament


class Team(models.Model):
    """A team of a team championship (issue 14): a school or club side with a board order.

    ``seed_no`` is the team's pairing number (1 = top seed). Members (:class:`TeamMember`) are entries of
    the tournament with a board number; reserves have ``reserve`` set and a board after the regulars.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("name"), max_length=120, validators=[no_control_characters])
    short_name = models.CharField(_("short name"), max_length=20, blank=True, default="", validators=[no_control_characters])
    club = models.ForeignKey(
        "federation.Club", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("club")
    )
    seed_no = models.PositiveSmallIntegerField(_("starting number"))
    withdrawn = models.BooleanField(_("withdrawn"), default=False)

    history = history()

    class Meta:
        ordering = ["tournament", "seed_no"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="team_unique_name"),
            models.UniqueConstraint(fields=["tournament", "seed_no"], name="team_unique_seed_no"),
            models.CheckConstraint(condition=Q(seed_no__gte=1), name="team_seed_no_positive"),
        ]

    def __str__(self) -> str:
        return self.name


class TeamMember(models.Model):
    """A player of a :class:`Team`: their tournament entry, board number (1 = top board) and whether
    they are a reserve."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="team_member")
    board = models.PositiveSmallIntegerField(_("board"))
    reserve = models.BooleanField(_("reserve"), default=False)

    history = history()

    class Meta:
        ordering = ["team", "board"]
        verbose_name = _("team member")
        verbose_name_plural = _("team members")
        constraints = [
            models.UniqueConstraint(fields=["team", "board"], name="team_member_unique_board"),
            models.CheckConstraint(condition=Q(board__gte=1), name="team_member_board_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.team}: {self.board}. {self.entry}"


class TeamMatch(models.Model):
    """Two teams meeting in a round (``black_team`` null: a bye). The first-named team (``white_team``)
    has white on the odd boards. Its boards are the round's :class:`Match` rows with ``team_match`` set;
    the team result (match points 2/1/0, board points) follows from them."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="team_matches")
    number = models.PositiveSmallIntegerField(_("table"))
    white_team = models.ForeignKey(Team, on_delete=models.RESTRICT, related_name="team_matches_first")
    black_team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.RESTRICT, related_name="team_matches_second"
    )

    history = history()

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("team match")
        verbose_name_plural = _("team matches")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="team_match_unique_number"),
            models.CheckConstraint(condition=~Q(white_team=F("black_team")), name="team_match_not_self"),
            models.CheckConstraint(condition=Q(number__gte=1), name="team_match_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.white_team} – {self.black_team or 'bye'}"
