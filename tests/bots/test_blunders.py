"""Positions where a good player sees the move, and the expert must too: the blunders a
person notices and never forgives in a partner."""

from __future__ import annotations

from typing import Any

from dame_nature.bots.expert import ExpertBot
from dame_nature.bots.simulator import INFO
from dame_nature.engine import Game
from dame_nature.engine.state import State

from .positions import EAGLE, full_web, moves_of, position, program_of

EAGLE_SLOTS = {EAGLE, f"{EAGLE}:1", f"{EAGLE}:2"}
AQUATIC = ("species-charagne", "species-gardon")


def eagle_left(players: int) -> tuple[Game, dict[str, str], list[str]]:
    """A web complete but for the Golden Eagle's three slots, and the cards not in it."""
    game = Game(players)
    web = full_web(game, EAGLE_SLOTS)
    left = [c for c in game.fixed_cards if c not in web.values()]
    return game, web, left


def lead_shown(state: State, card: str) -> None:
    """The first player (seat 0) programs ``card``, shows it with its free Symbiosis and
    is ready."""
    state.apply(0, {"type": "program", "card": card})
    state.apply(0, {"type": "show", "card": card})
    state.apply(0, {"type": "ready"})


def check_handed_over(state: State, giver: int, card: str, taker: int) -> None:
    """On three seeds: ``giver`` gives ``card`` to ``taker`` (its Symbiosis card), who
    gives another card back, keeps ``card`` and programs it."""
    for seed in range(3):
        mine = state.clone()
        moves = moves_of(ExpertBot(giver, seed=seed), mine)
        assert {"type": "give", "card": card, "to": taker} in moves, moves
        answer = ExpertBot(taker, seed=seed).act(mine.view(taker))
        assert answer is not None and answer["type"] == "give_back", answer
        assert answer["card"] != card, answer
        mine.apply(taker, answer)
        assert program_of(ExpertBot(taker, seed=seed), mine) == card


def test_the_golden_eagle_waits_for_its_conditions() -> None:
    """First to reveal, with the Eagle's Conditions still to come from partners: the
    Eagle would be discarded (and the game lost); a Joker goes into one of its slots."""
    game, web, left = eagle_left(4)
    blue = next(c for c in left if c.startswith("cond-blue"))
    violet = next(c for c in left if c.startswith("cond-violet"))
    state = position(
        4,
        web=web,
        hands={0: [EAGLE, "joker-1"], 1: [blue], 2: [violet], 3: ["joker-2"]},
        first=0,
    )
    for seed in range(3):
        bot = ExpertBot(0, seed=seed)
        assert program_of(bot, state.clone()) == "joker-1"


def test_the_species_after_its_last_condition_shown_just_before() -> None:
    """The partner revealing just before showed the Eagle's last Condition as its
    program; no discard is left: the Eagle now is the win, any other card the loss."""
    game, web, left = eagle_left(5)
    violet = next(c for c in left if c.startswith("cond-violet"))
    web[f"{EAGLE}:1"] = next(c for c in left if c.startswith("cond-blue"))
    left = [c for c in left if c not in web.values() and c not in (violet, EAGLE)]
    spare, discard = left[0], left[1 : 1 + game.max_discards]
    others = left[1 + game.max_discards :]
    state = position(
        5,
        web=web,
        hands={0: [violet, *others[:1]], 1: [EAGLE, spare], 2: others[1:]},
        discard=discard,
        first=4,
        rest={3: 0, 4: 0},
    )
    state.apply(0, {"type": "program", "card": violet})
    state.apply(0, {"type": "show", "card": violet})  # a Symbiosis card: shown to all
    state.apply(0, {"type": "ready"})
    for seed in range(3):
        assert program_of(ExpertBot(1, seed=seed), state.clone()) == EAGLE


def test_a_card_only_another_side_can_place_is_given() -> None:
    """Species-specific biodiversity: a Plant player holding an installable animal it can
    never place gives it (its free Symbiosis) to an Animal player."""
    modes = ("species_biodiversity",)
    game = Game(4, modes)
    target = "species-martre"
    web = full_web(game, EAGLE_SLOTS | {target})
    left = [c for c in game.fixed_cards if c not in web.values() and c != target]
    state = position(
        4,
        modes,
        web=web,
        hands={0: [target, left[0]]},
        first=0,
        sides=["plant", "animal", "plant", "animal"],
    )
    for seed in range(3):
        moves = moves_of(ExpertBot(0, seed=seed), state.clone())
        gives = [m for m in moves if m["type"] == "give"]
        assert gives and gives[0]["card"] == target and gives[0]["to"] in (1, 3), moves


def martre_short_of_yellow() -> tuple[dict[str, Any], str, list[str], list[str]]:
    """A 4-player web full but for the Golden Eagle and the Marten, whose violet
    Condition is in and whose yellow one is not: the web, that yellow Condition, the
    Jokers (for the discard pile) and the other cards left."""
    game = Game(4)
    empty = EAGLE_SLOTS | {"species-martre", "species-martre:2"}
    web = full_web(game, empty)
    web["species-martre:1"] = next(
        c for c in game.fixed_cards if c.startswith("cond-violet") and c not in web.values()
    )
    left = [c for c in game.fixed_cards if c not in web.values()]
    yellow = next(c for c in left if c.startswith("cond-yellow"))
    discard = [c for c in left if c.startswith("joker")]
    others = [c for c in left if c not in (yellow, "species-martre", *discard)]
    return web, yellow, discard, others


def test_no_card_that_may_collide_with_the_last_discard_spent() -> None:
    """No discard left and a partner revealing first whose card is unknown: a Condition
    of a colour with one open slot may collide with it and lose the game; a Species that
    goes in whatever comes first is the move."""
    web, yellow, discard, others = martre_short_of_yellow()
    state = position(
        4,
        web=web,
        hands={1: ["species-martre", yellow], 0: others[:2], 2: others[2:3], 3: others[3:]},
        discard=discard,
        first=0,
    )
    # the martre cannot go in before its yellow Condition: the yellow goes first, safe
    # only if no partner before this seat may place a yellow
    for seed in range(3):
        assert program_of(ExpertBot(1, seed=seed), state.clone()) in (yellow, "species-martre")


def test_the_give_back_completes_the_partners_placement() -> None:
    """Species-specific biodiversity: a Plant partner, first to reveal, gives the bot an
    animal it can never place; the bot (Animal) gives back the plant it holds, which the
    partner installs now and the bot never could."""
    modes = ("species_biodiversity",)
    game = Game(4, modes)
    empty = {"species-jonc"} | {
        f"{sp}{suffix}"
        for sp in ("species-campagnol", "species-martre", EAGLE)
        for suffix in ("", ":1", ":2")
    }
    web = full_web(game, empty)
    left = [c for c in game.fixed_cards if c not in web.values()]
    conditions = [c for c in left if not c.startswith("species")]
    state = position(
        4,
        modes,
        web=web,
        hands={
            1: ["species-jonc", conditions[0], conditions[1]],
            2: ["species-campagnol", conditions[2], conditions[3]],
        },
        first=2,
        sides=["plant", "animal", "plant", "animal"],
    )
    state.apply(2, {"type": "give", "card": "species-campagnol", "to": 1})
    for seed in range(3):
        action = ExpertBot(1, seed=seed).act(state.clone().view(1))
        assert action == {"type": "give_back", "card": "species-jonc"}, action


def test_the_first_player_shows_its_program_after_its_free_swap() -> None:
    """The first player spent its free Symbiosis on a discard swap, and no discard is
    left: it spends its Symbiosis card on the exchange only if one keeps the game won
    (here none can without one: the Golden Eagle, alone in a hand, is revealed this turn
    before its Conditions, whoever holds them), else it shows its program, so the
    partners after it never have to guess its card and collide with it."""
    web, yellow, discard, others = martre_short_of_yellow()
    state = position(
        4,
        web=web,
        hands={0: [yellow, others[0]], 1: ["species-martre", *others[1:2]], 2: others[2:3]},
        discard=discard,
        first=0,
    )
    state.apply(0, {"type": "swap_discard", "card": others[0], "take": discard[0]})
    for seed in range(3):
        mine = state.clone()
        moves = moves_of(ExpertBot(0, seed=seed), mine)
        shows = [m for m in moves if m["type"] == "show"]
        gives = [m for m in moves if m["type"] == "give"]
        assert gives or (shows and shows[0]["card"] == mine.programmed[0]), moves


def test_the_wetland_relay_shows_the_aquatic_blue() -> None:
    """The Wetland: the first player led a blue Condition, shown to all; the second
    revealer's blue Condition goes into the aquatic web right after it. It plays it and
    shows it (its Symbiosis card), so the third revealer knows a blue card is just before
    it and places Charagne's green Condition in the aquatic web too."""
    modes = ("wetland",)
    game = Game(4, modes)
    aquatic = {f"{sp}{suffix}" for sp in AQUATIC for suffix in ("", ":1", ":2")}
    web = full_web(game, EAGLE_SLOTS | aquatic)
    left = [c for c in game.fixed_cards if c not in web.values()]
    blues = [c for c in left if "-blue-" in c]
    violets = [c for c in left if "-violet-" in c]
    green = next(c for c in left if "-green-" in c)
    assert len(blues) == 3 and len(violets) == 2
    rest = [c for c in left if c not in (*blues[:2], *violets, green)]
    state = position(
        4,
        modes,
        web=web,
        hands={0: [blues[0], violets[0]], 1: [blues[1], violets[1]], 2: [green, EAGLE]},
        first=0,
        rest={3: len(rest)},
    )
    state.apply(0, {"type": "program", "card": blues[0]})
    state.apply(0, {"type": "show", "card": blues[0]})  # the lead, with the free Symbiosis
    state.apply(0, {"type": "ready"})
    for seed in range(3):
        mine = state.clone()
        moves = moves_of(ExpertBot(1, seed=seed), mine)
        assert mine.programmed[1] == blues[1], moves
        assert {"type": "show", "card": blues[1]} in moves, moves
        assert program_of(ExpertBot(2, seed=seed), mine) == green


def charagne_left() -> tuple[dict[str, str], list[str]]:
    """The Wetland: a web complete but for the Golden Eagle's three slots and the Gardon's,
    Charagne's Conditions placed and Charagne not installed yet; and the cards not in it."""
    game = Game(4, ("wetland",))
    aquatic = {f"{sp}{suffix}" for sp in AQUATIC for suffix in ("", ":1", ":2")}
    web = full_web(game, EAGLE_SLOTS | aquatic)
    web["species-charagne:1"], web["species-charagne:2"] = "wet-blue-1", "wet-green-1"
    return web, [c for c in game.fixed_cards if c not in web.values()]


def charagne_held_with_a_blue_lead() -> State:
    """The Wetland, as ``charagne_left``: the first player holds Charagne, installable,
    and a blue Condition the main web takes; the next revealer two other cards."""
    web, _ = charagne_left()
    hands = {0: ["cond-blue-5", "species-charagne"], 1: ["wet-violet-1", "joker-1"]}
    return position(4, ("wetland",), web=web, hands=hands, first=0)


def test_the_wetland_first_player_hands_charagne_over_with_its_blue_lead() -> None:
    """The Wetland: the first player holds Charagne, installable, and a blue Condition the
    main web takes. Revealed first, Charagne would be discarded (nothing blue before it)
    and the game lost. It leads with the blue Condition, gives Charagne to the next
    revealer (its free Symbiosis) and shows its lead (its Symbiosis card); the next
    revealer gives another card back, keeps Charagne and reveals it after the lead."""
    charagne = "species-charagne"
    state = charagne_held_with_a_blue_lead()
    for seed in range(3):
        mine = state.clone()
        moves = moves_of(ExpertBot(0, seed=seed), mine)
        assert mine.programmed[0] == "cond-blue-5", moves
        assert {"type": "give", "card": charagne, "to": 1} in moves, moves
        answer = ExpertBot(1, seed=seed).act(mine.view(1))
        assert answer is not None and answer["type"] == "give_back", answer
        assert answer["card"] != charagne, answer
        mine.apply(1, answer)
        moves = moves_of(ExpertBot(0, seed=seed), mine)
        assert {"type": "show", "card": "cond-blue-5"} in moves, moves
        assert mine.programmed[0] == "cond-blue-5", moves
        assert program_of(ExpertBot(1, seed=seed), mine) == charagne


def test_the_wetland_charagne_handed_over_without_a_show() -> None:
    """The Wetland: as above, but the first player's Symbiosis card is spent, so its lead
    goes unshown. The Give of Charagne with its free Symbiosis tells the next revealer
    that the lead is blue (bots hand Charagne over only so): it keeps Charagne and
    reveals it after the lead."""
    charagne = "species-charagne"
    state = charagne_held_with_a_blue_lead()
    state.symbiosis_cards[0] = 0
    for seed in range(3):
        mine = state.clone()
        moves = moves_of(ExpertBot(0, seed=seed), mine)
        assert {"type": "give", "card": charagne, "to": 1} in moves, moves
        answer = ExpertBot(1, seed=seed).act(mine.view(1))
        assert answer is not None and answer["type"] == "give_back", answer
        mine.apply(1, answer)
        moves_of(ExpertBot(0, seed=seed), mine)
        assert mine.programmed[0] == "cond-blue-5"
        assert program_of(ExpertBot(1, seed=seed), mine) == charagne


def test_the_wetland_a_later_revealer_hands_charagne_to_the_second() -> None:
    """The Wetland: the first player led a blue Condition, shown to all. The third
    revealer holds Charagne, installable, which only the second revealer can place (it
    alone knows a blue card is just before it): it gives Charagne to the second revealer
    (its Symbiosis card), who keeps it and reveals it there."""
    modes = ("wetland",)
    web, left = charagne_left()
    charagne = "species-charagne"
    state = position(
        4,
        modes,
        web=web,
        hands={
            0: ["cond-blue-5", "joker-1"],
            1: ["wet-violet-1", "cond-violet-5"],
            2: [charagne, "joker-2"],
        },
        first=0,
    )
    lead_shown(state, "cond-blue-5")
    check_handed_over(state, 2, charagne, 1)


def test_the_wetland_a_condition_only_the_aquatic_web_takes_goes_to_the_second() -> None:
    """The Wetland: the first player led a blue Condition, shown to all. The third
    revealer holds the Wetland's violet Condition, whose only open place is the Gardon's
    (the aquatic web): revealed third, after a card it cannot know, it is most likely
    discarded. It gives it to the second revealer (its Symbiosis card), who knows the blue
    lead is just before it, keeps it and reveals it there."""
    modes = ("wetland",)
    web, left = charagne_left()
    web["species-charagne"], web["species-aigle-royal:2"] = "species-charagne", "cond-violet-5"
    state = position(
        4,
        modes,
        web=web,
        hands={
            0: ["cond-blue-5"],
            1: [EAGLE, "species-gardon"],
            2: ["wet-violet-1", "joker-1"],
        },
        first=0,
    )
    lead_shown(state, "cond-blue-5")
    check_handed_over(state, 2, "wet-violet-1", 1)


def test_the_wetland_a_shown_joker_lead_is_placed_blue() -> None:
    """The Wetland: the first player leads with a Joker, shown to all, that its partners
    read as a blue lead (its best place is blue), so the second revealer was handed
    Charagne, installable, and reveals it right after. The first player places its Joker
    blue, as read: given another colour, Charagne would be discarded and the game lost
    (a tuning game, seed 47,014, turn 5)."""
    modes = ("wetland",)
    web = {
        "species-ortie:1": "cond-blue-4",
        "species-ortie:2": "cond-yellow-4",
        "species-ortie": "species-ortie",
        "species-aubepine:1": "cond-yellow-5",
        "species-aubepine:2": "cond-green-5",
        "species-aubepine": "species-aubepine",
        "species-chene:1": "cond-green-3",
        "species-chene:2": "wet-violet-1",
        "species-chene": "species-chene",
        "species-jonc:1": "wet-blue-1",
        "species-jonc:2": "cond-green-4",
        "species-jonc": "species-jonc",
        "species-mesange-bleue:2": "cond-green-2",
        "species-campagnol:1": "cond-yellow-2",
        "species-charagne:1": "cond-blue-5",
        "species-charagne:2": "wet-green-1",
    }
    hands = {
        0: ["cond-blue-2", "cond-violet-3", EAGLE, "cond-blue-3", "wet-blue-2", "joker-2"],
        1: ["cond-violet-2", "species-charagne", "species-martre", "species-campagnol"]
        + ["joker-1", "cond-green-1"],
        2: ["species-carabe-dore", "species-herisson", "cond-violet-5", "cond-violet-4"]
        + ["cond-yellow-1"],
        3: ["cond-blue-1", "cond-yellow-3", "species-gardon", "species-mesange-bleue"]
        + ["cond-violet-1"],
    }
    state = position(4, modes, web=web, hands=hands, first=0, turn=5)
    state.symbiosis_cards[2] = 0  # spent on the Give of Charagne to the second revealer
    lead_shown(state, "joker-2")
    for seat, card in ((1, "species-charagne"), (2, "cond-violet-4"), (3, "cond-blue-1")):
        state.apply(seat, {"type": "program", "card": card})
        state.apply(seat, {"type": "ready"})
    for seed in range(3):
        mine = state.clone()
        answer = ExpertBot(0, seed=seed).act(mine.view(0))
        assert answer is not None and answer.get("colour") == "blue", answer
        mine.apply(0, answer)
        assert mine.web["species-charagne"] == "species-charagne"  # revealed right after


def test_associated_conditions_a_middle_revealer_holds_its_species_back() -> None:
    """Associated Conditions: the second revealer, after the first player's shown
    Condition, holds an installable Species and a Condition it can place, with an
    associated Condition possibly in a later partner's hand. It reveals the Condition
    and keeps the Species for later, so the partner after it can count on a Condition
    just before its associated one (which a Species there would discard)."""
    modes = ("associated_conditions",)
    game = Game(4, modes)
    hedgehog, marten = "species-herisson", "species-martre"
    empty = EAGLE_SLOTS | {marten, f"{marten}:1", f"{marten}:2", hedgehog, f"{hedgehog}:2"}
    web = full_web(game, empty)
    for colour in ("violet", "yellow"):  # keep the associated Conditions out of the web
        slot = next(s for s, c in web.items() if c == f"cond-{colour}-3")
        web[slot] = f"cond-{colour}-5"
    left = [c for c in game.fixed_cards if c not in web.values()]
    assert sorted(left) == sorted(
        [
            "cond-blue-4",
            "cond-blue-5",
            "cond-violet-3",
            "cond-violet-4",
            "cond-yellow-3",
            "joker-1",
            "joker-2",
            EAGLE,
            marten,
            hedgehog,
        ]
    ), left
    state = position(
        4,
        modes,
        web=web,
        hands={
            0: ["cond-blue-4", "joker-1"],
            1: [hedgehog, "cond-violet-4"],
            2: ["cond-yellow-3", "joker-2"],
            3: [marten, EAGLE, "cond-blue-5", "cond-violet-3"],
        },
        first=0,
    )
    state.apply(0, {"type": "program", "card": "cond-blue-4"})  # into the Hedgehog's slot
    state.apply(0, {"type": "show", "card": "cond-blue-4"})
    state.apply(0, {"type": "ready"})
    for seed in range(3):
        assert program_of(ExpertBot(1, seed=seed), state.clone()) == "cond-violet-4"


def test_dependent_conditions_a_card_only_the_next_revealer_can_place() -> None:
    """Dependent Conditions: the first player leads with the Marten, shown, which goes
    into the web. The third revealer holds the Golden Eagle's dependent blue Condition,
    which only a revealer right after a Species can place: only the second revealer
    can. It gives it to the second revealer (its Symbiosis card), who keeps it, gives
    back another card and reveals it right after the Marten."""
    modes = ("dependent_conditions",)
    game = Game(4, modes)
    marten = "species-martre"
    web = full_web(game, EAGLE_SLOTS | {marten})
    slot = next(s for s, c in web.items() if c == "cond-blue-4")  # the dependent one
    web[slot] = "cond-blue-5"
    left = [c for c in game.fixed_cards if c not in web.values()]
    violet = next(c for c in left if c.startswith("cond-violet"))
    assert sorted(left) == sorted(["cond-blue-4", violet, marten, EAGLE, "joker-1", "joker-2"])
    state = position(
        4,
        modes,
        web=web,
        hands={0: [marten], 1: [EAGLE, "joker-2"], 2: ["cond-blue-4", violet, "joker-1"]},
        first=0,
        rest={3: 0},
    )
    lead_shown(state, marten)
    check_handed_over(state, 2, "cond-blue-4", 1)


def test_dependent_conditions_the_shown_lead_goes_where_partners_read_it() -> None:
    """Dependent Conditions: the first player leads with a green Condition, shown to all,
    that both the Chêne's and the Jonc's green places take. Partners read it where the
    shared base policy puts it, completing the Jonc's Conditions, so the second revealer
    installs the Jonc right after it. The first player places it there: placed on the
    Chêne, the Jonc would be discarded and the game lost (a tuning game, seed 47,005,
    turn 2)."""
    modes = ("dependent_conditions",)
    web = {
        "species-ortie:1": "joker-2",
        "species-aubepine:1": "cond-yellow-2",
        "species-aubepine:2": "cond-green-2",
        "species-jonc:1": "cond-blue-2",
    }
    hands = {
        0: ["cond-blue-1", "species-carabe-dore", "cond-violet-5", "species-mesange-bleue"]
        + ["cond-violet-1", "cond-yellow-5", "cond-yellow-1"],
        1: ["species-chene", "cond-green-4", "cond-violet-2", "cond-violet-4", "joker-1"]
        + ["species-aubepine", EAGLE],
        2: ["cond-yellow-4", "species-herisson", "species-ortie", "species-martre"]
        + ["cond-green-1", "cond-green-3", "cond-green-5"],
        3: ["cond-blue-5", "cond-blue-3", "species-campagnol", "species-jonc", "cond-blue-4"]
        + ["cond-yellow-3", "cond-violet-3"],
    }
    state = position(4, modes, web=web, hands=hands, first=2, turn=2)
    state.joker_colours["joker-2"] = "blue"
    state.apply(2, {"type": "program", "card": "cond-green-1"})
    state.apply(2, {"type": "show", "card": "cond-green-1"})
    state.apply(2, {"type": "ready"})
    for seat, card in ((3, "species-jonc"), (0, "cond-yellow-1"), (1, "species-aubepine")):
        state.apply(seat, {"type": "program", "card": card})
        state.apply(seat, {"type": "ready"})
    for seed in range(3):
        mine = state.clone()
        answer = ExpertBot(2, seed=seed).act(mine.view(2))
        assert answer is not None and answer.get("slot") == "species-jonc:2", answer
        mine.apply(2, answer)
        assert mine.web["species-jonc"] == "species-jonc"  # installed right after


def test_species_reintroductions_a_second_reintroduction_under_the_lock() -> None:
    """Species Reintroductions: the last card of the turn before was a Reintroduction,
    so every Condition or Joker revealed is discarded until an animal Species comes. The
    first player holds the second Reintroduction and a Joker the Golden Eagle's blue
    place could take: it plays the Reintroduction now (the same animal ends both locks,
    so it costs nothing), never the Joker, which would go to the discard pile for
    nothing."""
    modes = ("species_reintroductions",)
    game = Game(4, modes)
    species = [s for s, slot in game.topology.slots.items() if slot.colour is None]
    animal = next(s for s in species if s != EAGLE and INFO[s].kind == "animal")
    plant = next(s for s in species if INFO[s].kind == "plant")
    state = position(
        4,
        modes,
        web=full_web(game, EAGLE_SLOTS | {animal, plant}),
        hands={
            0: [plant, "joker-1"],
            1: ["cond-violet-5", "reintroduction-2", "joker-2"],
            2: [],
            3: ["reintroduction-1", animal, "cond-blue-5", EAGLE],
        },
        discard=["pollution-1", "pollution-2"],
        first=0,
    )
    state.rule_data["species_reintroductions"]["played"] = ["pollution-1", "pollution-2"]
    for seat, card in [(0, plant), (1, "cond-violet-5"), (3, "reintroduction-1")]:
        state.apply(seat, {"type": "program", "card": card})
    for seat in (0, 1, 3):
        state.apply(seat, {"type": "ready"})
    assert state.phase == "programming" and state.first_player == 1
    assert state.rule_data["species_reintroductions"]["after_reintroduction"]
    for seed in range(3):
        assert program_of(ExpertBot(1, seed=seed), state.clone()) == "reintroduction-2"


def test_species_reintroductions_a_reintroduction_rather_than_a_species_lost() -> None:
    """Species Reintroductions: the first player holds a Reintroduction and the Golden
    Eagle, which cannot be installed this turn (the Hérisson, one of the two Species
    before it, is not). A Reintroduction waits for the last Condition, but the Eagle
    revealed now goes to the discard pile and the game is lost: the first player
    programs the Reintroduction."""
    modes = ("species_reintroductions",)
    game = Game(4, modes)
    herisson = "species-herisson"
    state = position(
        4,
        modes,
        web=full_web(game, EAGLE_SLOTS | {herisson}),
        hands={
            0: ["reintroduction-1", EAGLE],
            1: ["pollution-1", "cond-violet-5"],
            2: ["reintroduction-2", "pollution-2"],
            3: [herisson, "cond-blue-5"],
        },
        discard=["joker-1", "joker-2"],
        first=0,
        turn=8,
    )
    assert state.view(0)["winnable"]
    assert state.view(0)["no_place"][EAGLE] is not None
    for seed in range(3):
        assert program_of(ExpertBot(0, seed=seed), state.clone()) == "reintroduction-1"


def test_dependent_conditions_no_dependent_revealed_on_a_bet() -> None:
    """Dependent Conditions: the third revealer holds the yellow dependent Condition and a
    plain yellow one. Only the first player's Joker lead is known; the card just before
    the third revealer's is unknown, so the dependent one is placed only if that partner
    happens to reveal a Species (here it holds Conditions only). The plain yellow
    Condition goes wherever the dependent one would: the dependent Condition is not
    programmed."""
    modes = ("dependent_conditions",)
    web = {
        "species-aubepine:1": "cond-yellow-5",
        "species-aubepine:2": "cond-green-3",
        "species-chene:2": "cond-violet-1",
        "species-jonc:2": "cond-green-5",
    }
    hands = {
        0: ["cond-violet-5", "species-herisson", "cond-blue-2", "cond-yellow-4"]
        + ["cond-yellow-1", "cond-blue-4", "cond-green-1"],
        1: ["cond-green-2", "species-campagnol", "species-ortie", "species-aigle-royal"]
        + ["cond-blue-3", "species-mesange-bleue", "species-aubepine"],
        2: ["cond-violet-4", "joker-1", "species-carabe-dore", "species-chene"]
        + ["species-martre", "species-jonc", "joker-2"],
        3: ["cond-blue-5", "cond-violet-3", "cond-green-4", "cond-violet-2"]
        + ["cond-yellow-2", "cond-yellow-3", "cond-blue-1"],
    }
    state = position(4, modes, web=web, hands=hands, first=2, turn=2)
    state.apply(2, {"type": "program", "card": "joker-2"})
    state.apply(2, {"type": "show", "card": "joker-2"})
    state.apply(2, {"type": "ready"})
    assert state.view(0)["reveal_order"] == [2, 3, 0, 1]
    for seed in range(3):
        assert program_of(ExpertBot(0, seed=seed), state.clone()) not in (
            "cond-yellow-4",
            "cond-blue-4",
        )


def test_the_wetland_charagne_handed_over_in_the_middle_of_the_turn() -> None:
    """The Wetland, a tuning game (seed 49,555, turn 4): Charagne is installable and the
    third revealer (seat 1) holds it beside a blue Condition, its Symbiosis card unspent;
    the first player showed a green lead. Revealed by anyone after a card nobody knows,
    Charagne is most likely discarded, and the game lost (the bots lost it so). The
    third revealer programs its blue Condition and gives Charagne to the last revealer,
    who knows from the Give that a blue card comes just before it: it gives another card
    back, keeps Charagne and reveals it there."""
    modes = ("wetland",)
    web = {
        "species-aubepine:1": "cond-yellow-2",
        "species-aubepine:2": "joker-1",
        "species-aubepine": "species-aubepine",
        "species-chene:1": "cond-green-1",
        "species-chene:2": "cond-violet-2",
        "species-chene": "species-chene",
        "species-jonc:1": "cond-blue-5",
        "species-jonc:2": "wet-green-1",
        "species-jonc": "species-jonc",
        "species-campagnol:1": "cond-yellow-1",
        "species-charagne:1": "wet-blue-2",
        "species-charagne:2": "cond-green-4",
    }
    hands = {
        0: [
            "species-martre",
            "species-gardon",
            "species-campagnol",
            "joker-2",
            "species-herisson",
            "cond-yellow-3",
            "wet-blue-1",
        ],
        1: [
            "species-ortie",
            "cond-violet-3",
            "species-mesange-bleue",
            EAGLE,
            "cond-blue-3",
            "species-charagne",
            "cond-yellow-5",
        ],
        2: ["cond-blue-2", "cond-blue-1", "cond-violet-5", "cond-violet-4", "cond-blue-4"]
        + ["species-carabe-dore"],
        3: ["wet-violet-1", "cond-green-2", "cond-violet-1", "cond-green-3", "cond-green-5"]
        + ["cond-yellow-4"],
    }
    state = position(4, modes, web=web, hands=hands, first=3, turn=4)
    state.symbiosis_cards = [1, 1, 0, 0]
    state.apply(3, {"type": "program", "card": "cond-green-2"})
    state.apply(3, {"type": "show", "card": "cond-green-2"})  # the lead, free Symbiosis
    state.apply(3, {"type": "ready"})
    for seed in range(3):
        mine = state.clone()
        moves_of(ExpertBot(0, seed=seed), mine)
        moves = moves_of(ExpertBot(1, seed=seed), mine)
        assert INFO[mine.programmed[1] or ""].colour == "blue", moves
        assert {"type": "give", "card": "species-charagne", "to": 2} in moves, moves
        answer = ExpertBot(2, seed=seed).act(mine.view(2))
        assert answer is not None and answer["type"] == "give_back", answer
        assert answer["card"] != "species-charagne", answer
        mine.apply(2, answer)
        assert program_of(ExpertBot(2, seed=seed), mine) == "species-charagne"
        assert INFO[mine.programmed[1] or ""].colour == "blue"


def test_the_wetland_a_blue_condition_programmed_to_hand_charagne_over() -> None:
    """The Wetland, a tuning game (seed 49,588, turn 3): the third revealer (seat 1)
    holds Charagne, installable, and a blue Condition the web takes, its Symbiosis card
    unspent. It programs the blue Condition and gives Charagne to the last revealer,
    who reveals it right after (the bots that programmed another card lost the game; with
    the hand-over they won it)."""
    modes = ("wetland",)
    web = {
        "species-aubepine:2": "cond-green-3",
        "species-chene:1": "cond-green-5",
        "species-chene:2": "cond-violet-5",
        "species-chene": "species-chene",
        "species-jonc:1": "cond-blue-2",
        "species-jonc:2": "cond-green-2",
        "species-charagne:1": "wet-blue-1",
        "species-charagne:2": "cond-green-4",
    }
    hands = {
        0: ["cond-violet-2", "cond-yellow-3", "cond-blue-1", "species-carabe-dore"]
        + ["species-mesange-bleue", "cond-blue-4", "cond-yellow-5"],
        1: ["cond-blue-3", "cond-violet-4", "species-charagne", "cond-yellow-1"]
        + ["species-herisson", "cond-violet-3", "species-campagnol", "cond-yellow-2"],
        2: ["species-aubepine", "joker-1", "cond-green-1", "cond-yellow-4", "species-jonc"]
        + ["cond-blue-5", "species-ortie", "cond-violet-1"],
        3: ["species-martre", EAGLE, "wet-violet-1", "wet-blue-2", "species-gardon"]
        + ["wet-green-1", "joker-2"],
    }
    state = position(4, modes, web=web, hands=hands, first=3, turn=3)
    state.symbiosis_cards = [1, 1, 1, 1]
    for seed in range(3):
        mine = state.clone()
        moves_of(ExpertBot(3, seed=seed), mine)
        moves_of(ExpertBot(0, seed=seed), mine)
        moves = moves_of(ExpertBot(1, seed=seed), mine)
        assert INFO[mine.programmed[1] or ""].colour == "blue", moves
        assert {"type": "give", "card": "species-charagne", "to": 2} in moves, moves
        answer = ExpertBot(2, seed=seed).act(mine.view(2))
        assert answer is not None and answer["type"] == "give_back", answer
        mine.apply(2, answer)
        assert program_of(ExpertBot(2, seed=seed), mine) == "species-charagne"
