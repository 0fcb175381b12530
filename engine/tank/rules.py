"""Teach the tank rules in words, with every ruling the bot applies, in the current language."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from functools import cache

from engine.tank.cards import CARDS
from engine.tank.data import DATA_PATH, RULES, CardKind, Goal, Marking
from i18n import _, ngettext, npgettext, pgettext


def rules() -> str:
    """Return the rules in a few lines plus one line per ruling, with every number read from data."""
    setups = dict(sorted(RULES.setups.items()))
    kinds = {k.key: k for k in RULES.kinds}
    chest = _kind_name(kinds["chest"])
    passes_two = sorted(n for n, s in setups.items() if s.passes == 2)
    few = RULES.min_players
    small = setups[few]
    discus = kinds["discus"].scoring["ranks"]
    gourami = kinds["gourami"]
    # TRANSLATORS: one entry of the list of grid sizes per player count, e.g. "3 players 4x4".
    grids = [
        npgettext(
            "rules: grid per player count", "{n} player {side}x{side}", "{n} players {side}x{side}", n, side=s.grid
        )
        for n, s in setups.items()
    ]
    # TRANSLATORS: one entry of the list of rounds per player count, e.g. "3 players: 3".
    rounds = [
        npgettext("rules: rounds per player count", "{n} player: {rounds}", "{n} players: {rounds}", n, rounds=s.rounds)
        for n, s in setups.items()
    ]
    # TRANSLATORS: how one fish type scores, e.g. "Angelfish: 9 per set of 3".
    scoring = [
        pgettext("rules: fish scoring", "{name}: {scoring}", name=_kind_name(kind), scoring=_scoring(kind))
        for kind in RULES.fish
    ]
    # TRANSLATORS: the fish types that share one spread of markings, then the spread,
    # e.g. "Guppy, Discus and Molly 7 unmarked, 1 3+, 3 4+, 3 5".
    markings = [
        pgettext("rules: marking spread", "{kinds} {spread}", kinds=_and(names), spread=spread)
        for spread, names in _spreads().items()
    ]
    # TRANSLATORS: one goal card and what it asks for, e.g. "Big School: At least 6 fish of one type".
    goals = [
        pgettext("rules: goal", "{name}: {text}", name=pgettext("goal name", goal.name), text=_goal_text(goal))
        for goal in RULES.goals
    ]
    lines = [
        _(
            "**{title}** ({low}-{high} players): build the best aquarium.",
            title=pgettext("game title", RULES.title),
            low=RULES.min_players,
            high=RULES.max_players,
        ),
        _(
            "Each round the school of fish is dealt face up in a square grid ({grids}).",
            grids=_commas(grids),
        ),
        _(
            "Split phase: from the start player, clockwise, each player cuts one group in two along a full line: "
            "h1, h2... run between rows, v1, v2... between columns."
        ),
        _(
            "Take phase: in the same order each player takes one group into their hidden aquarium; "
            "the group left over is discarded."
        ),
        _(
            "With {counts} players everyone splits and takes twice, the second pass in reverse order.",
            counts=_and([str(n) for n in passes_two]),
        ),
        _(
            "Rounds: {rounds}. The start player moves one seat clockwise each round.",
            rounds=_commas(rounds),
        ),
        _(
            "Scoring: {kinds}; {chest} {chest_points}; goal card {goal_points}.",
            kinds=_semicolons(scoring),
            chest=chest,
            chest_points=RULES.chest_points,
            goal_points=RULES.goal_points,
        ),
        _("Rulings applied:"),
        ngettext(
            "- {players}-player grid is {side}x{side} (the deck has exactly {n} round x {cards} cards), as the "
            "Gameplay section says.",
            "- {players}-player grid is {side}x{side} (the deck has exactly {n} rounds x {cards} cards), as the "
            "Gameplay section says.",
            small.rounds,
            players=few,
            side=small.grid,
            cards=small.grid * small.grid,
        ),
        _(
            "- Player-count markings: {markings}; the {chest} is unmarked. Decks: {decks} cards.",
            markings=_semicolons(markings),
            chest=chest,
            decks=" / ".join(str(sum(1 for c in CARDS.values() if c.min_players <= n)) for n in sorted(setups)),
        ),
        _(
            "- {molly} values (house values): {values}.",
            molly=_kind_name(kinds["molly"]),
            values=_semicolons(
                _marked(marking, _commas(map(str, kinds["molly"].values[marking.key])))
                for marking in RULES.markings
                if kinds["molly"].values.get(marking.key)
            ),
        ),
        ngettext(
            "- Goal cards (house goals, one drawn per game, {points} point): {goals}.",
            "- Goal cards (house goals, one drawn per game, {points} points): {goals}.",
            RULES.goal_points,
            points=RULES.goal_points,
            goals=_semicolons(goals),
        ),
        _("- The start player is drawn at random and rotates clockwise each round."),
        _(
            "- Groups are numbered (seats use letters). A 1x1 group cannot be split; a cut runs along a full line "
            "through the group. The split group keeps its number for its top or left part, the new part takes the "
            "next unused number."
        ),
        ngettext(
            "- {gourami}: for each {gourami} in the group you just took you may discard {n} other fish you hold, "
            "face down, or keep them all. The {gouramis} of that same take and the {chest} cannot be discarded; "
            "{gouramis} from earlier takes can.",
            "- {gourami}: for each {gourami} in the group you just took you may discard {n} other fish you hold, "
            "face down, or keep them all. The {gouramis} of that same take and the {chest} cannot be discarded; "
            "{gouramis} from earlier takes can.",
            gourami.discards,
            gourami=_kind_name(gourami),
            gouramis=_kind_plural(gourami),
            chest=chest,
        ),
        _(
            "- {discus}: every player at the highest non-zero count scores {first}, every player at the next "
            "distinct count {second}; zero {discus} scores nothing.",
            discus=_kind_name(kinds["discus"]),
            first=discus[0],
            second=discus[1],
        ),
        _("- Aquariums are hidden until the end; everyone sees how many cards each player holds and discarded."),
        _("- Final scoring is revealed to all; the highest total wins and ties share the victory."),
        _(
            "- A player who resigns leaves the turn order and cannot win; their aquarium takes no part in "
            "{discus}. If they had already split this round, the last pending split is dropped so one group is "
            "still left over; if they leave during the take phase, every group left after the last take is "
            "discarded. With fewer than {players} players left the game ends.",
            discus=_kind_name(kinds["discus"]),
            players=RULES.min_players,
        ),
    ]
    return "\n".join(lines)


def _scoring(kind: CardKind) -> str:
    """Return how one fish type scores, in a few words read from data, e.g. "9 per set of 3"."""
    rule = kind.scoring
    match rule["kind"]:
        case "printed":
            return pgettext("rules: scoring", "the value printed on each")
        case "each" if kind.discards:
            return npgettext(
                "rules: scoring",
                "{points} each, lets you discard up to {n} other fish",
                "{points} each, lets you discard up to {n} other fish",
                kind.discards,
                points=rule["points"],
            )
        case "each":
            return pgettext("rules: scoring", "{points} each", points=rule["points"])
        case "majority":
            return pgettext(
                "rules: scoring",
                "{ranks} (compared at the end)",
                ranks=_commas(_place(i, p) for i, p in enumerate(rule["ranks"])),
            )
        case "parity":
            return pgettext(
                "rules: scoring",
                "odd count {odd} each, even count {even} each",
                odd=rule["odd_each"],
                even=rule["even_each"],
            )
        case "sets":
            return pgettext("rules: scoring", "{points} per set of {size}", points=rule["points"], size=rule["size"])
        case "table":
            table = rule["table"]
            last = len(table) - 1
            counts = [*map(str, range(1, last)), pgettext("rules: scoring", "{n}+", n=last)]
            return pgettext(
                "rules: scoring",
                "{points} for {counts} cards",
                points=_commas(map(str, table[1:])),
                counts=_commas(counts),
            )
    raise ValueError(f"{kind.key}: unknown scoring kind {rule['kind']!r}")


def _place(index: int, points: int) -> str:
    """Return the points of one place in a majority, e.g. "second most 5"."""
    places = (
        pgettext("rules: scoring", "most {points}", points=points),
        pgettext("rules: scoring", "second most {points}", points=points),
        pgettext("rules: scoring", "third most {points}", points=points),
        pgettext("rules: scoring", "fourth most {points}", points=points),
    )
    return places[index]


def _spreads() -> dict[str, list[str]]:
    """Return each spread of player-count markings ("7 unmarked, 1 3+, ...") with the fish types printed so."""
    spreads: dict[str, list[str]] = {}
    for kind in RULES.fish:
        spread = _commas(
            _marked_count(marking, kind.cards[marking.key]) for marking in RULES.markings if kind.cards.get(marking.key)
        )
        spreads.setdefault(spread, []).append(_kind_name(kind))
    return spreads


def _marked_count(marking: Marking, count: int) -> str:
    """Return how many cards of a fish type carry one marking, e.g. "3 4+" or "7 unmarked"."""
    if not marking.label:
        # TRANSLATORS: how many cards of a fish type carry no player-count marking.
        return npgettext("rules: marking count", "{n} unmarked", "{n} unmarked", count)
    # TRANSLATORS: how many cards of a fish type carry a player-count marking such as "4+" (shown as printed).
    return npgettext("rules: marking count", "{n} {label}", "{n} {label}", count, label=marking.label)


def _marked(marking: Marking, values: str) -> str:
    """Return the values printed on the cards of one marking, e.g. "4+ 1, 2, 4" or "unmarked 1, 2"."""
    if not marking.label:
        return pgettext("rules: Molly values", "unmarked {values}", values=values)
    return pgettext("rules: Molly values", "{label} {values}", label=marking.label, values=values)


def _kind_name(kind: CardKind) -> str:
    """Return the name of a fish type or the Treasure Chest in the current language."""
    if not kind.is_fish:
        return pgettext("Tank card name", kind.name)
    return npgettext("fish kind", kind.name, kind.plural, 1)


def _kind_plural(kind: CardKind) -> str:
    """Return the plural name of a fish type in the current language (several cards of it)."""
    return npgettext("fish kind", kind.name, kind.plural, 2)


@cache
def _goal_templates() -> dict[str, str]:
    """Return each goal's text as written in data, its number still a placeholder."""
    raw = json.loads(DATA_PATH.read_text())
    return {g["key"]: g["text"] for g in raw["goals"]}


def _goal_text(goal: Goal) -> str:
    """Return what a goal card asks for, in the current language."""
    return pgettext("goal text", _goal_templates()[goal.key], min=goal.minimum)


def _commas(items: Iterable[str]) -> str:
    """Return items joined into a list the way the current language writes one: "1, 2, 3"."""
    return pgettext("rules: list separator", ", ").join(items)


def _semicolons(items: Iterable[str]) -> str:
    """Return longer items joined the way the current language separates them: "a, b; c, d"."""
    return pgettext("rules: list separator between longer items", "; ").join(items)


def _and(parts: Sequence[str]) -> str:
    """Return "A", "A and B" or "A, B and C" in the current language."""
    if len(parts) <= 1:
        return "".join(parts)
    # TRANSLATORS: the last two items of a list, e.g. "Guppy, Discus and Molly".
    return pgettext("rules: list end", "{items} and {last}", items=_commas(parts[:-1]), last=parts[-1])
