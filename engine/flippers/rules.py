"""Teach the flippers rules in words, with every ruling the bot applies, in the current language."""

from __future__ import annotations

from collections.abc import Iterable

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
from i18n import _, ngettext, pgettext

TITLE = "Flippers"
"""The game's title as data (translated where it is shown, like every game title)."""


def rules_text() -> str:
    """Return rules that teach a new player (terms, set-up, a turn, the example turn), then every ruling applied."""
    p = {key: pgettext("power name", name) for key, name in POWER_NAMES.items()}
    lines = [
        _(
            "**{title}**: collect the most food points by placing cards that move, flip and block other cards.",
            title=pgettext("game title", TITLE),
        ),
        "",
        _("**The words**"),
        ngettext(
            "- **Explorer**: one of your cards. Each player has a team of {n} Explorer of one species (a colour and"
            " a letter on the board): {powers}. An Explorer card has a face-up side, which shows its power and can"
            " act and score, and a face-down side, which does neither.",
            "- **Explorer**: one of your cards. Each player has a team of {n} Explorers of one species (a colour and"
            " a letter on the board): {powers}. An Explorer card has a face-up side, which shows its power and can"
            " act and score, and a face-down side, which does neither.",
            len(POWER_NAMES),
            powers=_commas(p.values()),
        ),
        _(
            "- **{leader}**: your first Explorer. It goes on the table before the game starts and scores only at the"
            " end.",
            leader=p["leader"],
        ),
        _(
            "- **Food card**: a card in the middle of the table with arrows; each arrow gives points at the end of"
            " the game to the face-up Explorer it points at. A Food card has two sides, A and B, with different"
            " arrows; a {flip} turns it to its other side and a {turn} rotates it, arrows and all.",
            flip=p["flip"],
            turn=p["turn"],
        ),
        _(
            "- **Stash**: your points. You start with {stash}. **Supply**: the points left in the box ({supply} in"
            " all); {plus} takes from it and {minus} gives back to it.",
            stash=STARTING_STASH,
            supply=SUPPLY_TOTAL,
            plus=p["plus"],
            minus=p["minus"],
        ),
        _(
            "- **Arrow**: every Explorer points one way (north, east, south or west) at the cell next to it; its"
            " power acts on the card in that cell. {switch} points both ways sideways. On the board the arrow is"
            " the dark triangle on the card's edge.",
            switch=p["switch"],
        ),
        _(
            "- **Block marker**: each species' token. A {block} card puts it on the cell it points at: the card"
            " there cannot act while the marker stays.",
            block=p["block"],
        ),
        "",
        _("**Food cards (house values; arrows as printed with the card facing north)**"),
        *_food_sides(),
        "",
        _("**Set-up**"),
        _("- The Food cards go in a row, on random sides. A first player is drawn at random."),
        _(
            "- From them, in seat order, each player puts their {leader} on an empty cell beside a Food card,"
            " facing it.",
            leader=p["leader"],
        ),
        ngettext(
            "- Then everyone draws {n} card from their shuffled deck and privately sets some aside for the whole"
            " game; hands then fill up to {hand}.",
            "- Then everyone draws {n} cards from their shuffled deck and privately sets some aside for the whole"
            " game; hands then fill up to {hand}.",
            SETUP_DRAW,
            hand=HAND_SIZE,
        ),
        *_setup_rows(),
        "",
        _("**A turn**"),
        _("1. Play a card from your hand face up onto an empty cell beside any card, pointing whichever way you like."),
        _("2. Its power acts on the card it points at."),
        _(
            "3. Each of your other face-up, unblocked Explorers (not your {leader}) acts once, in the order you"
            " choose. When only one is left, or when no order could end differently, the bot does them for you and"
            " says so.",
            leader=p["leader"],
        ),
        ngettext(
            "4. You draw back up to {n} card. When every card is played the Food cards pay out and the most points"
            " wins.",
            "4. You draw back up to {n} cards. When every card is played the Food cards pay out and the most points"
            " wins.",
            HAND_SIZE,
        ),
        "",
        _("**The rulebook's example, two players**"),
        *_example(p),
        "",
        _("**Rulings this bot applies**"),
        _("- Unbounded grid; cells are column + row (N14); west of column A come -A, -B."),
        _(
            "- Food: random cards and sides, facing N, in a row. First player drawn at random; from them, in seat"
            " order, each puts their {leader} on an empty cell beside a Food card, facing it. Cards are dealt after"
            " that.",
            leader=p["leader"],
        ),
        _(
            "- {flip} turns the target over toward the arrow, mirroring its direction; Food shows its other side.",
            flip=p["flip"],
        ),
        _("- {bump} pushes the unbroken line from its target one cell on; cards past a gap stay.", bump=p["bump"]),
        _(
            "- {switch} aims left and right, swapping its targets (or moving one into the gap). {replace} swaps with"
            " its target.",
            switch=p["switch"],
            replace=p["replace"],
        ),
        _("- {turn} rotates the target a quarter clockwise; Food arrows turn with it.", turn=p["turn"]),
        _(
            "- {plus}: +{plus_points} from the supply (none once empty). {minus}: -{minus_points}, never below 0;"
            " only on face-up Explorers.",
            plus=p["plus"],
            plus_points=PLUS_POINTS,
            minus=p["minus"],
            minus_points=MINUS_POINTS,
        ),
        _("- Empty target: no effect. Face-down cards never act or score."),
        _(
            "- {block} puts your marker on the cell it aims at, following the {block} card's aim: it blocks any"
            " card there (yours too), also one that enters later; lifted only while the {block} card is face down"
            " or under an opponent's marker, until it acts again. Rings of {block}s all lose their markers.",
            block=p["block"],
        ),
        _(
            "- A blocked card cannot act but is moved and paid by Food; a blocked {leader} gets no bonus.",
            leader=p["leader"],
        ),
        _(
            "- The cards left to activate act in your order (the last by itself; all by themselves when no order"
            " could end differently)."
        ),
        _(
            "- End (every card played): Food arrows pay the face-up Explorers they aim at, a {leader} facing Food"
            " +{bonus}; paid in full, even past the {supply}-point supply. Most points wins; ties share.",
            leader=p["leader"],
            bonus=LEADER_BONUS,
            supply=SUPPLY_TOTAL,
        ),
        _(
            "- Team Up ({counts} players): alternate seats are partners, one team named by its species; points add up.",
            counts=_or([str(n) for n in TEAM_UP_PLAYERS]),
        ),
        _("- Resigning: your hand and deck leave, your table cards stay; you cannot win."),
    ]
    return "\n".join(lines)


def _food_sides() -> list[str]:
    """Return each Food card's two sides in words: "- Krill: side A pays 3 north, 1 south; side B ..."."""
    rows = []
    for food in DATA["food_cards"]:
        sides = []
        for side, arrows in food["sides"].items():
            paid = _commas(_arrow(d, points) for d, points in arrows.items())
            # TRANSLATORS: what one side of a Food card pays, e.g. "side A pays 3 north, 1 south".
            sides.append(pgettext("rules: Food card side", "side {side} pays {arrows}", side=side, arrows=paid))
        name: str = food["name"]
        rows.append(
            pgettext(
                "rules: Food card",
                "- {food}: {sides}.",
                food=pgettext("Food card name", name),
                sides=_semicolons(sides),
            )
        )
    return rows


def _arrow(direction: str, points: int) -> str:
    """Return the points one Food arrow pays and where it points, e.g. "3 north"."""
    words = {
        # TRANSLATORS: the points a Food card's arrow pays to the card north of it, e.g. "3 north".
        "N": pgettext("rules: Food arrow", "{points} north", points=points),
        "E": pgettext("rules: Food arrow", "{points} east", points=points),
        "S": pgettext("rules: Food arrow", "{points} south", points=points),
        "W": pgettext("rules: Food arrow", "{points} west", points=points),
    }
    return words[direction]


def _setup_rows() -> list[str]:
    """Return one line per player count: Food cards on the table, cards drawn and set aside."""
    rows = []
    for n, row in DATA["by_players"].items():
        food, discard = row["food_cards"], row["discard"]
        if discard >= SETUP_DRAW:
            rows.append(
                ngettext(
                    "- {players} players: {n} Food card on the table; each player draws {draw} and sets aside"
                    " {discard} (all of them: the bot does it for you).",
                    "- {players} players: {n} Food cards on the table; each player draws {draw} and sets aside"
                    " {discard} (all of them: the bot does it for you).",
                    food,
                    players=n,
                    draw=SETUP_DRAW,
                    discard=discard,
                )
            )
        else:
            rows.append(
                ngettext(
                    "- {players} players: {n} Food card on the table; each player draws {draw} and sets aside"
                    " {discard}.",
                    "- {players} players: {n} Food cards on the table; each player draws {draw} and sets aside"
                    " {discard}.",
                    food,
                    players=n,
                    draw=SETUP_DRAW,
                    discard=discard,
                )
            )
    return rows


def _example(p: dict[str, str]) -> list[str]:
    """Return the rulebook's example of three turns, its points counted from data."""
    return [
        ngettext(
            "- Turn 1: A plays {turn}, which acts. B plays {plus}: B gains {n} point from the supply ({b} points).",
            "- Turn 1: A plays {turn}, which acts. B plays {plus}: B gains {n} points from the supply ({b} points).",
            PLUS_POINTS,
            turn=p["turn"],
            plus=p["plus"],
            b=STARTING_STASH + PLUS_POINTS,
        ),
        ngettext(
            "- Turn 2: A plays {replace}, which acts; then A's {turn} acts again. B plays {block} onto A's {leader};"
            " then B's {plus} acts and, pointing at one of A's cards, gives A {n} point ({a} points).",
            "- Turn 2: A plays {replace}, which acts; then A's {turn} acts again. B plays {block} onto A's {leader};"
            " then B's {plus} acts and, pointing at one of A's cards, gives A {n} points ({a} points).",
            PLUS_POINTS,
            replace=p["replace"],
            turn=p["turn"],
            block=p["block"],
            leader=p["leader"],
            plus=p["plus"],
            a=STARTING_STASH + PLUS_POINTS,
        ),
        ngettext(
            "- Turn 3: A plays {bump}; A's {turn} acts; A's {replace} points at nothing, so nothing happens. B plays"
            " {switch}; B's {block} acts again; B's {plus} gives A another point ({a} points).",
            "- Turn 3: A plays {bump}; A's {turn} acts; A's {replace} points at nothing, so nothing happens. B plays"
            " {switch}; B's {block} acts again; B's {plus} gives A {n} more points ({a} points).",
            PLUS_POINTS,
            bump=p["bump"],
            turn=p["turn"],
            replace=p["replace"],
            switch=p["switch"],
            block=p["block"],
            plus=p["plus"],
            a=STARTING_STASH + 2 * PLUS_POINTS,
        ),
    ]


def _commas(items: Iterable[str]) -> str:
    """Return items joined into a list the way the current language writes one: "1, 2, 3"."""
    return pgettext("rules: list separator", ", ").join(items)


def _semicolons(items: Iterable[str]) -> str:
    """Return longer items joined the way the current language separates them: "a, b; c, d"."""
    return pgettext("rules: list separator between longer items", "; ").join(items)


def _or(parts: list[str]) -> str:
    """Return "A", "A or B" or "A, B or C" in the current language."""
    if len(parts) <= 1:
        return "".join(parts)
    # TRANSLATORS: the last two items of a list of choices, e.g. "4 or 6".
    return pgettext("rules: list end", "{items} or {last}", items=_commas(parts[:-1]), last=parts[-1])
