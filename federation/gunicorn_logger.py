"""Gunicorn's own log lines as JSON, like the application's (``federation/logs.py``).

``gunicorn --logger-class federation.gunicorn_logger.JsonLogger`` (``docker/entrypoint.sh``): each
access line is ``{"time", "level", "logger": "gunicorn.access", "http": {"method", "path", "status",
"bytes", "ms"}, "remote", "agent"}`` written with ``json.dumps`` (a user agent with quotes cannot break
the line), the query string left out (it may carry a password-reset token), and gunicorn's error log
(worker starts, timeouts) as ``{"time", "level", "logger": "gunicorn.error", "message"}``. Only
imported by gunicorn (the ``prod`` and ``bench`` extras).
"""
from __future__ import annotations

import json
import logging
import time

from gunicorn.glogging import Logger


class _JsonLineFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        if isinstance(record.msg, dict):  # an access line, built below
            return json.dumps(record.msg, ensure_ascii=False)
        line = {"time": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(record.created)),
                "level": record.levelname, "logger": record.name, "message": record.getMessage()}
        if record.exc_info:
            line["exc_info"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


class JsonLogger(Logger):
    """A gunicorn ``Logger`` whose access and error lines are JSON objects (module docstring)."""

    def setup(self, cfg) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                handler.setFormatter(_JsonLineFormatter())

    def access(self, resp, req, environ, request_time) -> None:
        if not (self.cfg.accesslog or self.cfg.logconfig or self.cfg.logconfig_dict):
            return
        status = resp.status.split(None, 1)[0] if isinstance(resp.status, str) else resp.status
        line = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "level": "INFO",
            "logger": "gunicorn.access",
            "http": {
                "method": environ.get("REQUEST_METHOD", ""),
                "path": environ.get("PATH_INFO", ""),
                "status": int(status) if str(status).isdecimal() else status,
                "bytes": getattr(resp, "sent", None),
                "ms": round(request_time.total_seconds() * 1000, 1),
            },
            "remote": environ.get("REMOTE_ADDR", ""),
            "agent": environ.get("HTTP_USER_AGENT", ""),
        }
        try:
            self.access_log.info(line)
        except Exception:  # a log line never breaks a response
            self.error("Failed to write an access log line")
