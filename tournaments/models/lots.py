"""Drawing of lots (issue 25): :class:`Lot`, a commitment published before a lot is drawn and the secret
revealed with the outcome (rules: :mod:`tournaments.lots.draw`; writes: :mod:`tournaments.lots.services`)."""
from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .tournament import Tournament


class Lot(models.Model):
    """A lot of a tournament: committed (``commitment`` = SHA-256 of ``secret``, published at
    ``committed_at``), then revealed (``revealed_at``; ``secret`` published, ``outcome`` drawn from it).

    ``secret`` stays on the server until the reveal: nothing shows it before (the public page, the API and
    the admin leave it out). ``context`` names the lot in public (it enters the ``order`` rule); ``items``
    are the candidates in the order given (starting-number order); ``outcome`` is ``"w"``/``"b"`` for a
    coin, the drawn order for ``order``. ``given``: the secret was given by the organiser when pairing
    round 1 (a seeded toss), not drawn by the server.
    """

    class Purpose(models.TextChoices):
        COIN_TOSS = "coin_toss", _("coin toss of round 1")
        TIEBREAK = "tiebreak", _("tie after every tie-break")
        PLAYOFF_BYES = "playoff_byes", _("byes of a play-off")
        PRIZE = "prize", _("indivisible prize")

    class Rule(models.TextChoices):
        COIN = "coin", _("coin")
        ORDER = "order", _("order of the candidates")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="lots")
    purpose = models.CharField(_("purpose"), max_length=20, choices=Purpose.choices)
    context = models.CharField(_("lot"), max_length=200)
    rule = models.CharField(_("rule"), max_length=10, choices=Rule.choices, default=Rule.ORDER)
    commitment = models.CharField(_("commitment"), max_length=64)
    secret = models.CharField(max_length=200)
    given = models.BooleanField(default=False)
    items = models.JSONField(default=list, blank=True)
    outcome = models.JSONField(null=True, blank=True)
    committed_at = models.DateTimeField(_("committed at"))
    revealed_at = models.DateTimeField(_("revealed at"), null=True, blank=True)

    class Meta:
        ordering = ["committed_at", "id"]
        verbose_name = _("lot")
        verbose_name_plural = _("lots")
        constraints = [
            models.CheckConstraint(condition=Q(revealed_at__isnull=True) | Q(outcome__isnull=False),
                                   name="lot_revealed_has_outcome"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.context}"

    @property
    def revealed(self) -> bool:
        return self.revealed_at is not None
