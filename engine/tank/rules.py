"""Teach the tank rules in words, with every ruling the bot applies."""

from __future__ import annotations

from engine.tank.cards import CARDS
from engine.tank.data import RULES
from engine.tank.text import join_names, kind_scoring, range_text


def rules() -> str:
    """Return the rules in a few lines plus one line per ruling, with every number read from data."""
    setups = RULES.setups
    kinds = {k.key: k for k in RULES.kinds}
    passes_two = sorted(n for n, s in setups.items() if s.passes == 2)
    scoring = [f"{kind.name}: {kind_scoring(kind)}" for kind in RULES.fish]
    molly = kinds["molly"]
    molly_values = "; ".join(
        f"{m.label or 'unmarked'} {', '.join(map(str, molly.values.get(m.key, [])))}"
        for m in RULES.markings
        if molly.values.get(m.key)
    )
    spreads: dict[str, list[str]] = {}
    for k in RULES.fish:
        spread = ", ".join(f"{k.cards[m.key]} {m.label or 'unmarked'}" for m in RULES.markings if k.cards.get(m.key, 0))
        spreads.setdefault(spread, []).append(k.name)
    markings = "; ".join(f"{join_names(kinds_named)} {spread}" for spread, kinds_named in spreads.items())
    totals = " / ".join(str(sum(1 for c in CARDS.values() if c.min_players <= n)) for n in sorted(setups))
    goals = "; ".join(f"{g.name}: {g.text}" for g in RULES.goals)
    grids = ", ".join(f"{n} players {s.grid}x{s.grid}" for n, s in sorted(setups.items()))
    snake = " and ".join(map(str, passes_two))
    few = RULES.min_players
    small = setups[few]
    discus = kinds["discus"].scoring["ranks"]
    gourami = kinds["gourami"].discards
    lines = [
        f"**{RULES.title}** ({RULES.min_players}-{RULES.max_players} players): build the best aquarium.",
        f"Each round the school of fish is dealt face up in a square grid ({grids}).",
        "Split phase: from the start player, clockwise, each player cuts one group in two along a full line: "
        "h1, h2... run between rows, v1, v2... between columns.",
        "Take phase: in the same order each player takes one group into their hidden aquarium; "
        "the group left over is discarded.",
        f"With {snake} players everyone splits and takes twice, the second pass in reverse order.",
        f"Rounds: {range_text({n: s.rounds for n, s in setups.items()})}. "
        "The start player moves one seat clockwise each round.",
        "Scoring: " + "; ".join(scoring) + f"; Treasure Chest {RULES.chest_points}; goal card {RULES.goal_points}.",
        "Rulings applied:",
        f"- {few}-player grid is {small.grid}x{small.grid} (the deck has exactly {small.rounds} rounds x "
        f"{small.grid * small.grid} cards), as the Gameplay section says.",
        f"- Player-count markings: {markings}; the Treasure Chest is unmarked. Decks: {totals} cards.",
        f"- Molly values (house values): {molly_values}.",
        f"- Goal cards (house goals, one drawn per game, {RULES.goal_points} points): {goals}.",
        "- The start player is drawn at random and rotates clockwise each round.",
        "- Groups are numbered (seats use letters). A 1x1 group cannot be split; a cut runs along a full line "
        "through the group. The split group keeps its number for its top or left part, the new part takes the "
        "next unused number.",
        f"- Gourami: for each Gourami in the group you just took you may discard {gourami} other fish you "
        "hold, face down, or keep them all. The Gouramis of that same take and the Treasure Chest cannot be "
        "discarded; Gouramis from earlier takes can.",
        f"- Discus: every player at the highest non-zero count scores {discus[0]}, every player at the "
        f"next distinct count {discus[1]}; zero Discus scores nothing.",
        "- Aquariums are hidden until the end; everyone sees how many cards each player holds and discarded.",
        "- Final scoring is revealed to all; the highest total wins and ties share the victory.",
        "- A player who resigns leaves the turn order and cannot win; their aquarium takes no part in "
        "Discus. If they had already split this round, the last pending split is dropped so one group is "
        "still left over; if they leave during the take phase, every group left after the last take is "
        f"discarded. With fewer than {RULES.min_players} players left the game ends.",
    ]
    return "\n".join(lines)
