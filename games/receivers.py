"""Receivers of :mod:`federation.signals` for the games, connected in :meth:`games.apps.GamesConfig.ready`:
the member register never imports games."""
from __future__ import annotations


def rename_in_record_imports(sender, *, old_names=(), new_name: str = "", **kwargs) -> None:
    """Anonymised records (:data:`federation.signals.players_anonymised`): move records of bulk imports
    (:class:`games.models.RecordImport`, ``text``) whose tags name one of ``old_names`` (``[White "Last,
    First"]``) get ``new_name`` there instead."""
    from games.models import RecordImport

    for name in old_names:  # the quoted tag value: [White "Yılmaz, Ali"], never a longer name
        quoted = f'"{name}"'
        for imp in RecordImport.objects.select_for_update().filter(text__contains=quoted):
            imp.text = imp.text.replace(quoted, f'"{new_name}"')
            imp.save(update_fields=["text"])
