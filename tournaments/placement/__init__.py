"""Why am I placed here (issue 25): a player's line of the standings compared with the player just above
and just below, step by step in the tie-break order (points, then each tie-break), naming the step that
separated them or saying they are level on everything.

Reads only (no services): :mod:`tournaments.placement.selectors` explains from the same standings the
standings page shows (``tournaments.selectors.tournament_standings``, same publish gate);
:mod:`tournaments.placement.views` serves the page, :mod:`tournaments.placement.api` its JSON twin
(``GET /api/tournaments/<slug>/standings/<start_no>/why/``), :mod:`tournaments.placement.urls` routes both.
"""
