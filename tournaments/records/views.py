"""Game pages: step through a recorded set on a drawn board; import set records in bulk.

Thin views: reads through :mod:`tournaments.records.selectors`, writes through
:mod:`tournaments.records.services`; a refusal (:class:`federation.errors.ApplicationError`) is shown
next to the form.
"""
from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from federation.error_views import forbidden
from federation.errors import ApplicationError, NotFound
from games.models import RecordImport
from games.svg import board_svg
from tournaments.models import SetResult
from tournaments.records import selectors, services

#: Seconds between reloads of a running import's progress page.
REFRESH_SECONDS = 2


def _ply_param(value: str | None, length: int) -> int:
    """``?ply=N`` clamped to 0..length; anything that is not a number means the start."""
    try:
        n = int(value or 0)
    except ValueError:
        return 0
    return max(0, min(length, n))


def _colour_label(colour: str) -> str:
    return _("White") if colour == "white" else _("Black")


def ply_notes(p: selectors.Ply) -> list[str]:
    """What a ply did, in words: extra turn (Kural 13A), capture by the even rule (13B) or from an
    empty pit (13E), a castle built (004), the end of the set with its sweep (Kural 14)."""
    r = p.result
    notes = []
    if r.extra_turn and not r.set_over:
        notes.append(_("extra turn"))
    if p.capture == "even":
        notes.append(_("captures %(n)d (even rule)") % {"n": r.captured})
    elif p.capture == "empty-pit":
        notes.append(_("captures %(n)d (empty pit)") % {"n": r.captured})
    elif p.capture == "castle":
        notes.append(_("builds a castle, takes %(n)d") % {"n": r.captured})
    if any(r.castle_stones):
        notes.append(_("%(n)d into castles") % {"n": sum(r.castle_stones)})
    if r.set_over:
        if p.sweeps:
            notes.append(
                _("set over: %(who)s") % {"who": ", ".join(
                    _("%(n)d left in the pits go to %(colour)s") % {"colour": _colour_label(c), "n": k}
                    for c, k in p.sweeps
                )}
            )
        else:
            notes.append(_("set over"))
    return notes


def set_replay(request, set_id: int):
    """Step through a recorded set: ``?ply=N`` (0..number of moves) shows the board after ply N;
    ``?side=black`` draws Black at the bottom (White by default). Public once the round is published;
    organisers and referees see unpublished rounds too."""
    try:
        s = selectors.set_for_replay(set_id=set_id, user=request.user)
    except NotFound as exc:
        raise Http404(exc.message) from exc
    rp = selectors.set_replay(set_result=s)
    n = _ply_param(request.GET.get("ply"), rp.length)
    side = "black" if request.GET.get("side") == "black" else "white"
    # engine player 0 is the set's first mover: it sits at the bottom unless flipped
    flip = rp.colours[0] != side
    last = rp.plies[n - 1] if n else None
    position = rp.positions[n]
    svg = board_svg(
        position, flip=flip, last_move=last.result.move if last else None,
        last_index=last.result.last_index if last else None, names=rp.names,
    )
    to_move = position.to_move
    bottom_player = 1 if flip else 0

    def label(player: int) -> dict:
        colour = rp.colours[player]
        return {
            "colour": colour, "colour_label": _colour_label(colour), "name": rp.names[player],
            "store": position.stores[player], "to_move": to_move == player,
        }

    plies = [
        {"ply": p, "notes": ply_notes(p), "colour_label": _colour_label(p.colour)} for p in rp.plies
    ]
    context = {
        "rp": rp, "s": s, "m": rp.match, "t": rp.tournament, "round": rp.round, "ply": n,
        "current": plies[n - 1] if n else None, "plies": plies, "position": position,
        "board": mark_safe(svg),  # built from numbers and XML-escaped names only
        "top": label(1 - bottom_player), "bottom": label(bottom_player),
        "side": side, "other_side": "black" if side == "white" else "white",
        "to_move": label(to_move) if to_move is not None else None,
        "first": label(0), "prev": max(0, n - 1), "next": min(rp.length, n + 1),
        "sets": selectors.match_sets(match=rp.match),
        "termination": s.get_termination_display() if s.termination != "completed" else "",
    }
    return render(request, "games/replay.html", context)


class RecordImportForm(forms.Form):
    """Paste records or upload a file (UTF-8) in the game-record notation."""

    text = forms.CharField(
        label=gettext_lazy("Records"), required=False,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false", "autocapitalize": "off"}),
    )
    file = forms.FileField(label=gettext_lazy("or a file"), required=False)
    replace = forms.BooleanField(
        label=gettext_lazy("Replace move records already stored on a set"), required=False,
    )

    def clean(self):
        data = super().clean()
        text = data.get("text") or ""
        f = data.get("file")
        if f:
            if text.strip():
                raise forms.ValidationError(_("Paste the records or choose a file, not both."))
            raw = f.read(services.MAX_IMPORT_CHARS * 4 + 1)
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                self.add_error("file", _("The file is not UTF-8 text (byte %(n)d).") % {"n": exc.start + 1})
                return data
        if not text.strip():
            raise forms.ValidationError(_("Paste the records or choose a file."))
        data["records_text"] = text
        data["source"] = f.name if f else ""
        return data


@login_required
def record_import(request):
    """Paste or upload set records; the import runs as a Celery task, then its progress page shows."""
    if not services.can_import_records(request.user):
        return forbidden(request, _("Only referees and organisers can import game records."))
    form = RecordImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            row = services.record_import_start(
                text=d["records_text"], user=request.user, replace=d["replace"], source=d["source"],
            )
        except ApplicationError as exc:
            form.add_error("text" if exc.field == "text" else None, exc.message)
        else:
            return redirect("record-import-detail", import_id=row.id)
    recent = RecordImport.objects.filter(created_by=request.user).defer("text")[:10]
    return render(request, "games/import.html", {"form": form, "recent": recent})


@login_required
def record_import_detail(request, import_id: int):
    """Progress and errors of one import; reloads every 2 s while it is pending or running."""
    row = get_object_or_404(RecordImport.objects.select_related("created_by"), pk=import_id)
    if not services.can_view_import(request.user, row):
        raise Http404("no such import")
    stored_sets = list(
        SetResult.objects.filter(pk__in=row.set_ids[:200])
        .select_related("match__round__tournament", "match__white__player", "match__black__player")
        .order_by("match__round__tournament__name", "match__round__number", "match__board", "number")
    )
    response = render(
        request, "games/import_detail.html",
        {"imp": row, "refresh": REFRESH_SECONDS if row.is_active else None, "stored_sets": stored_sets},
    )
    if row.is_active:
        response["Refresh"] = str(REFRESH_SECONDS)
    return response
