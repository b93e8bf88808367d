"""Write the golden replays: ``python tests/engine/golden/regenerate.py [--replay]``.

Each file holds a whole game (setup and every action) and what replaying it must give:
the final result, the final full state and every seat's final view. Regenerate only when
a rules change is meant to change these games, and say so in the commit.

``--replay`` keeps each stored game (its setup and actions) and records again only what
replaying it gives: use it when a change is meant to alter the results, not the games.
Without it, the games are played again (and change if the players' choices do).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from dame_nature.engine import CATALOGUE, COLOURS, MODES, Game, State

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parents[2]))  # run as a script: ``tests`` from the checkout
from dame_nature.bots.random_play import play_random_game  # noqa: E402


def _is_placeable(state: State, card_id: str) -> bool:
    card, topo = CATALOGUE.card(card_id), state.game.topology
    if card.is_species:
        return topo.has_species(card_id) and topo.can_install(state.web, card_id)
    if card.is_joker:
        return any(topo.open_condition_slots(state.web, colour) for colour in COLOURS)
    if card.is_condition:
        return bool(topo.open_condition_slots(state.web, card.colour))
    return True


def play_greedy_game(state: State) -> State:
    """Every player programs a card that fits the web now (a Species first) and places
    revealed cards in the first legal slot: a simple, deterministic, winning-ish line."""
    n = state.num_players
    while not state.is_over:
        if state.phase == "programming":
            for seat in range(n):
                if state.has_cards(seat) and state.programmed[seat] is None:
                    good = sorted(
                        (c for c in state.hands[seat] if _is_placeable(state, c)),
                        key=lambda c: not CATALOGUE.card(c).is_species,
                    )
                    state.apply(seat, {"type": "program", "card": (good or state.hands[seat])[0]})
            for seat in range(n):
                if state.phase == "programming" and state.has_cards(seat) and not state.ready[seat]:
                    state.apply(seat, {"type": "ready"})
        else:
            seat, kind = state.awaited()
            options = state.legal_actions_by_type(seat)[kind]
            placed = [o for o in options if o.get("slot")]
            state.apply(seat, (placed or options)[0])
    return state


GAMES = {
    "won_4p_climate_change": (4, ["climate_change"], 715, "greedy"),
    "base_5p": (5, [], 1, "random"),
    "all_rules_6p": (6, list(MODES), 2, "random"),
    "path4_3p": (3, ["invasive_species", "incomplete_symbioses", "first_predator"], 3, "random"),
    "path1_4p": (4, ["associated_conditions", "dependent_conditions", "wetland"], 4, "random"),
}


def record(name: str) -> dict:
    players, modes, seed, style = GAMES[name]
    state = Game(players, modes).new_initial_state(seed=seed)
    if style == "greedy":
        play_greedy_game(state)
    else:
        play_random_game(state, random.Random(seed))
    return {
        "name": name,
        "setup": state.setup,
        "actions": list(state.history),
        "result": state.result,
        "final_state": state.to_json(),
        "final_views": {str(seat): state.view(seat) for seat in [None, *range(players)]},
    }


def rerecord(name: str) -> dict:
    """The stored game ``name`` replayed by the current engine."""
    stored = json.loads((HERE / f"{name}.json").read_text("utf-8"))
    state = State.replay(stored["setup"], stored["actions"])
    players = state.num_players
    return {
        "name": name,
        "setup": state.setup,
        "actions": list(state.history),
        "result": state.result,
        "final_state": state.to_json(),
        "final_views": {str(seat): state.view(seat) for seat in [None, *range(players)]},
    }


def main() -> None:
    replay = "--replay" in sys.argv[1:]
    for name in GAMES:
        game = rerecord(name) if replay else record(name)
        path = HERE / f"{name}.json"
        path.write_text(json.dumps(game, indent=1, ensure_ascii=False) + "\n", "utf-8")
        print(f"{path.name}: {game['result']} in {len(game['actions'])} actions")


if __name__ == "__main__":
    main()
