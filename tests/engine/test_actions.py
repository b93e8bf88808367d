"""The action registry (``engine/actions.py``): one place per action type."""

from __future__ import annotations

import random

import pytest

from dame_nature.bots.random_play import random_step
from dame_nature.engine import ACTION_FIELDS, ACTIONS, MODES, ActionType, Game
from dame_nature.engine.actions import ACTIONS_BY_PHASE
from dame_nature.engine.enums import PROGRAMMING, Phase


def test_every_action_type_is_registered_once_in_listing_order():
    assert list(ACTIONS) == [t.value for t in ActionType]
    assert set(ACTION_FIELDS) == set(ACTIONS)
    for kind, spec in ACTIONS.items():
        assert spec.name == kind and spec.phases
        assert [f.name for f in spec.fields] == list(ACTION_FIELDS[kind])
    assert Phase.OVER.value not in {p for spec in ACTIONS.values() for p in spec.phases}
    assert ACTIONS_BY_PHASE["over"] == ()


def test_clean_keeps_only_the_types_own_fields():
    assert ACTIONS["program"].clean({"type": "program", "card": "joker-1", "x": 1}) == {
        "type": "program",
        "card": "joker-1",
    }
    assert ACTIONS["show"].clean({"type": "show", "card": "joker-1", "to": None}) == {
        "type": "show",
        "card": "joker-1",
    }
    assert ACTIONS["reveal"].clean({"type": "reveal"}) == {
        "type": "reveal",
        "slot": None,
        "colour": None,
        "target": None,
    }


@pytest.mark.parametrize("modes", [(), MODES], ids=["base", "all_rules"])
def test_available_says_exactly_whether_options_exist_and_each_option_is_legal(modes):
    """Along random games: a type is available iff it has options, in every phase, for
    every seat; every option passes its own check; a type's ``listing``, when it has one,
    is its options."""
    game = Game(4, modes)
    for seed in range(4):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            for seat in range(4):
                kinds = state.legal_action_types(seat)
                for kind, spec in ACTIONS.items():
                    options = state.legal_options(seat, kind)
                    assert (kind in kinds) == bool(options), (kind, seat)
                    if options and spec.listing is not None:  # the views' shared listing
                        assert list(spec.listing) == options, (kind, seat)
                    for option in options[:3]:
                        spec.check(state, seat, option)
            state.apply(*random_step(state, rng))


@pytest.mark.parametrize("modes", [(), MODES], ids=["base", "all_rules"])
def test_a_listing_made_card_by_card_is_the_options(modes):
    """Along random games (5 seats: Privileged Symbioses name one player): a type that
    lists card after card (``options_by_card``) gives its options as each card's actions
    in the order of its cards, and two cards' actions with equal ``rest`` are equal
    whatever the state and seat (the views keep them by type, ``rest`` and card)."""
    game = Game(5, modes)
    seen: dict[tuple[str, object, str], list[dict[str, object]]] = {}
    for seed in range(4):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            for seat in range(5):
                for kind in state.legal_action_types(seat):
                    spec = ACTIONS[kind]
                    by_card = spec.options_by_card(state, seat)
                    if by_card is None:
                        continue
                    cards, rest = by_card
                    each = [spec.card_options(state, seat, card) for card in cards]
                    assert [a for actions in each for a in actions] == spec.options(state, seat)
                    for card, actions in zip(cards, each, strict=True):
                        assert seen.setdefault((kind, rest, card), actions) == actions
            state.apply(*random_step(state, rng))
    listed = {kind for kind, _, _ in seen}  # (Incomplete Symbioses: no Show)
    assert listed == {"program", "give", "give_back"} | ({"show"} if not modes else set())


def test_every_reason_has_one_owner_and_its_texts_in_english_and_french():
    from dame_nature.engine import REASONS, REASONS_FR, RULES, Reason
    from dame_nature.engine.reveal import CORE_REASONS

    owners = [set(CORE_REASONS)] + [set(rule.reasons) for rule in RULES.values()]
    assert sum(len(o) for o in owners) == len(set().union(*owners))  # no reason twice
    assert set(REASONS) == set(REASONS_FR) == {r.value for r in Reason}
    assert all(REASONS[code] and REASONS_FR[code] for code in REASONS)


@pytest.mark.parametrize("modes", [(), *((mode,) for mode in MODES), MODES])
def test_programming_types_are_the_types_own_availability(modes):
    """Along random games of each advanced rule alone and all of them: the action types
    ``legal_action_types`` gives during programming (read in one frame) are those whose
    own ``available`` says so, in ``ACTIONS`` order, for every seat."""
    game = Game(5, modes)
    for seed in range(3):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            if state.phase == PROGRAMMING:
                for seat in range(5):
                    expected = [
                        kind
                        for kind, spec in ACTIONS.items()
                        if PROGRAMMING in spec.phases and spec.available(state, seat)
                    ]
                    assert state.legal_action_types(seat) == expected, (seed, seat)
            state.apply(*random_step(state, rng))
