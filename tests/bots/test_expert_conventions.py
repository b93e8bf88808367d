"""The conventions expert bots share, so that partners can read each other: the show
chain, what a partner's reveal says about its hand, and Gives when a hand is stuck."""

from __future__ import annotations

from typing import Any

from dame_nature.bots.arena import play_game
from dame_nature.bots.conventions import dependent_lead
from dame_nature.bots.expert import ExpertBot, give_back_guess
from dame_nature.bots.policy import (
    best_outcome,
    greedy_move,
    program_choice,
    side_quota,
    value,
)
from dame_nature.bots.shows import SHOW_CHAIN
from dame_nature.bots.simulator import Sim, get_rules
from dame_nature.engine import Game

from .positions import EAGLE, full_web, position


def _turns(log: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    turns: dict[int, list[dict[str, Any]]] = {}
    for event in log:
        turns.setdefault(event["turn"], []).append(event)
    return turns


def test_the_show_chain_shows_programs_in_reveal_order_and_keeps_them() -> None:
    """At 6 players the first revealers show their programmed card, in reveal order, and
    reveal exactly the card they showed."""
    chains = 0
    for seed in range(2):
        state = Game(6).new_initial_state(seed=seed)
        play_game(state, [ExpertBot(s, seed=s, worlds=2) for s in range(6)])
        for turn, events in _turns(state.log).items():
            started = next((e for e in events if e["type"] == "reveal_started"), None)
            if started is None:
                continue
            order = started["order"]
            shows = [e for e in events if e["type"] == "show"]
            positions = [order.index(e["seat"]) for e in shows]
            assert positions == sorted(positions), (turn, positions)
            assert all(p < SHOW_CHAIN[6] for p in positions)
            revealed = {e["seat"]: e["card"] for e in events if e["type"] == "revealed"}
            for show in shows:
                assert revealed.get(show["seat"]) == show["card"], (turn, show)
            chains += len(shows) >= 2
    assert chains >= 4  # the chain is used, not only the first player's free show


def test_what_partners_reveal_says_which_species_they_do_not_hold() -> None:
    """A partner who reveals a Condition while a Species was installable from the start
    of the turn is believed not to hold it; the beliefs are almost always right (a bot
    may keep an installable Species for a later turn: the beliefs are a bet)."""
    right: set[tuple[int, int, int, str]] = set()
    wrong: set[tuple[int, int, int, str]] = set()
    for seed in range(3):
        state = Game(4).new_initial_state(seed=seed)
        bots = [ExpertBot(s, seed=s, worlds=2) for s in range(4)]
        while not state.is_over:
            for seat in sorted(state.current_players()):
                action = bots[seat].act(state.view(seat))
                # what the bot believed when it decided, against the hands then
                for other, species in bots[seat].not_holding.items():
                    held = set(state.cards_of(other))
                    for card in species:
                        (wrong if card in held else right).add((seed, seat, other, card))
                if action is not None:
                    state.apply(seat, action)
                    break
    assert len(right) >= 30
    assert len(wrong) <= 0.1 * (len(right) + len(wrong))


def test_cards_changing_hands_clear_what_was_believed_of_them() -> None:
    bot = ExpertBot(0, seed=1)
    bot.not_holding = {1: {"species-ortie"}, 2: {"species-jonc"}, 3: {"species-chene"}}
    bot._exchanged({"type": "give", "seat": 1, "to": 3})
    assert bot.not_holding == {2: {"species-jonc"}}


def test_a_partner_is_expected_to_give_back_a_card_the_giver_can_place() -> None:
    rules = get_rules(4, ())
    hands = [
        ["species-aigle-royal"],
        ["cond-blue-1", "cond-green-1", "species-herisson"],
        [],
        [],
    ]
    sim = Sim.empty(rules, 0, hands)
    sim.start_turn()
    own = program_choice(sim, 1)
    back = give_back_guess(sim, 1, 0)
    assert back != own
    assert not best_outcome(sim, 0, back, None)[1].discard


def test_the_first_player_leads_with_blue_to_open_the_wetland() -> None:
    """Under the Wetland the first player, whose program its free show makes known, leads
    with a blue Condition; the next revealer, who sees it, places in the aquatic web; the
    rollouts count an aquatic card above a card of the main web. Without the rule the
    same hand leads with its Species."""
    hands = [
        ["cond-blue-1", "species-aubepine", "cond-yellow-1"],
        ["cond-green-1", "cond-violet-1"],
        ["cond-yellow-2"],
        ["cond-yellow-3"],
    ]
    sim = Sim.empty(get_rules(4, ("wetland",)), 0, [list(h) for h in hands])
    sim.web["species-aubepine:1"] = "cond-yellow-4"
    sim.web["species-aubepine:2"] = "cond-green-4"
    sim.start_turn()
    assert program_choice(sim, 0) == "cond-blue-1"
    assert greedy_move(sim, 0, None)[0] == "cond-blue-1"  # the next revealer can follow
    lead = best_outcome(sim, 0, "cond-blue-1", None)[1]
    sim.resolve(0, "cond-blue-1", lead)
    card, outcome = greedy_move(sim, 1, sim.turn_records[-1])
    assert outcome.slot in sim.rules.aquatic, (card, outcome)
    before = value(sim)
    sim.resolve(1, card, outcome)
    assert value(sim) == before + 3  # one card more, in the aquatic web

    plain = Sim.empty(get_rules(4, ()), 0, [list(h) for h in hands])
    plain.web["species-aubepine:1"] = "cond-yellow-4"
    plain.web["species-aubepine:2"] = "cond-green-4"
    plain.start_turn()
    assert program_choice(plain, 0) == "species-aubepine"


def test_stuck_experts_give_cards_to_partners() -> None:
    gives = 0
    for seed in range(4):
        state = Game(4).new_initial_state(seed=seed)
        play_game(state, [ExpertBot(s, seed=s, worlds=4) for s in range(4)])
        gives += sum(1 for e in state.log if e["type"] == "give")
    assert gives >= 1


def test_sides_follow_the_shares_of_the_species() -> None:
    """Under Species-specific biodiversity experts choose sides by the Species in hand,
    within the shares of the Species (4 plants, 6 animals): no kind is ever left without
    a player who can place it, even when every hand holds more animals."""
    for players in (3, 4, 5, 6):
        for seed in range(6):
            state = Game(players, ("species_biodiversity",)).new_initial_state(seed=seed)
            bots = [ExpertBot(s, seed=s, worlds=0) for s in range(players)]
            while state.phase == "choosing_sides":
                seat, kind = state.awaited()
                state.apply(seat, bots[seat].act(state.view(seat)))
            sides = list(state.sides)
            assert sides.count("plant") == side_quota(players, "plant"), (players, seed)
            assert sides.count("animal") == side_quota(players, "animal"), (players, seed)


def test_dependent_conditions_the_first_player_leads_with_a_species() -> None:
    """Dependent Conditions: the first player, its free Symbiosis still unspent, holds the
    Campagnol (which goes into the web) and a violet Condition; the Golden Eagle's blue
    place is open and the next revealer may hold the dependent blue Condition. The
    convention leads with the Campagnol; with that Condition in the discard pile, it
    asks no lead."""
    modes = ("dependent_conditions",)
    game = Game(4, modes)
    vole = "species-campagnol"
    web = full_web(game, {EAGLE, f"{EAGLE}:1", f"{EAGLE}:2", vole})
    slot = next(s for s, c in web.items() if c == "cond-blue-4")  # the dependent one
    web[slot] = "cond-blue-5"
    violet = next(
        c for c in game.fixed_cards if c not in web.values() and c.startswith("cond-violet")
    )
    for hand_1, discard in ((["cond-blue-4", "joker-2"], []), (["joker-2"], ["cond-blue-4"])):
        hands = {0: [violet, vole], 1: hand_1, 2: [EAGLE, "joker-1"]}
        state = position(4, modes, web=web, hands=hands, discard=discard, first=0)
        view = state.view(0)
        know = ExpertBot(0, seed=0).knowledge(view)
        assert dependent_lead(view, 0, know, [violet, vole]) == ([vole] if not discard else [])


def test_species_reintroductions_the_first_player_hands_over_a_special_card() -> None:
    """Species Reintroductions: the first player, its free Symbiosis unspent, holds a
    Pollution and a Reintroduction. It programs a Condition, then gives the Pollution to
    the next player, who gives back another card: Special cards held together would
    come due together."""
    modes = ("species_reintroductions",)
    hands = {
        0: ["pollution-1", "reintroduction-1", "cond-blue-1", "species-chene"],
        1: ["cond-violet-1", "cond-green-1", "joker-1", "species-jonc"],
    }
    state = position(4, modes, web={}, hands=hands, first=0, turn=1)
    assert state.view(0)["free_symbiosis_available"]
    for seed in range(3):
        table, bot = state.clone(), ExpertBot(0, seed=seed)
        program = bot.act(table.view(0))
        assert program is not None and program["type"] == "program"
        table.apply(0, program)
        give = bot.act(table.view(0))
        assert give == {"type": "give", "card": "pollution-1", "to": 1}
        table.apply(0, give)
        back = ExpertBot(1, seed=seed).act(table.view(1))
        assert back is not None and back["type"] == "give_back"
        assert not back["card"].startswith(("pollution-", "reintroduction-"))
