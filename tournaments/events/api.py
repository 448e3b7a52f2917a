"""REST API of multi-section events (issue 14), read only: ``GET /api/events/`` and
``GET /api/events/{slug}/`` with the sections and their rules (birth years, sex, the ages those years
mean in the event's age year). Archived sections are listed for federation staff only (the publish
gate, :mod:`tournaments.publication`); a section's results are read through ``/api/tournaments/``.
"""
from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import generics, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from federation.api_views import error_responses
from tournaments.events import selectors as sel
from tournaments.events.services import section_label
from tournaments.models import Event, Tournament
from tournaments.events.sections import SectionRule
from tournaments.serializers import TOURNAMENT_FORMATS

TAG = ["events"]


class SectionRuleSerializer(serializers.Serializer):
    birth_year_min = serializers.IntegerField(allow_null=True, help_text="Born in or after (null: open).")
    birth_year_max = serializers.IntegerField(allow_null=True, help_text="Born in or before (null: open).")
    sex = serializers.CharField(allow_blank=True, max_length=1,
                                help_text='"f" girls / women, "m" boys / men, "" (empty) anyone.')
    min_age = serializers.IntegerField(allow_null=True, help_text="Youngest age in the event's age year (null: open "
                                                                  "or no age year).")
    max_age = serializers.IntegerField(allow_null=True, help_text="Oldest age in the event's age year (null: open or "
                                                                  "no age year).")
    text = serializers.CharField(help_text="The rule in words, in the request's language.")


class EventSectionSerializer(serializers.ModelSerializer):
    label = serializers.SerializerMethodField(help_text='The section\'s own name ("İlkokul Kız").')
    order = serializers.IntegerField(source="section_order")
    format = serializers.SerializerMethodField(help_text='"individual" (team sections later).')
    n_entries = serializers.IntegerField(read_only=True)
    rule = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = ["slug", "name", "label", "order", "system", "format", "status", "rounds_total", "n_entries", "rule"]

    def get_label(self, t: Tournament) -> str:
        return section_label(t)

    @extend_schema_field(serializers.ChoiceField(choices=TOURNAMENT_FORMATS))
    def get_format(self, t: Tournament) -> str:
        return "individual"

    @extend_schema_field(SectionRuleSerializer)
    def get_rule(self, t: Tournament) -> dict:
        age_year = self.context.get("age_year")
        young, old = SectionRule.of(t).ages(age_year)
        return {
            "birth_year_min": t.section_birth_year_min, "birth_year_max": t.section_birth_year_max,
            "sex": t.section_sex or "", "min_age": young, "max_age": old, "text": sel.rule_text(t, age_year),
        }


class EventListOutputSerializer(serializers.ModelSerializer):
    age_year = serializers.IntegerField(read_only=True, allow_null=True,
                                        help_text="The year ages are counted in (reference date, else start date).")
    n_sections = serializers.IntegerField(read_only=True)

    class Meta:
        model = Event
        fields = ["slug", "name", "start_date", "end_date", "venue", "city", "reference_date", "age_year",
                  "n_sections"]


class EventDetailOutputSerializer(EventListOutputSerializer):
    sections = serializers.SerializerMethodField()

    class Meta(EventListOutputSerializer.Meta):
        fields = [*EventListOutputSerializer.Meta.fields, "sections"]

    @extend_schema_field(EventSectionSerializer(many=True))
    def get_sections(self, event: Event) -> list[dict]:
        return EventSectionSerializer(self.context["sections"], many=True, context={"age_year": event.age_year}).data


class EventListApi(generics.ListAPIView):
    """Multi-section events, newest first."""

    serializer_class = EventListOutputSerializer

    def get_queryset(self):
        return sel.event_list(user=self.request.user)

    @extend_schema(operation_id="events_list", tags=TAG)
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class EventDetailApi(APIView):
    """An event with its sections (in the event's order) and their rules."""

    @extend_schema(operation_id="events_retrieve", tags=TAG,
                   responses={200: EventDetailOutputSerializer, **error_responses(404)})
    def get(self, request, slug: str):
        event = sel.event_get(slug)
        sections = sel.event_sections(event=event, user=request.user)
        event.n_sections = len(sections)
        return Response(EventDetailOutputSerializer(event, context={"sections": sections}).data)
