"""Writes of the official rating lists (``<entity>_<action>``, keyword-only, atomic): publish a list (a
snapshot of the national rating on a date, its PDF built after the commit), withdraw one, and overwrite
the names an anonymised player left on them (KVKK)."""
from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from federation.models import Player
from federation.versions import bump_on_commit
from ratings.lists import selectors
from ratings.services import lock_ratings


#: Longest reason for withdrawing a list, and longest note of a list.
LIST_REASON_MAX_LENGTH = 500


def rating_list_default_date(today: dt.date | None = None) -> dt.date:
    """The date a new official list gets unless staff choose another: the first day of the current
    month (lists are monthly by default)."""
    today = today or timezone.localdate()
    return today.replace(day=1)


def _require_list_staff(user, message: str) -> None:
    """Staff only; ``user=None`` is the system (the monthly job, the sample data)."""
    from federation import roles
    from federation.errors import PermissionDenied

    if user is not None and not roles.is_staff(user):
        raise PermissionDenied(message)


def _adopted_parameter_set(system: str):
    """The :class:`~ratings.models.RatingParameterSet` of ``system`` in force (adopted, not retired), or None."""
    from ratings.models import RatingParameterSet

    return RatingParameterSet.objects.filter(system=system, adopted_at__isnull=False, retired_at__isnull=True).first()


@transaction.atomic
def rating_list_publish(*, published_on: dt.date, user, title: str = "", note: str = ""):
    """Publish the official rating list of ``published_on``: a frozen snapshot of the national rating
    as of that date (:func:`ratings.lists.selectors.rating_list_snapshot`: rating, sets, status, active, rank,
    change since the previous list, age category), one :class:`~ratings.models.RatingListEntry` per
    listed player, with the adopted parameter set (None: the engine's defaults). Staff only (``user``
    None: the system). Recorded in the audit history (``rating_list.publish``); the rating pages'
    cached copies change (the ``ratings`` data version).

    Refusals: a date after today (ValidationFailed, field ``published_on``); a list in force already on
    that date, or on a later date (Conflict, field ``published_on``: withdraw it first; the changes of a
    list are counted from the list before it, so lists are published in date order); a title or note with control
    characters or too long (ValidationFailed, field ``title`` / ``note``).
    """
    from django.db import IntegrityError

    from federation.audit import audit_context
    from federation.errors import Conflict, ValidationFailed
    from federation.validators import clean_reason, first_control_character
    from ratings.models import RatingList, RatingListEntry

    _require_list_staff(user, _("Only federation staff can publish rating lists."))
    if not isinstance(published_on, dt.date) or isinstance(published_on, dt.datetime):
        raise ValidationFailed(_("Give the date of the list."), field="published_on")
    if published_on > timezone.localdate():
        raise ValidationFailed(_("A list cannot be dated in the future."), field="published_on")
    title = "" if title is None else title
    if not isinstance(title, str) or first_control_character(title) is not None:
        raise ValidationFailed(_("The title must be one line of text."), field="title")
    title = title.strip()
    if len(title) > 120:
        raise ValidationFailed(_("The title is longer than %(n)d characters.") % {"n": 120}, field="title")
    try:
        note = clean_reason(note, max_length=LIST_REASON_MAX_LENGTH)
    except ValidationFailed as exc:
        raise ValidationFailed(exc.message, field="note") from exc
    lock_ratings()  # PostgreSQL: never read a rating run half written
    from django.utils.formats import date_format

    taken = Conflict(
        _("A list dated %(d)s is in force already; withdraw it first.") % {"d": date_format(published_on)},
        field="published_on",
    )
    if RatingList.objects.filter(published_on=published_on, withdrawn_at__isnull=True).exists():
        raise taken
    later = RatingList.objects.filter(published_on__gt=published_on, withdrawn_at__isnull=True).order_by(
        "published_on"
    ).first()
    if later is not None:  # each list's changes are counted from the list before it: lists come in date order
        raise Conflict(
            _("Lists are published in date order: the list of %(d)s is in force. Withdraw it first to publish "
              "an earlier list.") % {"d": date_format(later.published_on)},
            field="published_on",
        )
    lines = selectors.rating_list_snapshot(published_on)
    from ratings.engine import FEDERATION_SYSTEM as system  # the name parameter sets are adopted under
    with audit_context(action="rating_list.publish", user=user, reason=note):
        try:
            with transaction.atomic():
                rating_list = RatingList.objects.create(
                    published_on=published_on, title=title, note=note, system=system,
                    parameter_set=_adopted_parameter_set(system), players=len(lines),
                    published_by=user if getattr(user, "is_authenticated", False) else None,
                )
        except IntegrityError as exc:  # published meanwhile by someone else
            raise taken from exc
    RatingListEntry.objects.bulk_create(
        [
            RatingListEntry(
                rating_list=rating_list, player=ln.player, federation_id=ln.player.federation_id,
                name=ln.player.full_name[:130], club=ln.club[:120], city=ln.city[:60], rating=ln.rating,
                sets=ln.sets, status=ln.status, active=ln.active, change=ln.change, rank=ln.rank,
                category=ln.category,
            )
            for ln in lines
        ],
        batch_size=1000,
    )
    bump_on_commit("ratings")
    transaction.on_commit(lambda: _queue_list_pdf(rating_list.pk))
    return rating_list


def _queue_list_pdf(rating_list_id: int) -> None:
    """Have a ``pdf`` worker build a new list's PDF (in the site's language) before anyone asks: a
    federation's whole list takes a while (about 4 ms a player). Not in the embedded mode (Celery
    eager: the first download builds it); a broker that cannot be reached only leaves it to that."""
    import logging

    from django.conf import settings

    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    from ratings.lists.tasks import rating_list_pdf_task

    try:
        rating_list_pdf_task.delay(rating_list_id, (settings.LANGUAGE_CODE or "tr")[:2])
    except Exception:  # noqa: BLE001 - the list is published; its PDF is built on the first download
        logging.getLogger(__name__).warning("rating list %s: PDF not queued", rating_list_id, exc_info=True)


@transaction.atomic
def rating_list_withdraw(*, rating_list, user, reason: str):
    """Withdraw an official list (staff only): it stays in the archive, marked withdrawn with who,
    when and ``reason``, and is no longer the list of its date; a corrected list may then be
    published for that date. Recorded in the audit history (``rating_list.withdraw``).

    Refusals: ``reason`` empty or too long (ValidationFailed, field ``reason``); the list withdrawn
    already (Conflict).
    """
    from federation.audit import audit_context
    from federation.errors import Conflict
    from federation.validators import clean_reason
    from ratings.models import RatingList

    _require_list_staff(user, _("Only federation staff can withdraw rating lists."))
    reason = clean_reason(reason, max_length=LIST_REASON_MAX_LENGTH, required=True,
                          message=_("Say why the list is withdrawn."))
    rating_list = RatingList.objects.select_for_update().get(pk=rating_list.pk)
    if rating_list.withdrawn_at is not None:
        raise Conflict(_("This list was withdrawn already."))
    rating_list.withdrawn_at = timezone.now()
    rating_list.withdrawn_by = user if getattr(user, "is_authenticated", False) else None
    rating_list.withdrawn_reason = reason
    with audit_context(action="rating_list.withdraw", user=user, reason=reason):
        rating_list.save(update_fields=["withdrawn_at", "withdrawn_by", "withdrawn_reason"])
    bump_on_commit("ratings")
    return rating_list


def rating_list_entries_anonymise(*, player_ids) -> int:
    """Give the lines of ``player_ids`` on every official list the anonymised player's name and no
    city (KVKK erasure, :func:`federation.services.player_anonymise`): the lists keep the federation
    id, club, rating and rank, never the old name. Returns the number of lines changed."""
    from ratings.models import RatingListEntry

    from ratings.lists.pdf import rating_list_pdf_files_remove

    changed = 0
    lists: set[int] = set()
    for p in Player.objects.filter(pk__in=list(player_ids)).only("pk", "first_name", "last_name"):
        rows = RatingListEntry.objects.filter(player_id=p.pk)
        lists.update(rows.values_list("rating_list_id", flat=True))
        changed += rows.update(name=p.full_name[:130], city="")
    if changed:
        bump_on_commit("ratings")
        # the lists' PDFs printed the old name: built again when next asked for (files: after the commit)
        transaction.on_commit(lambda: rating_list_pdf_files_remove(lists))
    return changed
