"""Turkish collation for names: the alphabet a b c ç d e f g ğ h ı i j k l m n o ö p r s ş t u ü v y z."""
from __future__ import annotations

import re
import unicodedata

#: The Turkish alphabet (29 letters) with q, w, x (foreign names) placed where Latin puts them.
TURKISH_ALPHABET = "abcçdefgğhıijklmnoöpqrsştuüvwxyz"
_RANK = {ch: i for i, ch in enumerate(TURKISH_ALPHABET)}
# circumflexed vowels (hâlâ, Âlim) sort as their plain letter, then after it on a tie
_FOLD = {"â": "a", "î": "i", "û": "u"}
_LOWER = str.maketrans({"I": "ı", "İ": "i"})
_UPPER = str.maketrans({"i": "İ", "ı": "I"})


def turkish_lower(text: str) -> str:
    """Turkish lower case: ``I`` → ``ı`` and ``İ`` → ``i`` (Python's ``str.lower`` maps ``I`` to ``i``)."""
    return text.translate(_LOWER).lower().replace("i\u0307", "i")


def turkish_upper(text: str) -> str:
    """Turkish upper case: ``i`` → ``İ`` and ``ı`` → ``I`` (Python's ``str.upper`` maps ``i`` to ``I``)."""
    return turkish_lower(text).translate(_UPPER).upper()


def turkish_title(text: str) -> str:
    """Each word's first letter in Turkish upper case, the rest in Turkish lower case: "ışık İNCE" →
    "Işık İnce". Words are split at white space and hyphens ("ayşe-nur" → "Ayşe-Nur")."""
    def word(m: re.Match) -> str:
        w = m.group(0)
        return turkish_upper(w[:1]) + turkish_lower(w[1:])

    return re.sub(r"[^\s-]+", word, text)


def turkish_case_variants(text: str) -> list[str]:
    """``text`` as typed, in Turkish lower case, upper case and title case (no duplicates, in that order).

    Databases fold case without Turkish rules (SQLite's ``LIKE`` folds ASCII letters only;
    PostgreSQL's ``UPPER`` follows the database locale, rarely a Turkish one), so a search that must
    find "IŞIK" for "ışık" and "İnci" for "inci" ORs its lookups over these variants.
    """
    variants = [text, turkish_lower(text), turkish_upper(text), turkish_title(text)]
    return list(dict.fromkeys(variants))


#: Letters NFKD does not split into a base letter and a mark, folded by hand (ı is Turkish dotless i).
_ASCII_EXTRA = str.maketrans({
    "ı": "i", "ø": "o", "đ": "d", "ð": "d", "ł": "l", "ħ": "h", "þ": "th", "ß": "ss", "æ": "ae", "œ": "oe",
    "’": "'", "ʼ": "'", "‘": "'",
})


def search_fold(text: str) -> str:
    """``text`` as a search key: Turkish lower case, then every letter without its marks, spaces collapsed.

    ç→c ğ→g ı→i İ→i ö→o ş→s ü→u â→a î→i û→u (and é→e, ß→ss …), so "Güneş", "GÜNEŞ", "gunes" and
    "GUNES" all give ``"gunes"``, and "İSTANBUL", "Istanbul", "ıstanbul" give ``"istanbul"``: a search
    forgives a keyboard without Turkish letters and either case. The same function folds the stored key
    (``Player.search_key``, ``Club.search_key``) and the query, so the database compares plain ASCII-ish
    lower case text the same way on SQLite and PostgreSQL. Not for display or sorting
    (:func:`turkish_sort_key` keeps the Turkish alphabet order).
    """
    low = turkish_lower(unicodedata.normalize("NFC", text or ""))
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", low) if not unicodedata.combining(ch))
    return " ".join(plain.translate(_ASCII_EXTRA).split())


def turkish_sort_key(text: str) -> tuple:
    """A sort key ordering ``text`` by the Turkish alphabet a b c ç d e f g ğ h ı i j k l m n o ö p r s ş
    t u ü v y z, ignoring case (``I``/``ı`` are one letter, ``İ``/``i`` another).

    So "Cengiz" < "Ceylan" < "Çelik" < "Ilgaz" < "Işık" < "İnce". Digits and punctuation sort before
    letters (by code point), other letters after ``z``; circumflexed vowels sort with their plain letter.
    Returns ``(primary, secondary)`` tuples, comparable with each other.
    """
    low = turkish_lower(text.strip())
    primary = []
    secondary = []
    base = len(TURKISH_ALPHABET)
    for ch in low:
        plain = _FOLD.get(ch, ch)
        if plain in _RANK:
            primary.append(1_000_000 + _RANK[plain])
        elif ch.isalpha():
            primary.append(1_000_000 + base + ord(ch))
        elif ch.isspace():
            primary.append(0)
        else:
            primary.append(1 + ord(ch))
        secondary.append(1 if plain != ch else 0)
    return (tuple(primary), tuple(secondary))


def player_sort_key(player) -> tuple:
    """Turkish name order of a player: last name, first name, then federation id."""
    return (turkish_sort_key(player.last_name), turkish_sort_key(player.first_name), player.federation_id)


# A stored sort key: player_sort_key as text whose plain code-point (byte) order is the tuple order,
# so the database can sort and paginate in Turkish order ("C" collation on PostgreSQL, BINARY on SQLite).
_END = "0"  # ends a sequence: before every token, so a shorter sequence sorts first as in tuple order
_LETTERS = "23456789ABCDEFGHIJKLMNOPQRSTUVWX"  # the 32 letters of TURKISH_ALPHABET, in order (one char each)
_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUV"  # base 32, for the fixed-width tokens
_LETTER_BASE = 1_000_000


def _b32(value: int, width: int) -> str:
    out = []
    for _ in range(width):
        value, d = divmod(value, 32)
        out.append(_DIGITS[d])
    return "".join(reversed(out))


def _token(value: int) -> str:
    """One element of a primary key as text: ordered as the integers, prefix-free, never ``_END``."""
    if value < _LETTER_BASE:
        return "1" + _b32(value, 4)  # spaces, digits, punctuation (32**4 > 1,000,000)
    if value < _LETTER_BASE + len(_LETTERS):
        return _LETTERS[value - _LETTER_BASE]  # the usual case: one character a letter
    return "Y" + _b32(value - _LETTER_BASE - len(_LETTERS), 5)  # other letters (up to 32**5)


def _sort_text(text: str) -> str:
    primary, secondary = turkish_sort_key(text)
    marks = list(secondary)
    while marks and marks[-1] == 0:  # equal lengths compare the same without the trailing zeros
        marks.pop()
    return "".join(map(_token, primary)) + _END + "".join("2" if m else "1" for m in marks) + _END


def player_sort_text(last_name: str, first_name: str, federation_id: str) -> str:
    """:func:`player_sort_key` as a string for the database (``Player.sort_key``): two players' strings
    compare by code point (PostgreSQL collation "C", SQLite BINARY) exactly as their
    :func:`player_sort_key` tuples compare, so ``ORDER BY sort_key`` is the Turkish name order
    (last name, first name, federation id). Letters take one character each (``"Çelik"`` →
    ``"6BCHDN0…"``-like text), other characters five or six; not for display."""
    return _sort_text(last_name or "") + _sort_text(first_name or "") + (federation_id or "")
