"""Path 4, stage 2: Incomplete Symbioses. A Symbiosis can no longer show a card."""

from __future__ import annotations

from .base import GameConfig, Rule


class IncompleteSymbioses(Rule):
    mode = "incomplete_symbioses"
    title = "Incomplete Symbioses"
    title_fr = "Symbioses incomplètes"
    summary = (
        "Symbioses no longer show a card: they only exchange one, with another player or "
        "with the discard pile."
    )
    summary_fr = (
        "Les Symbioses ne montrent plus de carte : elles ne font qu'en échanger une, avec un "
        "autre joueur ou avec la défausse."
    )

    def configure(self, cfg: GameConfig) -> None:
        cfg.symbiosis_kinds = [k for k in cfg.symbiosis_kinds if k != "show"]
