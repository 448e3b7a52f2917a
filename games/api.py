"""REST API of the rules engine: check a set record against its claimed result.

Pure read: nothing is stored, so anyone may call it. The engine (:func:`games.engine.validate_record`)
replays the moves; any rule it finds broken (a :class:`ValueError`) becomes a 400 with field
``moves`` and the engine's message in the request's language, which names the ply ("ply 17: pit 3 of
second player is empty"; :func:`games.record_messages.engine_error_message`).
"""
from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

import games.engine as engine
from federation.api_views import ErrorSerializer, validated_input
from federation.errors import ValidationFailed
from games.record_messages import engine_error_message


class RecordInputSerializer(serializers.Serializer):
    moves = serializers.CharField(
        allow_blank=True, help_text='Pit numbers 1..6 of the mover in play order, space separated: "4 1 3 …".'
    )
    variant = serializers.ChoiceField(
        choices=[v.value for v in engine.Variant], default=engine.Variant.FEDERATION.value
    )
    first_stones = serializers.IntegerField(help_text="Recorded stones of the set's first mover (after Kural 14.5).")
    second_stones = serializers.IntegerField(help_text="Recorded stones of the second mover.")
    withdrawn_by = serializers.ChoiceField(
        choices=["first", "second"], allow_null=True, required=False, default=None,
        help_text="Who withdrew from a decided set (Kural 14.5), or null for a set played to the end.",
    )


class RecordOutputSerializer(serializers.Serializer):
    valid = serializers.BooleanField()
    plies = serializers.IntegerField(help_text="Number of moves replayed.")
    first = serializers.IntegerField(help_text="Recorded stones of the first mover.")
    second = serializers.IntegerField()
    winner = serializers.ChoiceField(choices=["first", "second"], allow_null=True, help_text="null: 24–24 draw.")
    margin = serializers.IntegerField(help_text='Winner\'s stones − 24 ("+k", Kural 14.4); 0 for a draw.')
    withdrawn_by = serializers.ChoiceField(choices=["first", "second"], allow_null=True)


class ValidateRecordApi(APIView):
    """Replay a set record and check it ends with the claimed stones (games.engine.validate_record)."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="games_validate_record", tags=["games"], request=RecordInputSerializer,
        responses={
            200: RecordOutputSerializer,
            400: OpenApiResponse(ErrorSerializer, description='field "moves" and a message naming the ply or rule.'),
        },
        examples=[OpenApiExample(
            "A complete set won 28-20 by the first mover", request_only=True,
            value={"moves": "1 2 4 5 1 4 3 5 4 4 1 4 6 6 4 4 6 1 3 4 6 1 1 3 2", "variant": "federation",
                   "first_stones": 28, "second_stones": 20, "withdrawn_by": None},
        )],
    )
    def post(self, request):
        data = validated_input(RecordInputSerializer, request.data)
        moves = data["moves"].replace(",", " ").split()
        try:
            result = engine.validate_record(
                moves, variant=data["variant"], first_stones=data["first_stones"],
                second_stones=data["second_stones"], withdrawn_by=data["withdrawn_by"],
            )
        except ValueError as exc:
            raise ValidationFailed(engine_error_message(exc), field="moves", code="invalid_record") from exc
        out = {
            "valid": True, "plies": len(moves), "first": result.first, "second": result.second,
            "winner": result.winner, "margin": result.margin, "withdrawn_by": result.withdrawn_by,
        }
        return Response(RecordOutputSerializer(out).data)
