"""The WeasyPrint helpers every PDF of the site shares (crosstables, standings, pairing lists, result slips,
bracket, prize and team PDFs, event reports, the official rating lists): HTML to PDF bytes with the
garbage collector paused, a cached file built once (to a temporary name, then renamed), and a one-pixel
PNG for the rules between rows. Nothing here knows a tournament.
"""
from __future__ import annotations

import gc
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings


def rule_png_uri(colour: str = "#999") -> str:
    """A ``data:`` URI of a one-pixel PNG of ``colour`` (``#rgb`` or ``#rrggbb``): stretched along a
    row's bottom (``background: url(...) left bottom / 100% 0.3pt no-repeat``) it draws the rule
    between rows, for far less than a border on every cell."""
    import base64
    import struct
    import zlib

    hexes = colour.lstrip("#")
    if len(hexes) == 3:
        hexes = "".join(c * 2 for c in hexes)
    rgb = bytes.fromhex(hexes)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(b"\x00" + rgb)) + chunk(b"IEND", b""))
    return "data:image/png;base64," + base64.b64encode(png).decode()


@contextmanager
def _gc_paused():
    """Python's cyclic garbage collector off for a while: WeasyPrint makes hundreds of thousands of
    boxes, and the collections their allocation sets off scan every one of them again and again (a
    sixth of a 1000-player crosstable's time); collected once the PDF is made, as usual."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def pdf_document(html: str):
    """WeasyPrint's layout of ``html`` (a :class:`weasyprint.document.Document`)."""
    from weasyprint import HTML  # imported here: Pango is needed only when a PDF is made

    with _gc_paused():
        return HTML(string=html, base_url=str(settings.BASE_DIR)).render()


def pdf_write(document) -> bytes:
    """The PDF bytes of a laid-out document (:func:`pdf_document`)."""
    with _gc_paused():
        return document.write_pdf()


def html_to_pdf(html: str) -> bytes:
    """``html`` as PDF bytes: :func:`pdf_document`, then :func:`pdf_write`. Every PDF of the site
    (crosstable, standings, pairing lists, result slips) is made here."""
    return pdf_write(pdf_document(html))


def pdf_file_build(path: Path, make: Callable[[], bytes]) -> Path:
    """Write the bytes of ``make()`` to the cache file ``path`` unless it exists (to a temporary name,
    then renamed: a build cut short leaves no half file), clear the web's "being built" marker and
    return ``path``. Shared by every cached PDF (crosstable, standings, pairing lists)."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        import os

        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(make())
        tmp.replace(path)
        _remove_stale_tmp(path)
    path.with_suffix(".queued").unlink(missing_ok=True)  # the web's "being built" marker
    return path


def _remove_stale_tmp(path: Path, older_than: float = 600.0) -> None:
    """Delete temporary files of ``path`` left by builds whose worker was killed half-way (any older
    than ``older_than`` seconds: a younger one may belong to a build still running)."""
    import time

    for tmp in path.parent.glob(f"{path.stem}.*.tmp"):
        try:
            if time.time() - tmp.stat().st_mtime > older_than:
                tmp.unlink(missing_ok=True)
        except FileNotFoundError:
            pass
