"""Players' names, checked as a person sees them: Unicode's grapheme clusters (the
``regex`` package's ``\\X``) counted and measured in columns, and whatever draws nothing,
reorders the text around it or piles marks on a letter refused, with a sentence a player
understands."""

from __future__ import annotations

import unicodedata

import regex

NAME_MAX_CHARACTERS = 40
#: a name's width on screen, in columns: a wide character (Chinese, Japanese, Korean,
#: most emoji) takes two
NAME_MAX_COLUMNS = 60
#: combining marks on one character (Vietnamese stacks two; more is "Zalgo" text)
NAME_MAX_MARKS = 4
#: Bidirectional controls (overrides, isolates, marks: they reorder or hide the text
#: around a name), and the line and paragraph separators.
_BIDI_CONTROLS = frozenset(
    [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x2028, 0x2029, 0x200E, 0x200F, 0x061C]
)
#: characters that draw nothing though they are letters or symbols to Unicode (Hangul
#: fillers, the blank Braille pattern, ...)
_BLANK = frozenset([0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x2062, 0x2063, 0x2064])
_ZWJ = "\u200d"
_GRAPHEME = regex.compile(r"\X")
_PICTOGRAPHIC = regex.compile(r"\p{Extended_Pictographic}|\p{Regional_Indicator}")
_TAG_BASE = "\U0001f3f4"  # the black flag of the flags of England, Scotland, Wales


def graphemes(name: str) -> list[str]:
    """The characters a person sees in ``name``: Unicode's extended grapheme clusters.

    >>> [len(graphemes(n)) for n in ("🧑\u200d🌾 Farmer", "🏳\ufe0f\u200d🌈", "Zoé")]
    [8, 1, 3]
    """
    return list(_GRAPHEME.findall(name))


def name_length(name: str) -> int:
    """The number of characters a person sees in ``name``."""
    return len(graphemes(name))


def _columns(cluster: str) -> int:
    """Columns a character takes on screen: two for wide ones and emoji."""
    if _PICTOGRAPHIC.search(cluster) or unicodedata.east_asian_width(cluster[0]) in "WF":
        return 2
    return 1


def _check_cluster(cluster: str) -> None:
    pictographic = _PICTOGRAPHIC.search(cluster) is not None
    marks = 0
    for char in cluster:
        code, category = ord(char), unicodedata.category(char)
        if category in ("Cc", "Cs", "Cn", "Co") or code in _BIDI_CONTROLS:
            raise ValueError("a name cannot contain control characters")
        if code in _BLANK or (category == "Zs" and char != " "):
            raise ValueError("a name cannot contain invisible or blank-looking characters")
        if category == "Cf" and not (
            (char == _ZWJ and pictographic)
            or (0xE0020 <= code <= 0xE007F and cluster.startswith(_TAG_BASE))
        ):
            raise ValueError("a name cannot contain invisible or blank-looking characters")
        if category in ("Mn", "Me", "Mc") and not 0xFE00 <= code <= 0xFE0F:
            marks += 1
    if marks > NAME_MAX_MARKS:
        raise ValueError(
            f"a name's letters carry at most {NAME_MAX_MARKS} combining accents or marks each"
        )
    if not (pictographic or unicodedata.category(cluster[0])[0] in "LNPSZ"):
        raise ValueError("a name cannot contain invisible or blank-looking characters")


def clean_name(name: str) -> str:
    """A player's name as shown: spaces around and between words collapsed; any printable
    text, emoji sequences included, counted as a person sees it (grapheme clusters);
    no control or bidirectional character, nothing invisible or blank-looking (zero-width
    characters, tags outside a flag, Hangul fillers, the blank Braille pattern), at most
    ``NAME_MAX_MARKS`` combining marks on a character; a visible character; at most 40
    characters and 60 columns (a wide character takes two).

    >>> clean_name("  🧑\u200d🌾   Farmer ")
    '🧑\u200d🌾 Farmer'
    >>> clean_name("Bell\x07")
    Traceback (most recent call last):
    ...
    ValueError: a name cannot contain control characters
    >>> clean_name("Ada\u200b")
    Traceback (most recent call last):
    ...
    ValueError: a name cannot contain invisible or blank-looking characters
    """
    for char in name:  # before ``split``, which would take some of them for spaces
        if unicodedata.category(char) in ("Cc", "Cs", "Cn", "Co") or ord(char) in _BIDI_CONTROLS:
            raise ValueError("a name cannot contain control characters")
    name = " ".join(name.split())
    clusters = graphemes(name)
    for cluster in clusters:
        _check_cluster(cluster)
    if not any(unicodedata.category(char)[0] in "LNPS" for char in name):
        raise ValueError("a name needs at least one visible character")
    if len(clusters) > NAME_MAX_CHARACTERS:
        raise ValueError(f"a name has at most {NAME_MAX_CHARACTERS} characters")
    if sum(_columns(c) for c in clusters) > NAME_MAX_COLUMNS:
        raise ValueError(
            f"a name is at most {NAME_MAX_COLUMNS} columns wide (a wide character such as "
            "界 takes two): use fewer characters"
        )
    return name
