"""Small helpers every tournament view module uses (``views``, the ``views`` of ``rounds``, ``results``,
``entries``, ``teams``, ``knockout``, ``events`` and ``prizes``): the page language, the tournament behind
the publish gate, running a service with a message, a service refusal shown on its form field, and a PDF
built by a job (served when ready, else queued once). No view module imports another for these, so none
of them depends on the import order of the others."""
from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
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



def cached_pdf_response(request, t: Tournament | None, *, path: Path, task, args: list, filename: str, pending: dict,
                         private: bool = False):
    """A PDF cached at ``path`` (built by the Celery ``task`` with ``args``): served when ready; built in
    this request in the embedded mode (Celery eager); otherwise queued once (:func:`claim_job`) and
    answered at once with 202 and a page (``pdf_pending.html`` with the ``pending`` texts) that reloads
    until the file is there — 503 when the broker cannot be reached. ``private``: not kept by caches
    (a draft for the staff). ``t`` names the pending page's crumb; None (an event's PDF) when
    ``pending`` carries ``crumb_url`` and ``crumb_name`` instead."""
    if not path.exists() and settings.CELERY_TASK_ALWAYS_EAGER:
        path = Path(task.apply(args=args).get())
    if path.exists():
        response = FileResponse(open(path, "rb"), content_type="application/pdf", filename=filename)
        if private:
            response["Cache-Control"] = "private, no-store"
        return response
    failed = None
    if claim_job(path):
        try:
            task.delay(*args)
        except Exception as exc:  # broker unreachable: say so now rather than hang the worker process
            release_job(path)
            failed = str(exc) or exc.__class__.__name__
    response = render(
        request, "tournaments/pdf_pending.html", {"t": t, "failed": failed, **pending},
        status=503 if failed else 202,
    )
    response["Retry-After"] = "2"
    response["Cache-Control"] = "no-store"
    return response


def pdf_inline(data: bytes, filename: str, *, private: bool) -> HttpResponse:
    """``data`` as an inline PDF named ``filename``; ``private``: not kept by caches."""
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    if private:
        response["Cache-Control"] = "private, no-store"
    return response


_JOB_CLAIM_SECONDS = 120


def claim_job(path: Path) -> bool:
    """True for the first request that asks for ``path`` to be built (a marker file created with
    O_EXCL, shared by every web process); a marker older than two minutes is stale (a lost job)."""
    import os
    import time

    marker = path.with_suffix(".queued")
    marker.parent.mkdir(parents=True, exist_ok=True)
    try:
        if time.time() - marker.stat().st_mtime > _JOB_CLAIM_SECONDS:
            marker.unlink(missing_ok=True)
    except FileNotFoundError:
        pass
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def release_job(path: Path) -> None:
    """Forget the claim of :func:`claim_job` on ``path`` (the job could not be queued)."""
    path.with_suffix(".queued").unlink(missing_ok=True)
