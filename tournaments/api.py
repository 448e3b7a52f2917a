"""REST API of tournaments: one view per operation, calling :mod:`tournaments.services` for writes
and :mod:`tournaments.selectors` for reads.

Reads are public (``IsAuthenticatedOrReadOnly``): the public sees published and closed rounds only
and standings only once published; organisers and referees see every round, organisers always see
standings. Writes need a login; who may do what is decided by the services (``tournaments.access``).
Every refusal is an :class:`federation.errors.ApplicationError`, rendered as
``{"error": {"code", "message", "field"}}``.

This module holds the tournament itself (list, detail, edit, delete and restore, history, TRF import,
standings) and the lookups every endpoint shares; the capabilities have their own: :mod:`tournaments.entries.api`,
:mod:`tournaments.rounds.api`, :mod:`tournaments.results.api`.
"""
from __future__ import annotations

import django_filters
from django import forms
from django.urls import reverse
from django.utils import translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import exceptions as drf_exceptions
from rest_framework import generics, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from federation import roles
from federation.api_views import error_responses, validated_input
from federation.errors import NotFound, ValidationFailed
from tournaments import access, caching, publication, selectors, serializers as s, services
from tournaments.history import selectors as history
from tournaments.trf import jobs as trf_jobs
from tournaments.trf import selectors as trf_selectors
from tournaments.trf import services as trf_services
from tournaments.models import Round, Tournament

TAG = ["tournaments"]
_errors = error_responses


# --------------------------------------------------------------------------------------------
# Lookups (NotFound when missing or hidden)
# --------------------------------------------------------------------------------------------


def _tournament(slug: str, user=None) -> Tournament:
    """The tournament as ``user`` may see it (the publish gate: archived ones for staff only)."""
    return publication.get_tournament(slug, user)


def _round(t: Tournament, number: int) -> Round:
    r = t.rounds.filter(number=number).select_related("tournament").first()
    if r is None:
        raise NotFound(_("Round %(n)d does not exist.") % {"n": number})
    return r


def _tournament_data(t: Tournament, user) -> dict:
    from tournaments.access import sees_event_personal_data

    rounds = selectors.visible_rounds(tournament=t, user=user)
    return s.TournamentDetailOutputSerializer(
        t, context={"rounds": rounds, "personal": sees_event_personal_data(user, t)}
    ).data


# --------------------------------------------------------------------------------------------
# Tournaments
# --------------------------------------------------------------------------------------------


@extend_schema_field({"type": "integer", "minimum": 1900, "maximum": 2100})
class YearFilter(django_filters.NumberFilter):
    """A whole year 1900..2100 (a decimal or out-of-range value is a 400, not an overflow)."""

    field_class = forms.IntegerField


class TournamentFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=Tournament.Status.choices)
    system = django_filters.ChoiceFilter(choices=Tournament.System.choices)
    year = YearFilter(field_name="start_date", lookup_expr="year", min_value=1900, max_value=2100,
                      help_text="Year of the start date (1900..2100).")

    class Meta:
        model = Tournament
        fields = ["status", "system", "year"]


class TournamentListApi(generics.ListAPIView):
    """Tournaments, newest first; filters ``status``, ``system``, ``year``."""

    serializer_class = s.TournamentListOutputSerializer
    filterset_class = TournamentFilter

    def get_queryset(self):
        return selectors.tournament_list(user=self.request.user)

    @extend_schema(operation_id="tournaments_list", tags=TAG)
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(
        operation_id="tournaments_create", tags=TAG, request=s.TournamentCreateInputSerializer,
        responses={201: s.TournamentDetailOutputSerializer, **_errors(400, 403)},
        description="Create a draft tournament (organisers and staff; services.tournament_create).\n\n"
        "Rules between fields (each broken one is a 400 naming the field): `end_date` not before "
        "`start_date`; the knockout settings (`knockout_sets`, `third_place_match`, `level_match_rule`, "
        "`max_deciders`, `qualified_from`, `qualifiers`) only with `system` knockout; `max_deciders` 1..9 "
        "with `level_match_rule` deciders_then_seed; `qualifiers` only with `qualified_from`, which names "
        "an existing, not archived Swiss or round robin with at least `qualifiers` entries. A knockout's "
        "`rounds_total` follows from its bracket (the answer says it).",
    )
    def post(self, request, *args, **kwargs):
        access.require(access.can_create_tournament(request.user), _("Only organisers can create tournaments."))
        data = validated_input(s.TournamentCreateInputSerializer, request.data)
        t = services.tournament_create(created_by=request.user, **data)
        return Response(_tournament_data(t, request.user), status=status.HTTP_201_CREATED)


class TournamentDetailApi(APIView):
    """A tournament with its entries and the rounds this user may see."""

    @extend_schema(operation_id="tournaments_retrieve", tags=TAG,
                   responses={200: s.TournamentDetailOutputSerializer, **_errors(404)})
    def get(self, request, slug: str):
        return Response(_tournament_data(_tournament(slug, request.user), request.user))

    @extend_schema(
        operation_id="tournaments_update", tags=TAG, request=s.TournamentUpdateInputSerializer,
        responses={200: s.TournamentDetailOutputSerializer, **_errors(400, 401, 403, 404, 409)},
        description="Edit settings (organisers): name, dates, venue, city, chief arbiter, time control, "
        "tie-breaks (until round 1 is paired; staff later too), number of rounds, accelerated pairing (until "
        "round 1 is paired, FIDE C.04.5.1), tie-break rules text (any time), second-cycle swap of a double "
        "round robin (until a round it decides is paired). Recorded in the history.",
    )
    def patch(self, request, slug: str):
        t = _organised(slug, request, _("Only the organiser can edit the tournament."))
        data = dict(validated_input(s.TournamentUpdateInputSerializer, request.data))
        reason = data.pop("reason", "")
        t = services.tournament_update(tournament=t, user=request.user, reason=reason, **data)
        return Response(_tournament_data(t, request.user))

    @extend_schema(
        operation_id="tournaments_destroy", tags=TAG, request=s.TournamentDeleteInputSerializer,
        responses={204: None, 200: s.TournamentDetailOutputSerializer, **_errors(400, 401, 403, 404)},
        description="Staff only, with the slug typed again (`confirm`) and a reason. A tournament with rated "
        "results is archived (200, hidden, no longer rated; POST .../restore/ brings it back); any other is "
        "deleted (204).",
    )
    def delete(self, request, slug: str):
        t = _staff_only(slug, request, _("Only federation staff can delete tournaments."))
        data = validated_input(s.TournamentDeleteInputSerializer, request.data)
        kept = services.tournament_delete(tournament=t, user=request.user, reason=data["reason"], confirm=data["confirm"])
        if kept is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(_tournament_data(kept, request.user))


class TournamentRestoreApi(APIView):
    """Bring an archived tournament back (staff)."""

    @extend_schema(operation_id="tournaments_restore", tags=TAG, request=s.ReasonInputSerializer,
                   responses={200: s.TournamentDetailOutputSerializer, **_errors(401, 403, 404, 409)})
    def post(self, request, slug: str):
        t = _staff_only(slug, request, _("Only federation staff can restore tournaments."))
        data = validated_input(s.ReasonInputSerializer, request.data)
        t = services.tournament_restore(tournament=t, user=request.user, reason=data["reason"])
        return Response(_tournament_data(t, request.user))


class TournamentHistoryApi(APIView):
    """Every change of the tournament, newest first (organisers and staff)."""

    @extend_schema(
        operation_id="tournaments_history", tags=TAG,
        parameters=[
            OpenApiParameter("round", int, description="Only actions touching this round."),
            OpenApiParameter("board", int, description="Only actions touching this board (with round)."),
            OpenApiParameter("limit", int, description="At most this many items (1..1000, default 200)."),
            OpenApiParameter("offset", int, description="Skip this many items."),
        ],
        responses={200: s.HistoryItemSerializer(many=True), **_errors(400, 401, 403, 404)},
    )
    def get(self, request, slug: str):
        if not request.user.is_authenticated:
            raise drf_exceptions.NotAuthenticated()
        gone = history.deleted_tournament(slug) if roles.is_staff(request.user) else None
        t = gone or _tournament(slug, request.user)  # staff also read the history of a deleted tournament
        if gone is None:
            access.require(publication.sees_everything(t, request.user), _("Only the organiser can see the history."))
        params = {}
        for name, lo, hi in (("round", 1, 99), ("board", 1, 9999), ("limit", 1, 1000), ("offset", 0, 10**6)):
            raw = request.query_params.get(name)
            if raw in (None, ""):
                continue
            if not (raw.isascii() and raw.isdigit()) or not lo <= int(raw) <= hi:
                raise ValidationFailed(_("Must be a whole number from %(lo)d to %(hi)d.") % {"lo": lo, "hi": hi},
                                       field=name)
            params[name] = int(raw)
        with translation.override("en"):  # object labels are keys of before/after: the same in every language
            items = history.tournament_history(
                tournament=t, round_number=params.get("round"), board=params.get("board"),
                limit=params.get("limit", 200), offset=params.get("offset", 0),
            )
            return Response([i.as_dict() for i in items])


class TournamentImportTrfApi(APIView):
    """Import a TRF-16 file as a tournament with closed rounds (services: trf_services.tournament_import_trf)."""

    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        operation_id="tournaments_import_trf", tags=TAG,
        request={"multipart/form-data": s.TrfImportInputSerializer},
        responses={201: s.ImportOutputSerializer, 200: s.ImportOutputSerializer, 202: s.TrfImportJobSerializer,
                   **_errors(400, 403, 503)},
        description=(
            'A file that cannot be read → 400 with field "file" and the line number in the message; a file '
            'larger than TRF_MAX_UPLOAD_BYTES (2 MB) → 400 with field "file"; a file without a 092 line (or one '
            'saying neither Swiss nor round robin) and no "system" → 400 with field "system". A file of more '
            "than TRF_JOB_MIN_PLAYERS (250) players or TRF_JOB_MIN_CELLS (2,500) result cells is imported by a job: 202 with the job's id and "
            "status_url (GET /api/tournaments/import-trf/<job>/); 503 when the job queue cannot be reached. "
            '"dry_run": 200 with the report of what would be imported (proposed player matches, notes), '
            "nothing saved; a file that needs a job cannot be previewed (400). Lines without a FIDE id are "
            'matched to known players (same name, birth year and code) unless "match_players" is false; '
            '"player_matches" decides per line. A line whose FIDE id belongs to a stored player with another name '
            'or birth year is refused (400 with field "player_matches"; in a dry run how "conflict") unless '
            '"player_matches" confirms it with that FIDE id. A stored player whose sex or birth year differs from '
            'the file is refused (400 with field "player_values"; in a dry run "differs") unless "player_values" '
            'says "stored", "file" or "new" for the line. A finished event\'s standings are published unless '
            '"publish" is false.'
        ),
    )
    def post(self, request):
        access.require(access.can_create_tournament(request.user), _("Only organisers can import tournaments."))
        upload = request.data.get("file") if hasattr(request.data, "get") else None
        if upload is not None and hasattr(upload, "size"):
            trf_jobs.check_upload_size(upload.size)  # before anything reads it
        data = validated_input(s.TrfImportInputSerializer, request.data)
        upload = data["file"]
        content = trf_jobs.read_upload(upload)
        options = {"system": data["system"] or None, "publish": data["publish"],
                   "match_players": data["match_players"], "player_matches": data["player_matches"],
                   "player_values": data["player_values"]}
        if trf_jobs.needs_job(content):
            if data["dry_run"]:
                raise ValidationFailed(_("A file this big is imported by a job and cannot be previewed; import it "
                                         "and delete the tournament if it is wrong."), field="dry_run")
            from tournaments.tasks import import_trf_task

            row = trf_jobs.trf_import_queue(
                data=content, task=import_trf_task, source=upload.name or "upload.trf", user=request.user, name=data["name"] or None,
                **options,
            )
            out = {"job": row.id, "status": row.status,
                   "status_url": reverse("api-tournament-import-trf-status", args=[row.id])}
            return Response(s.TrfImportJobSerializer(out).data, status=status.HTTP_202_ACCEPTED)
        report = trf_services.tournament_import_trf(
            data=content, source=upload.name or "upload.trf", user=request.user, name=data["name"] or None,
            dry_run=data["dry_run"], **options,
        )
        t = report.tournament
        out = {
            "slug": None if report.dry_run else t.slug, "name": t.name, "system": t.system, "status": t.status,
            "published": t.standings_published_at is not None, "dry_run": report.dry_run,
            "rounds": report.rounds, "entries": report.entries, "notes": report.notes,
            "players": [p.as_dict() for p in report.players],
        }
        return Response(s.ImportOutputSerializer(out).data,
                        status=status.HTTP_200_OK if report.dry_run else status.HTTP_201_CREATED)


class TournamentImportTrfStatusApi(APIView):
    """A TRF import job (trf_selectors.trf_import_get): for its creator and federation staff."""

    @extend_schema(
        operation_id="tournaments_import_trf_status", tags=TAG,
        responses={200: s.TrfImportStatusSerializer, **_errors(401, 404)},
        description="Status and progress of a TRF file imported by a job; once done the new tournament's slug.",
    )
    def get(self, request, import_id: int):
        row = trf_selectors.trf_import_get(import_id=import_id, user=request.user)
        error = ({"code": "invalid", "message": row.error, "field": row.error_field or None}
                 if row.status == row.Status.FAILED else None)
        out = {
            "job": row.id, "status": row.status, "progress": 100 if not row.is_active else row.progress,
            "players": row.players, "cells": row.cells, "source": row.source, "created_at": row.created_at,
            "finished_at": row.finished_at, "slug": row.tournament.slug if row.tournament else None,
            "notes": row.notes or [], "error": error,
        }
        return Response(s.TrfImportStatusSerializer(out).data)


# --------------------------------------------------------------------------------------------
# Standings
# --------------------------------------------------------------------------------------------


def _standings_responses():
    """The standings of an individual event, or of a team event (``format`` = ``team``: team rows)."""
    from drf_spectacular.utils import PolymorphicProxySerializer

    from tournaments.teams.api import TeamStandingsOutputSerializer

    return PolymorphicProxySerializer(
        component_name="StandingsOrTeamStandings", resource_type_field_name=None,
        serializers=[s.StandingsOutputSerializer, TeamStandingsOutputSerializer],
    )


class StandingsApi(APIView):
    """Standings with the tournament's tie-breaks in order (FIDE C.07). The public sees them once
    published (counting published rounds only); organisers always."""

    @extend_schema(
        operation_id="standings_retrieve", tags=TAG, responses={200: _standings_responses(), **_errors(400, 404)},
        parameters=[
            OpenApiParameter(
                "lang", str, enum=["tr", "en"], description="Language of the tie-break labels; default: the request's.",
            ),
            OpenApiParameter(
                "category", str,
                description="A category's code (the tournament's `categories`, e.g. U12, KIZ; case does not matter): "
                "only its members, ranked within the category, each row with its `overall_rank`. An unknown code → "
                '400 with field "category".',
            ),
        ],
    )
    def get(self, request, slug: str):
        from tournaments.prizes import selectors as category_selectors

        t = _tournament(slug, request.user)
        lang = (request.query_params.get("lang") or get_language() or "tr")[:2]
        lang = lang if lang in ("tr", "en") else "tr"
        if access.can_organise(request.user, t):
            public_only = False
        elif t.standings_published:
            public_only = True
        else:
            raise NotFound(_("The standings are not published yet."))
        if t.format == Tournament.Format.TEAM:  # team rows with match and board points (tournaments/teams/api.py)
            from tournaments.teams import api as team_api

            return Response(caching.tournament_cached(
                "team-standings-api", tournament=t, parts=(lang,), public=public_only,
                build=lambda: team_api.standings_response(tournament=t, public_only=public_only, lang=lang),
            ))
        code = ""
        if request.query_params.get("category") not in (None, ""):
            categories = caching.tournament_cached(
                "categories", tournament=t, public=public_only,
                build=lambda: category_selectors.category_infos(tournament=t),
            )
            code = category_selectors.find_category(categories, request.query_params["category"]).code

        def build() -> dict:
            category = None
            if code:
                category, table = category_selectors.category_standings(
                    tournament=t, code=code, public_only=public_only, lang=lang
                )
            else:
                table = selectors.tournament_standings(tournament=t, public_only=public_only, lang=lang)
            with translation.override(lang):
                rules_text = selectors.tiebreak_rules_text(table.tiebreak_rules)
            out = {
                "category": None if category is None else {"code": category.code, "name": category.name,
                                                           "kind": category.kind},
                "rounds": table.rounds,
                "published_at": t.standings_published_at,
                "tiebreak_rules": table.tiebreak_rules,
                "tiebreak_rules_text": rules_text,
                "official_ranks_differ": table.official_ranks_differ,
                "tiebreaks": [
                    {"key": k, "label": label} for k, label in zip(table.tiebreak_keys, table.tiebreak_labels)
                ],
                "rows": selectors.standings_as_dicts(table),
            }
            data = dict(s.StandingsOutputSerializer(out).data)
            data["rows"] = out["rows"]  # keep the tie-break keys the row serializer does not name
            return data

        # cached per tournament version, language, audience and category (tournaments/caching.py)
        return Response(caching.tournament_cached(
            "standings-api", tournament=t, parts=(lang, code) if code else (lang,), public=public_only, build=build
        ))


class StandingsPublishApi(APIView):
    """Publish the standings; once every round is closed the tournament is ``finished``."""

    @extend_schema(operation_id="standings_publish", tags=TAG, request=None,
                   responses={200: s.StandingsPublishOutputSerializer, **_errors(403, 404, 409)})
    def post(self, request, slug: str):
        t = _organised(slug, request, _("Only the organiser can publish standings."))
        t = services.standings_publish(tournament=t, user=request.user)
        return Response(s.StandingsPublishOutputSerializer(t).data)


# --------------------------------------------------------------------------------------------
# Forbidden pairs (organisers only)
# --------------------------------------------------------------------------------------------


def _organised(slug: str, request, message: str | None = None) -> Tournament:
    """The tournament for its organisers: 401 for anonymous users, 404 when unknown or hidden, 403 for
    others — before the body, a round, a board or an entry is looked at (permission before validation)."""
    if not request.user.is_authenticated:
        raise drf_exceptions.NotAuthenticated()
    t = _tournament(slug, request.user)
    access.require(access.can_organise(request.user, t),
                   message or _("Only the organiser can change forbidden pairs."))
    return t


def _staff_only(slug: str, request, message: str) -> Tournament:
    """The tournament for federation staff: 401 anonymous, 404 unknown or hidden, 403 for anyone else."""
    if not request.user.is_authenticated:
        raise drf_exceptions.NotAuthenticated()
    t = _tournament(slug, request.user)
    access.require(roles.is_staff(request.user), message)
    return t
