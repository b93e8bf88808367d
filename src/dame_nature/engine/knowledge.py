"""Who knows which card of whose: the privacy core of the engine.

``known[viewer]`` lists the ``(owner, card)`` pairs ``viewer`` knows to be in ``owner``'s
hand (or programmed); the last entry, ``known[PUBLIC]``, is what everyone, spectators
too, knows. A player never "knows" their own cards here: they see them anyway.

The rules of knowledge (the rulebook leaves them partly open; the engine decides as
``docs/rulings.md`` says, "What each player knows"):

- a card shown is known by its audience (everyone: ``PUBLIC`` too);
- a card taken from the discard pile or a Cat back to hand is known by everyone;
- a card that leaves its owner (revealed, swapped away) is no longer known as theirs;
- a secret exchange (give / give back) lets the two players know the card given, and
  makes everyone else forget what they knew of the giver's cards (they can no longer
  tell which one left).

Every function changes ``known`` in place and keeps the entries' order (the JSON state
and the views list them in the order they were learnt).

>>> known = new_knowledge(3)
>>> learn(known, 1, 0, "cond-blue-1"); learn_by_all(known, 2, "cat-1")
>>> known_by(known, 0, 3), known_by(known, 2, 3)
({'cond-blue-1': [1]}, {'cat-1': [0, 1]})
>>> forget_card(known, 0, "cond-blue-1"); known[1]
[(2, 'cat-1')]
"""

from __future__ import annotations

from typing import Any

#: the viewer index of what everyone (spectators too) knows: the last list of ``known``
PUBLIC = -1

#: per viewer (seats, then PUBLIC): ``(owner, card)`` pairs, tuples of atoms (saved as
#: ``[owner, card]`` lists: ``from_json`` turns them back into tuples). Each pair is made
#: once for the process (``pair``) and shared by every game, and the lists are changed in
#: place: a card learnt or forgotten makes no object the cyclic collector tracks, where a
#: new pair would be one for the next young pass to walk
Knowledge = list[list[tuple[int, str]]]

#: each card's pairs, by owner: ``_PAIRS[card][owner]``
_PAIRS: dict[str, list[tuple[int, str]]] = {}


def pair(owner: int, card: str) -> tuple[int, str]:
    """``(owner, card)``, the one tuple of the process."""
    pairs = _PAIRS.get(card)
    if pairs is None:
        pairs = _PAIRS[card] = []
    if owner >= len(pairs):
        pairs += [(o, card) for o in range(len(pairs), owner + 1)]
    return pairs[owner]


def new_knowledge(num_players: int) -> Knowledge:
    return [[] for _ in range(num_players + 1)]


def from_json(saved: list[list[Any]]) -> Knowledge:
    """``known`` as saved (``[owner, card]`` lists) in its shape in memory."""
    return [[pair(owner, card) for owner, card in entries] for entries in saved]


def learn(known: Knowledge, viewer: int, owner: int, card: str) -> None:
    """``viewer`` (a seat or ``PUBLIC``) now knows ``card`` is ``owner``'s."""
    if viewer == owner:
        return
    entries = known[viewer]
    shared = pair(owner, card)
    if shared not in entries:
        entries.append(shared)


def learn_by_all(known: Knowledge, owner: int, card: str) -> None:
    """Everyone (every seat and spectators) now knows ``card`` is ``owner``'s."""
    learn(known, PUBLIC, owner, card)
    for viewer in range(len(known) - 1):
        learn(known, viewer, owner, card)


def forget_card(known: Knowledge, owner: int, card: str) -> None:
    """``card`` left ``owner``: nobody knows it as theirs any more."""
    shared = pair(owner, card)
    for entries in known:
        if shared in entries:
            entries.remove(shared)  # (a list holds a pair once: ``learn``)


def move_secretly(known: Knowledge, giver: int, receiver: int, card: str) -> None:
    """``card`` goes face down from ``giver`` to ``receiver``: only the two know which."""
    forget_card(known, giver, card)
    last = len(known) - 1
    for viewer, entries in enumerate(known):
        seat = PUBLIC if viewer == last else viewer
        if seat not in (giver, receiver) and entries:
            entries[:] = [k for k in entries if k[0] != giver]
    learn(known, giver, receiver, card)


def known_to(known: Knowledge, viewer: int | None) -> list[dict[str, Any]]:
    """What ``viewer`` (``None``: a spectator) knows of the others' cards, as the view
    lists it."""
    return [known_item(owner, card) for owner, card in pairs_known_to(known, viewer)]


def pairs_known_to(known: Knowledge, viewer: int | None) -> list[tuple[int, str]]:
    """The ``(owner, card)`` pairs ``viewer`` (``None``: a spectator) knows (the list
    kept: read only)."""
    return known[PUBLIC if viewer is None else viewer]


def known_item(owner: int, card: str) -> dict[str, Any]:
    """A pair as an item of a view's ``known``."""
    return {"seat": owner, "card": card}


def known_by(known: Knowledge, seat: int, num_players: int) -> dict[str, list[int]]:
    """Which other players know which of ``seat``'s cards: ``{card: [seats]}``."""
    result: dict[str, list[int]] = {}
    for other in range(num_players):
        for owner, card in known[other]:
            if owner == seat:
                result.setdefault(card, []).append(other)
    return result
