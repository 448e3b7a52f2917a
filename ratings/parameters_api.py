"""REST API of the federation's rating parameters (federation staff), included at ``/api/ratings/``
by ``ratings.urls_api``:

- ``GET /api/ratings/parameters/`` — the set in force (or none: the shipped defaults), every parameter
  set with its tuning report, the history of adoptions and the state of the re-rating;
- ``POST /api/ratings/parameters/`` — save a candidate set entered by hand (not adopted);
- ``POST /api/ratings/parameters/{id}/adopt/`` — adopt a set (a reason is required); a full re-rating follows;
- ``POST /api/ratings/parameters/revert/`` — return to the engine's shipped defaults; a full re-rating follows.

Anonymous → 401, not staff → 403; errors are ``{"error": {"code", "message", "field"}}`` (a bad
parameter or a value outside its admitted range, ``ratings.engine.parameters``: 400, field ``params``,
the message naming it and saying why; a missing reason: 400, field ``reason``).
Writes call :mod:`ratings.parameters.services`, reads :func:`ratings.parameters.selectors.parameter_overview`.
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from federation import roles
from federation.api_views import StrictInputSerializer, error_responses, validated_input
from federation.errors import NotFound, PermissionDenied
from ratings.parameters import selectors as parameter_selectors
from ratings.parameters import services as parameter_services
from ratings.models import RatingParameterSet
from ratings.parameters.rerating import latest_rerating_failure


def _require_staff(user) -> None:
    """Refuse non-staff before their input is read (a 403 never depends on the body)."""
    if not roles.is_staff(user):
        raise PermissionDenied(_("Only federation staff can see and change the rating parameters."))


def _user_name(user) -> str | None:
    """Who acted, as the staff's history tables name them ("First Last", else the user name)."""
    from federation.templatetags.people import actor_name

    return actor_name(user) if user is not None else None


class ParameterSetSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    label = serializers.CharField()
    system = serializers.CharField(help_text='The engine system ("margin": the federation\'s rating).')
    params = serializers.DictField(help_text="Every parameter of the system: name -> value (rating points, sets, "
                                             "stones; docs/ratings.md).")
    report = serializers.DictField(help_text="What produced the set: `rating_tune`'s JSON (held-out log loss of the "
                                             "tuned set, the set in force and the baselines, sets, events, date "
                                             "range), or {} for a set entered by hand.")
    created_at = serializers.DateTimeField()
    created_by = serializers.SerializerMethodField()
    in_force = serializers.BooleanField()
    adopted_at = serializers.DateTimeField(allow_null=True)
    adopted_by = serializers.SerializerMethodField()
    adoption_reason = serializers.CharField()
    retired_at = serializers.DateTimeField(allow_null=True)
    retired_by = serializers.SerializerMethodField()

    def get_created_by(self, row) -> str | None:
        return _user_name(row.created_by)

    def get_adopted_by(self, row) -> str | None:
        return _user_name(row.adopted_by)

    def get_retired_by(self, row) -> str | None:
        return _user_name(row.retired_by)


class ReratingStateSerializer(serializers.Serializer):
    since = serializers.DateTimeField(allow_null=True, help_text="When the parameters in force took effect.")
    pending = serializers.BooleanField(help_text="True while stored ratings predate them (the re-rating is queued "
                                                 "or running).")
    stale_events = serializers.IntegerField()
    total_events = serializers.IntegerField()
    last_rated_at = serializers.DateTimeField(allow_null=True)


class ReratingFailureSerializer(serializers.Serializer):
    parameter_set = serializers.IntegerField(source="pk", help_text="The set the failed re-rating ran with.")
    label = serializers.CharField()
    in_force = serializers.BooleanField(help_text="False when its adoption was undone because of the failure.")
    failed_at = serializers.DateTimeField(source="rerating_failed_at")
    error = serializers.CharField(source="rerating_error", help_text="Why it failed (exception class and message).")


class ParameterOverviewSerializer(serializers.Serializer):
    system = serializers.CharField()
    defaults = serializers.DictField(help_text="The engine's shipped defaults (name -> value).")
    in_force = ParameterSetSerializer(allow_null=True, help_text="null: the shipped defaults are in force.")
    params = serializers.DictField(help_text="The parameters the rating runs with now (name -> value).")
    rerating = ReratingStateSerializer()
    history = ParameterSetSerializer(many=True, help_text="Every set ever adopted, newest adoption first.")
    candidates = ParameterSetSerializer(many=True, help_text="Sets saved and never adopted, newest first.")
    rerating_failure = ReratingFailureSerializer(
        allow_null=True, help_text="The last full re-rating's failure when none succeeded since (the previous "
                                   "ratings are still served), else null.")


def params_schema() -> dict:
    """The OpenAPI schema of a parameter set's ``params``, generated from
    :data:`ratings.engine.parameters.PARAMETER_RANGES` (each parameter a number, or a whole number, within
    its range) and the federation's rule ``monotone`` (true only); no other key."""
    from ratings.engine.parameters import PARAMETER_RANGES

    properties: dict = {
        name: {"type": "integer" if rng.integer else "number", "minimum": rng.low, "maximum": rng.high,
               "description": f"{rng.unit}: {rng.why}."}
        for name, rng in PARAMETER_RANGES.items()
    }
    properties["monotone"] = {"type": "boolean", "enum": [True], "description": "The federation's rule: true only."}
    return {
        "type": "object", "properties": properties, "additionalProperties": False,
        "description": "Name -> value; parameters not given take the shipped defaults. Between parameters (with "
                       "the defaults for those not given): min_rd <= known_rd <= initial_rd and initial_volatility "
                       "<= max_volatility; else 400 with field `params` naming the rule.",
    }


@extend_schema_field(params_schema())
class _ParamsField(serializers.JSONField):
    """A parameter set's ``params`` (a JSON object; :func:`params_schema` states its keys and ranges)."""


class ParameterSetCreateInputSerializer(StrictInputSerializer):
    label = serializers.CharField(max_length=parameter_services.PARAMETER_LABEL_MAX_LENGTH)
    params = _ParamsField()


class ParameterReasonInputSerializer(StrictInputSerializer):
    reason = serializers.CharField(max_length=500,
                                   help_text="Required, not blank: why (stored with the adoption and on the history "
                                             "rows).")


def _overview_body(overview: parameter_selectors.ParameterOverview) -> dict:
    return {
        "system": overview.system, "defaults": overview.defaults, "in_force": overview.in_force,
        "params": {row.name: row.value for row in overview.rows}, "rerating": overview.rerating.as_dict(),
        "history": list(overview.history), "candidates": list(overview.candidates),
        "rerating_failure": latest_rerating_failure(),
    }


class RatingParametersApi(APIView):
    """The federation's rating parameters: what is in force, the candidates, the history (GET); save a
    candidate entered by hand (POST)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="ratings_parameters", tags=["ratings"],
                   responses={200: ParameterOverviewSerializer, **error_responses(401, 403)})
    def get(self, request):
        _require_staff(request.user)
        return Response(ParameterOverviewSerializer(_overview_body(parameter_selectors.parameter_overview())).data)

    @extend_schema(
        operation_id="ratings_parameters_create", tags=["ratings"], request=ParameterSetCreateInputSerializer,
        responses={201: ParameterSetSerializer, **error_responses(400, 401, 403)},
        description="Saves a candidate (not adopted). 400 with field `params` and a message naming the parameter "
                    "for an unknown parameter or a bad value.",
        examples=[OpenApiExample("Slower volatility", value={"label": "tau 0.9", "params": {"tau": 0.9}}, request_only=True)],
    )
    def post(self, request):
        _require_staff(request.user)
        data = validated_input(ParameterSetCreateInputSerializer, request.data)
        row = parameter_services.rating_parameters_create(label=data["label"], params=data["params"], user=request.user)
        return Response(ParameterSetSerializer(row).data, status=status.HTTP_201_CREATED)


def _parameter_set_get(pk: int) -> RatingParameterSet:
    row = RatingParameterSet.objects.filter(pk=pk).first()
    if row is None:
        raise NotFound(_("No rating parameter set with id %(id)s.") % {"id": pk}, field="id")
    return row


class RatingParametersAdoptApi(APIView):
    """Adopt a parameter set: it replaces the set in force and the whole history is re-rated with it."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="ratings_parameters_adopt", tags=["ratings"], request=ParameterReasonInputSerializer,
        responses={200: ParameterSetSerializer, **error_responses(400, 401, 403, 404, 409)},
        description="The set in force is retired; the adoption records who, when and `reason` (400, field "
                    "`reason`, when missing); a full re-rating is queued. A set adopted before and since retired "
                    "is adopted as a copy (the answer's `id` is the copy's). 400 with field `params` when the "
                    "stored parameters are no longer valid; 409 when the set is in force already.",
        examples=[OpenApiExample("Adopt", value={"reason": "Board decision 2026/4"}, request_only=True)],
    )
    def post(self, request, pk: int):
        _require_staff(request.user)
        row = _parameter_set_get(pk)
        data = validated_input(ParameterReasonInputSerializer, request.data)
        adopted = parameter_services.rating_parameters_adopt(parameter_set=row, user=request.user, reason=data["reason"])
        return Response(ParameterSetSerializer(adopted).data)


class RatingParametersRevertApi(APIView):
    """Return to the engine's shipped defaults: the set in force is retired and the history re-rated."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="ratings_parameters_revert", tags=["ratings"], request=ParameterReasonInputSerializer,
        responses={200: ParameterSetSerializer, **error_responses(400, 401, 403, 409)},
        description="Returns the retired set. 400 (field `reason`) without a reason; 409 when the shipped defaults "
                    "are in force already.",
    )
    def post(self, request):
        _require_staff(request.user)
        data = validated_input(ParameterReasonInputSerializer, request.data)
        retired = parameter_services.rating_parameters_revert_to_defaults(user=request.user, reason=data["reason"])
        return Response(ParameterSetSerializer(retired).data)
