"""``History``: a game's actions in order, each read as ``{"seat", "action"}``.

A game keeps every action it was played with, for as long as it lives: one entry an
action. Kept as dicts, each entry would be a dict holding a dict, which Python's cyclic
collector tracks and walks at each of its middle passes for as long as the game lives;
kept as one tuple of atoms an entry, each would still be one more object for the next
young pass to walk (a tuple is tracked from its making until a pass finds it holds atoms
only) and one more in the count that triggers those passes. ``History`` keeps the whole
game in two lists instead, made once a game: the entries' atoms one after the other
(``seat``, then the action's keys in order, then its values in the same order) and where
each entry ends; an action added makes no object the collector tracks (its keys and its
values are each added by the list's own extension from the dict, with no pair made a
field). The ``{"seat", "action"}`` dicts are built when an entry is read: fresh dicts,
so a reader that changes one changes nothing kept. ``State.to_json`` saves the dicts
(``list(history)``), so the stored format is the one of a list of dicts.

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
from typing import Any, overload

__all__ = ["History"]


def _unpack(step: list[Any]) -> dict[str, Any]:
    """The entry of ``step``: its seat, then its ``n`` keys, then their ``n`` values."""
    keys_end = len(step) // 2 + 1
    return {"seat": step[0], "action": dict(zip(step[1:keys_end], step[keys_end:], strict=True))}


class History(Sequence[dict[str, Any]]):
    """A game's actions, ``{"seat": int, "action": {..}}`` each (see the module)."""

    __slots__ = ("_atoms", "_ends", "_shared")

    def __init__(self, entries: Iterable[dict[str, Any]] = ()) -> None:
        #: every entry's atoms, one entry after the other
        self._atoms: list[Any] = []
        #: where each entry ends in ``_atoms`` (where the next starts)
        self._ends: list[int] = []
        #: whether the two lists may be another history's too (``copy``): copied before
        #: they are changed
        self._shared = False
        for entry in entries:
            self.add(entry["seat"], entry["action"])

    def add(self, seat: int, action: dict[str, Any]) -> None:
        """Append ``{"seat": seat, "action": action}`` (the action's fields as they are
        now: a later change of ``action`` is not seen)."""
        if self._shared:
            self._atoms, self._ends, self._shared = self._atoms[:], self._ends[:], False
        atoms = self._atoms
        atoms.append(seat)
        atoms += action
        atoms += action.values()
        self._ends.append(len(atoms))

    def append(self, entry: dict[str, Any]) -> None:
        self.add(entry["seat"], entry["action"])

    def copy(self) -> History:
        """An independent history with the same entries: it shares this one's lists until
        either adds an entry (which copies them first)."""
        new = History.__new__(History)
        new._atoms, new._ends = self._atoms, self._ends
        new._shared = self._shared = True
        return new

    def _step(self, index: int) -> list[Any]:
        """The atoms of entry ``index`` (0 <= index < len)."""
        ends = self._ends
        return self._atoms[ends[index - 1] if index else 0 : ends[index]]

    def __len__(self) -> int:
        return len(self._ends)

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [_unpack(self._step(i)) for i in range(len(self._ends))[index]]
        n = len(self._ends)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("history index out of range")
        return _unpack(self._step(index))

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return map(_unpack, map(self._step, range(len(self._ends))))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History):
            return self._ends == other._ends and self._atoms == other._atoms
        if isinstance(other, list):
            return len(other) == len(self._ends) and all(
                a == b for a, b in zip(self, other, strict=True)
            )
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # (changes: no hash, as a list)

    def __repr__(self) -> str:
        return f"History({list(self)!r})"
