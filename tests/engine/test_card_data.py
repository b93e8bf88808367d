"""The package ships its own copy of the card data; it must match the shared catalogue."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dame_nature.engine import CATALOGUE, raw_card_data

SHARED = Path(__file__).resolve().parents[3] / "shared" / "rules" / "cards.json"


@pytest.mark.skipif(not SHARED.exists(), reason="shared/rules/cards.json is not beside the repo")
def test_package_card_data_matches_shared_catalogue() -> None:
    assert raw_card_data() == json.loads(SHARED.read_text("utf-8"))


def test_every_layout_species_is_a_card_and_parents_precede_children() -> None:
    for name in ("numbered", "lettered", "aquatic"):
        layout = CATALOGUE.layout(name)
        seen: set[str] = set()
        for spot in sorted(layout, key=lambda s: s.column):
            assert CATALOGUE.card(spot.species).is_species
            assert set(spot.parents) <= seen or not spot.parents
            assert len(spot.conditions) == 2
            seen.add(spot.species)


def test_main_webs_need_five_conditions_of_each_colour() -> None:
    for name in ("numbered", "lettered"):
        colours = [c for spot in CATALOGUE.layout(name) for c in spot.conditions]
        assert sorted(colours) == sorted(["blue", "yellow", "green", "violet"] * 5)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_max_discards_is_deck_size_minus_thirty(players: int) -> None:
    from dame_nature.engine import Game

    game = Game(players)
    setup = CATALOGUE.setup_by_players[players]
    assert game.deck_size - 30 == setup["max_discards_to_win"] == game.max_discards
