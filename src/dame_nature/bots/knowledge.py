"""What an expert knows at a decision: its memory of the views it was handed, and the
deals of the other hands consistent with it.

``Reader`` keeps, between calls, what the views showed (Specials played, who showed what,
what partners' reveals say about their hands, which partners follow the show chain) and
builds a ``Knowledge`` from each view: the public position, its own cards, the cards
others showed or gave it, and the cards no one has shown it. ``Knowledge.sample`` deals
those to the other players at random, honouring what is believed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..engine.cards import CATALOGUE
from .base import Bot, View, my_cards
from .partners import Partners
from .policy import best_outcome
from .simulator import INFO, Rules, Sim, get_rules


@dataclass
class Knowledge:
    """What the bot knows at one decision, read off the view and its memory."""

    rules: Rules
    seat: int
    base: Sim  # the public position; hands: mine full, others only their known cards
    sizes: list[int]  # cards each seat holds (hand and programmed)
    unseen: list[str]  # cards no one has shown to this seat, in other hands
    pool_unseen: list[tuple[list[str], int]]  # (candidates, how many of them are held)
    programs: dict[int, str]  # other seats' programs known for sure (shown this turn)
    not_held: dict[int, set[str]]  # unseen cards a seat very probably does not hold
    short: tuple[int, ...] = ()  # seats that can place at most one card now (they gave)

    def order(self) -> list[int]:
        """This turn's reveal order: from the first player, the seats holding cards (by
        ``sizes``: ``base`` knows only some of the others' cards)."""
        n = self.rules.n
        first = self.base.first
        return [(first + i) % n for i in range(n) if self.sizes[(first + i) % n]]

    def sample(self, rng: random.Random) -> Sim:
        """A deal of the other hands consistent with everything known (``deal``); when
        some seats are known to be short of playable cards, a deal where they are (within
        a few tries)."""
        sim = self.deal(rng)
        for _ in range(SHORT_TRIES if self.short else 0):
            if all(len(playable_now(sim, seat)) <= 1 for seat in self.short):
                break
            sim = self.deal(rng)
        return sim

    def deal(self, rng: random.Random) -> Sim:
        """A full deal of the other hands, consistent with everything known: each card a
        seat is believed not to hold goes first to one of the other seats, chosen in
        proportion to the cards they still miss."""
        cards = list(self.unseen)
        for candidates, count in self.pool_unseen:
            cards += rng.sample(candidates, count)
        rng.shuffle(cards)
        sim = self.base.copy()
        missing = {
            s: self.sizes[s] - len(sim.hands[s])
            for s in range(self.rules.n)
            if s != self.seat and self.sizes[s] > len(sim.hands[s])
        }
        if self.not_held:
            free = []
            for card in cards:
                seats = [s for s in missing if missing[s] and card not in self.not_held.get(s, ())]
                if len(seats) == sum(1 for s in missing if missing[s]):
                    free.append(card)  # no seat left to deal to is believed not to hold it
                    continue
                if not seats:
                    free.append(card)  # every seat left is: the belief gives way
                    continue
                seat = rng.choices(seats, weights=[missing[s] for s in seats])[0]
                sim.hands[seat].append(card)
                missing[seat] -= 1
            cards = free
        i = 0
        for s, count in missing.items():
            if count > 0:
                sim.hands[s] += cards[i : i + count]
                i += count
        return sim


#: deals tried to find one where the seats known to be short of playable cards are
SHORT_TRIES = 30


def playable_now(sim: Sim, seat: int) -> set[str]:
    """``seat``'s cards that could go into the web now, first in the turn."""
    return {c for c in sim.hands[seat] if not best_outcome(sim, seat, c, None)[1].discard}


class Reader(Bot):
    """A bot that remembers what its views showed and reads a ``Knowledge`` off them."""

    def __init__(self, seat: int, *, seed: int | None = None) -> None:
        super().__init__(seat, seed=seed)
        self.seen_reveals: set[tuple[Any, ...]] = set()  # (turn, type, seat, card, to)
        self.played_specials: set[str] = set()
        self.after_reintro = False
        self.shows: dict[int, dict[int, str]] = {}  # turn -> seat -> the card it showed
        # inference: the Species installable at the start of each turn, those installed
        # so far in it, and the Species each partner very probably does not hold
        self.installable_at_start: dict[int, set[str]] = {}
        self.installed_in_turn: dict[int, set[str]] = {}
        self.not_holding: dict[int, set[str]] = {}
        # partners seen revealing another card than the one they showed that turn (a
        # person, or another program): their shows are information, not their programs
        self.untrusted: set[int] = set()
        self.partners = Partners(seat)  # who breaks the conventions (``partners.py``)

    def _remember(self, view: View) -> None:
        """Fold what the view shows into the bot's memory (each reveal once): Specials
        played, shows, and what partners' reveals say about their hands."""
        turn = view["turn"]
        if (
            view["phase"] == "programming"
            and not view.get("revealed_this_turn")
            and turn not in self.installable_at_start
        ):
            self.installable_at_start[turn] = _installable(view)
        records = []
        for event in view.get("log", []):
            kind = event.get("type")
            if kind == "revealed":
                records.append((event["turn"], event))
            elif kind == "show":
                if event.get("card"):
                    self.shows.setdefault(event["turn"], {})[event["seat"]] = event["card"]
                records.append((event["turn"], event))
            elif kind in ("give", "give_back", "swap_discard"):
                records.append((event["turn"], event))
        for record in view.get("last_turn", []):
            records.append((turn - 1, {**record, "type": "revealed"}))
        for record in view.get("revealed_this_turn", []):
            records.append((turn, {**record, "type": "revealed"}))
        for event_turn, record in records:
            key = (event_turn, record["type"], record["seat"], record.get("card"), record.get("to"))
            if key in self.seen_reveals:
                continue
            self.seen_reveals.add(key)
            self.partners.note_event(view, event_turn, record)
            if record["type"] == "show":
                continue
            if record["type"] != "revealed":
                self._exchanged(record)
                continue
            self._infer(view, event_turn, record)
            shown = self.shows.get(event_turn, {}).get(record["seat"])
            if shown is not None and shown != record["card"]:
                self.untrusted.add(record["seat"])
            info = INFO.get(record["card"])
            if info is None:
                continue
            if info.type == "reintroduction":
                self.played_specials.add(record["card"])
                self.after_reintro = True
            elif info.type == "pollution" and record.get("reason") is None:
                self.played_specials.add(record["card"])
            elif info.type == "species" and info.kind == "animal":
                self.after_reintro = False
        self.partners.note_view(view)

    def _infer(self, view: View, turn: int, record: dict[str, Any]) -> None:
        """A partner who revealed a Condition while a Species was installable from the
        start of the turn (and still uninstalled) very probably does not hold it: bots
        nearly always play an installable Species first."""
        installed = self.installed_in_turn.setdefault(turn, set())
        seat, card = record["seat"], record["card"]
        info = INFO.get(card)
        if info is None:
            return
        if info.type == "species" and record.get("result") == "placed":
            installed.add(card)
        if seat == self.seat or info.type == "species" or turn not in self.installable_at_start:
            return
        modes = set(view["modes"])
        if modes & _UNREADABLE:
            return
        side = view["players"][seat].get("side")
        for species in self.installable_at_start[turn] - installed:
            if side is None or INFO[species].kind == side:
                self.not_holding.setdefault(seat, set()).add(species)

    def _exchanged(self, event: dict[str, Any]) -> None:
        """Cards changed hands: what was believed of those hands may no longer hold."""
        for seat in (event["seat"], event.get("to")):
            if seat is not None:
                self.not_holding.pop(seat, None)

    def knowledge(self, view: View) -> Knowledge:
        n = len(view["players"])
        rules = get_rules(n, tuple(view["modes"]))
        me = self.seat
        hands: list[list[str]] = [[] for _ in range(n)]
        hands[me] = my_cards(view)
        sizes = [p["hand_size"] + (1 if p["has_programmed"] else 0) for p in view["players"]]
        sizes[me] = len(hands[me])
        for entry in view.get("known", []):
            owner, card = entry["seat"], entry["card"]
            if owner != me and card not in hands[owner] and len(hands[owner]) < sizes[owner]:
                hands[owner].append(card)
        sim = Sim.at_table(view, hands)
        discard = view["discard"]
        sim.cats_out = sum(1 for c in discard if c.startswith("cat-"))
        in_play = [(e["seat"], e["card"]) for e in view.get("in_play", [])]
        sim.in_play = in_play
        if rules.reintro:
            sim.specials_played = len(self.played_specials)
            sim.after_reintro = self.after_reintro
            sim.plants_start = all(view["web"].get(p) for p in rules.plants)
        sim.turn_records = [
            [r["card"], r["colour"], r["result"] == "placed", r["slot"]]
            for r in view.get("revealed_this_turn", [])
        ]
        # the unseen cards: the deck less everything this seat can place
        seen: set[str] = set(discard)
        seen.update(c for c in view["web"].values() if c)
        seen.update(c for h in hands for c in h)
        seen.update(c for _, c in in_play)
        seen.update(self.played_specials)
        unseen = [c for c in rules.fixed_deck if c not in seen]
        pool_unseen = []
        for pool, count in rules.pools:  # Cats, Pollutions/Reintroductions drawn at random
            left = count - sum(1 for c in pool if c in seen)
            candidates = [c for c in pool if c not in seen]
            pool_unseen.append((candidates, max(0, min(left, len(candidates)))))
        missing = sum(sizes[s] - len(hands[s]) for s in range(n) if s != me)
        total = len(unseen) + sum(k for _, k in pool_unseen)
        if total != missing:  # memory incomplete (a bot seated mid-game): stay consistent
            unseen, pool_unseen = _fit(unseen, pool_unseen, missing)
        programs = self._shown_programs(view)
        unseen_set = set(unseen)
        not_held = {
            seat: species & unseen_set
            for seat, species in self.not_holding.items()
            if seat != me and species & unseen_set
        }
        return Knowledge(rules, me, sim, sizes, unseen, pool_unseen, programs, not_held)

    def my_show(self, view: View) -> str | None:
        """The card this bot showed this turn, if it showed one."""
        return self.shows.get(view["turn"], {}).get(self.seat)

    def _shown_programs(self, view: View) -> dict[int, str]:
        """Cards partners showed this turn while their card was programmed: by the bots'
        convention, each is that partner's program (unless that partner was seen to
        reveal another card than the one it showed)."""
        if view["phase"] != "programming":
            return {}
        known = {(e["seat"], e["card"]) for e in view.get("known", [])}
        players = view["players"]
        return {
            seat: card
            for seat, card in self.shows.get(view["turn"], {}).items()
            if seat != self.seat
            and seat not in self.untrusted
            and self.partners.follows_chain(seat)
            and players[seat]["has_programmed"]
            and (seat, card) in known
        }


#: rules under which a bot may hold an installable Species and rightly not play it
_UNREADABLE = {"invasive_species", "first_predator", "wetland"}


def _installable(view: View) -> set[str]:
    """The Species that could be installed on the view's web right now."""
    sim = Sim.at_table(view)
    return {species for species in sim.rules.parents if sim.can_install(species)}


def _fit(
    unseen: list[str], pools: list[tuple[list[str], int]], missing: int
) -> tuple[list[str], list[tuple[list[str], int]]]:
    """Trim or pad the unseen cards to the number of cards the others hold."""
    total = len(unseen) + sum(k for _, k in pools)
    if total > missing:
        unseen = unseen[: max(0, len(unseen) - (total - missing))]
        total = len(unseen) + sum(k for _, k in pools)
        while total > missing and pools:
            cands, k = pools[-1]
            cut = min(k, total - missing)
            pools = pools[:-1] + [(cands, k - cut)]
            total -= cut
            if k - cut == 0:
                break
    elif total < missing:
        extra = [c for c in CATALOGUE.cards if c.startswith("cond-")][: missing - total]
        unseen = unseen + extra
    return unseen, pools
