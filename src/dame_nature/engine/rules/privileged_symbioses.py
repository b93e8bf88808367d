"""Path 2, stage 1: Privileged Symbioses. Show reveals a card to one chosen player only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import GameConfig, Rule

if TYPE_CHECKING:
    from ..state import State


class PrivilegedSymbioses(Rule):
    mode = "privileged_symbioses"
    title = "Privileged Symbioses"
    title_fr = "Symbioses privilégiées"
    summary = "A Symbiosis that shows a card shows it to one chosen player only, not to everyone."
    summary_fr = (
        "Une Symbiose qui montre une carte ne la montre qu'à un seul joueur choisi, pas à tous."
    )

    def configure(self, cfg: GameConfig) -> None:
        cfg.show_names_one_player = True  # told to clients

    def show_recipients(
        self, state: State, seat: int, recipients: list[int | None]
    ) -> list[int | None]:
        return [s for s in range(state.num_players) if s != seat]
