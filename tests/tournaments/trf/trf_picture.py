"""What a TRF file can carry of a tournament, as comparable values (tests of ``tournaments.trf.services`` and ``selectors``).

Two tournaments with the same picture are the same event as far as TRF goes: settings, players, every
closed round's boards (colours, results, forfeits, rated or not; board numbers aside), byes and their
values, withdrawals, byes entered ahead, forbidden pairs, virtual points and round 1's colour. Not in
it (TRF has no place for them): venue, variant, sets per match, tie-break order and rules text, the
second-cycle swap, forbidden-pair reasons, federation ids that are not FIDE ids, the coin toss's seed.
"""
from __future__ import annotations

from tournaments.models import Absence, CoinToss, ForbiddenPair, Match, Tournament


def picture(t: Tournament) -> dict:
    t.refresh_from_db()
    entries = list(t.entries.select_related("player").order_by("start_no"))
    by_id = {e.id: e.start_no for e in entries}
    matches = sorted(
        (m.round.number, by_id[m.white_id], by_id.get(m.black_id), m.kind, m.bye_kind, m.forfeit,
         m.white_points, m.black_points, m.rated if m.kind == Match.Kind.GAME else None)
        for m in Match.objects.filter(round__tournament=t).select_related("round")
    )
    toss = CoinToss.objects.filter(round__tournament=t, round__number=1).first()
    manual = t.acceleration == Tournament.Acceleration.MANUAL
    return {
        "settings": (t.name, t.city, t.federation or "TUR", t.start_date, t.end_date, t.chief_arbiter,
                     t.time_control, t.system, t.double_round_robin, t.rounds_total, t.bye_points, t.acceleration,
                     list(t.round_dates or []), t.status),
        "players": [
            (e.start_no, e.player.full_name, e.player.birth_year, e.player.sex,
             e.player.federation_id if e.player.federation_id.isdigit() else None, e.rating, e.federation,
             e.withdrawn, e.withdrawn_after_round if e.withdrawn else None,
             [float(v) for v in e.accelerations] if manual else None)
            for e in entries
        ],
        "rounds": [(r.number, r.status) for r in t.rounds.order_by("number")],
        "matches": matches,
        "absences": sorted((by_id[a.entry_id], a.round_number, a.kind)
                           for a in Absence.objects.filter(entry__tournament=t)),
        "forbidden": sorted((tuple(sorted((by_id[f.first_id], by_id[f.second_id]))), f.first_round, f.last_round)
                            for f in ForbiddenPair.objects.filter(tournament=t)),
        "first_colour": toss.outcome if toss else None,
    }
