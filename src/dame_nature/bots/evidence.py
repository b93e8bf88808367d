"""What partners' past programs say about their hands: sampled deals weighed by them.

Partners are bots of the same policy, so a partner's program is, most of the time, the
shared base policy's choice (``policy.program_choice``) from its hand at the start of that
turn (about 7 decisions in 10 among experts at 4 players; the search picks another card
the rest of the time). A sampled deal in which the partner's hand would have made the
base policy score another card above the one it revealed is less likely than one in
which it chose that card. ``Evidence.weight`` gives a sampled deal
``MISMATCH_WEIGHT`` to the power of the partners' programs of the last
``EVIDENCE_TURNS`` turns it does not explain; ``Knowledge.sample`` keeps a deal with
that probability (rejection sampling, at most ``EVIDENCE_TRIES`` deals, then the best
seen).

A partner's hand at the start of turn ``t`` is its sampled hand with the cards it
revealed since put back, so a partner who gave, got or swapped a card since then is not
read, nor one who does not follow the show chain (a person: ``partners.py``).

>>> from dame_nature.bots.simulator import get_rules, Sim
>>> rules = get_rules(4, ())
>>> start = Sim.empty(rules, first=0, hands=[[], [], [], []])
>>> now = Sim.empty(rules, first=1, hands=[[], ["cond-blue-2"], [], []])
>>> Evidence([Turn(start, [0, 1], {}, {1: "cond-blue-1"}, {1: ["cond-blue-1"]})]).weight(now)
1.0
>>> Evidence([Turn(start, [0, 1], {}, {1: "joker-1"}, {1: ["joker-1"]})]).weight(now)
0.3
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .policy import best_outcome, card_key, program_scores
from .simulator import Rules, Sim

#: the weight of a sampled deal per partner program it does not explain
MISMATCH_WEIGHT = 0.3
#: the past turns whose programs are read
EVIDENCE_TURNS = 2
#: deals drawn at most to keep one (then the one of highest weight)
EVIDENCE_TRIES = 12


@dataclass
class Turn:
    """One past turn as the bot saw it: the table at its start (``start``, no hands),
    its reveal order, the programs shown at its head, each seat's revealed card, and for
    each partner read (``since``) the cards it revealed from that turn on."""

    start: Sim
    order: list[int]
    shown: dict[int, str]
    revealed: dict[int, str]
    since: dict[int, list[str]]


@dataclass
class Evidence:
    """The past turns a sampled deal is weighed against."""

    turns: list[Turn] = field(default_factory=list)

    def weight(self, sim: Sim) -> float:
        """``MISMATCH_WEIGHT`` to the power of the partners' programs of ``turns`` the
        base policy does not choose from their hands in ``sim`` (a sampled deal now, the
        cards revealed since put back)."""
        weight = 1.0
        rules = sim.rules
        for turn in self.turns:
            for seat, later in turn.since.items():
                if not _explained(turn, seat, sim.hands[seat] + later, rules):
                    weight *= MISMATCH_WEIGHT
        return weight


def _explained(turn: Turn, seat: int, hand: list[str], rules: Rules) -> bool:
    """Whether the base policy, with ``hand``, may have programmed what ``seat`` revealed
    in ``turn``: a card of best score (ties are many: which of them a bot plays, its
    search decides)."""
    scores = _scores(turn, seat, hand)
    revealed = card_key(turn.revealed[seat], rules)
    best = max(scores.values())
    return any(card_key(c, rules) == revealed and v >= best for c, v in scores.items())


def _scores(turn: Turn, seat: int, hand: list[str]) -> dict[str, float]:
    """What the base policy scores the cards of ``hand`` for ``seat`` at the start of
    ``turn``, the programs shown at the head of its reveal order before it revealed first
    (as ``expert.predict_programs``)."""
    head = turn.start.copy()
    head.hands[seat] = list(hand)
    order = turn.order
    position = order.index(seat)
    k = 0
    while k < position and order[k] in turn.shown:
        shower, card = order[k], turn.shown[order[k]]
        head.hands[shower].append(card)
        prev = head.turn_records[-1] if head.turn_records else None
        head.resolve(shower, card, best_outcome(head, shower, card, prev)[1])
        k += 1
    prev = head.turn_records[-1] if k == position and head.turn_records else None
    return program_scores(head, seat, prev, position - k)
