"""The Django admin of the games app: bulk imports of set records, view only.

An import is started from the product's import page (or ``manage.py import_records``), which queues
the Celery task that fills the row; here staff read the progress and the errors, and may delete a
finished import (the sets keep their moves).
"""
from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from federation.admin import TurkishSearchAdmin
from games.models import RecordImport


@admin.register(RecordImport)
class RecordImportAdmin(TurkishSearchAdmin):
    list_display = ("id", "created_at", "created_by", "source", "status", "total", "done", "stored", "error_count",
                    "replace", "finished_at")
    list_display_links = ("id", "created_at")
    list_filter = ("status", "replace")
    list_select_related = ("created_by",)
    search_fields = ("source", "created_by__username")
    date_hierarchy = "created_at"

    @admin.display(description=_("errors"))
    def error_count(self, obj):
        return len(obj.errors or [])

    def has_add_permission(self, request):
        return False  # an import is started from the product, which queues its task

    def has_change_permission(self, request, obj=None):
        return False  # the task records the progress

    def has_delete_permission(self, request, obj=None):
        if obj is not None and obj.is_active:
            return False  # still running
        return super().has_delete_permission(request, obj)
