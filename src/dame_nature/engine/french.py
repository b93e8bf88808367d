"""The French grammar of the card names: each Species' gender and whether its name
elides the article, and the articles a French sentence puts before a card.

French says "le Hérisson" (its *h* is aspirated: no elision), "la Mésange bleue",
"l'Aubépine"; "du Chêne", "de la Martre", "de l'Ortie"; "au Jonc", "à la Martre",
"à l'Aigle royal". The table is the one place these facts live: the server's sentences
use the helpers below, and the pages read ``grammar()`` (embedded once in every page) for
the articles and the words that agree with a card.

>>> the("species-herisson"), of("species-aubepine"), to("species-chene")
('le Hérisson', "de l'Aubépine", 'au Chêne')
>>> the("cond-blue-3", "Condition hydrique [H]"), capital(the("joker-1", "Joker"))
('la Condition hydrique [H]', 'Le Joker')
"""

from __future__ import annotations

from typing import Any

from .cards import CATALOGUE

#: each Species' gender ("m" or "f") and whether its name elides "le"/"la" (a vowel or a
#: mute *h*: "l'Ortie"; the aspirated *h* of "Hérisson" does not)
SPECIES: dict[str, tuple[str, bool]] = {
    "species-ortie": ("f", True),
    "species-aubepine": ("f", True),
    "species-chene": ("m", False),
    "species-jonc": ("m", False),
    "species-carabe-dore": ("m", False),
    "species-mesange-bleue": ("f", False),
    "species-campagnol": ("m", False),
    "species-herisson": ("m", False),
    "species-martre": ("f", False),
    "species-aigle-royal": ("m", True),
    "species-renouee-du-japon": ("f", False),
    "species-frelon-asiatique": ("m", False),
    "species-raton-laveur": ("m", False),
    "species-charagne": ("f", False),
    "species-gardon": ("m", False),
}
#: the gender of the other cards' French names: "la Condition", "le Joker", "le Chat",
#: "la Pollution", "la Réintroduction d'espèce" (none elides)
TYPES: dict[str, str] = {
    "condition": "f",
    "joker": "m",
    "cat": "m",
    "pollution": "f",
    "reintroduction": "f",
}


def gender(card: str) -> str:
    """``"m"`` or ``"f"``: the gender of ``card``'s French name."""
    if card in SPECIES:
        return SPECIES[card][0]
    return TYPES.get(CATALOGUE.card(card).type, "f") if CATALOGUE.has_card(card) else "f"


def _name(card: str, name: str | None) -> str:
    if name is not None:
        return name
    return (CATALOGUE.card(card).name_fr if CATALOGUE.has_card(card) else None) or card


def _elides(card: str) -> bool:
    return card in SPECIES and SPECIES[card][1]


#: the article's forms, by what comes before the name: (before a vowel, masculine,
#: feminine)
ARTICLES: dict[str, tuple[str, str, str]] = {
    "the": ("l'", "le ", "la "),
    "of": ("de l'", "du ", "de la "),
    "to": ("à l'", "au ", "à la "),
}


def _with_article(form: str, card: str, name: str | None) -> str:
    elided, masculine, feminine = ARTICLES[form]
    article = elided if _elides(card) else masculine if gender(card) == "m" else feminine
    return article + _name(card, name)


def the(card: str, name: str | None = None) -> str:
    """``card``'s French name (a Species' own unless ``name`` is given) with its definite
    article: "le Hérisson", "la Martre", "l'Ortie"."""
    return _with_article("the", card, name)


def of(card: str, name: str | None = None) -> str:
    """ "de" and the article: "du Hérisson", "de la Martre", "de l'Ortie"."""
    return _with_article("of", card, name)


def to(card: str, name: str | None = None) -> str:
    """ "à" and the article: "au Hérisson", "à la Martre", "à l'Ortie"."""
    return _with_article("to", card, name)


def capital(text: str) -> str:
    """``text`` opening a sentence: "Le Hérisson", "L'Ortie"."""
    return text[:1].upper() + text[1:]


def grammar() -> dict[str, dict[str, Any]]:
    """What the pages read of the tables: ``species``, for each Species its gender and its
    name with "le", "de" and "à" (``{"gender": "f", "the": "l'Ortie", "of": "de l'Ortie",
    "to": "à l'Ortie"}``), and ``types``, the gender of the other cards by type."""
    species = {
        card: {"gender": gender(card), "the": the(card), "of": of(card), "to": to(card)}
        for card in SPECIES
    }
    return {"species": species, "types": dict(TYPES)}
