"""OpenAPI post-processing: the errors every operation can answer, documented once.

Any operation may answer 400 (a malformed request — e.g. control characters in the URL, refused by
:class:`federation.middleware.BadInputMiddleware` before the view), 401 (wrong credentials sent),
403, 404 (an id in the path that does not exist or is not visible), and 429 (throttled). Each uses
the error envelope ``{"error": {"code", "message", "field"}}`` (``federation.api_views.ErrorSerializer``).
"""
from __future__ import annotations

from drf_spectacular.extensions import OpenApiSerializerExtension

COMMON_ERRORS = {
    "400": "Bad input: the field and the reason are in the error.",
    "401": "Not logged in, or wrong credentials.",
    "403": "Logged in without the right role.",
    "404": "Not found, or not visible to this user.",
    "429": "Too many requests or failed logins; retry after the Retry-After header.",
}
ERROR_REF = {"$ref": "#/components/schemas/Error"}


def document_errors(result, generator, request, public):
    """drf-spectacular POSTPROCESSING_HOOK: add :data:`COMMON_ERRORS` to every operation (keeping any
    documented already) with the ``Error`` schema."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    if "Error" not in schemas:
        schemas["ErrorDetail"] = {
            "type": "object",
            "properties": {
                "code": {"type": "string"},
                "message": {"type": "string"},
                "field": {"type": "string", "nullable": True},
            },
            "required": ["code", "message", "field"],
        }
        schemas["Error"] = {
            "type": "object", "properties": {"error": {"$ref": "#/components/schemas/ErrorDetail"}}, "required": ["error"],
        }
    for path_item in result.get("paths", {}).values():
        for method, operation in path_item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            _uploads_are_binary(operation, schemas)
            _page_bounds(operation)
            responses = operation.setdefault("responses", {})
            errors = dict(COMMON_ERRORS)
            if "requestBody" in operation:
                errors["415"] = "The body's media type is not one this operation reads."
            for status, description in errors.items():
                responses.setdefault(
                    status, {"description": description, "content": {"application/json": {"schema": ERROR_REF}}}
                )
    return result


def _page_bounds(operation) -> None:
    """``limit``/``offset`` query parameters declared by hand (``OpenApiParameter("limit", int)``)
    get the bounds :class:`federation.drf.Pagination` enforces (outside them: 400)."""
    from federation.drf import Pagination

    bounds = {"limit": {"minimum": 1, "maximum": Pagination.max_limit, "default": Pagination.default_limit},
              "offset": {"minimum": 0, "maximum": Pagination.max_offset, "default": 0}}
    for param in operation.get("parameters", []):
        if param.get("in") == "query" and param.get("name") in bounds and "minimum" not in param.get("schema", {}):
            param.setdefault("schema", {}).update(bounds[param["name"]])


def _uploads_are_binary(operation, schemas) -> None:
    """A file field of a multipart body is the file's bytes (``format: binary``), not a URI (what
    drf-spectacular writes for a ``FileField`` without COMPONENT_SPLIT_REQUEST): a client sending a
    URI string gets 400 "not a file"."""
    media = operation.get("requestBody", {}).get("content", {}).get("multipart/form-data", {})
    ref = media.get("schema", {}).get("$ref", "")
    component = schemas.get(ref.rsplit("/", 1)[-1]) if ref else None
    for prop in (component or {}).get("properties", {}).values():
        if prop.get("format") == "uri":
            prop["format"] = "binary"


class RefusesUnknownKeys(OpenApiSerializerExtension):
    """A :class:`federation.api_views.StrictInputSerializer` answers 400 "Unknown field." to a key it
    does not declare: its schema says so (``additionalProperties: false``). Registered on import
    (``FederationConfig.ready``)."""

    target_class = "federation.api_views.StrictInputSerializer"
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_basic_serializer(self.target, direction)
        schema["additionalProperties"] = False
        return schema


class SettingsRefuseUnknownKeys(RefusesUnknownKeys):
    """The tournament settings PATCH refuses a key it does not declare in the same way."""

    target_class = "tournaments.serializers.TournamentUpdateInputSerializer"
