"""Setup: the deck for each player count and rule set, seeded and explicit deals."""

from collections import Counter

import pytest

from dame_nature.engine import CATALOGUE, Game, InvalidSetup
from tests.engine.helpers import deal_for


def composition(cards):
    count = Counter()
    for c in cards:
        card = CATALOGUE.card(c)
        count[card.colour if card.is_condition else card.type] += 1
    return count


@pytest.mark.parametrize(
    ("n", "per_colour", "jokers", "symbiosis", "max_discards"),
    [(3, 5, 3, 0, 3), (4, 5, 2, 1, 2), (5, 6, 1, 2, 5), (6, 6, 2, 3, 6)],
)
def test_deck_per_player_count(n, per_colour, jokers, symbiosis, max_discards):
    game = Game(n)
    count = composition(game.deck)
    assert count == {
        "blue": per_colour, "yellow": per_colour, "green": per_colour, "violet": per_colour,
        "joker": jokers, "species": 10,
    }  # fmt: skip
    assert game.deck_size == 4 * per_colour + jokers + 10
    assert game.max_discards == max_discards
    view = Game(n).new_initial_state(seed=5).view(0)
    assert [p["symbiosis_cards"] for p in view["players"]] == [symbiosis] * n
    assert [p["hand_size"] for p in view["players"]] == [game.deck_size // n] * n
    assert view["phase"] == "programming" and view["turn"] == 1


def test_base_deck_holds_the_numbered_species_and_no_mode_card():
    deck = Game(4).deck
    species = {c for c in deck if c.startswith("species-")}
    assert species == {s.species for s in CATALOGUE.layout("numbered")}
    assert not [c for c in deck if CATALOGUE.card(c).set != "base"]


def test_mode_cards_join_the_deck():
    assert composition(Game(4, ["wetland"]).deck)["species"] == 12
    assert len(Game(4, ["wetland"]).deck) == 32 + 6
    invasive = Game(4, ["invasive_species"]).deck
    assert "species-renouee-du-japon" in invasive and "species-aubepine" not in invasive
    assert "species-martre" not in invasive and "species-carabe-dore" not in invasive
    for n in (3, 6):
        assert Game(n, ["first_predator"]).deck_size == Game(n).deck_size + n
        assert Game(n, ["species_reintroductions"]).deck_size == Game(n).deck_size + n


def test_seeded_deal_is_reproducible():
    game = Game(5, ["species_reintroductions", "first_predator"])
    a = game.new_initial_state(seed=123)
    b = game.new_initial_state(seed=123)
    c = game.new_initial_state(seed=124)
    assert a.to_json() == b.to_json()
    assert (a.hands, a.first_player) != (c.hands, c.first_player)
    cards = sorted(c for h in a.hands for c in h)
    assert len(cards) == game.deck_size == len(set(cards))
    assert sum(c.startswith("cat-") for c in cards) == 5
    assert sorted(cards + a.set_aside) == sorted(
        game.fixed_cards + CATALOGUE.in_set("cat") + CATALOGUE.in_set("pollution")
        + CATALOGUE.in_set("reintroduction")
    )  # fmt: skip


def test_explicit_deal_is_taken_as_given():
    game = Game(4)
    deal = deal_for(game, {2: ["species-aigle-royal"]}, first_player=2)
    state = game.new_initial_state(deal=deal)
    assert state.hands == deal["hands"] and state.first_player == 2
    assert state.view(2)["hand"][0] == "species-aigle-royal"
    assert state.view(2)["first_player"] == 2


def invalid(game, deal, match):
    with pytest.raises(InvalidSetup, match=match) as info:
        game.new_initial_state(deal=deal)
    assert isinstance(info.value, ValueError)
    return info.value


def test_explicit_deal_with_a_card_of_another_player_count_is_refused():
    game = Game(4)
    deal = deal_for(game, {})
    deal["hands"][0][0] = "cond-blue-6"  # only with 5 or 6 players
    invalid(game, deal, "not in the deck|missing")


def test_explicit_deal_with_a_mode_card_of_an_inactive_rule_is_refused():
    game = Game(3)
    deal = deal_for(game, {})
    deal["hands"][0].append("cat-1")
    deal["hands"][1].append("cat-2")
    deal["hands"][2].append("cat-3")
    invalid(game, deal, "'cat-1' is not in the deck")


def test_explicit_deal_must_hold_as_many_mode_cards_as_players():
    game = Game(3, ["first_predator"])
    deal = deal_for(game, {0: ["cat-1"], 1: ["cat-2"], 2: ["cat-3"]})
    assert game.new_initial_state(deal=deal).set_aside == ["cat-4", "cat-5", "cat-6"]
    deal["hands"][2][deal["hands"][2].index("cat-3")] = "cat-4"
    assert game.new_initial_state(deal=deal).set_aside == ["cat-3", "cat-5", "cat-6"]
    deal["hands"][1][deal["hands"][1].index("cat-2")] = "joker-1"
    invalid(game, deal, "dealt twice")


def test_explicit_deal_with_a_duplicate_or_an_unknown_card_is_refused():
    game = Game(3)
    deal = deal_for(game, {})
    dup = [list(h) for h in deal["hands"]]
    dup[1][0] = dup[0][0]
    assert invalid(game, {"hands": dup, "first_player": 0}, "dealt twice").code == "invalid_deal"
    unknown = [list(h) for h in deal["hands"]]
    unknown[2][0] = "species-dodo"
    assert (
        invalid(game, {"hands": unknown, "first_player": 0}, "Unknown card").code == "unknown_card"
    )


def test_explicit_deal_with_unequal_hands_is_refused():
    game = Game(3)
    hands = deal_for(game, {})["hands"]
    hands[1].append(hands[0].pop())
    invalid(game, {"hands": hands, "first_player": 0}, "Hand sizes must be")


def test_explicit_deal_shape_is_checked():
    game = Game(3)
    hands = deal_for(game, {})["hands"]
    invalid(game, {"hands": hands[:2], "first_player": 0}, "must have 3 hands")
    invalid(game, {"hands": hands, "first_player": 3}, "first_player")
    invalid(game, {"hands": hands[0], "first_player": 0}, "lists of card ids")
    invalid(game, "not a deal", "object")
    missing = [list(h) for h in hands]
    missing[0].pop()
    invalid(game, {"hands": missing, "first_player": 0}, "missing")


def test_wetland_deal_is_round_robin_from_the_first_player():
    game = Game(4, ["wetland"])  # 38 cards: two hands of 10 and two of 9
    assert game.hand_sizes(0) == [10, 10, 9, 9]
    assert game.hand_sizes(3) == [10, 9, 9, 10]
    deal = deal_for(game, {}, first_player=3)
    state = game.new_initial_state(deal=deal)
    assert [p["hand_size"] for p in state.view(None)["players"]] == [10, 9, 9, 10]
    # the same hands with seat 0 first are not a round-robin deal
    invalid(game, {"hands": deal["hands"], "first_player": 0}, r"\[10, 10, 9, 9\]")
    seeded = game.new_initial_state(seed=9)
    assert sorted(len(h) for h in seeded.hands) == [9, 9, 10, 10]
    assert len(seeded.hands[seeded.first_player]) == 10


@pytest.mark.parametrize("n", [0, 1, 2, 7, "4", True])
def test_player_count_outside_3_to_6_is_refused(n):
    with pytest.raises(InvalidSetup, match="3 to 6 players"):
        Game(n)


def test_unknown_or_repeated_mode_is_refused():
    with pytest.raises(InvalidSetup, match="Unknown advanced rule 'volcano'") as info:
        Game(4, ["wetland", "volcano"])
    assert info.value.code == "unknown_mode"
    with pytest.raises(InvalidSetup, match="twice"):
        Game(4, ["wetland", "wetland"])


def test_seed_must_be_an_integer():
    with pytest.raises(InvalidSetup, match="seed"):
        Game(3).new_initial_state(seed="abc")


def test_explicit_deal_with_too_many_pollution_or_reintroduction_cards_is_refused():
    game = Game(3, ["species_reintroductions"])
    deal = deal_for(game, {0: ["pollution-1", "pollution-2", "reintroduction-1"]})
    assert game.new_initial_state(deal=deal).set_aside == [
        "pollution-3", "reintroduction-2", "reintroduction-3"]  # fmt: skip
    deal["hands"][1][0] = "reintroduction-3"
    invalid(game, deal, "exactly 3 pollution cards|missing")
