"""Drawing of lots that anyone can check (issue 25): the coin toss of round 1 and every lot — ties left after
every tie-break, the byes of a play-off, an indivisible prize.

How a lot works (commit–reveal):

1. **Commit**, before the lot is needed: a random secret is drawn and kept on the server; only its
   commitment ``sha256(secret)`` (hex) is published on the tournament's lots page
   (``/t/<slug>/lots/``, URL name ``tournament-lots``).
2. **Reveal**, when the lot is drawn: the secret is published next to the commitment, and the outcome
   follows from the secret and the lot's published *context* by a published rule
   (:mod:`tournaments.lots.draw`), so nobody — organiser included — could choose it after the commitment.
3. **Check**: anyone hashes the secret (it must give the commitment) and recomputes the outcome; the page
   prints a Python one-liner for both.

Rules (:mod:`tournaments.lots.draw`, pure, no Django):

* ``coin`` — the coin toss: white when the first byte of ``sha256(secret)`` is even, black when odd (the
  rule the coin toss always had: :func:`tournaments.services.coin_toss_outcome`).
* ``order`` — an order of candidates: Fisher–Yates over the candidates in the order given (callers give
  them in starting-number order), for ``i = n-1 … 1`` swap item ``i`` with item
  ``j = int(sha256(f"{secret}|{context}|{i}").hexdigest(), 16) % (i + 1)``. The first of the result wins the
  lot (takes the bye, the prize, the higher place).

API for other packages (writes in :mod:`tournaments.lots.services`, reads in :mod:`tournaments.lots.selectors`):

* ``lot_commit(*, tournament, purpose, context, rule="order", user=None) -> Lot`` — commit now, ahead of the
  lot (``purpose``: :class:`tournaments.models.Lot.Purpose` — ``coin_toss``, ``tiebreak``, ``playoff_byes``,
  ``prize``; ``context``: a short published text naming the lot, e.g. ``"play-off for 3rd place"``).
* ``lot_reveal(*, lot, items=(), user=None) -> Lot`` — reveal and draw: ``items`` are the candidates (text
  labels, e.g. ``"12 Yılmaz, Ali"``); ``lot.outcome`` is the drawn order (``"w"``/``"b"`` for a coin).
* ``lot_draw(*, tournament, purpose, context, items, user=None) -> Lot`` — the usual call when the lot is
  needed: reveals the oldest pending commitment of that purpose and context (made earlier with
  ``lot_commit``), or commits and reveals at once when none was made (the page then shows both at the same
  time).
* ``coin_toss_lot(*, tournament, coin_seed=None, user=None) -> Lot`` — round 1's coin toss (the pairing calls
  it): reveals the commitment made when the tournament was created; a ``coin_seed`` given by the organiser
  (or a test) is recorded as a seeded toss instead.
* ``tournament_lots(*, tournament)`` (selectors) — the lots of the page, secrets only once revealed.
"""
