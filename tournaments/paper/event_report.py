"""The event report (issue 14) as a printable PDF (WeasyPrint, the site's HTML-to-PDF step
:func:`federation.pdf.html_to_pdf`): each section's top ten, players, rounds, chief arbiter.

Built by the Celery task ``tournaments.paper.event_report`` on the ``pdf`` queue and cached under
``MEDIA_ROOT/events`` like every PDF of the site (:func:`federation.pdf.pdf_file_build`;
served by ``tournaments.view_helpers.cached_pdf_response``). An event has no version of its own, so the file
is named by a fingerprint of what the report shows (:func:`event_report_fingerprint`): the event's
fields and, per section the reader may see, its id, the version the reader's table is keyed on
(``standings_version`` for the public, ``version`` for its organisers), its counts and status. A result,
an entry or a publication in any section changes the fingerprint and so rebuilds the file; readers who
see the same sections the same way share one file.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation

from tournaments import publication
from tournaments.events import selectors as event_selectors
from tournaments.events import services as events
from tournaments.models import Event

#: Bumped when the PDF's layout or wording changes, so files of an older release are not served.
LAYOUT = 1


def event_report_fingerprint(*, event: Event, user=None) -> str:
    """A 16-hex-digit digest of everything the report of ``event`` shows ``user`` (module docstring).
    One query (the sections with their counts: :func:`tournaments.events.selectors.event_sections`)."""
    parts: list = [event.pk, event.slug, event.name, event.start_date, event.end_date, event.venue, event.city,
                   event.reference_date, events.can_organise_event(user, event)]
    for s in event_selectors.event_sections(event=event, user=user):
        organiser = publication.sees_everything(s, user)
        parts.append((s.pk, organiser, s.version if organiser else s.standings_version, s.n_entries,
                      s.n_closed_rounds, s.rounds_total, s.status, s.archived_at, s.name, s.section_order,
                      s.standings_published_at))
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def event_report_pdf_path(event: Event, user=None, lang: str = "tr") -> Path:
    """Where the cached report of ``event`` as ``user`` sees it now lives, in ``lang``."""
    digest = event_report_fingerprint(event=event, user=user)
    return Path(settings.MEDIA_ROOT) / "events" / f"{event.pk}-{event.slug}-{digest}-{lang}-l{LAYOUT}.pdf"


def event_report_pdf_bytes(*, event: Event, user=None, lang: str = "tr") -> bytes:
    """The report of ``event`` as ``user`` sees it, as PDF bytes (WeasyPrint: call it in a worker)."""
    from federation.pdf import html_to_pdf

    with translation.override(lang):
        context = {
            "event": event, "sections": event_selectors.event_report(event=event, user=user, lang=lang),
            "generated_at": timezone.now(), "can_organise": events.can_organise_event(user, event),
        }
        html = render_to_string("tournaments/events/report_pdf.html", context)
    return html_to_pdf(html)


def event_report_pdf_build(*, event: Event, user=None, lang: str = "tr") -> Path:
    """Build (or reuse) the cached report PDF of ``event`` for ``user``'s view of it now; returns its path."""
    from federation.pdf import pdf_file_build

    return pdf_file_build(event_report_pdf_path(event, user, lang),
                          lambda: event_report_pdf_bytes(event=event, user=user, lang=lang))
