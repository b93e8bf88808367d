"""``History``: a game's actions in order, each read as ``{"seat", "action"}``.

A game keeps every action it was played with, for as long as it lives: one entry an
action. Kept as dicts, each entry would be a dict holding a dict, which Python's cyclic
collector tracks and walks at each of its middle passes for as long as the game lives.
``History`` keeps each entry as one flat tuple of atoms instead (``(seat, key, value,
key, value, ..)``, the action's fields in order), which the collector stops tracking at
the first pass that sees it, and builds the ``{"seat", "action"}`` dicts when an entry is
read: fresh dicts, so a reader that changes one changes nothing kept. ``State.to_json``
saves the dicts (``list(history)``), so the stored format is the one of a list of dicts.

>>> history = History([{"seat": 0, "action": {"type": "program", "card": "x"}}])
>>> history.append({"seat": 1, "action": {"type": "ready"}})
>>> len(history), history[-1]
(2, {'seat': 1, 'action': {'type': 'ready'}})
>>> history == [{"seat": 0, "action": {"type": "program", "card": "x"}},
...             {"seat": 1, "action": {"type": "ready"}}]
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import chain
from typing import Any, overload

__all__ = ["History"]

_items = chain.from_iterable


def _unpack(step: tuple[Any, ...]) -> dict[str, Any]:
    return {"seat": step[0], "action": dict(zip(step[1::2], step[2::2], strict=True))}


class History(Sequence[dict[str, Any]]):
    """A game's actions, ``{"seat": int, "action": {..}}`` each (see the module)."""

    __slots__ = ("_steps",)

    def __init__(self, entries: Iterable[dict[str, Any]] = ()) -> None:
        self._steps: list[tuple[Any, ...]] = [
            (e["seat"], *_items(e["action"].items())) for e in entries
        ]

    def add(self, seat: int, action: dict[str, Any]) -> None:
        """Append ``{"seat": seat, "action": action}`` (the action's fields as they are
        now: a later change of ``action`` is not seen)."""
        self._steps.append((seat, *_items(action.items())))

    def append(self, entry: dict[str, Any]) -> None:
        self.add(entry["seat"], entry["action"])

    def copy(self) -> History:
        """An independent history with the same entries (they are never changed)."""
        new = History.__new__(History)
        new._steps = self._steps[:]
        return new

    def __len__(self) -> int:
        return len(self._steps)

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [_unpack(step) for step in self._steps[index]]
        return _unpack(self._steps[index])

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return map(_unpack, self._steps)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History):
            return self._steps == other._steps
        if isinstance(other, list):
            return len(other) == len(self._steps) and all(
                a == b for a, b in zip(self, other, strict=True)
            )
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # (changes: no hash, as a list)

    def __repr__(self) -> str:
        return f"History({list(self)!r})"
