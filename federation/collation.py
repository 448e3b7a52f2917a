"""Turkish collation for names: the alphabet a b c ç d e f g ğ h ı i j k l m n o ö p r s ş t u ü v y z."""
from __future__ import annotations

#: The Turkish alphabet (29 letters) with q, w, x (foreign names) placed where Latin puts them.
TURKISH_ALPHABET = "abcçdefgğhıijklmnoöpqrsştuüvwxyz"
_RANK = {ch: i for i, ch in enumerate(TURKISH_ALPHABET)}
# circumflexed vowels (hâlâ, Âlim) sort as their plain letter, then after it on a tie
_FOLD = {"â": "a", "î": "i", "û": "u"}
_LOWER = str.maketrans({"I": "ı", "İ": "i"})


def turkish_lower(text: str) -> str:
    """Turkish lower case: ``I`` → ``ı`` and ``İ`` → ``i`` (Python's ``str.lower`` maps ``I`` to ``i``)."""
    return text.translate(_LOWER).lower().replace("i\u0307", "i")


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
