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
            _parameter_patterns(operation)
            _json_bodies(operation)
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


#: What a URL converter matches, stated as a pattern: ``<slug:...>`` (Django's slug converter); a
#: ``<str:...>`` path segment or a text query parameter takes no control character (C0, DEL, C1, line and
#: paragraph separators, lone surrogates: :class:`federation.middleware.BadInputMiddleware` answers 400 to
#: them) and, in a path, no slash.
SLUG_PATTERN = r"^[-a-zA-Z0-9_]+$"
# federation.validators.CONTROL_CHARACTERS, as JSON Schema (ECMA 262) escapes; a lone surrogate cannot be
# sent in UTF-8 at all
_CONTROLS = r"\u0000-\u001f\u007f-\u009f\u2028\u2029"
PATH_TEXT_PATTERN = rf"^[^/{_CONTROLS}]+$"
QUERY_TEXT_PATTERN = rf"^[^{_CONTROLS}]*$"


def _parameter_patterns(operation) -> None:
    """Text path and query parameters get the pattern the URL resolver and the bad-input middleware
    enforce (a slug: letters, digits, hyphen, underscore; other text: no control character)."""
    for param in operation.get("parameters", []):
        schema = param.get("schema", {})
        if param.get("in") not in ("path", "query") or schema.get("type") != "string":
            continue
        if "enum" in schema or "format" in schema or "pattern" in schema:
            continue
        if param["in"] == "path":
            schema["pattern"] = SLUG_PATTERN if param.get("name") == "slug" else PATH_TEXT_PATTERN
        else:
            schema["pattern"] = QUERY_TEXT_PATTERN


FORM_MEDIA_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _json_bodies(operation) -> None:
    """The API reads JSON bodies: an operation that takes JSON documents JSON only (the form parsers
    stay for the browsable API, undocumented — a form cannot send ``null`` or a list). Uploads stay
    multipart (their operations do not take JSON)."""
    content = operation.get("requestBody", {}).get("content", {})
    if "application/json" in content:
        for media in FORM_MEDIA_TYPES:
            content.pop(media, None)


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
        if direction == "request":
            _texts_without_controls(schema)
        return schema


#: A reason may hold line breaks and tabs, no other control character and no bidirectional mark
#: (:func:`federation.validators.clean_reason`).
REASON_PATTERN = (r"^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029"
                  r"\u200e\u200f\u202a-\u202e\u2066-\u2069]*$")


def _texts_without_controls(schema) -> None:
    """The text fields of a strict input (names, ids, cities: ``federation.input_checks.clean_text``; reasons:
    ``clean_reason``, also a rating list's note) refuse control characters (400 naming the field): their schema says so."""
    for name, prop in schema.get("properties", {}).items():
        if prop.get("type") != "string" or {"enum", "format", "pattern"} & set(prop) or prop.get("readOnly"):
            continue
        prop["pattern"] = REASON_PATTERN if name in ("reason", "note") else QUERY_TEXT_PATTERN


class SettingsRefuseUnknownKeys(RefusesUnknownKeys):
    """The tournament settings PATCH refuses a key it does not declare in the same way."""

    target_class = "tournaments.serializers.TournamentUpdateInputSerializer"
