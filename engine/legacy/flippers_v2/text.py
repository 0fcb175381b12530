"""Put Flippers events, status and rules into words for players."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.base import Event
from engine.legacy.flippers_v2.cards import (
    CARDS,
    DATA,
    FOOD,
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
from engine.legacy.flippers_v2.powers import available
from engine.legacy.flippers_v2.scoring import outcome, side_totals
from engine.legacy.flippers_v2.state import LEADERS, OVER, SETUP, UP, FlippersState
from engine.legacy.flippers_v2.table import label
from engine.legacy.names import direction
from engine.words import join_list, join_names
from i18n import _, ngettext, pgettext
from i18n.extractors import FOOD_NAME


def _lifted(reason: str, who: str) -> str:
    """Return the line saying why a seat's Block marker was lifted."""
    if reason == "face_down":
        return _("{name}'s Block marker was lifted: its Block card is face down.", name=who)
    if reason == "no_target":
        return _("{name}'s Block marker was lifted: its Block card no longer aimed at a card.", name=who)
    if reason == "blocked":
        return _("{name}'s Block marker was lifted: an opponent's marker sits on its Block card.", name=who)
    return _("{name}'s Block marker was lifted: two Block cards were blocking each other.", name=who)


def _who(names: Sequence[str], seat: int | None) -> str:
    """Return a seat's player name."""
    if seat is None:
        return _("Someone")
    return names[seat] if 0 <= seat < len(names) else _("Seat {number}", number=seat + 1)


def _card(cid: str | None, names: Sequence[str]) -> str:
    """Return how a table card is called in messages: "Bob's Flip" or a Food card's name."""
    if cid is None:
        return _("nothing")
    card = CARDS[cid]
    if card.kind == FOOD:
        return pgettext(FOOD_NAME, card.name)
    # TRANSLATORS: a card on the table named by its owner and power, "Bob's Flip".
    return _("{name}'s {power}", name=_who(names, card.team), power=card.power_name)


def _power_line(kind: str, who: str, d: dict[str, Any], names: Sequence[str]) -> str:
    """Return the line for one power's effect."""
    # TRANSLATORS: the card whose power acts, "Bob's Flip at N14"; it starts the sentences about powers.
    me = _("{name}'s {power} at {cell}", name=who, power=CARDS[d["card"]].power_name, cell=d["cell"])
    target = _card(d.get("target"), names)
    if kind == "flip":
        where = {"card": me, "target": target, "cell": d["target_cell"], "direction": direction(d["now"])}
        if CARDS[d["target"]].kind == FOOD:
            return _(
                "{card} flipped {target} at {cell} to side {side}, now facing {direction}.", side=d["face"], **where
            )
        if d["face"] == UP:
            return _("{card} flipped {target} at {cell} face up, now facing {direction}.", **where)
        return _("{card} flipped {target} at {cell} face down, now facing {direction}.", **where)
    if kind == "bump":
        return ngettext(
            "{card} pushed {n} card {direction} from {cell}.",
            "{card} pushed {n} cards {direction} from {cell}.",
            d["count"],
            card=me,
            direction=direction(d["direction"]),
            cell=d["from"],
        )
    if kind == "switch":
        left, right = d["left_card"], d["right_card"]
        if left and right:
            return _(
                "{card} swapped {left} ({left_cell}) and {right} ({right_cell}).",
                card=me,
                left=_card(left, names),
                left_cell=d["left"],
                right=_card(right, names),
                right_cell=d["right"],
            )
        src, dst = (d["left"], d["right"]) if left else (d["right"], d["left"])
        return _(
            "{card} moved {target} from {start} to {end}.",
            card=me,
            target=_card(left or right, names),
            start=src,
            end=dst,
        )
    if kind == "replace":
        return _("{card} swapped places with {target} at {cell}.", card=me, target=target, cell=d["target_cell"])
    if kind == "turn":
        return _(
            "{card} turned {target} at {cell} to face {direction}.",
            card=me,
            target=target,
            cell=d["target_cell"],
            direction=direction(d["now"]),
        )
    if kind == "plus":
        if d["amount"] == 0:
            return _("{card} aimed at {target}, but the supply is empty.", card=me, target=target)
        return ngettext(
            "{card} gave {name} {n} point from the supply.",
            "{card} gave {name} {n} points from the supply.",
            d["amount"],
            card=me,
            name=_who(names, d["team"]),
        )
    if kind == "minus":
        if d["amount"] == 0:
            return _(
                "{card} aimed at {target}, but {name} has no points to lose.",
                card=me,
                target=target,
                name=_who(names, d["team"]),
            )
        return ngettext(
            "{card} sent {n} point from {name} back to the supply.",
            "{card} sent {n} points from {name} back to the supply.",
            d["amount"],
            card=me,
            name=_who(names, d["team"]),
        )
    if kind == "block":
        if d["target"] is None:
            return _(
                "{card} put its marker on the empty cell {cell}: a card that enters it is blocked.",
                card=me,
                cell=d["target_cell"],
            )
        return _("{card} put its marker on {target} at {cell}.", card=me, target=target, cell=d["target_cell"])
    reason = d["reason"]
    if reason == "blocked":
        return _("{card} is under a Block marker: its power does not act.", card=me)
    if reason == "empty":
        return _("{card} had nothing to target.", card=me)
    if reason == "food":
        return _("{card} has no effect on {target}.", card=me, target=target)
    return _("{card} has no effect on the face-down {target}.", card=me, target=target)


def describe(event: Event, names: Sequence[str]) -> str:
    """Return a one-line summary of a public event; private events and bookkeeping stay silent."""
    if event.private_to is not None:
        return ""
    kind, d, who = event.kind, event.data, _who(names, event.seat)
    if kind in ("flip", "bump", "switch", "replace", "turn", "plus", "minus", "block", "fizzle"):
        return _power_line(kind, who, d, names)
    if kind == "leader":
        return _(
            "{name} placed their Leader at {cell} facing {food}.",
            name=who,
            cell=d["cell"],
            food=_card(d["food"], names),
        )
    if kind == "leader_turn":
        return _("{name} to place their Leader.", name=who)
    if kind == "discards_open":
        return ngettext(
            "Leaders placed: everyone now privately discards {n} card.",
            "Leaders placed: everyone now privately discards {n} cards.",
            d["count"],
        )
    if kind == "auto_discard":
        return ngettext(
            "Leaders placed. With {players} players every seat discards all {n} cards it drew: done automatically.",
            "Leaders placed. With {players} players every seat discards all {n} cards it drew: done automatically.",
            d["count"],
            players=d["players"],
        )
    if kind == "auto":
        power = CARDS[d["card"]].power_name
        return _(
            "{name}'s {power} at {cell} was the only card left to activate: it acted by itself.",
            name=who,
            power=power,
            cell=d["cell"],
        )
    if kind == "played":
        return _(
            "{name} played {power} at {cell} facing {direction}.",
            name=who,
            power=CARDS[d["card"]].power_name,
            cell=d["cell"],
            direction=direction(d["facing"]),
        )
    if kind == "chose":
        return _("{name} has chosen their discards.", name=who)
    if kind == "setup_done":
        return ngettext("Setup done: every hand holds {n} card.", "Setup done: every hand holds {n} cards.", HAND_SIZE)
    if kind == "turn_start":
        return _("Turn {turn}: {name} to play.", turn=d["turn"], name=who)
    if kind == "lifted":
        return _lifted(d["reason"], who)
    if kind == "resigned":
        return _("{name} resigned: their hand and deck leave the game, their cards on the table stay.", name=who)
    if kind == "award":
        if d["kind"] == "leader":
            return ngettext(
                "{name}'s Leader at {cell} faces {food}: +{n} point.",
                "{name}'s Leader at {cell} faces {food}: +{n} points.",
                d["points"],
                name=who,
                cell=d["cell"],
                food=_card(d["food"], names),
            )
        return ngettext(
            "{food} gives {name} {n} point ({direction} arrow onto {target} at {cell}).",
            "{food} gives {name} {n} points ({direction} arrow onto {target} at {cell}).",
            d["points"],
            food=_card(d["food"], names),
            name=who,
            direction=direction(d["direction"]),
            target=_card(d["target"], names),
            cell=d["cell"],
        )
    if kind == "game_over":
        if d.get("teams"):
            sides = {int(side): points for side, points in d["sides"].items()}
            result = _team_result(d["winners"], sides, _tie_line(d), len(d["scores"]), names)
        else:
            result = _result(d["winners"], [row["total"] for row in d["scores"]], _tie_line(d), names)
        return _("Game over: {result}", result=result)
    return ""


def _team_result(winners: list[int], sides: dict[int, int], tiebreak: str, players: int, names: Sequence[str]) -> str:
    """Return which Team Up side won, its members and their combined points."""
    won = sorted({seat % 2 for seat in winners})
    if not won:
        return _("nobody wins.")
    # TRANSLATORS: joins the players of one Team Up side, "Ana & Cy".
    members = [_(" & ").join(_who(names, s) for s in range(side, players, 2)) for side in won]
    teams = [
        ngettext(
            "The team of {members} ({n} point together)",
            "The team of {members} ({n} points together)",
            sides[won[0]],
            members=members[0],
        ),
        *(
            ngettext(
                "the team of {members} ({n} point together)",
                "the team of {members} ({n} points together)",
                sides[side],
                members=team,
            )
            for side, team in zip(won[1:], members[1:], strict=True)
        ),
    ]
    line = _("{team} wins.", team=teams[0]) if len(teams) == 1 else _("{names} win.", names=join_names(teams))
    return f"{line} {tiebreak}".strip()


def _result(winners: list[int], totals: list[int], tiebreak: str, names: Sequence[str]) -> str:
    """Return who won and with how many points."""
    if not winners:
        return _("nobody wins.")
    # TRANSLATORS: a winner and their points, "Ana (31)".
    listed = [_("{name} ({points})", name=_who(names, s), points=totals[s]) for s in winners]
    line = _("{name} wins.", name=listed[0]) if len(listed) == 1 else _("{names} win.", names=join_names(listed))
    return f"{line} {tiebreak}".strip()


def status(state: FlippersState, names: Sequence[str], to_act: list[int]) -> str:
    """Return one line saying what the game waits for."""
    if state.phase == SETUP:
        return ngettext(
            "Setup: waiting for {names} to choose their discards.",
            "Setup: waiting for {names} to choose their discards.",
            len(to_act),
            names=join_names([_who(names, s) for s in to_act]),
        )
    if state.phase == LEADERS:
        return _(
            "Leaders: {name} places their Leader beside a Food card, facing it ({first} plays first, drawn at random).",
            name=_who(names, state.current),
            first=_who(names, state.first),
        )
    if state.phase == OVER:
        result = outcome(state)
        if state.teams_mode:
            line = _team_result(result.winners, side_totals(state), result.tiebreak, state.players, names)
        else:
            totals = [s.score for s in sorted(result.standings, key=lambda s: s.seat)]
            line = _result(result.winners, totals, result.tiebreak, names)
        return _("Game over: {result}", result=line)
    who = _who(names, state.current)
    if state.played is None:
        return _("Turn {turn}: {name} plays a card.", turn=state.turn, name=who)
    left = join_list(
        [
            _("{power} ({cell})", power=CARDS[c].power_name, cell=label(state.where[c]))
            for c in available(state, state.current)
        ]
    )
    return _("Turn {turn}: {name} activates {cards}.", turn=state.turn, name=who, cards=left)


def rules_text() -> str:
    """Return the rules in brief and every ruling the bot applies, within Discord's 2000 characters."""
    per_count = ", ".join(f"{n}p: {row['discard']}/{row['food_cards']}" for n, row in DATA["by_players"].items())
    partners = " or ".join(map(str, TEAM_UP_PLAYERS))
    lines = [
        "**Flippers**: score food points by moving, flipping and blocking cards.",
        f"Each seat plays a team of {len(POWER_NAMES)}: {', '.join(POWER_NAMES.values())}."
        f" Start with {STARTING_STASH} points; draw {SETUP_DRAW}, privately discard some"
        f" (discards/Food cards: {per_count}; discarding all is automatic); hands fill to {HAND_SIZE}.",
        "Turn: play a card face up beside a card, facing any way; its power acts; then each of your other"
        f" face-up, unblocked cards acts once, in your order (the last by itself); draw to {HAND_SIZE}.",
        "**Rulings**",
        "- Unbounded grid; cells are column + row; west of A: -A, -B.",
        "- Food: random cards and sides, facing N, in a row. First player drawn at random; from them, in seat"
        " order, each puts their Leader on an empty cell beside a Food card, facing it.",
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
        f"- End (every card played): Food arrows pay the face-up Explorers they aim at, a Leader facing Food"
        f" +{LEADER_BONUS}; paid in full, even past the {SUPPLY_TOTAL}-point supply. Most points wins; ties share.",
        f"- Team Up ({partners} players): alternate seats are partners; points add up.",
        "- Resigning: your hand and deck leave, your table cards stay; you cannot win.",
    ]
    return "\n".join(lines)


def _tie_line(data: dict[str, Any]) -> str:
    """Return the tie line a game_over event saved (in English), in the current language."""
    saved = data.get("tiebreak") or ""
    return _(saved) if saved else ""
