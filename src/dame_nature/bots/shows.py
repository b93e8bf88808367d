"""The reveal order of a turn as a view gives it, and when a bot shows its program
outside the show chain (``expert.SHOW_CHAIN``)."""

from __future__ import annotations

from .base import View

#: the first revealer who spent its free Symbiosis on a discard swap or a Give still
#: shows its program, with a Symbiosis card, when at most this many discards are left
LATE_SHOW_DISCARDS = 1


def reveal_order(view: View) -> list[int]:
    """This turn's reveal order, as the view gives it."""
    return list(view["reveal_order"])


def earlier_settled(view: View, seat: int) -> bool:
    """Whether every seat revealing before ``seat`` this turn has programmed and is ready."""
    order = reveal_order(view)
    players = view["players"]
    earlier = order[: order.index(seat)] if seat in order else []
    return all(players[s]["has_programmed"] and players[s]["ready"] for s in earlier)


def late_show(view: View, seat: int, shown: str | None) -> bool:
    """Whether ``seat`` (which showed ``shown`` this turn, or nothing) should show its
    program now although its free Symbiosis went to a discard swap or a Give: it reveals
    first, holds a Symbiosis card, and at most ``LATE_SHOW_DISCARDS`` discards are left.
    The show chain then still heads the turn: a partner left to guess its card may
    collide with it, and with no discard to spare that loses the game."""
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
        and view["max_discards"] - len(view["discard"]) <= LATE_SHOW_DISCARDS
    )
