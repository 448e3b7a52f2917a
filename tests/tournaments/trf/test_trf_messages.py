"""The TRF reader's messages in the user's language (issue 10): tournaments.trf.messages.

The TRF reader (``tournaments.trf.reader`` and the other pure modules) is pure Python and English: ``str(err)``
stays ``"line 17: <reason>"`` for logs.
Each message keeps its template (marked with ``gettext_noop``) and params, and
:func:`tournaments.trf.messages.trf_error_message` renders it with the active catalogue, naming the
line (and, on request, the column).
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import gettext

import federation.message_text
import tournaments.trf.messages
from tournaments.trf import extensions, model, reader, scoring, writer
from tournaments.trf.extensions import unread_lines
from tournaments.trf.model import TrfError, TrfMessage, TrfPlayer, TrfResult, TrfTournament
from tournaments.trf.reader import parse_trf
from tournaments.trf.scoring import infer_blank_codes
from tournaments.trf.writer import dump_trf
from tournaments.trf.messages import inference_message, trf_error_message, trf_text, unread_line_message

BASE = [
    "012 Mesaj",
    "001    1      Bir, Ayse                         1500                             1.0          2 w 1     3 b 0",
    "001    2      Iki, Can                          1400                             0.0          1 b 0     4 w 0",
    "001    3      Uc, Ece                           0000                             2.0          4 w 1     1 w 1",
    "001    4      Dort, Ali                         0000                             1.0          3 b 0     2 b 1",
    "XXR 3",
]


def marked_templates(path: Path) -> set[str]:
    """The string literals passed to ``gettext_noop(...)`` in ``path`` (what makemessages extracts)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "gettext_noop"
                and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            out.add(node.args[0].value)
    return out


TRF_TEMPLATES = set().union(*(marked_templates(Path(module.__file__))
                               for module in (model, reader, extensions, scoring, writer)))


def _put(line: str, col: int, text: str) -> str:
    """``line`` with ``text`` written from 1-based column ``col`` (padded with spaces)."""
    line = line.ljust(col - 1 + len(text))
    return line[:col - 1] + text + line[col - 1 + len(text):]


def _player(n: int, col: int, text: str):
    def change(lines):
        lines[n] = _put(lines[n], col, text)
        return lines
    return change


def _append(*extra: str):
    return lambda lines: lines + list(extra)


def _replace(i: int, text: str):
    def change(lines):
        lines[i] = text
        return lines
    return change


# (id, change of BASE, line, column) — each file is refused by parse_trf with a TrfError.
BAD = [
    ("control-character", _player(1, 20, "\x07"), 2, 20),
    ("no-start-number", _player(1, 5, "    "), 2, 5),
    ("start-number-not-a-number", _player(1, 5, "  ab"), 2, 5),
    ("column-before-sex-not-blank", _player(1, 9, "x"), 2, 9),
    ("rating-not-a-number", _player(1, 49, "15ab"), 2, 49),
    ("points-not-a-number", _player(1, 81, " x.5"), 2, 81),
    ("points-too-many", _player(1, 81, "99.9"), 2, 81),
    ("rank-not-a-number", _player(1, 86, "  ab"), 2, 86),
    ("cell-separator-not-blank", _player(1, 96, "x"), 2, 96),
    ("opponent-not-a-number", _player(1, 92, "  ab"), 2, 92),
    ("paired-with-itself", _player(1, 92, "   1"), 2, 92),
    ("colour-unknown", _player(1, 97, "x"), 2, 97),
    ("result-code-unknown", _player(1, 99, "Q"), 2, 99),
    ("bye-code-with-opponent", _player(1, 99, "U"), 2, 99),
    ("colour-without-opponent", _player(3, 92, "0000 w 1"), 4, 97),
    ("between-rounds-not-blank", _player(1, 100, "x"), 2, 100),
    ("opponent-does-not-exist", _player(1, 102, "   9"), 2, 102),
    ("pairing-not-symmetric", _player(2, 92, "0000 - U"), 2, 92),
    ("both-white", _player(2, 97, "w"), 2, 97),
    ("start-number-repeated", _player(3, 5, "   2"), 4, 5),
    ("xxr-not-a-number", _replace(5, "XXR abc"), 6, 5),
    ("xxr-too-many-digits", _replace(5, "XXR " + "9" * 30), 6, 5),
    ("062-not-a-number", _append("062 x"), 7, 5),
    ("xxp-one-player", _append("XXP 1"), 7, 5),
    ("xxp-unknown-player", _append("XXP 1 9"), 7, None),
    ("xxp-not-a-number", _append("XXP 1 z"), 7, 5),
    ("260-backwards", _append("260   3   1    1    2"), 7, 9),
    ("260-column-not-blank", _append("260   1   3    1x   2"), 7, 17),
    ("xxa-twice", _append("XXA    1  1.0", "XXA    1  1.0"), 8, 5),
    ("xxa-bad-points", _append("XXA    1  a.b"), 7, 10),
    ("xxa-column-not-blank", _append("XXA    1  1.0x1.0"), 7, 14),
    ("250-match-points", _append("250    1    1.0   1   2    1    4"), 7, 5),
    ("250-backwards", _append("250       1.0   3   1    1    4"), 7, 15),
    ("250-text-after", _append("250       1.0   1   2    1    4 x"), 7, 32),
    ("bbw-not-a-number", _append("BBW x"), 7, 5),
    ("162-no-pairs", _append("162 nonsense"), 7, 5),
    ("162-unknown-letter", _append("162 W 1.0 X 2.0"), 7, 5),
    ("142-zero", _append("142 0"), 7, 5),
    ("152-unknown", _append("152 Q"), 7, 5),
    ("240-unknown-kind", _append("240 Q   1    1"), 7, 5),
    ("240-round-zero", _append("240 H   0    1"), 7, 7),
]


def _error(change) -> TrfError:
    text = "\n".join(change(list(BASE))) + "\n"
    with pytest.raises(TrfError) as info:
        parse_trf(text)
    return info.value


def _templates_of(message) -> list[str]:
    """The templates of ``message`` and of the messages among its params."""
    if not isinstance(getattr(message, "template", None), str):
        return []
    out = [message.template]
    for value in message.params.values():
        out.extend(_templates_of(value))
    return out


@pytest.fixture
def fake_catalogue(monkeypatch):
    """A catalogue that "translates" every text by wrapping it in «...» (placeholders kept)."""
    def fake(text: str) -> str:
        return f"«{text}»"
    for module in (federation.message_text, tournaments.trf.messages):
        monkeypatch.setattr(module, "gettext", fake)
    return fake


def _turkish_catalogue_filled() -> bool:
    with translation.override("tr"):
        return gettext("line %(line)s: %(reason)s") != "line %(line)s: %(reason)s"


def test_the_base_file_reads():
    t = parse_trf("\n".join(BASE) + "\n")
    assert [p.start_no for p in t.players] == [1, 2, 3, 4]


@pytest.mark.parametrize(("change", "line", "column"), [c[1:] for c in BAD], ids=[c[0] for c in BAD])
def test_in_english_the_message_is_str_of_the_error(change, line, column):
    err = _error(change)
    assert (err.line, err.column) == (line, column), str(err)
    with translation.override("en"):
        assert trf_error_message(err) == str(err)
        assert trf_text(err.reason) == err.reason
        assert trf_error_message(err, column=True) == (
            str(err) if column is None else f"line {line}, column {column}: {err.reason}")


@pytest.mark.parametrize(("change", "line", "column"), [c[1:] for c in BAD], ids=[c[0] for c in BAD])
def test_every_template_is_marked_and_renders_with_its_params(change, line, column, fake_catalogue):
    err = _error(change)
    assert isinstance(err.reason, TrfMessage)
    assert err.template == err.reason.template and err.params == err.reason.params
    for template in _templates_of(err.reason):
        assert template in TRF_TEMPLATES, template  # makemessages puts it in the catalogue
    text = trf_error_message(err, column=True)
    assert "%(" not in text and "%" not in text.replace("%%", "")
    expected_prefix = f"«line {line}: " if column is None else f"«line {line}, column {column}: "
    assert text.startswith(expected_prefix)
    assert text.count("«") == len(_templates_of(err.reason)) + 1  # every part went through the catalogue


@pytest.mark.parametrize(("change", "line", "column"), [c[1:] for c in BAD], ids=[c[0] for c in BAD])
def test_in_turkish_the_message_is_turkish_and_names_the_line(change, line, column):
    if not _turkish_catalogue_filled():
        pytest.skip("the Turkish catalogue has no entries for the TRF messages yet")
    err = _error(change)
    with translation.override("tr"):
        text = trf_error_message(err)
        with_column = trf_error_message(err, column=True)
        reason = trf_text(err.reason)
    assert text != str(err) and reason != err.reason
    assert re.match(rf"^\D*{line}\D", text), text
    if column is not None:
        assert str(column) in with_column


def test_errors_of_blank_codes_the_writer_and_a_file_without_players(fake_catalogue):
    t = parse_trf("\n".join(BASE) + "\n")
    t.players[0].results[1] = TrfResult(2, 3, "b", "")
    t.players[0].points = None
    errors = []
    with pytest.raises(TrfError) as info:
        infer_blank_codes(t)
    errors.append(info.value)
    t.players[0].points = 0.0  # 0.0 - 1.0 = -1: no value per cell
    with pytest.raises(TrfError) as info:
        infer_blank_codes(t)
    errors.append(info.value)
    for player, name in ((TrfPlayer(1, name="a\nb"), "line break"), (TrfPlayer(1, name="x" * 40), "longer"),
                         (TrfPlayer(1, rating=12345), "rating"), (TrfPlayer(12345), "starting number"),
                         (TrfPlayer(1, results=[TrfResult(1, None, None, "Q")]), "result code")):
        with pytest.raises(TrfError) as info:
            dump_trf(TrfTournament(players=[player]))
        assert name in str(info.value)
        errors.append(info.value)
    with pytest.raises(TrfError) as info:
        parse_trf("012 x\n")
    errors.append(info.value)
    for err in errors:
        for template in _templates_of(err.reason):
            assert template in TRF_TEMPLATES, template
        text = trf_error_message(err)
        assert "%(" not in text and text.startswith("«")


def test_warnings_unread_lines_and_inferences_keep_their_english_and_translate(fake_catalogue):
    lines = list(BASE)
    lines[1] = _put(lines[1], 99, "=")  # 1 draws against 2, who lost: the results do not agree
    lines[2] = _put(lines[2], 81, "0.5")
    lines += ["299 x", "013 Team", "XXZ 1", "012 again"]
    t = parse_trf("\n".join(lines) + "\n")
    assert t.warnings == ["line 2: round 1: player 1 has result '=' against player 2, who has '0' (line 3)"]
    assert trf_text(t.warnings[0]) == (
        "«line 2: «round 1: player 1 has result '=' against player 2, who has '0' (line 3)»»")
    unread = unread_lines(t)
    assert [no for no, _ in unread] == [7, 8, 9, 10]
    for no, reason in unread:
        assert reason.template in TRF_TEMPLATES
        assert unread_line_message(no, reason) == f"«line {no}: «{reason.template}»»" % reason.params
    t.players[1].results[0] = TrfResult(1, 1, "b", "")
    t.players[1].points = 0.0
    inference = infer_blank_codes(t)[0]
    assert str(inference) == ("line 3: player 2 round 1: blank result code counted as 0.0 "
                              "(points column already adds up)")
    assert inference_message(inference) == (
        "«line 3: «player 2 round 1: blank result code counted as 0.0 («points column already adds up»)»»")


def test_in_english_warnings_unread_reasons_and_inferences_equal_the_readers_text():
    lines = list(BASE)
    lines[1] = _put(lines[1], 99, "=")
    lines += ["299 x", "XXZ 1"]
    t = parse_trf("\n".join(lines) + "\n")
    t.players[1].results[0] = TrfResult(1, 1, "b", "")
    with translation.override("en"):
        assert [trf_text(w) for w in t.warnings] == t.warnings
        assert [unread_line_message(no, r) for no, r in unread_lines(t)] == [
            f"line {no}: {r}" for no, r in unread_lines(t)]
        assert [inference_message(i) for i in infer_blank_codes(t)] == [str(i) for i in infer_blank_codes(t)]


def test_a_plain_text_reason_is_shown_as_it_is():
    err = TrfError("something else", line=4, column=2)
    assert err.template == "something else" and err.params == {}
    with translation.override("tr"):
        text = trf_error_message(err)
    assert text.endswith(": something else") and "4" in text


def test_a_broken_translation_falls_back_to_english(monkeypatch):
    monkeypatch.setattr(federation.message_text, "gettext", lambda s: "%(nope)s")
    err = _error(_player(1, 49, "15ab"))
    assert federation.message_text.translated(err.reason) == err.reason


def test_messages_survive_pickling_and_copying():
    import copy
    import pickle

    err = _error(_player(1, 92, "  ab"))
    for again in (pickle.loads(pickle.dumps(err.reason)), copy.deepcopy(err.reason)):
        assert again == err.reason and again.template == err.reason.template
        assert again.params == err.reason.params


def test_turkish_entries_keep_the_placeholders_of_their_msgid():
    """Once the lead fills the catalogue: every translated template has the same placeholders."""
    placeholder = re.compile(r"%\((\w+)\)[sdr]")
    with translation.override("tr"):
        for template in sorted(TRF_TEMPLATES):
            turkish = gettext(template)
            if turkish != template:
                assert sorted(placeholder.findall(turkish)) == sorted(placeholder.findall(template)), template
