"""Hints: the ``expert`` bot's choice for one seat, from that seat's view only, with one
sentence why, in English and French.

A hint reveals nothing the seat could not know: the bot reads the same view dict a
websocket client gets (its memory rebuilt from the view's log), and the sentence is
derived from the chosen action and that view.

>>> from dame_nature.engine import Game
>>> state = Game(4).new_initial_state(seed=1)
>>> answer = hint(state.view(0), state.legal_actions(0), seed=1, worlds=2)
>>> answer["action"] in state.legal_actions(0), bool(answer["reason"]), bool(answer["reason_fr"])
(True, True, True)
"""

from __future__ import annotations

from typing import Any

from ..engine.cards import CATALOGUE, COLOUR_LETTERS, COLOUR_WORDS
from ..engine.french import capital, gender, the
from .base import Action, View, awaiting_me, my_cards

#: sampled deals per hint (the expert bot plays with more; a hint answers within ~1 s)
HINT_WORLDS = 6

SPECIALS = {
    "joker": ("Joker", "Joker"),
    "cat": ("Cat", "Chat"),
    "pollution": ("Pollution", "Pollution"),
    "reintroduction": ("Species reintroduction", "Réintroduction d'espèce"),
}


def hint(
    view: View, legal: list[Action], *, seed: int | None = None, worlds: int = HINT_WORLDS
) -> dict[str, Any] | None:
    """``{"action", "reason", "reason_fr"}`` for the seat of ``view``, ``action`` one of
    ``legal`` (the seat's legal actions now); ``None`` when the seat has nothing to do."""
    from .expert import ExpertBot

    if not legal:
        return None
    bot = ExpertBot(view["seat"], seed=seed, worlds=worlds)
    action = None
    if _may_program(view):
        # The card to program is chosen from the seat's cards as a set, as if none were
        # programmed yet: the hint that named a card does not name another once it is
        # programmed (it goes on to a Symbiosis or to ready) unless the position changed.
        choice = bot.act(_before_programming(view))
        if (
            choice is not None
            and choice["type"] == "program"
            and choice["card"] != view["programmed"]
            and not (view["programmed"] and bot.my_show(view) == view["programmed"])
        ):  # a programmed card the seat showed stays: partners count on it
            action = _legal(choice, legal)
    if action is None:
        action = _legal(bot.act(view), legal)
    if action is None:
        return None
    reason, reason_fr = explain(view, action)
    return {"action": action, "reason": reason, "reason_fr": reason_fr}


def _may_program(view: View) -> bool:
    """The seat may still choose its program: the programming step, nothing awaited of
    it, cards in hand or programmed, not ready."""
    me = view["players"][view["seat"]]
    return (
        view["phase"] == "programming"
        and awaiting_me(view) is None
        and bool(my_cards(view))
        and not me["ready"]
    )


def _before_programming(view: View) -> View:
    """``view`` with its programmed card back in the hand and the hand in one order
    (sorted): the same whether, and which card, the seat has programmed."""
    seat = view["seat"]
    players = [dict(p) for p in view["players"]]
    players[seat].update(has_programmed=False)
    return {**view, "hand": sorted(my_cards(view)), "programmed": None, "players": players}


def _legal(action: Action | None, legal: list[Action]) -> Action | None:
    """``action`` as the legal action it names; a seat whose bot would wait gets
    ``ready`` when it may say it; otherwise ``None``."""
    if action is not None:
        for option in legal:
            if all(option.get(k) == v for k, v in action.items() if v is not None):
                return dict(option)
    ready = {"type": "ready"}
    return ready if ready in legal else None


# ---------------------------------------------------------------- sentences
def card_name(card: str) -> tuple[str, str]:
    """A card's name in English and French, as the card faces say it (a Condition by its
    colour and letter, "Geological Condition [G]": its number is printed nowhere)."""
    if not CATALOGUE.has_card(card):
        return card, card
    info = CATALOGUE.card(card)
    if info.type == "condition":
        assert info.colour is not None  # every Condition has one
        en, fr = COLOUR_WORDS[info.colour]
        letter = COLOUR_LETTERS[info.colour]
        return f"{en.capitalize()} Condition [{letter}]", f"Condition {fr} [{letter}]"
    if info.type == "species":
        return info.name_fr or card, info.name_fr or card
    return SPECIALS.get(info.type, (card, card))


def the_fr(card: str) -> str:
    """A card's French name with its article: "la Condition hydrique [H]", "le Hérisson"."""
    return the(card, card_name(card)[1])


def _species(slot: str) -> str:
    return slot.split(":", 1)[0]


def _layout(view: View) -> dict[str, Any]:
    layouts: dict[str, Any] = CATALOGUE.raw["layouts"]
    return dict(layouts.get(view.get("layout") or "numbered", {}))


def _open_places(view: View, colour: str | None) -> list[str]:
    """The Species with an empty Condition slot of ``colour`` (any colour: None) open
    now (a plant's from the start, an animal's once its parents are installed)."""
    web = view["web"]
    found = []
    for species, spot in _layout(view).items():
        if any(web.get(p) is None for p in spot["parents"]):
            continue
        for i, slot_colour in enumerate(spot["conditions"], start=1):
            slot = f"{species}:{i}"
            if slot in web and web[slot] is None and colour in (None, slot_colour):
                found.append(species)
                break
    return found


def _installable(view: View, species: str) -> bool:
    web = view["web"]
    spot = _layout(view).get(species)
    if spot is None or species not in web or web[species] is not None:
        return False
    filled = all(web.get(f"{species}:{i}") for i in range(1, len(spot["conditions"]) + 1))
    return filled and all(web.get(p) for p in spot["parents"])


def _earlier_can_fill(view: View) -> bool:
    """Whether a partner revealing before this seat this turn still holds cards."""
    n = len(view["players"])
    order = [(view["first_player"] + i) % n for i in range(n)]
    revealed = {r["seat"] for r in view.get("revealed_this_turn", [])}
    before = order[: order.index(view["seat"])]
    players = view["players"]
    return any(
        s not in revealed and (players[s]["hand_size"] or players[s]["has_programmed"])
        for s in before
    )


def _name(view: View, seat: int, fr: bool = False) -> str:
    name = view["players"][seat].get("name")
    if name:
        return str(name)
    return f"la place {seat + 1}" if fr else f"seat {seat + 1}"


def explain(view: View, action: Action) -> tuple[str, str]:
    """One sentence why ``action`` is the expert's choice on ``view`` (English, French)."""
    kind = action["type"]
    if kind == "program":
        return _explain_program(view, action["card"])
    if kind == "reveal":
        card = view.get("programmed") or (view.get("revealing") or {}).get("card") or ""
        en = card_name(card)[0] if card else "your card"
        fr = the_fr(card) if card else "votre carte"
        slot = action.get("slot")
        if slot is None:
            return (
                f"No place helps the team more than keeping the web's places for later: "
                f"{en} goes to the discard.",
                f"Mieux vaut garder les places du réseau pour plus tard : {fr} va à la défausse.",
            )
        place = card_name(_species(slot))[0]
        return (
            f"Put {en} in {place}: of the places open to it, that one keeps the most "
            "Species within reach.",
            f"Posez {fr} sur {the(_species(slot))} : des places qui lui sont "
            "ouvertes, c'est celle qui garde le plus d'Espèces à portée.",
        )
    if kind == "give_back":
        en, fr = card_name(action["card"])[0], the_fr(action["card"])
        giver = (view.get("pending_give") or {}).get("from")
        who = _name(view, giver) if giver is not None else "your partner"
        qui = _name(view, giver, fr=True) if giver is not None else "votre partenaire"
        return (
            f"Give back {en}: of your cards, it is the one {who} can best use.",
            f"Rendez {fr} : de vos cartes, c'est celle dont {qui} tirera le meilleur parti.",
        )
    if kind == "choose_side":
        en_side, fr_side = (
            ("plants", "végétaux")
            if action["side"] == "plant"
            else (
                "animals",
                "animaux",
            )
        )
        return (
            f"Take the {en_side}: your hand holds more of them, and partners balance the rest.",
            f"Prenez les {fr_side} : votre main en compte davantage, et vos partenaires "
            "équilibrent le reste.",
        )
    if kind == "ready":
        return (
            "Your program is the expert's choice: say you are ready so the reveal can begin.",
            "Votre programme est le bon choix : dites que vous êtes prêt pour que la "
            "révélation commence.",
        )
    if kind == "show":
        en, fr = card_name(action["card"])[0], the_fr(action["card"])
        return (
            f"Show {en}, your program: partners who reveal after you then program knowing it.",
            f"Montrez {fr}, votre programme : les partenaires qui révèlent après vous "
            "programment en le sachant.",
        )
    if kind == "give":
        en, fr = card_name(action["card"])[0], the_fr(action["card"])
        it = "le" if gender(action["card"]) == "m" else "la"
        to = action.get("to")
        who = _name(view, to) if to is not None else "a partner"
        qui = _name(view, to, fr=True) if to is not None else "un partenaire"
        return (
            f"Give {en} to {who}: you cannot place it now, and what comes back should serve "
            "the web better.",
            f"Donnez {fr} à {qui} : vous ne pouvez pas {it} poser maintenant, et la carte rendue "
            "servira mieux le réseau.",
        )
    if kind == "swap_discard":
        take: str = action.get("take", "")
        give: str = action["give"] if "give" in action else action.get("card", "")
        take_en, take_fr = card_name(take)[0], the_fr(take)
        give_en, give_fr = card_name(give)[0], the_fr(give)
        return (
            f"Swap {give_en} for {take_en} from the discard: {take_en} still has a use.",
            f"Échangez {give_fr} contre {take_fr} de la défausse : {take_fr} sert encore.",
        )
    if kind == "end_game":
        return (
            "No line can win this game any more: ending it now saves you the rest.",
            "Plus aucune façon de jouer ne peut gagner cette partie : y mettre fin vous "
            "épargne le reste.",
        )
    return (
        "This is the expert's choice on what your seat can see.",
        "C'est le choix de l'expert d'après ce que vous voyez.",
    )


def _explain_program(view: View, card: str) -> tuple[str, str]:
    en, fr = card_name(card)[0], capital(the_fr(card))
    feminine = gender(card) == "f"
    info = CATALOGUE.card(card) if CATALOGUE.has_card(card) else None
    kind = info.type if info else ""
    first = not _earlier_can_fill(view)
    if kind == "species" and _installable(view, card):
        return (
            f"{en} can be installed now: its Conditions and the Species before it are in place.",
            f"{fr} peut être {'installée' if feminine else 'installé'} maintenant : ses "
            f"Conditions et les Espèces avant {'elle' if feminine else 'lui'} sont en place.",
        )
    if kind in ("condition", "joker"):
        colour = info.colour if info and kind == "condition" else None
        places = _open_places(view, colour)
        if places:
            place, place_fr = card_name(places[0])[0], the(places[0])
            if first:
                return (
                    f"{en} has an open place in {place} and no one before you can fill it.",
                    f"{fr} a une place libre sur {place_fr} et personne avant vous ne peut la "
                    "remplir.",
                )
            return (
                f"{en} has an open place in {place}, and the partners before you are not "
                "likely to fill it first.",
                f"{fr} a une place libre sur {place_fr}, et les partenaires avant vous ne "
                "devraient pas la remplir d'abord.",
            )
    if kind in ("cat", "pollution", "reintroduction"):
        return (
            f"Play {en} now: this is the turn where it costs the team least.",
            f"Jouez {the_fr(card)} maintenant : c'est le tour où {'elle' if feminine else 'il'} "
            "coûte le moins à l'équipe.",
        )
    return (
        f"{en} has no better use than now: your other cards are worth more to the web later.",
        f"{fr} ne servira pas mieux plus tard : vos autres cartes vaudront davantage au "
        "réseau ensuite.",
    )
