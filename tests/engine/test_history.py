"""What a game keeps for long (its history, its log's events with a private part, who
knows which card, the changes counted this turn) holds nothing Python's cyclic collector
walks at each pass once it saw it, and is saved in the same shape as before: lists and
dicts of JSON."""

from __future__ import annotations

import gc
import json
import random

from dame_nature.bots.random_play import random_step
from dame_nature.engine import MODES, Game, State
from dame_nature.engine.game import get_game
from dame_nature.engine.history import History


def played(seed: int, players: int, modes: tuple[str, ...]) -> State:
    rng = random.Random(seed)
    state = Game(players, modes).new_initial_state(seed=seed)
    while not state.is_over:
        state.apply(*random_step(state, rng))
    return state


GAMES = [(seed, 3 + seed % 4, tuple(MODES[: seed % (len(MODES) + 1)])) for seed in range(8)]


def test_the_history_and_the_private_events_are_left_out_of_the_collectors_passes():
    gc.collect()  # as the server's start-up, before it plays
    for seed, players, modes in GAMES:
        state = played(seed, players, modes)
        gc.collect()
        private = [e for e in state.log if "_private" in e]
        assert private, (seed, players, modes)
        assert [e for e in private if gc.is_tracked(e)] == [], (seed, players, modes)
        kept = [o for o in gc.get_referents(state.history) if not isinstance(o, (type, bool))]
        assert len(kept) == 2 and all(type(o) is list for o in kept)
        assert not any(gc.is_tracked(atom) for atoms in kept for atom in gc.get_referents(atoms))
        pairs = [pair for entries in state.known for pair in entries]
        assert not any(map(gc.is_tracked, pairs)), seed


def test_an_action_added_makes_no_object_the_collector_tracks():
    """Not even one a young pass would walk once before it found it holds atoms only."""
    state = played(0, 3, ())
    history = History(state.history)  # (a copy shares its lists until its first entry)
    actions = [entry["action"] for entry in state.history]
    gc.collect()
    gc.disable()
    try:
        for seat, action in enumerate(actions):
            gc.freeze()
            history.add(seat % 3, action)
            made = gc.get_objects(0)
            assert made == [], action
    finally:
        gc.unfreeze()
        gc.enable()
    assert history[len(actions) :] == [
        {"seat": seat % 3, "action": action} for seat, action in enumerate(actions)
    ]


def test_an_action_of_the_base_game_leaves_alive_only_a_reveals_order_and_its_outcomes():
    """Once the cards and the slots were met (the pairs of who knows which card and the
    core's reveal outcomes are made once for the process), an action leaves alive no
    object the collector tracks but the ``reveal_started`` event with its order and the
    list of the outcomes of a reveal the game waits for: no history entry, no pair, no
    ``Outcome``, no list made again for the ready flags, the reveal queue or the turn's
    records."""
    games = [(seed, 3 + seed % 4) for seed in range(8)]
    for seed, players in games:  # the warm-up: the same games, once
        played(seed, players, ())
    for seed, players in games:
        rng = random.Random(seed)
        state = Game(players).new_initial_state(seed=seed)
        gc.collect()
        gc.disable()
        try:
            while not state.is_over:
                seat, action = random_step(state, rng)
                start = len(state.log)
                gc.freeze()
                state.apply(seat, action)
                made = gc.get_objects(0)
                expected = [e for e in state.log[start:] if e["type"] == "reveal_started"]
                expected += [e["order"] for e in expected] + [state._awaited]
                left = [o for o in made if not any(o is e for e in expected)]
                assert left == [], (seed, len(state.history), action)
        finally:
            gc.unfreeze()
            gc.enable()


def test_no_action_of_any_rule_leaves_a_tuple_alive():
    """Under the advanced rules too: no history entry, pair or core ``Outcome`` left for
    a young pass (the rules' games shared, as ``get_game`` gives them)."""
    games = [
        (seed, 3 + seed % 4, MODES if seed % 2 else MODES[seed % len(MODES) :][:3])
        for seed in range(16)
    ]
    for seed, players, modes in games:  # the warm-up: the same games, once
        rng = random.Random(seed)
        state = get_game(players, modes).new_initial_state(seed=seed)
        while not state.is_over:
            state.apply(*random_step(state, rng))
    for seed, players, modes in games:
        rng = random.Random(seed)
        state = get_game(players, modes).new_initial_state(seed=seed)  # (the rules shared)
        gc.collect()
        gc.disable()
        try:
            while not state.is_over:
                step = random_step(state, rng)
                gc.freeze()
                state.apply(*step)
                made = [o for o in gc.get_objects(0) if isinstance(o, tuple)]
                assert made == [], (seed, modes, len(state.history), step)
        finally:
            gc.unfreeze()
            gc.enable()


def test_what_a_version_derives_is_made_of_no_object_the_collector_tracks():
    """The winnable test, the changes counted this turn and which wait the awaited
    outcomes are of are worked out again at each version: held in objects the collector
    tracks (tuples), each version would give its next young pass one more to walk. The
    seat the game waits for is one tuple for the process (the views keep it)."""
    for seed, players, modes in GAMES:
        rng = random.Random(seed)
        state = Game(players, modes).new_initial_state(seed=seed)
        while not state.is_over:
            state.apply(*random_step(state, rng))
            state.is_winnable()
            held = (state._winnable, state._changes, state._awaited_at)
            assert not any(map(gc.is_tracked, held)), (seed, len(state.history))
            awaited = state.awaited()
            assert awaited is None or awaited is state.awaited(), (seed, awaited)


def test_the_saved_shape_is_a_list_of_dicts_and_round_trips():
    for seed, players, modes in GAMES:
        state = played(seed, players, modes)
        data = state.to_json()
        assert type(data["history"]) is list and len(data["history"]) == len(state.history)
        assert all(set(entry) == {"seat", "action"} for entry in data["history"])
        saved = [e for e in data["log"] if "_private" in e]
        assert saved and all(
            type(e["_private"]) is dict and type(e["_seen_by"]) is list for e in saved
        )
        again = State.from_json(json.loads(json.dumps(data)))
        assert again.to_json() == data
        assert again.history == state.history and again.log == state.log
        assert State.replay(state.setup, data["history"]).to_json() == data
        for seat in [None, *range(players)]:
            assert again.view(seat) == state.view(seat)


def test_a_game_saved_midway_goes_on_as_the_one_not_saved():
    for seed, players, modes in GAMES:
        rng = random.Random(seed)
        state = Game(players, modes).new_initial_state(seed=seed)
        for _ in range(40):
            if not state.is_over:
                state.apply(*random_step(state, rng))
        saved = State.from_json(json.loads(json.dumps(state.to_json())))
        assert saved.known == state.known and saved._changes is None
        again = random.Random(seed + 1)
        steps = []
        while not state.is_over:
            steps.append(random_step(state, again))
            state.apply(*steps[-1])
        for step in steps:
            saved.apply(*step)
        assert saved.to_json() == state.to_json()
        assert saved.known == state.known and saved.log == state.log


def test_a_history_reads_as_the_list_of_its_entries():
    entries = [
        {"seat": 0, "action": {"type": "program", "card": "x"}},
        {"seat": 2, "action": {"type": "place", "slot": "a1", "colour": None}},
    ]
    history = History(entries[:1])
    history.add(2, {"type": "place", "slot": "a1", "colour": None})
    assert history == entries and list(history) == entries and history[:1] == entries[:1]
    assert history[-1] == entries[-1] and len(history) == 2
    history[0]["action"]["card"] = "y"  # a reader's copy: nothing kept changes
    assert history[0] == entries[0]
    copy = history.copy()
    copy.append(entries[0])
    assert len(history) == 2 and len(copy) == 3


def test_a_private_part_is_kept_as_the_text_json_writes():
    """``changes._text`` writes an object of strings itself: the same text as ``json``'s
    compact encoder for any strings (quotes, controls, non-ASCII, lone surrogates), and
    anything else through that encoder."""
    from dame_nature.engine.changes import _text

    rng = random.Random(22)
    alphabet = ['"', "\\", "/", "\n", "\x00", "\x1f", "\x7f", "é", "€", "\ud800", "😀", "a", " "]
    values: list[object] = [0, -3, 2**70, 1.5, True, None, [1, "x"], {"a": "b"}]
    for _ in range(3_000):
        part: dict[object, object] = {}
        for _ in range(rng.randrange(0, 4)):
            key = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 6)))
            value = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 8)))
            part[key] = value if rng.random() < 0.8 else rng.choice(values)
        if rng.random() < 0.05:
            part[rng.choice([1, None, True])] = "x"
        assert _text(part) == json.dumps(part, separators=(",", ":")), part  # type: ignore[arg-type]
    assert _text({"card": "cond-blue-1"}) == '{"card":"cond-blue-1"}'


def test_copies_of_a_history_are_independent():
    """A copy shares the lists of the history it copies until one of them adds an entry."""
    first = History([{"seat": 0, "action": {"type": "ready"}}])
    second = first.copy()
    third = second.copy()
    first.add(1, {"type": "program", "card": "x"})
    second.add(2, {"type": "ready"})
    assert len(third) == 1 and third[-1] == {"seat": 0, "action": {"type": "ready"}}
    third.add(3, {"type": "unready"})
    assert [e["seat"] for e in first] == [0, 1]
    assert [e["seat"] for e in second] == [0, 2]
    assert [e["seat"] for e in third] == [0, 3]
    assert first[1]["action"] == {"type": "program", "card": "x"}
