"""The instruction of each step, in English and French, from the action it waits for:
what to do, where on the screen, and why (said again when another move is tried)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine import french

if TYPE_CHECKING:
    from ..engine import State

Text = dict[str, str]


def _both(en: str, fr: str) -> Text:
    return {"en": en, "fr": fr}


def instruction(
    state: State, action: dict[str, Any], names: list[str]
) -> tuple[Text, Text, dict[str, Any]]:
    """``(text, why, target)`` for the learner's ``action`` in ``state`` (before it)."""
    from .script import card_name, slot_name, the_fr

    kind = action["type"]

    def card(lang: str, key: str = "card", colour: str | None = None) -> str:
        return card_name(action[key], lang, colour)

    def the(key: str = "card") -> str:
        return the_fr(action[key])

    # the French pronoun of the card the step is about: "la", "elle" (Condition) or "le",
    # "il" (Joker, Hérisson)
    card_id = action.get("card") or ""
    if kind == "reveal":
        awaited = state.awaited()
        card_id = (state.programmed[awaited[0]] if awaited else None) or ""
    masculine = bool(card_id) and french.gender(card_id) == "m"
    it, he = ("le", "il") if masculine else ("la", "elle")

    if kind == "program":
        return (
            _both(
                f"Program the {card('en')}: select it in your hand.",
                f"Programmez {the()} : sélectionnez-{it} dans votre main.",
            ),
            _both(
                f"This turn, the lesson plays the {card('en')}.",
                f"À ce tour, la leçon joue {the()}.",
            ),
            {"kind": "hand_card", "card": action["card"]},
        )
    if kind == "ready":
        return (
            _both(
                "Choose Ready: the reveal starts once every player is ready.",
                "Choisissez Prêt : la révélation commence quand tous les joueurs sont prêts.",
            ),
            _both(
                "Your card is programmed: say you are ready.",
                "Votre carte est programmée : dites que vous êtes prêt.",
            ),
            {"kind": "ready"},
        )
    if kind == "reveal":
        awaited = state.awaited()
        programmed = state.programmed[awaited[0]] if awaited else None
        colour = action.get("colour")
        name_en = card_name(programmed, "en", colour) if programmed else ""
        name_fr = card_name(programmed, "fr", colour) if programmed else ""
        slot = action.get("slot")
        if slot is None:
            return (
                _both(
                    f"Your {name_en} has no place: it goes to the discard pile.",
                    f"Votre {name_fr} n'a pas de place : {he} va à la défausse.",
                ),
                _both("No place takes it.", f"Aucune place ne {it} prend."),
                {"kind": "discard"},
            )
        if colour:
            return (
                _both(
                    f"Give your Joker the colour {_colour('en', colour)}: select the lit "
                    f"place {slot_name(slot, 'en')} in the web.",
                    f"Donnez à votre Joker la couleur {_colour('fr', colour)} : sélectionnez "
                    f"{slot_name(slot, 'fr')}, éclairée dans le réseau.",
                ),
                _both(
                    f"The lesson gives the Joker the colour {_colour('en', colour)} here.",
                    f"La leçon donne ici au Joker la couleur {_colour('fr', colour)}.",
                ),
                {"kind": "slot", "slot": slot, "colour": colour},
            )
        return (
            _both(
                f"Your {name_en} can go to several places: select {slot_name(slot, 'en')} "
                "in the web.",
                f"Votre {name_fr} a plusieurs places possibles : sélectionnez "
                f"{slot_name(slot, 'fr')} dans le réseau.",
            ),
            _both(
                f"The lesson places it in {slot_name(slot, 'en')}.",
                f"La leçon {it} pose sur {slot_name(slot, 'fr')}.",
            ),
            {"kind": "slot", "slot": slot},
        )
    if kind == "show":
        return (
            _both(
                f"Use a Symbiosis to Show your {card('en')} to the other players: select "
                "Symbiosis, choose Show, then the card.",
                f"Utilisez une Symbiose pour Montrer votre {card('fr')} aux autres "
                "joueurs : sélectionnez Symbiose, choisissez Montrer, puis la carte.",
            ),
            _both(
                f"The lesson shows the {card('en')}.",
                f"La leçon montre {the()}.",
            ),
            {"kind": "symbiosis", "symbiosis": "show", "card": action["card"]},
        )
    if kind == "give":
        to = names[action["to"]]
        return (
            _both(
                f"Use a Symbiosis to Give your {card('en')} to {to}: select Symbiosis, "
                f"choose Give, the card, then {to}.",
                f"Utilisez une Symbiose pour Donner votre {card('fr')} à {to} : "
                f"sélectionnez Symbiose, choisissez Donner, la carte, puis {to}.",
            ),
            _both(
                f"The lesson gives the {card('en')} to {to}.",
                f"La leçon donne {the()} à {to}.",
            ),
            {"kind": "symbiosis", "symbiosis": "give", "card": action["card"], "to": action["to"]},
        )
    if kind == "give_back":
        pending = state.pending_give or {}
        giver = names[pending.get("from", 0)]
        return (
            _both(
                f"{giver} gave you a card: give one back. Choose your {card('en')}.",
                f"{giver} vous a donné une carte : rendez-en une. Choisissez votre {card('fr')}.",
            ),
            _both(
                f"The lesson gives back the {card('en')}.",
                f"La leçon rend {the()}.",
            ),
            {"kind": "give_back", "card": action["card"]},
        )
    if kind == "swap_discard":
        return (
            _both(
                f"Use a Symbiosis to swap your {card('en')} for the "
                f"{card('en', 'take')} of the discard pile: select Symbiosis, choose Swap "
                "with the discard pile, then the two cards.",
                f"Utilisez une Symbiose pour échanger votre {card('fr')} contre "
                f"{the('take')} de la défausse : sélectionnez Symbiose, choisissez "
                "Échanger avec la défausse, puis les deux cartes.",
            ),
            _both(
                f"The lesson takes back the {card('en', 'take')}.",
                f"La leçon reprend {the('take')}.",
            ),
            {
                "kind": "symbiosis",
                "symbiosis": "swap_discard",
                "card": action["card"],
                "take": action["take"],
            },
        )
    raise ValueError(f"No lesson step for a {kind!r} action.")


def _colour(lang: str, colour: str) -> str:
    from .script import COLOURS

    return COLOURS[colour][lang]
