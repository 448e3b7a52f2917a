"""The one publish gate: what a user may see of a tournament, used by every public output
(pages, API, crosstable and standings PDFs, TRF export, history).

* An archived tournament (:attr:`Tournament.archived_at`) exists for federation staff only.
* Rounds: the public sees published and closed rounds (:func:`tournaments.selectors.visible_rounds`).
* Results beyond the pairing list — standings, crosstables, PDFs, the TRF file — count closed rounds
  up to the round the standings were published after (:func:`published_round`); organisers of the
  event see everything.
* The prize list (who won which prize, ``/t/<slug>/prizes/``): once the *final* standings are published
  (:func:`prizes_visible`); organisers see a provisional one before. Category tables follow the
  standings' gate.
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from federation import roles
from federation.errors import NotFound
from tournaments import access
from tournaments.models import Round, Tournament


def tournament_visible(tournament: Tournament, user) -> bool:
    """False for an archived tournament unless ``user`` is federation staff."""
    return tournament.archived_at is None or roles.is_staff(user)


def get_tournament(slug: str, user) -> Tournament:
    """The tournament ``slug`` as ``user`` may see it; :class:`NotFound` when missing or archived."""
    t = Tournament.objects.filter(slug=slug).first()
    if t is None or not tournament_visible(t, user):
        raise NotFound(_("No tournament %(slug)s.") % {"slug": slug})
    return t


def sees_everything(tournament: Tournament, user) -> bool:
    """Organisers of the event (and staff) see unpublished rounds and standings."""
    return access.can_organise(user, tournament)


def published_round(tournament: Tournament) -> int:
    """The last round the public's standings, crosstables, PDFs and TRF export count: the round the
    standings were published after (0 when they are not published)."""
    if tournament.standings_published_at is None:
        return 0
    if tournament.standings_round is None:  # published before the round was recorded: last closed round
        last = tournament.rounds.filter(status=Round.Status.CLOSED).order_by("-number").first()
        return last.number if last else 0
    return tournament.standings_round


def results_visible(tournament: Tournament, user) -> bool:
    """May ``user`` open the standings / crosstable / PDF / TRF of ``tournament``?"""
    return tournament.standings_published_at is not None or sees_everything(tournament, user)


def final_standings_published(tournament: Tournament) -> bool:
    """Are the *final* standings public: published after the last round (every round counted)?"""
    return tournament.standings_published_at is not None and published_round(tournament) >= tournament.rounds_total


def is_rateable(tournament: Tournament) -> bool:
    """Finished, final standings published, not archived: what the national rating counts
    (:func:`ratings.inputs.rateable_tournaments`)."""
    return (
        tournament.status == Tournament.Status.FINISHED
        and tournament.standings_published_at is not None
        and tournament.archived_at is None
    )


def prizes_visible(tournament: Tournament, user) -> bool:
    """May ``user`` see the prize list (who won which prize)? The public once the final standings are
    published (:func:`final_standings_published`), organisers of the event always (a provisional list)."""
    return final_standings_published(tournament) or sees_everything(tournament, user)
