"""JSON log lines for production (``federation/settings/production.py`` ``LOGGING``).

:class:`JsonFormatter` is python-json-logger's formatter that never fails on what Django puts in a
record: the ``request`` of ``django.request`` records becomes ``{"method", "path", "status"}`` — never
its headers, cookies or body (no session ids or passwords in the logs) — and any other value that JSON
cannot hold becomes its ``str()``.
"""
from __future__ import annotations

from pythonjsonlogger.json import JsonFormatter as _JsonFormatter


class JsonFormatter(_JsonFormatter):
    """One JSON object per record: ``time``, ``level``, ``logger``, ``message``, extras (module docstring)."""

    def add_fields(self, log_record: dict, record, message_dict: dict) -> None:
        super().add_fields(log_record, record, message_dict)
        request = log_record.pop("request", None)
        if request is not None and hasattr(request, "method"):
            log_record["http"] = {"method": request.method, "path": getattr(request, "path", "")}
        status = log_record.pop("status_code", None)
        if status is not None:
            log_record.setdefault("http", {})["status"] = status
        for key, value in list(log_record.items()):
            if not isinstance(value, (str, int, float, bool, type(None), dict, list)):
                log_record[key] = str(value)
