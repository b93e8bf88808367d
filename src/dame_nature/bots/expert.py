"""The ``expert`` level: plays to win from its own view, by information-set sampling.

How it decides (every decision, ``programming`` and reveal choices alike):

1. **What it knows** (``knowledge.Knowledge``): the web, the discard pile, its own cards, the
   cards others showed or gave it (the view's ``known``), the Cats in play, and from the
   log it has seen (its own memory, kept between calls: ``knowledge.Reader``) which
   Pollution and Reintroduction cards were played and whether a Reintroduction still
   waits for its animal. Everything else of the deck is *unseen*.
2. **Sampling** (``Knowledge.sample``): the unseen cards are dealt at random to the other
   players, each getting as many as it holds, known cards kept with their owners
   (``worlds`` deals per decision, from the bot's own seeded generator). What partners'
   reveals said is honoured: a Species a partner passed when it could have installed it
   goes to another hand, and a partner who gave a card is dealt a hand short of playable
   cards (bots give only then).
3. **Partners' programs**: in each sampled deal, every other player programs what the
   shared base policy (``policy.program_choice``) picks from its sampled hand, seeing the
   web at the start of the turn and the programs shown this turn (the show chain, below),
   as every bot does; a card a partner showed this turn is its program for sure, unless
   that partner was once seen revealing another card than the one it showed (a person,
   who need not follow the chain: its shows are then only cards it holds).
4. **Evaluation**: each candidate action (a card to program, a place for the revealed
   card, a card to give back, a Symbiosis) is applied in every deal, the turn is revealed
   in seat order, and the game is played out to its end by the greedy policy with every
   hand open (``policy.rollout``). The candidate with the best mean result (a win counts
   far more than the cards placed) is played. All candidates meet the same deals. In the
   last turns, only the candidates that keep the game won on the most deals (``endgame``).

Symbioses (the first player's free one each turn, and Symbiosis cards at 4 to 6 players):

- a **discard swap** when the sampled deals say it pays (a lost Species back, a playable
  card for a dead one);
- a **Give** when at most ``GIVE_WHEN_PLAYABLE`` of the bot's cards can go into the web
  now, or when it holds a card only a partner can ever place (a Species of the other
  side under Species-specific biodiversity, never programmed to be thrown away): a card
  it cannot place, to the partner whose expected give-back (``give_back_guess``) does
  the most;
- otherwise the **show chain**: the first ``SHOW_CHAIN`` revealers of the turn show the
  card they programmed (to the next revealer only under Privileged Symbioses), each once
  the revealers before it are ready, and keep it, so later players choose knowing them.

The bot never sees a ``State``: it plays its sampled positions forward on the bots'
simulator (``simulator.Sim``, every rule asked of the engine's rule modules), built from
the view and its samples.
"""

from __future__ import annotations

from typing import Any

from .base import Action, View, awaiting_me, may_exchange, my_cards
from .conventions import (
    SPECIAL_TYPES,
    give_back_options,
    hold_species,
    lead_places,
    misread_give,
    relays,
    rule_candidates,
    rule_symbiosis,
)
from .endgame import GIVE_SHARE_MARGIN, Endgame, Exchange, exact_exchanges
from .knowledge import Knowledge, Reader, playable_now
from .policy import (
    best_outcome,
    card_key,
    distinct_cards,
    is_safe,
    program_choice,
    rollout_value,
    side_quota,
)
from .shows import SHOW_CHAIN, handed_over, late_show, shown_to_all
from .shows import earlier_settled as _earlier_settled
from .shows import reveal_order as _reveal_order
from .simulator import INFO, Outcome, Sim

#: sampled deals per decision with few candidates (the budget: decision time grows with it)
DEFAULT_WORLDS = 40
#: the rollouts one decision may play (sampled deals times candidates): a decision with
#: many candidates (6 or more programs, a Give: cards times partners) meets fewer deals,
#: at least ``MIN_WORLDS``, so that no decision takes far longer than the others
ROLLOUT_BUDGET = 240
MIN_WORLDS = 8
#: the search changes the base policy's card only when it gains this much a deal
DEVIATION = 0.0
#: the Symbiosis cards a bot keeps for discard swaps rather than spend on showing
SHOW_RESERVE = {4: 0, 5: 1, 6: 1}
#: a bot looks for a Give when at most this many of its cards can go into the web now
GIVE_WHEN_PLAYABLE = 1
#: what a Give must gain a deal, on average, to spend a Symbiosis card on it
GIVE_MARGIN = 1.0
#: what a discard swap must gain a deal, on average, to spend a Symbiosis card on it
SWAP_MARGIN = 2.0


class ExpertBot(Reader):
    level = "expert"

    def __init__(self, seat: int, *, seed: int | None = None, worlds: int = DEFAULT_WORLDS) -> None:
        super().__init__(seat, seed=seed)
        self.worlds = worlds
        self.endgame = Endgame(seed, worlds)  # the last turns' searches
        self.decided: dict[str, Any] = {}  # turn -> the information it programmed with

    # ------------------------------------------------------------ decisions
    def decide(self, view: View) -> Action | None:
        self._remember(view)
        if not view["winnable"]:
            return {"type": "end_game"}
        awaiting = awaiting_me(view)
        if awaiting is not None:
            return self._answer(view, awaiting)
        if view["phase"] != "programming" or not my_cards(view):
            return None
        me = view["players"][self.seat]
        signature = self._signature(view)
        shown = self.my_show(view)
        committed = shown is not None and shown == view["programmed"]  # partners count on it
        if view["programmed"] is None or (
            self.decided.get("signature") != signature and not committed
        ):
            self.decided = {"signature": signature}
            know = self.knowledge(view)
            card = self._choose_program(view, know)
            if card != view["programmed"]:
                return {"type": "program", "card": card}
        if me["ready"]:
            return None
        position = self._chain_position(view)
        if shown is None and position and not _earlier_settled(view, self.seat):
            return None  # past first in the chain: I show after the revealers before me settle
        if not self.decided.get("symbiosis_considered") and may_exchange(view):
            self.decided["symbiosis_considered"] = True
            action = self._symbiosis(view)
            if action is not None:
                return action
        if "show" in view.get("legal_types", ()) and late_show(view, self.seat, shown):
            return {"type": "show", "card": view["programmed"]}
        return {"type": "ready"}

    def _signature(self, view: View) -> Any:
        """What the program depends on: a new turn, new cards, new knowledge."""
        return (
            view["turn"],
            tuple(sorted(my_cards(view))),
            tuple(sorted((e["seat"], e["card"]) for e in view.get("known", []))),
            len(view["discard"]),
        )

    def _choose_program(self, view: View, know: Knowledge) -> str:
        hand = my_cards(view)
        candidates = list(dict.fromkeys(hand, None))
        keys: dict[str, str] = {}
        for c in candidates:
            keys.setdefault(card_key(c, know.rules), c)
        distinct = list(keys.values())
        cats_back = sum(1 for r in view.get("last_turn", []) if r["card"].startswith("cat-"))
        unshown = view["first_player"] == self.seat and not view["free_symbiosis_available"]
        if (cats_back >= 2 or unshown) and any(not c.startswith("cat-") for c in distinct):
            # Cats came back last turn (they could for ever), or mine would go unshown
            distinct = [c for c in distinct if not c.startswith("cat-")]
        # a Species only another side can place is given, never thrown away
        distinct = [c for c in distinct if not _foreign(know.base, self.seat, c)] or distinct
        distinct = rule_candidates(view, self.seat, know, distinct)  # the rules' conventions
        distinct = self.endgame.programs(know, distinct)  # in the last turns
        blueprint, safe = self._blueprint(know, distinct)
        if safe:
            distinct = safe
        if len(distinct) == 1:
            return _keep(view, distinct[0])
        if self.worlds == 0:
            return _keep(view, blueprint)
        show = self._chain_position(view) is not None or late_show(view, self.seat, None)
        shows = {c: show or relays(view, self.seat, know, c) for c in distinct}
        scores = self._evaluate(
            know,
            [(c, lambda sim, c=c: self._play_turn(sim, know, c, shows[c])) for c in distinct],
        )
        best = max(distinct, key=lambda c: scores[c])
        blue_key = keys[card_key(blueprint, know.rules)]
        if blue_key in scores and scores[best] - scores[blue_key] <= DEVIATION:
            best = blueprint
        return _keep(view, best)

    def _blueprint(self, know: Knowledge, cards: list[str]) -> tuple[str, list[str]]:
        """What the shared base policy programs for this seat (what partners expect),
        and which of ``cards`` are safe (``policy.is_safe``), after the programs partners
        showed at the head of the reveal order."""
        sim = know.base.copy()
        sim.start_turn()
        order = know.order()
        me = self.seat
        while order and order[0] != me and order[0] in know.programs:
            _reveal(sim, order[0], know.programs[order[0]])
            order = order[1:]
        position = order.index(me) if me in order else 0
        prev = sim.turn_records[-1] if position == 0 and sim.turn_records else None
        safe = [c for c in cards if is_safe(sim, me, c, prev, position)]
        safe = hold_species(know, sim, prev, position, safe)  # Associated Conditions
        return program_choice(sim, me, prev, position), safe

    def _evaluate(self, know: Knowledge, candidates: list[tuple[Any, Any]]) -> dict[Any, float]:
        """Mean rollout value of each candidate over the same sampled deals (``worlds``
        of them, fewer when the candidates are many: ``ROLLOUT_BUDGET``)."""
        totals: dict[Any, float] = {key: 0.0 for key, _ in candidates}
        worlds = min(self.worlds, max(MIN_WORLDS, ROLLOUT_BUDGET // max(1, len(candidates))))
        for _ in range(worlds):
            world = know.sample(self.rng)
            for key, play in candidates:
                sim = world.copy()
                value = play(sim)
                totals[key] += value
        return {key: total / max(1, worlds) for key, total in totals.items()}

    def _play_turn(self, sim: Sim, know: Knowledge, card: str, show: bool) -> float:
        """Program ``card`` (shown to partners when ``show``), partners their base-policy
        choice after the programs shown, reveal, play out."""
        sim.start_turn()
        order = sim.order()
        public = dict(know.programs)
        if show:
            public[self.seat] = card
        fixed = {**self.partners.own_ways(sim), **know.programs, self.seat: card}
        to_all = shown_to_all(sim.rules.modes)
        programs = predict_programs(sim, order, public, fixed, to_all=to_all)
        return rollout_value(sim, programs, mid_turn_order=order)

    # reveal choices, give-backs, sides --------------------------------
    def _answer(self, view: View, awaiting: dict[str, Any]) -> Action:
        options: list[Action] = awaiting["options"]
        kind = awaiting["kind"]
        if len(options) == 1:
            return dict(options[0])
        if kind == "choose_side":
            return {"type": "choose_side", "side": self._side(view)}
        know = self.knowledge(view)
        if kind == "reveal":
            card = view["programmed"]
            outcomes = [Outcome.of_option(card, option) for option in options]
            rest = _remaining_order(know.base, view, self.seat)
            read = lead_places(view, self.seat, know, card, outcomes, self.my_show(view))
            places = self.endgame.places(know, card, outcomes, rest)  # in the last turns
            places = [i for i in places if i in read] or read
            if len(places) == 1:
                return dict(options[places[0]])
            finish = self._finish_reveal
            cands = [(i, lambda sim, o=outcomes[i]: finish(sim, view, card, o)) for i in places]
            scores = self._evaluate(know, cands)
            return dict(options[max(scores, key=lambda i: scores[i])])
        if kind == "give_back":
            giver = view["pending_give"]["from"] if view.get("pending_give") else None
            if giver is not None:  # bots give when short of cards they can place
                know.short = (giver,)
            options = give_back_options(view, self.seat, know, options)
            if self.my_show(view) == view["programmed"]:
                # partners count on the program I showed: give back another card
                kept = [o for o in options if o.get("card") != view["programmed"]]
                options = kept or options
                if len(options) == 1:
                    return dict(options[0])
            cands = []
            for i, option in enumerate(options):
                cands.append(
                    (i, lambda sim, c=option["card"]: self._after_give_back(sim, giver, c))
                )
            if giver is not None:  # in the last turns, the give-backs that keep it won
                backs = [_back_exchange(self.seat, giver, o["card"]) for o in options]
                shares = self.endgame.exchanges(know, backs)
                if shares is not None:
                    cands = [c for c in cands if shares[c[0]] >= max(shares)]
                    if len(cands) == 1:
                        return dict(options[cands[0][0]])
            scores = self._evaluate(know, cands)
            return dict(options[max(scores, key=lambda i: scores[i])])
        return dict(options[0])

    def _finish_reveal(self, sim: Sim, view: View, card: str, outcome: Outcome) -> float:
        """Resolve my revealed card as ``outcome``, the rest of the turn as predicted."""
        sim.resolve(self.seat, card, outcome)
        rest = _remaining_order(sim, view, self.seat)
        programs = {s: program_choice(sim, s) for s in rest if sim.hands[s]}
        return rollout_value(sim, programs, mid_turn_order=rest)

    def _after_give_back(self, sim: Sim, giver: int | None, card: str) -> float:
        if giver is not None and card in sim.hands[self.seat]:
            sim.hands[self.seat].remove(card)
            sim.hands[giver].append(card)
        programs = {}
        for s in range(sim.rules.n):
            if sim.hands[s]:
                programs[s] = program_choice(sim, s)
        sim.start_turn()
        return rollout_value(sim, programs)

    def _side(self, view: View) -> str:
        """The side with more of my Species, within the shares (``side_quota``)."""
        hand = my_cards(view)
        plants = sum(1 for c in hand if INFO[c].type == "species" and INFO[c].kind == "plant")
        animals = sum(1 for c in hand if INFO[c].type == "species" and INFO[c].kind == "animal")
        chosen = [p.get("side") for p in view["players"]]
        n = len(chosen)
        room = {kind: side_quota(n, kind) - chosen.count(kind) for kind in ("plant", "animal")}
        if room["plant"] <= 0 or room["animal"] <= 0:
            return "animal" if room["plant"] <= 0 else "plant"
        if plants != animals:
            return "plant" if plants > animals else "animal"
        return "plant" if room["plant"] >= room["animal"] else "animal"

    # symbioses ----------------------------------------------------------
    def _symbiosis(self, view: View) -> Action | None:
        free = view["first_player"] == self.seat and view.get("free_symbiosis_available")
        cat = (view["programmed"] or "").startswith("cat-")  # shown, no other exchange
        kinds = ["show"] if cat else view["symbiosis_kinds"]
        if self.my_show(view) is not None:
            return None  # I showed my program: partners count on it, no more exchanges
        rule_move = rule_symbiosis(view, self.seat, self.knowledge(view))
        if rule_move is not None:
            return rule_move
        if handed_over(view, self.seat) is not None and late_show(view, self.seat, None):
            return None  # the Wetland's hand-over made: the lead's show comes next
        swap = self._best_swap(view, free=bool(free)) if "swap_discard" in kinds else None
        if swap is not None:
            return swap
        give = self._best_give(view, free=bool(free)) if "give" in kinds else None
        if give is not None:
            return give
        if view["programmed"] is not None and self._chain_position(view) is not None:
            action: Action = {"type": "show", "card": view["programmed"]}
            if view.get("show_names_one_player"):
                order = _reveal_order(view)
                after = order[order.index(self.seat) + 1 :]
                action["to"] = (
                    after[0]
                    if after
                    else next(s for s in range(len(view["players"])) if s != self.seat)
                )
            return action
        return None

    def _chain_position(self, view: View) -> int | None:
        """My place in this turn's reveal order if I am one of the revealers who show
        their program (the show chain: the first player with its free Symbiosis, the next
        ``SHOW_CHAIN - 1`` with a Symbiosis card, each keeping ``SHOW_RESERVE`` cards for
        discard swaps), else ``None``."""
        if "show" not in view["symbiosis_kinds"] or view["phase"] != "programming":
            return None
        order = _reveal_order(view)
        if self.seat not in order:
            return None
        position = order.index(self.seat)
        if position == 0:
            return 0 if view.get("free_symbiosis_available") else None
        n = len(view["players"])
        if view.get("show_names_one_player") or position >= SHOW_CHAIN.get(n, 1):
            return None
        if view["players"][self.seat]["symbiosis_cards"] <= SHOW_RESERVE.get(n, 0):
            return None
        return position

    def _best_swap(self, view: View, *, free: bool) -> Action | None:
        """A discard swap worth a Symbiosis: judged on the same sampled deals (in the
        last turns of the base game, by the exact search first: ``_exact_exchanges``)."""
        mine = [c for c in my_cards(view) if INFO[c].is_condition_like]
        blocked = self.played_specials | {c for c in view["discard"] if c.startswith("cat-")}
        takeable = [c for c in dict.fromkeys(view["discard"]) if c not in blocked and c not in mine]
        if not mine or not takeable:
            return None
        know = self.knowledge(view)
        rules = know.rules
        gives = list({card_key(c, rules): c for c in mine}.values())
        takes = list({card_key(c, rules): c for c in takeable}.values())
        cands: list[tuple[Any, Any]] = [(None, lambda sim: self._plain(sim, know))]
        for g in gives:
            for t in takes:
                if card_key(g, rules) == card_key(t, rules):
                    continue
                cands.append(((g, t), lambda sim, g=g, t=t: self._swapped(sim, know, g, t)))
        if len(cands) > 16:
            cands = cands[:16]
        me = self.seat
        exchanges = [_swap_exchange(me, *key) if key else _kept for key, _ in cands]
        decided, cands = self._exact_exchanges(know, cands, exchanges)
        if decided is not None:
            g, t = decided
            return {"type": "swap_discard", "card": g, "take": t}
        if len(cands) == 1:
            return None
        scores = self._evaluate(know, cands)
        best = max(scores, key=lambda k: scores[k])
        margin = 0.0 if free else SWAP_MARGIN  # a Symbiosis card is worth keeping
        if best is None or scores[best] <= scores[None] + margin:
            return None
        g, t = best
        return {"type": "swap_discard", "card": g, "take": t}

    def _best_give(self, view: View, *, free: bool) -> Action | None:
        """When at most ``GIVE_WHEN_PLAYABLE`` of my cards can go into the web now, or I
        hold a card only a partner can ever place (``_foreign``), a Give of a card I cannot
        place, for the card the partner would give back (``give_back_guess``), judged on
        the same sampled deals as keeping my hand. In the last turns of the base game,
        first any card of mine to any partner, judged by the exact search
        (``_exact_exchanges``)."""
        know = self.knowledge(view)
        rules = know.rules
        partners = [
            p["seat"]
            for p in view["players"]
            if p["seat"] != self.seat and (p["hand_size"] or p["has_programmed"])
        ]
        allowed: set[Any] | None = None  # the Gives the exact search keeps, in the last turns
        if self.endgame.worlds and exact_exchanges(know):
            mine = list({card_key(c, rules): c for c in my_cards(view)}.values())
            pairs = [
                (g, t)
                for g in mine
                for t in partners
                if not misread_give(view, self.seat, know, g, t)  # the Wetland's hand-over
            ]
            every: list[tuple[Any, Any]] = [(None, None)] + [(pair, None) for pair in pairs]
            exchanges = [_kept] + [_give_exchange(self.seat, g, t) for g, t in pairs]
            decided, kept = self._exact_exchanges(know, every, exchanges)
            if decided is not None:
                g, t = decided
                return {"type": "give", "card": g, "to": t}
            allowed = {key for key, _ in kept}
        now = know.base.copy()
        now.start_turn()
        placeable = playable_now(now, self.seat)  # the model holds my whole hand
        foreign = [c for c in my_cards(view) if _foreign(now, self.seat, c)]
        if len(placeable) > GIVE_WHEN_PLAYABLE and not foreign:
            return None
        if foreign:
            free = True  # a card I can never place: worth a Symbiosis card
        unplaceable = [c for c in view["hand"] if c not in placeable]
        gives = list({card_key(c, rules): c for c in foreign + unplaceable}.values())
        cands: list[tuple[Any, Any]] = [(None, lambda sim: self._plain(sim, know))]
        for g in gives:
            for t in partners:
                if misread_give(view, self.seat, know, g, t):
                    continue  # it would read as the Wetland's hand-over
                if allowed is None or (g, t) in allowed:
                    cands.append(((g, t), lambda sim, g=g, t=t: self._given(sim, know, g, t)))
        if len(cands) == 1:
            return None
        scores = self._evaluate(know, cands)
        best = max(scores, key=lambda k: scores[k])
        margin = 0.0 if free else GIVE_MARGIN
        if best is None or scores[best] <= scores[None] + margin:
            return None
        g, t = best
        return {"type": "give", "card": g, "to": t}

    def _exact_exchanges(
        self, know: Knowledge, cands: list[tuple[Any, Any]], exchanges: list[Exchange]
    ) -> tuple[Any, list[tuple[Any, Any]]]:
        """In the last turns (``endgame.applies``), exchanges judged by the exact search
        (``endgame.exchange_shares``): ``cands`` (keeping the hand first, key ``None``)
        and ``exchanges`` (the same, on a sampled deal). The exchange to make when one
        keeps the game won on ``GIVE_SHARE_MARGIN`` more of the deals than keeping the
        hand (the first of the best), else ``None``; and the candidates that keep it won
        on as many deals as keeping the hand, for the rollouts to choose among."""
        shares = self.endgame.exchanges(know, exchanges)
        if shares is None:
            return None, cands
        top = max(shares)
        if top > shares[0] + GIVE_SHARE_MARGIN:
            return cands[shares.index(top)][0], []
        return None, [c for c, share in zip(cands, shares, strict=True) if share >= shares[0]]

    def _given(self, sim: Sim, know: Knowledge, give: str, to: int) -> float:
        sim.hands[self.seat].remove(give)
        sim.hands[to].append(give)
        back = self.partners.give_back(sim, to, self.seat, give_back_guess)
        sim.hands[to].remove(back)
        sim.hands[self.seat].append(back)
        return self._plain(sim, know)

    def _plain(self, sim: Sim, know: Knowledge) -> float:
        programs = {}
        for s in range(know.rules.n):
            if sim.hands[s]:
                programs[s] = know.programs.get(s) or program_choice(sim, s)
        sim.start_turn()
        return rollout_value(sim, programs)

    def _swapped(self, sim: Sim, know: Knowledge, give: str, take: str) -> float:
        sim.hands[self.seat].remove(give)
        sim.hands[self.seat].append(take)
        return self._plain(sim, know)


def _kept(sim: Sim) -> list[Sim]:
    """No exchange: the hands as they are."""
    return [sim]


def _swap_exchange(seat: int, give: str, take: str) -> Exchange:
    """``seat`` swaps ``give`` for ``take`` of the discard pile."""

    def hands(sim: Sim) -> list[Sim]:
        after = sim.copy()
        after.hands[seat].remove(give)
        after.hands[seat].append(take)
        return [after]

    return hands


def _give_exchange(seat: int, give: str, to: int) -> Exchange:
    """``seat`` gives ``give`` to ``to``, who gives back one of its other cards (each a
    position): under Species Reintroductions no Special card while it has another
    (``conventions.keep_specials``)."""

    def hands(sim: Sim) -> list[Sim]:
        out = []
        backs = distinct_cards(sim, to)
        if sim.rules.reintro:
            backs = [c for c in backs if INFO[c].type not in SPECIAL_TYPES] or backs
        for back in backs:
            after = sim.copy()
            after.hands[seat].remove(give)
            after.hands[to].remove(back)
            after.hands[seat].append(back)
            after.hands[to].append(give)
            out.append(after)
        return out

    return hands


def _back_exchange(seat: int, giver: int, back: str) -> Exchange:
    """``seat``, given a card by ``giver``, gives ``back`` back."""

    def hands(sim: Sim) -> list[Sim]:
        after = sim.copy()
        if back in after.hands[seat]:
            after.hands[seat].remove(back)
            after.hands[giver].append(back)
        return [after]

    return hands


def _foreign(sim: Sim, seat: int, card: str) -> bool:
    """A card ``seat`` can never place but a partner can: a Species of the other side
    under Species-specific biodiversity."""
    info = INFO[card]
    side = sim.sides[seat]
    return bool(
        sim.rules.sides
        and info.is_species
        and side is not None
        and info.kind != side
        and sim.web.get(card, "") is None
        and any(s == info.kind for s in sim.sides)
    )


def give_back_guess(sim: Sim, seat: int, giver: int) -> str:
    """What ``seat`` gives back to ``giver`` (a guess, for the giver's search): the card
    the giver can best place now, other than the card ``seat`` itself would play."""
    own = program_choice(sim, seat)
    best: tuple[float, str] | None = None
    for card in distinct_cards(sim, seat):
        score = best_outcome(sim, giver, card, None)[0] - (200.0 if card == own else 0.0)
        if best is None or score > best[0]:
            best = (score, card)
    assert best is not None
    return best[1]


def predict_programs(
    sim: Sim,
    order: list[int],
    public: dict[int, str],
    fixed: dict[int, str],
    *,
    to_all: bool = True,
) -> dict[int, str]:
    """Every seat's program this turn (``sim`` at its start, ``order`` the reveal order):
    the ``fixed`` ones as given, the others by the shared base policy. Partners see the
    ``public`` programs that head the reveal order (shown this turn) revealed on the web,
    and treat every other seat before them as unknown. Unless ``to_all`` (Privileged
    Symbioses: a show reaches the next revealer only), only the first seat after them
    saw them; the later ones see the web as the turn began."""
    head = sim.copy()
    k = 0
    while k < len(order) and order[k] in public:
        _reveal(head, order[k], public[order[k]])
        k += 1
    programs = dict(fixed)
    for i, seat in enumerate(order[k:]):
        if seat in programs:
            continue
        if to_all or i == 0:
            prev = head.turn_records[-1] if i == 0 and head.turn_records else None
            programs[seat] = program_choice(head, seat, prev, i)
        else:
            programs[seat] = program_choice(sim, seat, None, k + i)
    return programs


def _reveal(sim: Sim, seat: int, card: str) -> None:
    if card not in sim.hands[seat]:  # a shown card the model had not placed in that hand
        sim.hands[seat].append(card)
    prev = sim.turn_records[-1] if sim.turn_records else None
    _, outcome = best_outcome(sim, seat, card, prev)
    sim.resolve(seat, card, outcome)


def _remaining_order(sim: Sim, view: View, seat: int) -> list[int]:
    """The seats still to reveal this turn after ``seat``."""
    n = sim.rules.n
    first = view["first_player"]
    order = [(first + i) % n for i in range(n)]
    revealed = {r["seat"] for r in view.get("revealed_this_turn", [])} | {seat}
    return [s for s in order if s not in revealed and view["players"][s]["has_programmed"]]


def _keep(view: View, card: str) -> str:
    prog = view["programmed"]
    if prog is not None and card_key(prog) == card_key(card):
        return prog
    return card
