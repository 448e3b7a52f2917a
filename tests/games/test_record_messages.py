"""The rules engine's and the notation's messages in the user's language (issue 10): games.record_messages.

``games.engine`` is pure Python and English (``str(exc)`` for logs); each record-check message keeps its
template (marked with ``gettext_noop``) and params, and :func:`games.record_messages.engine_error_message`
renders it with the active catalogue, keeping the ply ("ply 17: ...") and, for the notation, the line.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import gettext
from rest_framework.test import APIClient

import federation.message_text
import games.engine as engine
import games.record_messages
import tournaments.records.selectors
from games.engine.errors import EngineMessage, NotationError, message_of
from games.engine.notation import parse
from games.record_messages import engine_error_message
from tournaments.records import services as record_services

ENGINE_DIR = Path(engine.__file__).resolve().parent
# A complete set ending 28-20 for the first mover (tests/games/test_api.py).
RECORD_28_20 = [int(x) for x in "1 2 4 5 1 4 3 5 4 4 1 4 6 6 4 4 6 1 3 4 6 1 1 3 2".split()]


def marked_templates(*paths: Path) -> set[str]:
    """The string literals passed to ``gettext_noop(...)`` in ``paths`` (what makemessages extracts)."""
    out = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "gettext_noop"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                out.add(node.args[0].value)
    return out


ENGINE_TEMPLATES = marked_templates(*ENGINE_DIR.glob("*.py"))


def _templates_of(message) -> list[str]:
    if not isinstance(getattr(message, "template", None), str):
        return []
    out = [message.template]
    for value in message.params.values():
        out.extend(_templates_of(value))
    return out


def _record(*, tags: str = '[White "A"]\n[Black "B"]\n[Result "28-20"]', moves: str = "1 2") -> str:
    return f"{tags}\n\n{moves}\n"


# (id, record text, line of the error) — parse(...) raises NotationError.
NOTATION = [
    ("malformed-tag", '[Event "x"]\n[Result 30-18]\n\n4\n', 2),
    ("moves-before-tags", "4 1 3\n", 1),
    ("tag-twice", _record(tags='[White "A"]\n[White "B"]\n[Result "28-20"]'), 2),
    ("no-result-tag", _record(tags='[White "A"]'), 1),
    ("result-malformed", _record(tags='[Result "x"]'), 1),
    ("result-not-48", _record(tags='[Result "30-20"]'), 1),
    ("result-token-differs", _record(moves="1 2 20-28"), 5),
    ("token-after-result", _record(moves="1 28-20 3"), 5),
    ("pit-out-of-range", _record(moves="1 9"), 5),
    ("not-a-pit", _record(moves="1 x"), 5),
    ("unknown-variant", _record(tags='[Result "28-20"]\n[Variant "chess"]'), 2),
    ("set-not-a-number", _record(tags='[Result "28-20"]\n[Set "zero"]'), 2),
    ("starter-unknown", _record(tags='[White "A"]\n[Black "B"]\n[Starter "C"]\n[Result "28-20"]'), 3),
    ("starter-contradicts-set",
     _record(tags='[White "A"]\n[Black "B"]\n[Set "2"]\n[Starter "A"]\n[Result "28-20"]'), 4),
    ("agreed-draw", _record(tags='[Result "24-24"]\n[Termination "agreed"]'), 2),
    ("termination-unknown", _record(tags='[Result "28-20"]\n[Termination "later"]'), 2),
]


def _validate_error(moves, first=28, second=20, withdrawn_by=None, variant="federation") -> engine.RulesError:
    with pytest.raises(engine.RulesError) as info:
        engine.validate_record(moves, variant=variant, first_stones=first, second_stones=second,
                               withdrawn_by=withdrawn_by)
    return info.value


# (id, function giving the error) — errors of replaying and checking a set record.
RULES = [
    ("pit-range", lambda: _validate_error([4, 7])),
    ("pit-not-a-number", lambda: _validate_error(["4", "x"])),
    ("pit-empty", lambda: _validate_error([4, 4, 4, 4, 4])),
    ("after-the-end", lambda: _validate_error(RECORD_28_20 + [1])),
    ("incomplete", lambda: _validate_error([4, 1, 1, 1])),
    ("stones-differ", lambda: _validate_error(RECORD_28_20, 30, 18)),
    ("withdrawal-too-early", lambda: _validate_error(RECORD_28_20[:20], 24, 24, "second")),
    ("withdrawal-after-the-end", lambda: _validate_error(RECORD_28_20, 28, 20, "first")),
    ("withdrawal-after-the-end-2", lambda: _validate_error(RECORD_28_20, 28, 20, "second")),
    ("unknown-variant", lambda: _validate_error([4], variant="chess")),
]


def _play_error(moves, pit) -> engine.RulesError:
    pos = engine.Position.initial()
    for m in moves:
        pos = engine.play(pos, m).position
    with pytest.raises(engine.RulesError) as info:
        engine.play(pos, pit)
    return info.value


PLAY = [
    ("play-empty", lambda: _play_error([4, 4, 4, 4], 4)),
    ("play-range", lambda: _play_error([], 0)),
    ("play-over", lambda: _play_error(RECORD_28_20, 1)),
    ("play-wrong-player", lambda: _play_error([], engine.Move(1, 1))),
]


def _notation_error(text: str) -> NotationError:
    with pytest.raises(NotationError) as info:
        parse(text, validate=True)
    return info.value


@pytest.fixture
def fake_catalogue(monkeypatch):
    """A catalogue that "translates" every text by wrapping it in «...» (placeholders kept)."""
    def fake(text: str) -> str:
        return f"«{text}»"
    for module in (federation.message_text, games.record_messages, tournaments.records.selectors):
        monkeypatch.setattr(module, "gettext", fake)
    return fake


def _turkish_catalogue_filled() -> bool:
    with translation.override("tr"):
        return gettext("ply %(ply)s: the set is already over after ply %(previous)s (Kural 14)") != (
            "ply %(ply)s: the set is already over after ply %(previous)s (Kural 14)")


@pytest.mark.parametrize(("text", "line"), [c[1:] for c in NOTATION], ids=[c[0] for c in NOTATION])
def test_notation_errors_in_english_are_str_and_keep_their_line(text, line, fake_catalogue):
    err = _notation_error(text)
    assert err.line == line, str(err)
    assert str(err) == f"line {line}: {err.message}"
    assert isinstance(err.message, EngineMessage)
    for template in _templates_of(err.message):
        assert template in ENGINE_TEMPLATES, template
    shown = engine_error_message(err)
    assert shown.startswith(f"«line {line}: «") and "%(" not in shown
    assert engine_error_message(err, line=False).startswith("«") and "%(" not in engine_error_message(err, line=False)


@pytest.mark.parametrize(("text", "line"), [c[1:] for c in NOTATION], ids=[c[0] for c in NOTATION])
def test_in_english_a_notation_message_equals_the_engines(text, line):
    err = _notation_error(text)
    with translation.override("en"):
        assert engine_error_message(err) == str(err)
        assert engine_error_message(err, line=False) == err.message == re.sub(r"^line \d+: ", "", str(err))


@pytest.mark.parametrize("make", [c[1] for c in RULES + PLAY], ids=[c[0] for c in RULES + PLAY])
def test_rules_errors_in_english_are_str_and_render_every_template(make, fake_catalogue):
    err = make()
    message = message_of(err)
    assert isinstance(message, EngineMessage) and message == str(err)
    for template in _templates_of(message):
        assert template in ENGINE_TEMPLATES, template
    shown = engine_error_message(err)
    assert shown.startswith("«") and "%(" not in shown


@pytest.mark.parametrize("make", [c[1] for c in RULES + PLAY], ids=[c[0] for c in RULES + PLAY])
def test_in_english_a_rules_message_equals_the_engines(make):
    err = make()
    with translation.override("en"):
        assert engine_error_message(err) == str(err)


@pytest.mark.parametrize("make", [c[1] for c in RULES + PLAY], ids=[c[0] for c in RULES + PLAY])
def test_in_turkish_a_rules_message_is_turkish_and_keeps_the_ply(make):
    if not _turkish_catalogue_filled():
        pytest.skip("the Turkish catalogue has no entries for the engine messages yet")
    err = make()
    with translation.override("tr"):
        shown = engine_error_message(err)
    assert shown != str(err)
    ply = re.match(r"ply (\d+):", str(err))
    if ply:
        assert re.match(rf"^\D*{ply.group(1)}\D", shown), shown


def test_a_record_that_breaks_a_rule_names_the_line_of_the_move():
    text = _record(moves="4 1\n1 1")
    err = _notation_error(text)
    assert err.line == 6 and str(err).startswith("line 6: record ends before the set is over at ply 4")
    with translation.override("en"):
        assert engine_error_message(err) == str(err)


@pytest.mark.django_db
def test_the_import_report_shows_the_message_in_the_active_language_with_its_line(fake_catalogue):
    text = '[Event "x"]\n[Result 30-18]\n\n4\n'
    row = record_services.record_import_create(text=text)
    row = record_services.record_import_run(import_id=row.id)
    assert row.errors == [{
        "record": 1, "line": 2,
        "message": "«malformed tag pair %r: expected [Name \"value\"]»" % '[Result 30-18]',
    }]


@pytest.mark.django_db
def test_the_import_report_is_english_in_english():
    text = '[Event "x"]\n[Result 30-18]\n\n4\n'
    row = record_services.record_import_create(text=text)
    with translation.override("en"):
        row = record_services.record_import_run(import_id=row.id)
    assert row.errors == [{
        "record": 1, "line": 2, "message": "malformed tag pair '[Result 30-18]': expected [Name \"value\"]"}]


@pytest.mark.django_db
def test_the_record_check_api_answers_in_the_request_language(fake_catalogue):
    r = APIClient(HTTP_ACCEPT_LANGUAGE="tr").post(
        "/api/games/validate-record/",
        {"moves": "4 7", "variant": "federation", "first_stones": 28, "second_stones": 20, "withdrawn_by": None},
        format="json")
    assert r.status_code == 400
    message = message_of(_validate_error([4, 7]))
    assert r.json()["error"]["message"] == f"«{message.template}»" % message.params
    assert r.json()["error"]["message"].startswith("«ply 2: pit must be a number 1..6")


@pytest.mark.django_db
def test_the_record_check_api_in_turkish_names_the_ply():
    if not _turkish_catalogue_filled():
        pytest.skip("the Turkish catalogue has no entries for the engine messages yet")
    r = APIClient(HTTP_ACCEPT_LANGUAGE="tr").post(
        "/api/games/validate-record/",
        {"moves": "4 7", "variant": "federation", "first_stones": 28, "second_stones": 20, "withdrawn_by": None},
        format="json")
    message = r.json()["error"]["message"]
    assert "2" in message and "ply" not in message


def test_the_turkish_entries_keep_the_placeholders_of_their_msgid():
    """Once the catalogue is filled: every translated template has the same placeholders."""
    placeholder = re.compile(r"%\((\w+)\)[sdr]")
    with translation.override("tr"):
        for template in sorted(ENGINE_TEMPLATES):
            turkish = gettext(template)
            if turkish != template:
                assert sorted(set(placeholder.findall(turkish))) == sorted(set(placeholder.findall(template))), template
