"""Building explicit deals and driving scripted turns for the engine's scenario tests.

A scenario is written as the cards revealed each turn, in reveal order (from that turn's
first player on). ``deal_for_turns`` turns it into an explicit deal: each seat gets the
cards it plays, in order, and the rest of the deck fills the hands to the sizes the rules
give. ``play_turn`` programs every card, says ready for everyone and answers the reveal
choices the script names; it fails loudly when the engine asks a question the script did
not expect (or does not ask one it did), so automatic placement is checked on the way.

A turn entry is a card id (resolved by the engine alone) or ``(card, choice)`` where
``choice`` holds the ``slot``/``colour``/``target`` of the ``reveal`` action to send.
"""

from __future__ import annotations

from typing import Any

import pytest

from dame_nature.engine import Game, IllegalAction, State

Entry = str | tuple[str, dict[str, Any]]


def card_of(entry: Entry) -> str:
    return entry if isinstance(entry, str) else entry[0]


def reveal_order(n: int, first_player: int) -> list[int]:
    return [(first_player + i) % n for i in range(n)]


def deck_cards(game: Game, wanted: list[str]) -> list[str]:
    """The whole deck of ``game``, taking from each random pool the ``wanted`` cards first."""
    cards = list(game.fixed_cards)
    for draw in game.config.draws:
        chosen = [c for c in draw.pool if c in wanted]
        chosen += [c for c in draw.pool if c not in chosen][: draw.count - len(chosen)]
        assert len(chosen) == draw.count, f"too many cards of {draw.pool} wanted"
        cards += chosen
    return cards


def deal_for(
    game: Game, plays: dict[int, list[str]], first_player: int = 0, tail: bool = False
) -> dict[str, Any]:
    """An explicit deal where seat ``s`` holds ``plays[s]`` (in that order) and filler cards
    from the rest of the deck complete every hand. With ``tail`` the filler goes first."""
    wanted = [c for cards in plays.values() for c in cards]
    assert len(set(wanted)) == len(wanted), "a card is played twice in the script"
    deck = deck_cards(game, wanted)
    missing = [c for c in wanted if c not in deck]
    assert not missing, f"not in this deck: {missing}"
    filler = [c for c in deck if c not in wanted]
    sizes = game.hand_sizes(first_player)
    hands = []
    for seat, size in enumerate(sizes):
        own = list(plays.get(seat, []))
        assert len(own) <= size, f"seat {seat} holds only {size} cards"
        extra, filler = filler[: size - len(own)], filler[size - len(own) :]
        hands.append(extra + own if tail else own + extra)
    return {"hands": hands, "first_player": first_player}


def plays_for_turns(
    n: int, turns: list[list[Entry]], first_player: int = 0
) -> dict[int, list[str]]:
    """Which cards each seat plays, turn after turn, for a script of ``turns``."""
    plays: dict[int, list[str]] = {s: [] for s in range(n)}
    for t, turn in enumerate(turns):
        for seat, entry in zip(reveal_order(n, (first_player + t) % n), turn, strict=False):
            plays[seat].append(card_of(entry))
    return plays


def deal_for_turns(game: Game, turns: list[list[Entry]], first_player: int = 0) -> dict[str, Any]:
    return deal_for(game, plays_for_turns(game.num_players, turns, first_player), first_player)


def new_state(
    n: int,
    modes: list[str] | tuple[str, ...] = (),
    turns: list[list[Entry]] = (),  # type: ignore[assignment]
    first_player: int = 0,
    plays: dict[int, list[str]] | None = None,
) -> State:
    """A new state on an explicit deal built for ``turns`` (or ``plays``)."""
    game = Game(n, list(modes))
    if plays is None:
        plays = plays_for_turns(n, list(turns), first_player)
    return game.new_initial_state(deal=deal_for(game, plays, first_player))


def program_all(state: State, entries: list[Entry]) -> None:
    """Every seat with cards programs its card of ``entries`` (reveal order) — no ready."""
    seats = [s for s in reveal_order(state.num_players, state.first_player) if state.has_cards(s)]
    assert len(entries) == len(seats), (
        f"turn {state.turn}: {len(seats)} seats play, not {len(entries)}"
    )
    for seat, entry in zip(seats, entries, strict=True):
        state.apply(seat, {"type": "program", "card": card_of(entry)})


def ready_all(state: State) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for seat in range(state.num_players):
        if state.phase == "programming" and state.has_cards(seat) and not state.ready[seat]:
            events += state.apply(seat, {"type": "ready"})
    return events


def answer_reveals(
    state: State, choices: dict[int, dict[str, Any]], strict: bool = True
) -> list[dict[str, Any]]:
    """Answer the reveal choices of ``choices`` (seat -> reveal fields) until the turn ends.

    ``strict``: a choice the engine did not ask for fails the test; otherwise the engine's
    own placement must agree with it."""
    events: list[dict[str, Any]] = []
    used: set[int] = set()
    while state.phase == "reveal":
        awaited = state.awaited()
        assert awaited is not None and awaited[1] == "reveal"
        seat = awaited[0]
        options = [a for a in state.legal_actions(seat) if a["type"] == "reveal"]
        assert_all_accepted(state, seat, options)
        if seat not in choices:
            raise AssertionError(
                f"turn {state.turn}: seat {seat} must choose for {state.programmed[seat]}: "
                f"{options}"
            )
        action = {"type": "reveal", "slot": None, "colour": None, "target": None, **choices[seat]}
        events += state.apply(seat, action)
        used.add(seat)
    unused = set(choices) - used
    if strict:
        assert not unused, f"the engine decided alone for seats {sorted(unused)}"
    records = state.revealed_this_turn or state.last_turn
    for record in records:
        if record["seat"] in unused and "slot" in choices[record["seat"]]:
            assert record["slot"] == choices[record["seat"]]["slot"], record
    return events


def play_turn(state: State, entries: list[Entry], strict: bool = True) -> list[dict[str, Any]]:
    """Program, ready and reveal one scripted turn; the events it caused."""
    turn_seats = [
        s for s in reveal_order(state.num_players, state.first_player) if state.has_cards(s)
    ]
    program_all(state, entries)
    choices = {
        seat: entry[1]
        for seat, entry in zip(turn_seats, entries, strict=True)
        if not isinstance(entry, str)
    }
    events = ready_all(state)
    return events + answer_reveals(state, choices, strict)


def play_turns(state: State, turns: list[list[Entry]], strict: bool = True) -> None:
    for entries in turns:
        if state.is_over:
            return
        play_turn(state, entries, strict)


def scripted(
    n: int,
    modes: list[str] | tuple[str, ...],
    turns: list[list[Entry]],
    first_player: int = 0,
    play: int | None = None,
) -> State:
    """A state dealt for ``turns`` with its first ``play`` turns played (all by default)."""
    state = new_state(n, modes, turns, first_player)
    play_turns(state, turns[: len(turns) if play is None else play])
    return state


def reveal(slot: str | None = None, colour: str | None = None, target: str | None = None) -> dict:
    return {"type": "reveal", "slot": slot, "colour": colour, "target": target}


def assert_illegal(state: State, seat: int, action: Any, match: str = "") -> IllegalAction:
    """``action`` is refused with a sentence matching ``match``, and nothing changes."""
    before = state.to_json()
    assert not state.is_legal(seat, action)
    assert action not in state.legal_actions(seat) if isinstance(seat, int) else True
    with pytest.raises(IllegalAction, match=match) as info:
        state.apply(seat, action)
    assert isinstance(info.value, ValueError)
    assert info.value.message and info.value.message[-1] in ".!?"
    assert state.to_json() == before
    return info.value


def assert_all_accepted(state: State, seat: int, actions: list[dict[str, Any]]) -> None:
    for action in actions:
        clone = state.clone()
        clone.apply(seat, action)


def assert_legal_actions_accepted(state: State, limit: int = 60) -> None:
    """Every seat's ``legal_actions`` are accepted by ``apply`` (on clones; at most
    ``limit`` per seat, spread over the list, to keep the suite fast)."""
    for seat in range(state.num_players):
        actions = state.legal_actions(seat)
        step = max(1, len(actions) // limit)
        assert_all_accepted(state, seat, actions[::step])
        for action in actions:
            assert state.is_legal(seat, action), action


def reveals(state: State, turn: str = "this") -> list[tuple[int, str, str, str | None]]:
    """``(seat, card, result, slot)`` of the reveals of this (or the last) turn."""
    records = state.revealed_this_turn if turn == "this" else state.last_turn
    return [(r["seat"], r["card"], r["result"], r["slot"]) for r in records]


def known(state: State, seat: int | None) -> list[tuple[int, str]]:
    return [(k["seat"], k["card"]) for k in state.view(seat)["known"]]


def events_of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


# Twelve reveals (four turns of three players from seat 0) that install the four plants of
# the numbered web with symbol-free cards: Ortie, Aubépine, Chêne, Jonc.
PLANTS_3P: list[list[Entry]] = [
    [
        ("cond-blue-1", {"slot": "species-ortie:1"}),
        ("cond-yellow-1", {"slot": "species-ortie:2"}),
        "species-ortie",
    ],
    [
        "cond-yellow-2",
        ("cond-green-1", {"slot": "species-aubepine:2"}),
        "species-aubepine",
    ],
    [
        ("cond-green-2", {"slot": "species-chene:1"}),
        ("cond-violet-1", {"slot": "species-chene:2"}),
        "species-chene",
    ],
    [
        "cond-blue-2",
        ("joker-1", {"slot": "species-jonc:2", "colour": "green"}),
        "species-jonc",
    ],
]


def play_any_turn(state: State) -> None:
    """Every seat with cards programs its first card; each reveal choice takes the first
    option offered. For getting through turns whose details do not matter."""
    for seat in range(state.num_players):
        if state.hands[seat]:
            state.apply(seat, {"type": "program", "card": state.hands[seat][0]})
    ready_all(state)
    while state.phase == "reveal":
        seat, _ = state.awaited()
        state.apply(seat, state.view(seat)["awaiting"]["options"][0])


def visible_cards(state: State, seat: int | None) -> set[str]:
    """Every card id found in ``seat``'s view, except the web and the discard pile."""
    view = state.view(seat)
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str) and value.startswith(
            ("cond-", "joker-", "species-", "cat-", "wet-", "pollution-", "reintro")
        ):
            found.add(value)

    for key, value in view.items():
        if key not in ("web", "discard", "layout"):
            walk(value)
    return found


#: a 4-player deal for the Symbioses' tests
PLAYS4 = {
    0: ["cond-blue-1", "cond-green-1", "species-aigle-royal"],
    1: ["cond-yellow-1", "species-ortie", "joker-1"],
    2: ["cond-violet-1", "species-jonc"],
    3: ["cond-blue-2", "species-chene"],
}


def state4(modes: Any = ()) -> State:
    """Four players (one Symbiosis card each), seat 0 first."""
    return new_state(4, modes, plays=PLAYS4)


def last_turn(state: State) -> list[tuple[str, str, str | None, str | None]]:
    """The last turn's reveals as seat 0 sees them: ``(card, result, slot, reason)``."""
    return [(r["card"], r["result"], r["slot"], r["reason"]) for r in state.view(0)["last_turn"]]


def last_turn_reasons(state: State) -> list[tuple[str, str, str | None]]:
    """The last turn's reveals as seat 0 sees them: ``(card, result, reason)``."""
    return [(r["card"], r["result"], r["reason"]) for r in state.view(0)["last_turn"]]
