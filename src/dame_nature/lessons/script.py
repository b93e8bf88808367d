"""A lesson's script turned into a game: the deal, the whole line of play and the
learner's steps.

A script lists, turn by turn, the cards revealed in reveal order (from that turn's first
player) with where each goes, and the Symbioses played during programming. Who reveals
what follows from the seat order, so the deal is derived from the script (walking it
backwards: before a reveal its player held the card; before a Give the card was the
giver's...) and the line is found by playing the script forwards on the engine. A
script that breaks a rule fails here, on the engine, with the engine's own sentence.

>>> from dame_nature.lessons import LESSONS
>>> lesson = LESSONS["first-turns"]
>>> lesson.state_at(len(lesson.steps)).result["outcome"]
'won'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine import ACTIONS, Game, State, french
from ..engine.cards import CATALOGUE, COLOUR_LETTERS, COLOUR_WORDS
from . import texts

Action = dict[str, Any]
Text = dict[str, str]  # {"en": ..., "fr": ...}

#: the colours' names on the cards, in both languages
COLOURS: dict[str, Text] = {
    colour: {"en": en, "fr": fr} for colour, (en, fr) in COLOUR_WORDS.items()
}
LETTERS = COLOUR_LETTERS


def card_name(card: str, lang: str, colour: str | None = None) -> str:
    """A card as the lessons name it: "hydric Condition [H]", "Joker", "Jonc (Rush)"."""
    c = CATALOGUE.card(card)
    if c.type == "condition":
        assert c.colour is not None  # every Condition has one
        word = COLOURS[c.colour][lang]
        n = card.rsplit("-", 1)[-1]
        if lang == "fr":
            return f"Condition {word} {n} [{LETTERS[c.colour]}]"
        return f"{word} Condition {n} [{LETTERS[c.colour]}]"
    if c.type == "joker":
        if colour:
            word = COLOURS[colour][lang]
            return f"Joker ({word})"
        return "Joker"
    if c.type == "species":
        name = c.name_fr or card
        return name if lang == "fr" else f"{name} ({c.name_en or name})"
    return card


def the_fr(card: str, colour: str | None = None) -> str:
    """A card as the lessons name it in French, with its article: "la Condition hydrique
    3 [H]", "le Joker (hydrique)", "l'Ortie"."""
    return french.the(card, card_name(card, "fr", colour))


def slot_name(slot: str, lang: str) -> str:
    """A place of the web: "Jonc, Condition 1" in English; in French with its article,
    "le Jonc" (the Species' own place) or "la place géologique du Jonc"."""
    species, _, n = slot.partition(":")
    name = CATALOGUE.card(species).name_fr or species
    if lang == "fr":
        if not n:
            return french.the(species)
        layouts = CATALOGUE.raw["layouts"].values()
        colour = next(layout[species] for layout in layouts if species in layout)
        return f"la place {COLOURS[colour['conditions'][int(n) - 1]]['fr']} {french.of(species)}"
    if not n:
        return name
    return f"{name}, Condition {n}"


@dataclass(frozen=True)
class Step:
    """One action the lesson waits for from the learner."""

    index: int
    turn: int
    action: Action
    #: what the page points at: {"kind": "hand_card"|"ready"|"slot"|"symbiosis", ...}
    target: dict[str, Any]
    text: Text  # the instruction, after the lesson's note on this moment
    plain: Text  # the instruction alone (said again when another move is tried)
    why: Text  # why this move (said when another move is tried)


@dataclass
class Lesson:
    id: str
    number: int
    title: Text
    summary: Text
    num_players: int
    modes: tuple[str, ...]
    learner: int
    names: list[str]
    setup: dict[str, Any]
    #: every action of the game in order, ``{"seat", "action"}``
    line: list[dict[str, Any]]
    steps: list[Step]
    #: index in ``line`` of each step's action
    step_at: list[int]
    intro: Text
    outro: Text
    _states: dict[int, State] = field(default_factory=dict, repr=False)

    def state_at(self, done: int) -> State:
        """A fresh state after ``done`` steps of the learner and the partners' moves that
        follow them (a copy: the caller may change it)."""
        cached = self._states.get(done)
        if cached is None:
            end = self.step_at[done] if done < len(self.steps) else len(self.line)
            game = Game(self.num_players, self.modes)
            cached = State.new(game, self.setup)
            for entry in self.line[:end]:
                cached.apply(entry["seat"], entry["action"])
            self._states[done] = cached
        return cached.clone()


def _clean(action: Action) -> Action:
    return ACTIONS[action["type"]].clean(action)


def derive_deal(script: dict[str, Any]) -> dict[str, Any]:
    """The hands the script needs, found by walking it backwards."""
    n = script["players"]
    hands: list[list[str]] = [[] for _ in range(n)]
    timeline: list[tuple[str, Any]] = []
    first = script["first_player"]
    for t, turn in enumerate(script["turns"]):
        fp = (first + t) % n
        for event in turn.get("symbioses", []):
            timeline.append(("symbiosis", event))
        for k, reveal in enumerate(turn["reveals"]):
            timeline.append(("reveal", ((fp + k) % n, reveal[0])))
    for kind, item in reversed(timeline):
        if kind == "reveal":
            seat, card = item
            hands[seat].insert(0, card)
        elif item["type"] == "give":
            giver, taker, card, back = item["seat"], item["to"], item["card"], item["back"]
            hands[taker].remove(card)
            hands[giver].append(card)
            hands[giver].remove(back)
            hands[taker].append(back)
        elif item["type"] == "swap_discard":
            hands[item["seat"]].remove(item["take"])
            hands[item["seat"]].append(item["card"])
    return {"hands": [sorted(h) for h in hands], "first_player": first}


def build(script: dict[str, Any]) -> Lesson:
    """Play the script on the engine; raise ``IllegalAction`` where it breaks a rule."""
    n, learner = script["players"], script["learner"]
    game = Game(n, tuple(script.get("modes", ())))
    deal = derive_deal(script)
    state = game.new_initial_state(deal=deal)
    setup = state.setup
    line: list[dict[str, Any]] = []
    steps: list[Step] = []
    step_at: list[int] = []
    notes: dict[tuple[int, str], Text] = {}
    for t, turn in enumerate(script["turns"]):
        for key, note in turn.get("say", {}).items():
            notes[(t, key)] = note

    def act(seat: int, action: Action, turn: int, key: str = "") -> None:
        action = _clean(action)
        if seat == learner:
            plain, why, target = texts.instruction(state, action, script["names"])
            note = notes.get((turn, key or action["type"]))
            text = plain
            if note:
                text = {lang: f"{note[lang]} {plain[lang]}" for lang in ("en", "fr")}
            why_note = notes.get((turn, (key or action["type"]) + ".why"))
            steps.append(Step(len(steps), turn, action, target, text, plain, why_note or why))
            step_at.append(len(line))
        state.apply(seat, action)
        line.append({"seat": seat, "action": action})

    first = script["first_player"]
    for t, turn in enumerate(script["turns"]):
        if state.is_over:
            raise ValueError(f"The game ended before turn {t + 1} of the script.")
        fp = (first + t) % n
        order = [(fp + k) % n for k in range(n)]
        reveals = dict(zip(order, turn["reveals"], strict=True))
        partners_first = sorted(order, key=lambda s: s == learner)
        for event in turn.get("symbioses", []):
            if event.get("when") == "before":
                _symbiosis(act, event, t)
        for seat in partners_first:
            if reveals[seat][0] in state.hands[seat]:
                act(seat, {"type": "program", "card": reveals[seat][0]}, t)
        for event in turn.get("symbioses", []):
            if event.get("when") != "before":
                _symbiosis(act, event, t)
        for seat in partners_first:
            if state.programmed[seat] is None:
                act(seat, {"type": "program", "card": reveals[seat][0]}, t, "program.late")
            act(seat, {"type": "ready"}, t)
        while state.phase == "reveal" and not state.is_over:
            awaited = state.awaited()
            assert awaited is not None
            seat = awaited[0]
            card, slot, colour = (list(reveals[seat]) + [None, None])[:3]
            target = reveals[seat][3] if len(reveals[seat]) > 3 else None
            act(seat, {"type": "reveal", "slot": slot, "colour": colour, "target": target}, t)
        _check_turn(state, t, order, reveals)
    if state.result is None or state.result.get("outcome") != "won":
        raise ValueError(f"Lesson {script['id']!r} does not end in a win: {state.result}")
    return Lesson(
        id=script["id"],
        number=script["number"],
        title=script["title"],
        summary=script["summary"],
        num_players=n,
        modes=game.modes,
        learner=learner,
        names=script["names"],
        setup=setup,
        line=line,
        steps=steps,
        step_at=step_at,
        intro=script["intro"],
        outro=script["outro"],
    )


def _symbiosis(act: Any, event: dict[str, Any], turn: int) -> None:
    seat = event["seat"]
    if event["type"] == "give":
        act(seat, {"type": "give", "card": event["card"], "to": event["to"]}, turn)
        act(event["to"], {"type": "give_back", "card": event["back"]}, turn)
    elif event["type"] == "show":
        act(seat, {"type": "show", "card": event["card"], "to": event.get("to")}, turn)
    else:
        act(seat, {"type": "swap_discard", "card": event["card"], "take": event["take"]}, turn)


def _check_turn(state: State, t: int, order: list[int], reveals: dict[int, Any]) -> None:
    """Each reveal of the turn went where the script says (a card the script discards
    was discarded)."""
    records = state.last_turn if not state.is_over else state.revealed_this_turn or state.last_turn
    for record in records:
        wanted = reveals[record["seat"]]
        slot = wanted[1] if len(wanted) > 1 else None
        placed = record["result"] == "placed"
        if (
            record["card"] != wanted[0]
            or (placed and record["slot"] != slot)
            or (not placed and slot is not None)
        ):
            raise ValueError(f"Turn {t + 1}: {record} is not the script's {wanted}.")
