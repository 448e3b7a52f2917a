"""Game record notation (games/engine/notation.py): parse, write, errors with line numbers."""
from __future__ import annotations

import random

import pytest

from games.engine import NotationError, Variant
from games.engine.notation import GameRecord, Termination, parse, write, write_record

from .helpers import random_game

SAMPLE = """\
[Event "Ankara Open 2026"]
[Round "3"]
[White "Ayşe Yılmaz"]
[Black "Mehmet Kaya"]
[Set "1"]
[Starter "Ayşe Yılmaz"]
[Variant "federation"]
[Result "{w}-{b}"]
[Termination "completed"]

{moves}
"""


def _finished(seed: int, variant: str = "federation"):
    moves, positions = random_game(random.Random(seed), variant)
    return moves, positions[-1].stores


def test_parse_sample_record_and_validate():
    """Tags, move text and result: set 1 is started by White, so Result W-B = first-second."""
    moves, (a, b) = _finished(11)
    text = SAMPLE.format(w=a, b=b, moves=" ".join(map(str, moves)))
    [rec] = parse(text, validate=True)
    assert rec.white == "Ayşe Yılmaz" and rec.black == "Mehmet Kaya"
    assert rec.event == "Ankara Open 2026" and rec.round == "3" and rec.set_number == 1
    assert rec.starter == "white" and rec.variant is Variant.FEDERATION
    assert rec.result == (a, b) and rec.first_second_stones == (a, b)
    assert rec.moves == tuple(moves)
    assert rec.withdrawn_by is None
    assert rec.validate().first == a


def test_set_2_is_started_by_black_result_stays_white_black():
    """003 "Turnuva maçı": Black starts set 2; Result is in White-Black order, so the first mover's stones
    are the second number."""
    moves, (a, b) = _finished(12)
    text = (
        '[White "A"]\n[Black "B"]\n[Set "2"]\n[Result "%d-%d"]\n\n%s\n' % (b, a, " ".join(map(str, moves)))
    )
    [rec] = parse(text, validate=True)
    assert rec.starter == "black"
    assert rec.first_second_stones == (a, b)


def test_starter_contradicting_set_number_is_an_error_with_line():
    text = '[White "A"]\n[Black "B"]\n[Set "2"]\n[Starter "A"]\n[Result "24-24"]\n\n1\n'
    with pytest.raises(NotationError, match=r'^line 4: Starter .A. contradicts Set 2'):
        parse(text)


def test_several_records_round_trip():
    """Several records per file separated by blank lines; write → parse gives the same records."""
    records = []
    for seed, variant, set_number in ((21, "federation", 1), (22, "kale", 2), (23, "federation", 3)):
        moves, (a, b) = _finished(seed, variant)
        white_black = (a, b) if set_number % 2 else (b, a)
        records.append(
            GameRecord(white='Ali "Kaptan"', black="Veli\\", result=white_black, moves=tuple(moves),
                       event="Kupa", round="1", set_number=set_number, variant=variant,
                       extra_tags=(("Board", "4"),))
        )
    text = write(records)
    assert text.count("[Event") == 3
    parsed = parse(text, validate=True)
    assert parsed == records
    assert parsed[1].line > parsed[0].line
    assert parsed[1].extra_tags == (("Board", "4"),)
    assert max(len(line) for line in text.splitlines()) <= 79


def test_withdrawal_termination():
    """Kural 14.5: Termination first_withdrew/second_withdrew (first/second = movers of this set)."""
    moves, positions = random_game(random.Random(5))
    ply = next(i for i, p in enumerate(positions) if not p.is_over and max(p.stores) >= 25)
    s1, s2 = positions[ply].stores
    loser = Termination.SECOND_WITHDREW if s1 >= 25 else Termination.FIRST_WITHDREW
    from games.engine import set_result

    r = set_result(s1, s2, "second" if s1 >= 25 else "first")
    rec = GameRecord(white="A", black="B", result=(r.first, r.second), moves=tuple(moves[:ply]),
                     termination=loser)
    [back] = parse(write_record(rec), validate=True)
    assert back.withdrawn_by == r.withdrawn_by


def test_illegal_move_error_names_the_line_of_the_move():
    """validate: the rule error is reported with the line of the offending move."""
    text = '[White "A"]\n[Black "B"]\n[Result "24-24"]\n\n4 4\n1 4\n'
    with pytest.raises(NotationError, match=r"^line 6: ply 4: pit 4 of first player is empty$"):
        parse(text, validate=True)
    [rec] = parse(text)  # syntax alone is fine
    assert rec.move_lines == (5, 5, 6, 6)


def test_incomplete_record_error_names_record_line():
    text = '\n[White "A"]\n[Black "B"]\n[Result "24-24"]\n\n4 4\n'
    with pytest.raises(NotationError, match="^line 6: record ends before the set is over at ply 2"):
        parse(text, validate=True)


@pytest.mark.parametrize(
    "text, message",
    [
        ('[White "A"\n[Result "24-24"]\n1\n', r"^line 1: malformed tag pair"),
        ('[White "A"]\n[White "B"]\n[Result "24-24"]\n', r"^line 2: tag White appears twice"),
        ('[White "A"]\n[Result "24-23"]\n1\n', r"^line 2: Result 24-23 sums to 47"),
        ('[White "A"]\n[Result "x"]\n1\n', r"^line 2: Result must look like"),
        ('[White "A"]\n\n1 2 3\n', r"^line 1: the record has no \[Result\] tag"),
        ('[Result "24-24"]\n1 2\n3 7\n', r"^line 3: move 4: pit must be 1\.\.6, not 7"),
        ('[Result "24-24"]\n1 2 x\n', r"^line 2: move 3: 'x' is not a pit number"),
        ('[Result "24-24"]\n1 2 \u00b2\n', r"^line 2: move 3: '\u00b2' is not a pit number"),  # isdigit(), not int()
        ('4 1\n', r"^line 1: move text before any tag pair"),
        ('[Result "24-24"]\n[Variant "oware"]\n1\n', r"^line 2: unknown variant"),
        ('[Result "24-24"]\n[Termination "agreed"]\n1\n', r"^line 2: there are no agreed draws \(Kural 14\.6\)"),
        ('[Result "24-24"]\n[Termination "resigned"]\n1\n', r"^line 2: Termination must be"),
        ('[Result "24-24"]\n1 2 30-18\n', r"^line 2: result token 30-18 differs from the Result tag"),
        ('[Result "24-24"]\n1 2 24-24 3\n', r"^line 2: '3' after the result token"),
        ('[White "A"]\n[Black "B"]\n[Starter "C"]\n[Result "24-24"]\n', r"^line 3: Starter 'C' is neither"),
        ('[Set "0"]\n[Result "24-24"]\n', r"^line 1: Set must be a positive number"),
    ],
)
def test_syntax_errors_carry_the_line_number(text, message):
    with pytest.raises(NotationError, match=message):
        parse(text)


def test_comments_bom_result_token_and_star():
    text = '\ufeff[White "A"] ; the white player\n[Result "*"]\n4 4 ; extra turn\n*\n'
    [rec] = parse(text)
    assert rec.result is None and rec.moves == (4, 4)
    with pytest.raises(NotationError, match="no result"):
        rec.validate()


def test_game_record_checks_its_fields():
    with pytest.raises(NotationError, match="cannot start set 2"):
        GameRecord(set_number=2, starter="white")
    with pytest.raises(NotationError, match="summing to 48"):
        GameRecord(result=(30, 17))
    with pytest.raises(NotationError, match="move 2"):
        GameRecord(moves=(1, 9))
    assert GameRecord(set_number=2).starter == "black"
