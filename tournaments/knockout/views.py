"""Pages of knockout sections (issue 14): the bracket (``/t/<slug>/bracket/``) and its PDF, the final
ranking that replaces a knockout's standings table, taking a final stage's qualifiers, and the result
form's knockout parts. Thin views: reads through :mod:`tournaments.knockout.services`, writes through services.

The publish gate (:mod:`tournaments.publication`): the bracket shows the public the published and closed
rounds (like the round pages and the live results); organisers and referees see every paired round. The
final ranking follows the standings' gate (published standings; organisers always).
"""
from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from federation.errors import ApplicationError
from tournaments import access, caching, publication, view_helpers
from tournaments.forms import MatchResultForm
from tournaments.knockout import matches as knockout_matches
from tournaments.knockout import selectors as knockout_selectors
from tournaments.knockout import settings as knockout_settings
from tournaments.knockout import stages as knockout_stages
from tournaments.models import Match, Tournament


class KnockoutResultForm(MatchResultForm):
    """The result form of a knockout game: the sets (planned, then decider rows) and, for a level match, who
    starts the first decider — the lot drawn at the table (blank: the system draws it)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["decider_starter"] = forms.ChoiceField(
            label=gettext_lazy("Who starts the first decider set (drawn by lot)"), required=False,
            choices=[("", gettext_lazy("— drawn by the system —")), ("white", gettext_lazy("white")),
                     ("black", gettext_lazy("black"))],
        )


def result_form_setup(match: Match) -> tuple[type[MatchResultForm], int, dict | None]:
    """(form class, number of set rows, the knockout facts the page shows or None) of a match's result form."""
    t = match.round.tournament
    plan = knockout_matches.match_plan(match)
    if plan is None:
        return MatchResultForm, t.sets_per_match, None
    info = {
        "planned": plan.planned, "rule": plan.rule, "rule_label": Tournament.LevelMatchRule(plan.rule).label,
        "max_deciders": plan.max_deciders, "decider_starter": match.decider_starter,
        "stage": knockout_settings.stage_label(match.round.number, t.rounds_total),
        "third_place": match.third_place,
        "higher_seed": match.white if plan.higher_seed == "A" else match.black,
        "decided_by": str(knockout_settings.DECIDED_BY_LABELS.get(match.decided_by, "")),
    }
    return KnockoutResultForm, knockout_matches.form_sets(match), info


_tournament = view_helpers.visible_tournament
_lang = view_helpers.page_lang
_role = view_helpers.role_required


def bracket(request, slug: str):
    """The bracket: every round as a column (a list on a phone), each match with its players (seed, name),
    its sets and its winner; the match for third place; the champion and the final ranking."""
    t = _tournament(request, slug)
    if not knockout_settings.is_knockout(t):
        return redirect("tournament-detail", slug=slug)
    public_only = not access.can_enter_results(request.user, t)
    lang = _lang()

    def body() -> str:
        b = knockout_selectors.knockout_bracket(tournament=t, public_only=public_only)
        return render_to_string("tournaments/knockout/_bracket.html", {"t": t, "b": b, "pdf": False})

    # results of a round being played show at once (like the live page): keyed on the version, per audience
    html = caching.tournament_cached("bracket-html", tournament=t, parts=(lang, "p" if public_only else "o"),
                                     build=body)
    return render(request, "tournaments/knockout/bracket.html", {
        "t": t, "body": mark_safe(html),  # noqa: S308 - rendered by our own template
        "can_organise": access.can_organise(request.user, t), "public_only": public_only,
    })


def bracket_redirect(request, slug: str):
    """``/tournaments/<slug>/bracket/`` (the address the issue names): the bracket page at ``/t/<slug>/bracket/``."""
    return redirect("bracket", slug=slug, permanent=True)


def bracket_pdf(request, slug: str):
    """The bracket as a printable PDF (A4 landscape), behind the bracket's gate; cached per version, language
    and audience and built like the crosstable PDF (``tournaments.view_helpers.cached_pdf_response``)."""
    from tournaments.paper.bracket import bracket_pdf_path
    from tournaments.tasks import bracket_pdf_task

    t = _tournament(request, slug)
    if not knockout_settings.is_knockout(t):
        return redirect("tournament-detail", slug=slug)
    lang = _lang()
    public_only = not access.can_enter_results(request.user, t)
    return view_helpers.cached_pdf_response(
        request, t, path=bracket_pdf_path(t, lang, public_only), task=bracket_pdf_task,
        args=[t.id, lang, public_only], filename=f"{t.slug}-eleme-tablosu.pdf", private=not public_only,
        pending={"title": _("Bracket (PDF)"), "again_url": reverse("bracket-pdf", args=[t.slug]),
                 "page_url": reverse("bracket", args=[t.slug]), "page_label": _("Bracket"),
                 "failed_text": _("The PDF cannot be prepared right now (the job queue is not reachable). Try "
                                  "again in a minute; the bracket page works meanwhile.")},
    )


def standings(request, t: Tournament):
    """A knockout's standings page: the final ranking (1, 2, 3 and 4 or 3=, then by the round reached) with
    each player's last match, behind the standings' gate (:func:`tournaments.views.standings` hands it)."""
    can_org = access.can_organise(request.user, t)
    if not t.standings_published and not can_org:
        return render(request, "tournaments/not_published.html", {"t": t}, status=404)
    public_only = not can_org
    lang = _lang()

    def body() -> str:
        b = knockout_selectors.final_ranking(tournament=t, public_only=public_only)
        return render_to_string("tournaments/knockout/_ranking.html", {"t": t, "b": b})

    html = caching.tournament_cached("knockout-ranking-html", tournament=t, parts=(lang,), public=public_only,
                                     build=body)
    return render(request, "tournaments/knockout/standings.html", {
        "t": t, "body": mark_safe(html), "can_organise": can_org,  # noqa: S308 - rendered by our own template
        "published": publication.results_visible(t, None),
    })


@login_required
@require_POST
@_role(access.can_organise, gettext_lazy("Only the organiser can take the qualifiers."))
def qualifiers_take(request, slug: str):
    """Organiser: enter a final stage's qualifiers (seeded by the earlier stage's final standings)."""
    t = _tournament(request, slug)
    try:
        entries = knockout_stages.knockout_qualifiers_take(tournament=t, user=request.user)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("%(n)d qualifiers entered, seeded by the standings of %(t)s.")
                         % {"n": len(entries), "t": t.qualified_from.name})
    return redirect("tournament-detail", slug=slug)


@login_required
@require_POST
@_role(access.can_organise, gettext_lazy("Only the organiser can start a play-off."))
def playoff_create(request, slug: str):
    """Organiser: arrange a play-off between the players who share a place of the final standings
    (:func:`tournaments.knockout.playoffs.playoff_create`: ``format`` blank for the default, ``round_robin`` or
    ``knockout``); then pair and play it like any event."""
    from tournaments.knockout.playoffs import playoff_create as create

    t = _tournament(request, slug)
    try:
        sets = int(request.POST.get("sets") or 3)
        playoff = create(tournament=t, rank=request.POST.get("rank"), sets=sets, user=request.user,
                         format=request.POST.get("format") or "")
    except ValueError:
        messages.error(request, _("Sets per match must be odd (1, 3, 5 or 7)."))
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Play-off created: pair it, play it and publish its result."))
        return redirect("tournament-detail", slug=playoff.slug)
    return redirect("tournament-detail", slug=slug)
