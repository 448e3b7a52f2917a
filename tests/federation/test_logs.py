"""Production log lines are JSON objects (federation/logs.py, federation/gunicorn_logger.py)."""
from __future__ import annotations

import datetime as dt
import io
import json
import logging

from django.test import RequestFactory

from federation.logs import JsonFormatter


def _formatted(record: logging.LogRecord) -> dict:
    formatter = JsonFormatter("%(asctime)s %(levelname)s %(name)s %(message)s",
                              rename_fields={"asctime": "time", "levelname": "level", "name": "logger"})
    return json.loads(formatter.format(record))


def test_a_server_error_record_keeps_method_path_and_status_but_no_cookies():
    request = RequestFactory().get("/t/x/?token=gizli", HTTP_COOKIE="sessionid=gizli-oturum")
    record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "Internal Server Error: %s",
                               ("/t/x/",), None)
    record.request, record.status_code = request, 500
    line = _formatted(record)
    assert line["level"] == "ERROR" and line["logger"] == "django.request"
    assert line["message"] == "Internal Server Error: /t/x/"
    assert line["http"] == {"method": "GET", "path": "/t/x/", "status": 500}
    assert "gizli" not in json.dumps(line)


def test_extras_and_tracebacks_are_fields():
    try:
        raise ZeroDivisionError("sıfır")
    except ZeroDivisionError:
        import sys

        exc_info = sys.exc_info()
    record = logging.LogRecord("tournaments", logging.ERROR, __file__, 1, "invariant violated", (), exc_info)
    record.invariant, record.pk, record.when = "set.stones", 12, dt.date(2026, 12, 1)
    line = _formatted(record)
    assert line["invariant"] == "set.stones" and line["pk"] == 12 and line["when"] == "2026-12-01"
    assert "ZeroDivisionError: sıfır" in line["exc_info"]


def test_gunicorn_access_lines_are_json_without_the_query_string():
    from types import SimpleNamespace

    from gunicorn.config import Config

    from federation.gunicorn_logger import JsonLogger

    cfg = Config()
    cfg.set("accesslog", "-")
    logger = JsonLogger(cfg)
    stream = io.StringIO()
    for handler in logger.access_log.handlers:
        handler.stream = stream
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": "/accounts/reset/x/", "QUERY_STRING": "token=gizli",
               "REMOTE_ADDR": "10.0.0.9", "HTTP_USER_AGENT": 'Telefon "Hakem"'}
    resp = SimpleNamespace(status="200 OK", sent=1234, headers=[])
    logger.access(resp, SimpleNamespace(), environ, dt.timedelta(milliseconds=12.34))
    line = json.loads(stream.getvalue())
    assert line["logger"] == "gunicorn.access" and line["agent"] == 'Telefon "Hakem"'
    assert line["http"] == {"method": "GET", "path": "/accounts/reset/x/", "status": 200, "bytes": 1234, "ms": 12.3}
    assert "gizli" not in stream.getvalue()
