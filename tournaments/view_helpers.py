"""Small helpers every tournament view module uses (``views``, ``team_views``, ``knockout_views``,
``event_views``, ``category_views``): the page language, the tournament behind the publish gate, running
a service with a message, and a service refusal shown on its form field. No view module imports another
for these, so none of them depends on the import order of the others."""
from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language

from federation.errors import ApplicationError
from tournaments import publication
from tournaments.models import Tournament


def page_lang() -> str:
    """``"en"`` or ``"tr"``: the language of the current request (Turkish unless English was chosen)."""
    return "en" if (get_language() or "tr").startswith("en") else "tr"


def visible_tournament(request, slug: str) -> Tournament:
    """The tournament as this user may see it (the publish gate: archived ones for staff only).
    Raises Http404."""
    t = get_object_or_404(Tournament, slug=slug)
    if not publication.tournament_visible(t, request.user):
        raise Http404("archived")
    return t


def run_service(request, func, ok_message: str, **kwargs):
    """``func(user=request.user, **kwargs)``: its result and ``ok_message`` as a success message, or None
    and the refusal (an :class:`ApplicationError`) as an error message."""
    try:
        result = func(user=request.user, **kwargs)
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return None
    messages.success(request, ok_message)
    return result


def form_error(form, exc: ApplicationError) -> None:
    """Show a service's refusal on ``form``: on its field when the form has it, else above the form."""
    form.add_error(exc.field if exc.field in form.fields else None, exc.message)


def role_required(check, message: str, *, tournament: bool = True):
    """Permission before validation (issue 23) for a logged-in HTML view: the 403 page with ``message``
    unless ``check`` allows the user — ``check(user, tournament)`` on the visible tournament of the
    ``slug`` in the path (Http404 for an unknown or hidden one), or ``check(user)`` with
    ``tournament=False``. Runs before the view looks up a round, board or entry or reads the form; put it
    under ``@login_required`` (anonymous users go to the login page)."""
    from functools import wraps

    from federation.error_views import forbidden

    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if tournament:
                allowed = check(request.user, visible_tournament(request, kwargs["slug"]))
            else:
                allowed = check(request.user)
            if not allowed:
                return forbidden(request, message)
            return view(request, *args, **kwargs)

        return wrapped

    return decorator
