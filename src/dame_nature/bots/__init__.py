"""Bots that play Dame Nature from their own seat's view, like a websocket client.

>>> from dame_nature.engine import Game
>>> from dame_nature.bots import make_bot
>>> state = Game(3).new_initial_state(seed=1)
>>> bot = make_bot("random", 0, seed=7)
>>> bot.act(state.view(0))["type"]
'program'

A bot receives only view dicts (``State.view(seat)``, extra server fields ignored) and
keeps its own memory between calls; it never sees a ``State``. ``act`` returns one
action, or ``None`` when the bot has nothing to do now (e.g. it is already ready).
"""

from __future__ import annotations

from .base import Bot, legal_actions

#: the bot levels, weakest first
LEVELS: tuple[str, ...] = ("random", "expert")
#: the level used when none is asked for
DEFAULT_LEVEL = "expert"


def make_bot(level: str, seat: int, *, seed: int | None = None) -> Bot:
    """A new bot of ``level`` for ``seat``; ``ValueError`` for an unknown level."""
    if level == "random":
        from .random_bot import RandomBot

        return RandomBot(seat, seed=seed)
    if level == "expert":
        from .expert import ExpertBot

        return ExpertBot(seat, seed=seed)
    if level == "greedy":  # not a level to pick: an expert's quick stand-in (``GreedyBot``)
        from .greedy import GreedyBot

        return GreedyBot(seat, seed=seed)
    raise ValueError(f"Unknown bot level {level!r}. Known levels: {', '.join(LEVELS)}.")


__all__ = ["DEFAULT_LEVEL", "LEVELS", "Bot", "legal_actions", "make_bot"]
