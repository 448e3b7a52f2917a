"""Staff pages of the federation's rating parameters (``/ratings/parameters/``): the set in force (or
the shipped defaults) with every parameter, the history of adoptions (who, when, why, retired when),
the saved candidates with their tuning report (``manage.py rating_tune --save``), a form per candidate
to adopt it (reason required; a full re-rating follows), a form to return to the shipped defaults and
one to enter a set by hand, and why the last full re-rating failed when it did (issue 23). Writes go through :mod:`ratings.services`; a refusal is shown next to the
field it names. Federation staff only (:func:`federation.roles.is_staff`)."""
from __future__ import annotations

import json

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from federation import roles
from federation.error_views import forbidden
from federation.errors import ApplicationError
from federation.forms import reason_field
from ratings.parameters import selectors as parameter_selectors
from ratings.parameters import services as parameter_services
from ratings.models import RatingParameterSet
from ratings.parameters.rerating import latest_rerating_failure


class ParameterSetForm(forms.Form):
    """A parameter set entered by hand: a label and a JSON object of parameters (those left out take
    the shipped defaults)."""

    label = forms.CharField(label=gettext_lazy("Label"), max_length=parameter_services.PARAMETER_LABEL_MAX_LENGTH)
    params = forms.CharField(
        label=gettext_lazy("Parameters (JSON)"), widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text=gettext_lazy('Name and value of each parameter, e.g. {"tau": 0.9, "margin_weight": 0.9}; '
                               "parameters left out take the shipped defaults."),
    )

    def clean_params(self):
        try:
            value = json.loads(self.cleaned_data["params"])
        except ValueError as exc:
            raise forms.ValidationError(
                _("This is not valid JSON (line %(line)d, column %(column)d).") % {"line": exc.lineno, "column": exc.colno}
            ) from None
        if not isinstance(value, dict):
            raise forms.ValidationError(_("The parameters must be a JSON object of names and values."))
        return value


class AdoptForm(forms.Form):
    reason = reason_field(required=True, help_text=gettext_lazy(
        "Required: kept with the adoption and in the history with your name."))


def _staff_only(request):
    """None for federation staff; otherwise the login page (anonymous) or the 403 page (before any form is
    read: permission before validation, issue 23)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if roles.is_staff(request.user):
        return None
    return forbidden(request, _("Only federation staff can see and change the rating parameters."))


def _report_view(report: dict) -> dict | None:
    """What the page shows of a tuning report (``rating_tune``'s JSON): held-out log loss of the
    tuned set, of the set that was in force when it was tuned and of the baselines, with the
    difference to the tuned set (nats per set; negative = the tuned set predicts better)."""
    if not report:
        return None
    logloss = report.get("logloss") or {}
    tuned = logloss.get("margin")
    rows = []
    current = dict(report.get("current") or {})
    if current.get("logloss") is None:  # the shipped defaults were in force: the evaluation scored them
        current = {"label": None, "logloss": ((report.get("defaults") or {}).get("logloss") or {}).get("margin")}
    if current.get("logloss") is not None:
        rows.append({"name": _("In force when tuned: %(label)s") % {"label": current.get("label") or _("shipped defaults")},
                     "logloss": current["logloss"], "key": "current"})
    for key, name in (("elo", _("Elo (baseline)")), ("glicko2", _("Glicko-2 (baseline)"))):
        if logloss.get(key) is not None:
            rows.append({"name": name, "logloss": logloss[key], "key": key})
    for row in rows:
        row["diff"] = tuned - row["logloss"] if tuned is not None else None
    dates = report.get("date_range") or [None, None]
    return {
        "tuned": tuned, "rows": rows, "held_out_sets": report.get("held_out_sets", report.get("sets")),
        "total_sets": report.get("total_sets"), "events": report.get("events"),
        "first": dates[0] if len(dates) > 0 else None, "last": dates[1] if len(dates) > 1 else None,
        "seed": report.get("seed"), "budget": report.get("budget"),
    }


def _shown(value) -> str:
    """A parameter value as the page shows it: yes/no, whole numbers as they are, other numbers to 4
    significant digits in the page's number format, "—" for none."""
    from federation.formatting import number

    if value is None:
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, float) and not value.is_integer():
        return number(float(f"{value:.4g}"), 4)
    return number(value, 0) if isinstance(value, (int, float)) else str(value)


def _changed(params: dict, defaults: dict) -> list[tuple[str, str, str]]:
    """(name, value, shipped default) of each parameter that differs from the shipped defaults, shown."""
    return [(k, _shown(v), _shown(defaults.get(k))) for k, v in params.items() if defaults.get(k) != v]


def parameters_page(request, *, forms_by_key: dict | None = None, status: int = 200):
    """``/ratings/parameters/``: the overview (module docstring)."""
    refused = _staff_only(request)
    if refused:
        return refused
    forms_by_key = forms_by_key or {}
    overview = parameter_selectors.parameter_overview()
    candidates = []
    for row in overview.candidates:
        candidates.append({
            "set": row, "report": _report_view(row.report),
            "changed": _changed(row.params, overview.defaults),
            "form": forms_by_key.get(("adopt", row.pk)) or AdoptForm(prefix=f"adopt-{row.pk}"),
        })
    history = [{"set": row, "changed": _changed(row.params, overview.defaults)} for row in overview.history]
    in_force_json = json.dumps({r.name: r.value for r in overview.rows}, indent=1)
    context = {
        "overview": overview, "candidates": candidates, "history": history,
        "rerating_failure": latest_rerating_failure(),
        "revert_form": forms_by_key.get("revert") or AdoptForm(prefix="revert"),
        "create_form": forms_by_key.get("create") or ParameterSetForm(initial={"params": in_force_json}),
    }
    return render(request, "ratings/parameters.html", context, status=status)


def _field_error(form: forms.Form, exc: ApplicationError) -> None:
    field = exc.field if exc.field in form.fields else None
    form.add_error(field, exc.message)


@require_POST
def parameters_create(request):
    """Save a candidate set entered by hand (:func:`ratings.parameters.services.rating_parameters_create`)."""
    refused = _staff_only(request)
    if refused:
        return refused
    form = ParameterSetForm(request.POST)
    if form.is_valid():
        try:
            row = parameter_services.rating_parameters_create(label=form.cleaned_data["label"], params=form.cleaned_data["params"],
                                                    user=request.user)
        except ApplicationError as exc:
            _field_error(form, exc)
        else:
            messages.success(request, _("Parameter set %(label)s saved. It is not in force until it is adopted.")
                             % {"label": row.label})
            return redirect("rating-parameters")
    return parameters_page(request, forms_by_key={"create": form}, status=400)


@require_POST
def parameters_adopt(request, pk: int):
    """Adopt a set (:func:`ratings.parameters.services.rating_parameters_adopt`); a full re-rating follows."""
    refused = _staff_only(request)
    if refused:
        return refused
    row = get_object_or_404(RatingParameterSet, pk=pk)
    return _reason_form_post(
        request, AdoptForm(request.POST, prefix=f"adopt-{pk}"), ("adopt", pk),
        lambda reason: parameter_services.rating_parameters_adopt(parameter_set=row, user=request.user, reason=reason),
        lambda adopted: _("Parameter set %(label)s is in force. The whole rating history is being re-rated with it.")
        % {"label": adopted.label},
    )


def _reason_form_post(request, form, key, action, success):
    """Run ``action(reason)`` for a valid ``form``; a refusal naming one of its fields is shown on the form
    (status 400), any other as a message; ``success(result)`` is the message after the redirect."""
    if form.is_valid():
        try:
            result = action(form.cleaned_data["reason"])
        except ApplicationError as exc:
            if exc.field not in form.fields:
                messages.error(request, exc.message)
                return redirect("rating-parameters")
            _field_error(form, exc)
        else:
            messages.success(request, success(result))
            return redirect("rating-parameters")
    return parameters_page(request, forms_by_key={key: form}, status=400)


@require_POST
def parameters_revert(request):
    """Return to the shipped defaults (:func:`ratings.parameters.services.rating_parameters_revert_to_defaults`)."""
    refused = _staff_only(request)
    if refused:
        return refused
    return _reason_form_post(
        request, AdoptForm(request.POST, prefix="revert"), "revert",
        lambda reason: parameter_services.rating_parameters_revert_to_defaults(user=request.user, reason=reason),
        lambda _result: _("The shipped defaults are in force again. The whole rating history is being re-rated "
                          "with them."),
    )
