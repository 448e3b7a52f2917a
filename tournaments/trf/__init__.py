"""The TRF capability: the FIDE Tournament Report File (TRF-16) read, written, imported and exported.

Pure Python, no Django (``tournaments.pairing`` reads files with them): :mod:`~tournaments.trf.model` (the file
as dataclasses, result codes, the reader's messages and error), :mod:`~tournaments.trf.reader`,
:mod:`~tournaments.trf.extensions` (XXA XXP BBx, TRF-2026 142-260), :mod:`~tournaments.trf.bracket` (a
knockout's own XXK XXM lines), :mod:`~tournaments.trf.scoring` (points, played rounds, blank codes) and
:mod:`~tournaments.trf.writer`.

Django side: :mod:`~tournaments.trf.services` (the import; a knockout's boards:
:mod:`~tournaments.trf.bracket_import`), :mod:`~tournaments.trf.checks` (the file against the
tables), :mod:`~tournaments.trf.players` (the player of each line), :mod:`~tournaments.trf.mapping` (TRF values
to the tables and back), :mod:`~tournaments.trf.selectors` (the export, an import job as its user sees it),
:mod:`~tournaments.trf.jobs` (uploads and import jobs), :mod:`~tournaments.trf.lease` (a job's claim and
heartbeat) and :mod:`~tournaments.trf.messages` (the reader's messages in the user's language).
"""
