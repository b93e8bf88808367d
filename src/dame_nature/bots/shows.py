"""The show chain (``SHOW_CHAIN``: who shows its program each turn), the reveal order of a
turn as a view gives it, and when a bot shows its program outside the chain."""

from __future__ import annotations

from .base import View

#: how many revealers, from the first, show their programmed card each turn (the first
#: player with its free Symbiosis, the next ones with a Symbiosis card), by player count
SHOW_CHAIN = {4: 1, 5: 3, 6: 4}
#: the first revealer who spent its free Symbiosis on a discard swap or a Give still
#: shows its program, with a Symbiosis card, when at most this many discards are left
LATE_SHOW_DISCARDS = 1


def chain_length(n: int, modes: tuple[str, ...]) -> int:
    """How many revealers head each turn with their program shown (``SHOW_CHAIN``): none
    when no Symbiosis shows a card (Incomplete Symbioses), the first player alone under
    Privileged Symbioses (to the next revealer only: ``shown_to_all``)."""
    if "incomplete_symbioses" in modes:
        return 0
    if "privileged_symbioses" in modes:
        return 1
    return SHOW_CHAIN.get(n, 1)


def shown_to_all(modes: tuple[str, ...]) -> bool:
    """Whether a program shown in the chain is seen by every player (else by the next
    revealer only: Privileged Symbioses)."""
    return "privileged_symbioses" not in modes


def reveal_order(view: View) -> list[int]:
    """This turn's reveal order, as the view gives it."""
    return list(view["reveal_order"])


def earlier_settled(view: View, seat: int) -> bool:
    """Whether every seat revealing before ``seat`` this turn has programmed and is ready."""
    order = reveal_order(view)
    players = view["players"]
    earlier = order[: order.index(seat)] if seat in order else []
    return all(players[s]["has_programmed"] and players[s]["ready"] for s in earlier)


def handed_over(view: View, seat: int) -> str | None:
    """The aquatic Species (the Wetland) ``seat``, first in the reveal order, gave the
    next revealer this turn (``conventions.aquatic_give``), if it did."""
    order = reveal_order(view)
    if len(order) < 2 or order[0] != seat:
        return None
    for event in view.get("log", []):
        if (
            event.get("type") == "give"
            and event.get("turn") == view["turn"]
            and event.get("seat") == seat
            and event.get("to") == order[1]
            and event.get("card") in AQUATIC_SPECIES
        ):
            return str(event["card"])
    return None


#: the Wetland's aquatic Species
AQUATIC_SPECIES = frozenset(("species-charagne", "species-gardon"))


def late_show(view: View, seat: int, shown: str | None) -> bool:
    """Whether ``seat`` (which showed ``shown`` this turn, or nothing) should show its
    program now although its free Symbiosis went to a discard swap or a Give: it reveals
    first, holds a Symbiosis card, and at most ``LATE_SHOW_DISCARDS`` discards are left,
    or it handed an aquatic Species over to the next revealer (``handed_over``: the
    Wetland), who then knows the blue lead is just before it. The show chain then still
    heads the turn: a partner left to guess its card may collide with it, and with no
    discard to spare that loses the game."""
    order = reveal_order(view)
    return bool(
        order
        and order[0] == seat
        and shown is None
        and view["phase"] == "programming"
        and view["programmed"] is not None
        and "show" in view["symbiosis_kinds"]
        and not view.get("show_names_one_player")
        and not view.get("free_symbiosis_available")
        and view["players"][seat]["symbiosis_cards"] > 0
        and (
            view["max_discards"] - len(view["discard"]) <= LATE_SHOW_DISCARDS
            or handed_over(view, seat) is not None
        )
    )
