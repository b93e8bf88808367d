"""The French grammar of the card names (``engine/french.py``): every Species has its
gender and elision, and the sentences of the server name cards with their articles."""

from __future__ import annotations

import re

from dame_nature.bots.hint import explain
from dame_nature.engine import CATALOGUE, french
from dame_nature.engine.outlook import _text
from dame_nature.lessons import LESSONS
from dame_nature.lessons.play import no_place_now
from dame_nature.lessons.script import slot_name

#: every Species with its name after "le", "de" and "à", as a French reader says them
EXPECTED = {
    "species-ortie": ("l'Ortie", "de l'Ortie", "à l'Ortie"),
    "species-aubepine": ("l'Aubépine", "de l'Aubépine", "à l'Aubépine"),
    "species-chene": ("le Chêne", "du Chêne", "au Chêne"),
    "species-jonc": ("le Jonc", "du Jonc", "au Jonc"),
    "species-carabe-dore": ("le Carabe doré", "du Carabe doré", "au Carabe doré"),
    "species-mesange-bleue": ("la Mésange bleue", "de la Mésange bleue", "à la Mésange bleue"),
    "species-campagnol": ("le Campagnol", "du Campagnol", "au Campagnol"),
    "species-herisson": ("le Hérisson", "du Hérisson", "au Hérisson"),
    "species-martre": ("la Martre", "de la Martre", "à la Martre"),
    "species-aigle-royal": ("l'Aigle royal", "de l'Aigle royal", "à l'Aigle royal"),
    "species-renouee-du-japon": (
        "la Renouée du Japon",
        "de la Renouée du Japon",
        "à la Renouée du Japon",
    ),
    "species-frelon-asiatique": (
        "le Frelon asiatique",
        "du Frelon asiatique",
        "au Frelon asiatique",
    ),
    "species-raton-laveur": ("le Raton laveur", "du Raton laveur", "au Raton laveur"),
    "species-charagne": ("la Charagne", "de la Charagne", "à la Charagne"),
    "species-gardon": ("le Gardon", "du Gardon", "au Gardon"),
}


def test_every_species_of_the_cards_has_its_grammar():
    species = {card.id for card in CATALOGUE.cards.values() if card.is_species}
    assert set(french.SPECIES) == species
    assert set(EXPECTED) == species
    for card in species:
        assert french.gender(card) in ("m", "f")


def test_the_articles_of_every_species():
    for card, (the, of, to) in EXPECTED.items():
        assert (french.the(card), french.of(card), french.to(card)) == (the, of, to), card
        grammar = french.grammar()["species"][card]
        assert grammar == {"gender": french.gender(card), "the": the, "of": of, "to": to}
    assert french.grammar()["types"]["joker"] == "m"


def test_the_other_cards_and_a_sentence_opening():
    assert french.the("cond-green-2", "Condition géologique [G]") == "la Condition géologique [G]"
    assert french.the("joker-1", "Joker") == "le Joker"
    assert french.the("cat-1", "Chat") == "le Chat"
    assert french.of("pollution-1", "Pollution") == "de la Pollution"
    assert french.capital(french.the("species-ortie")) == "L'Ortie"
    assert french.capital(french.the("species-herisson")) == "Le Hérisson"


def test_the_hints_name_cards_with_their_articles():
    _, fr = explain({"programmed": "cond-blue-1"}, {"type": "reveal", "slot": "species-herisson:1"})
    assert fr.startswith("Posez la Condition hydrique [H] sur le Hérisson\u00a0: "), fr
    _, fr = explain({}, {"type": "swap_discard", "card": "species-martre", "take": "species-ortie"})
    assert fr.startswith("Échangez la Martre contre l'Ortie de la défausse\u00a0: l'Ortie sert")
    _, fr = explain({"players": [{}] * 4}, {"type": "give", "card": "species-jonc", "to": 2})
    assert fr.startswith("Donnez le Jonc à la place 3\u00a0: vous ne pouvez pas le poser"), fr


def test_the_lost_reason_and_the_lessons_name_species_with_their_articles():
    reason = {
        "cards_left": 9,
        "places_empty": 2,
        "cards_to_play": 0,
        "species_lost": ["species-aigle-royal", "species-herisson"],
        "colours_short": [],
        "deadlocked": [],
    }
    assert _text(reason, 1) == (
        "L'Aigle royal est dans la défausse et sa place est vide. "
        "Le Hérisson est dans la défausse et sa place est vide."
    )
    assert slot_name("species-jonc:1", "fr") == "la place hydrique du Jonc"
    assert slot_name("species-aubepine", "fr") == "l'Aubépine"
    assert slot_name("species-jonc:1", "en") == "Jonc, Condition 1"
    lesson = LESSONS["first-turns"]
    start = lesson.state_at(0)
    said = no_place_now(start, lesson.learner, "species-herisson")
    assert said is not None
    assert said["fr"].startswith("Révélé maintenant, le Hérisson serait défaussé")
    said = no_place_now(start, lesson.learner, "species-martre")
    assert said is not None
    assert said["fr"].startswith("Révélée maintenant, la Martre serait défaussée")


def test_the_server_french_puts_a_non_breaking_space_before_a_colon():
    """As the UI's catalogue does (tests/server/test_translations.py): the lessons, the
    rules' summaries, the discard reasons and the hints."""
    from dame_nature.engine import REASONS_FR, RULES

    texts = list(REASONS_FR.values())
    for rule in RULES.values():
        texts += [rule.title_fr, rule.summary_fr]
    for lesson in LESSONS.values():
        texts += [lesson.title["fr"], lesson.summary["fr"], lesson.intro["fr"]]
        texts += [lesson.outro["fr"]]
        for step in lesson.steps:
            texts += [step.text["fr"], step.plain["fr"], step.why["fr"]]
    for view, action in [
        ({"programmed": "joker-1"}, {"type": "reveal"}),
        ({}, {"type": "end_game"}),
        ({}, {"type": "ready"}),
        ({}, {"type": "choose_side", "side": "plant"}),
        ({}, {"type": "show", "card": "species-gardon"}),
    ]:
        texts.append(explain(view, action)[1])
    bare = [text for text in texts if re.search(r" [:;!?]", text)]
    assert not bare, bare


def test_the_pages_get_the_same_grammar_once():
    """Every page's boot data carries the table (cards.js reads it); the UI catalogue
    holds no copy of it."""
    import json
    from pathlib import Path

    from dame_nature.server.routes.pages import _boot_data

    boot = json.loads(_boot_data())
    assert boot["french"] == french.grammar()
    catalogue = Path(__file__).resolve().parents[2] / "static" / "js" / "locales" / "fr.js"
    assert not re.search(r'"(gender|of):species-', catalogue.read_text("utf-8"))
