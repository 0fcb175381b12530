"""Teach the flippers rules in words, with every ruling the bot applies."""

from __future__ import annotations

from engine.flippers.cards import (
    DATA,
    HAND_SIZE,
    LEADER_BONUS,
    MINUS_POINTS,
    PLUS_POINTS,
    POWER_NAMES,
    SETUP_DRAW,
    STARTING_STASH,
    SUPPLY_TOTAL,
    TEAM_UP_PLAYERS,
)
from engine.flippers.table import WORDS


def rules_text() -> str:
    """Return rules that teach a new player (terms, set-up, a turn, the example turn), then every ruling applied."""
    setup_rows = "\n".join(
        f"- {n} players: {row['food_cards']} Food card{'s' if row['food_cards'] != 1 else ''} on the table;"
        f" each player draws {SETUP_DRAW} and sets aside {row['discard']}"
        + (" (all of them: the bot does it for you)." if row["discard"] >= SETUP_DRAW else ".")
        for n, row in DATA["by_players"].items()
    )
    partners = " or ".join(map(str, TEAM_UP_PLAYERS))
    powers = ", ".join(POWER_NAMES.values())
    lines = [
        "**Flippers**: collect the most food points by placing cards that move, flip and block other cards.",
        "",
        "**The words**",
        f"- **Explorer**: one of your cards. Each player has a team of {len(POWER_NAMES)} Explorers of one species"
        f" (a colour and a letter on the board): {powers}. An Explorer card has a face-up side, which shows its power"
        " and can act and score, and a face-down side, which does neither.",
        "- **Leader**: your first Explorer. It goes on the table before the game starts and scores only at the end.",
        "- **Food card**: a card in the middle of the table with arrows; each arrow gives points at the end of the game"
        " to the face-up Explorer it points at. A Food card has two sides, A and B, with different arrows; a Flip"
        " turns it to its other side and a Turn rotates it, arrows and all.",
        f"- **Stash**: your points. You start with {STARTING_STASH}. **Supply**: the points left in the box"
        f" ({SUPPLY_TOTAL} in all); Plus takes from it and Minus gives back to it.",
        "- **Arrow**: every Explorer points one way (north, east, south or west) at the cell next to it; its power"
        " acts on the card in that cell. Switch points both ways sideways. On the board the arrow is the dark"
        " triangle on the card's edge.",
        "- **Block marker**: each species' token. A Block card puts it on the cell it points at: the card there"
        " cannot act while the marker stays.",
        "",
        "**Food cards (house values; arrows as printed with the card facing north)**",
        _food_sides(),
        "",
        "**Set-up**",
        "- The Food cards go in a row, on random sides. A first player is drawn at random.",
        "- From them, in seat order, each player puts their Leader on an empty cell beside a Food card, facing it.",
        f"- Then everyone draws {SETUP_DRAW} cards from their shuffled deck and privately sets some aside for the"
        f" whole game; hands then fill up to {HAND_SIZE}.",
        setup_rows,
        "",
        "**A turn**",
        "1. Play a card from your hand face up onto an empty cell beside any card, pointing whichever way you like.",
        "2. Its power acts on the card it points at.",
        "3. Each of your other face-up, unblocked Explorers (not your Leader) acts once, in the order you choose."
        " When only one is left, or when no order could end differently, the bot does them for you and says so.",
        f"4. You draw back up to {HAND_SIZE} cards. When every card is played the Food cards pay out and the most"
        " points wins.",
        "",
        "**The rulebook's example, two players**",
        "- Turn 1: A plays Turn, which acts. B plays Plus: B gains 1 point from the supply (7 points).",
        "- Turn 2: A plays Replace, which acts; then A's Turn acts again. B plays Block onto A's Leader;"
        " then B's Plus acts and, pointing at one of A's cards, gives A 1 point (7 points).",
        "- Turn 3: A plays Bump; A's Turn acts; A's Replace points at nothing, so nothing happens. B plays Switch;"
        " B's Block acts again; B's Plus gives A another point (8 points).",
        "",
        "**Rulings this bot applies**",
        "- Unbounded grid; cells are column + row (N14); west of column A come -A, -B.",
        "- Food: random cards and sides, facing N, in a row. First player drawn at random; from them, in seat"
        " order, each puts their Leader on an empty cell beside a Food card, facing it. Cards are dealt after that.",
        "- Flip turns the target over toward the arrow, mirroring its direction; Food shows its other side.",
        "- Bump pushes the unbroken line from its target one cell on; cards past a gap stay.",
        "- Switch aims left and right, swapping its targets (or moving one into the gap). Replace swaps with its"
        " target.",
        "- Turn rotates the target a quarter clockwise; Food arrows turn with it.",
        f"- Plus: +{PLUS_POINTS} from the supply (none once empty). Minus: -{MINUS_POINTS}, never below 0;"
        " only on face-up Explorers.",
        "- Empty target: no effect. Face-down cards never act or score.",
        "- Block puts your marker on the cell it aims at, following the Block card's aim: it blocks any card"
        " there (yours too), also one that enters later; lifted only while the Block card is face down or"
        " under an opponent's marker, until it acts again. Rings of Blocks all lose their markers.",
        "- A blocked card cannot act but is moved and paid by Food; a blocked Leader gets no bonus.",
        "- The cards left to activate act in your order (the last by itself; all by themselves when no order"
        " could end differently).",
        f"- End (every card played): Food arrows pay the face-up Explorers they aim at, a Leader facing Food"
        f" +{LEADER_BONUS}; paid in full, even past the {SUPPLY_TOTAL}-point supply. Most points wins; ties share.",
        f"- Team Up ({partners} players): alternate seats are partners, one team named by its species; points add up.",
        "- Resigning: your hand and deck leave, your table cards stay; you cannot win.",
    ]
    return "\n".join(lines)


def _food_sides() -> str:
    """Return each Food card's two sides in words: "Krill: side A pays 3 north, 1 south; side B ..."."""
    rows = []
    for food in DATA["food_cards"]:
        sides = "; ".join(
            f"side {side} pays " + ", ".join(f"{points} {WORDS[d]}" for d, points in arrows.items())
            for side, arrows in food["sides"].items()
        )
        rows.append(f"- {food['name']}: {sides}.")
    return "\n".join(rows)
