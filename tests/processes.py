"""Stopping the processes a test started in a session of their own (gunicorn, a Celery worker)."""
from __future__ import annotations

import os
import signal
import subprocess


def stop_process_group(proc: subprocess.Popen | None, *, timeout: float = 15) -> None:
    """SIGTERM to ``proc``'s process group, SIGKILL after ``timeout`` seconds; nothing when it has ended."""
    if proc is None or proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)
