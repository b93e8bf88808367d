"""Reading partners who do not follow the bots' conventions (a person, another program).

The experts' conventions (``docs/bots.md``): the first player of a turn always spends its
free Symbiosis (it shows its program, or gives, or swaps); a partner who is given a card
gives back the card the giver can best place. A person knows neither. ``Partners`` keeps,
from the views a bot is handed, which partners were seen to break them:

- **off the chain**: a partner who was first player, revealed a card, and made no
  Symbiosis that turn (shows are allowed). Its shows are not taken as its program, and
  its program is predicted as a player who looks at its own hand and the web alone: it
  does not leave a colour to the players before it (``policy.program_choice`` with no
  unknown revealer before it);
- **no useful answer**: a partner who answered ``POOR_AFTER`` Gives of this bot, each
  with a card this bot could not place when it got it (or who is off the chain; an
  expert's answer may rightly be a card for later, so one is not enough): it gives back
  the card it can least place itself (what a player keeping its own good cards does),
  so a Give to it is weighed as such and seldom made.

Both are read only from what the views showed, and a seat never leaves either set.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .base import View
from .policy import best_outcome, distinct_cards, program_choice
from .simulator import Sim

GiveBack = Callable[[Sim, int, int], str]

#: a partner who answered this many of this bot's Gives or more, every time with a card
#: the bot could not place, is taken not to answer usefully
POOR_AFTER = 2


class Partners:
    """What this seat has seen of its partners' ways (see the module's docstring)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.off_chain: set[int] = set()
        self.poor_answer: set[int] = set()
        self._first: dict[int, int] = {}  # turn -> its first player
        self._exchanged: dict[int, set[int]] = {}  # turn -> seats that made a Symbiosis
        self._revealed: dict[int, set[int]] = {}  # turn -> seats that revealed a card
        self._judged: set[int] = set()  # turns already judged
        self._answers: dict[int, list[int]] = {}  # seat -> [my Gives answered, usefully]

    def note_view(self, view: View) -> None:
        """Remember the turn's first player; judge the turns that are over."""
        turn = view["turn"]
        self._first.setdefault(turn, view["first_player"])
        if "show" not in view.get("symbiosis_kinds", ()):
            return  # no show chain under this rule set
        for past in [t for t in self._first if t < turn and t not in self._judged]:
            self._judged.add(past)
            first = self._first[past]
            if (
                first != self.seat
                and first in self._revealed.get(past, ())
                and first not in self._exchanged.get(past, ())
            ):
                self.off_chain.add(first)

    def note_event(self, view: View, turn: int, event: dict[str, Any]) -> None:
        """Fold one logged event or reveal record (each seen once) into the memory."""
        kind = event.get("type")
        seat = event.get("seat")
        if seat is None:
            return
        if kind == "revealed":
            self._revealed.setdefault(turn, set()).add(seat)
        elif kind in ("show", "give", "swap_discard"):
            self._exchanged.setdefault(turn, set()).add(seat)
        elif kind == "give_back" and event.get("to") == self.seat and event.get("card"):
            answers = self._answers.setdefault(seat, [0, 0])
            answers[0] += 1
            answers[1] += _placeable(view, self.seat, event["card"])
            if answers[0] >= POOR_AFTER and not answers[1]:
                self.poor_answer.add(seat)

    def own_ways(self, sim: Sim) -> dict[int, str]:
        """The programs of the partners off the chain, ``sim`` at the turn's start: each
        plays what looks best on its own hand and the web (no unknown revealer before)."""
        return {s: program_choice(sim, s) for s in self.off_chain if sim.hands[s]}

    def give_back(self, sim: Sim, seat: int, giver: int, useful: GiveBack) -> str:
        """What ``seat`` is expected to give back to ``giver``: ``useful``'s guess (the
        bots' convention) unless ``seat`` was seen not to answer usefully."""
        if self.answers_usefully(seat):
            return useful(sim, seat, giver)
        return selfish_give_back(sim, seat)

    def follows_chain(self, seat: int) -> bool:
        return seat not in self.off_chain

    def answers_usefully(self, seat: int) -> bool:
        return seat not in self.poor_answer and seat not in self.off_chain


def _placeable(view: View, seat: int, card: str) -> bool:
    """Whether ``seat`` could place ``card`` on the view's web now, first in the turn."""
    hands: list[list[str]] = [[] for _ in view["players"]]
    hands[seat] = [card]
    sim = Sim.at_table(view, hands)
    sim.start_turn()
    return not best_outcome(sim, seat, card, None)[1].discard


def selfish_give_back(sim: Sim, seat: int) -> str:
    """What a partner who keeps its own good cards gives back: the card it can least
    place itself."""
    return min(distinct_cards(sim, seat), key=lambda c: best_outcome(sim, seat, c, None)[0])
