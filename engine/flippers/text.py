"""Put Flippers events, status and rules into words for players."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.base import Event
from engine.flippers.cards import CARDS, FOOD, HAND_SIZE
from engine.flippers.names import direction, food_name, power_name, team_of
from engine.flippers.powers import available
from engine.flippers.scoring import outcome, side_totals
from engine.flippers.state import LEADERS, OVER, SETUP, UP, FlippersState
from engine.flippers.table import label
from engine.words import join_list, join_names
from i18n import _, ngettext


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
        return food_name(cid)
    # TRANSLATORS: a card on the table named by its owner and power, "Bob's Flip".
    return _("{name}'s {power}", name=_who(names, card.team), power=power_name(card.power))


def _power_line(kind: str, who: str, d: dict[str, Any], names: Sequence[str]) -> str:
    """Return the line for one power's effect."""
    # TRANSLATORS: the card whose power acts, "Bob's Flip at N14"; it starts the sentences about powers.
    me = _("{name}'s {power} at {cell}", name=who, power=power_name(CARDS[d["card"]].power), cell=d["cell"])
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
        if d.get("auto"):
            return ""  # activated by itself and changed nothing: a line would say only that
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
        return ""  # the board's status line says whose Leader is next: as a line of its own it repeated it
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
        return ""  # a card that acts by itself: the lines of what it did follow, and say what changed
    if kind == "played":
        return _(
            "{name} played {power} at {cell} facing {direction}.",
            name=who,
            power=power_name(CARDS[d["card"]].power),
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
        if d.get("reason") == "resigned":
            return _("Too few players are left after a resignation. Game over: {result}", result=result)
        return _("Game over: {result}", result=result)
    return ""


def team_name(seats: Sequence[int]) -> str:
    """Return a Team Up side's one name, used everywhere: its species joined, "Team Chinstrap & Emperor"."""
    return team_of(seats)


def _team_result(winners: list[int], sides: dict[int, int], tiebreak: str, players: int, names: Sequence[str]) -> str:
    """Return which Team Up side won, its members and their combined points."""
    won = sorted({seat % 2 for seat in winners})
    if not won:
        return _("nobody wins.")
    teams = [
        ngettext(
            "{team} ({n} point together)",
            "{team} ({n} points together)",
            sides[side],
            team=team_name(range(side, players, 2)),
        )
        for side in won
    ]
    line = _("{team} wins.", team=teams[0]) if len(teams) == 1 else _("{teams} share the win.", teams=join_names(teams))
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
        return _("Turn {turn}: {name} to play.", turn=state.turn, name=who)
    left = join_list(
        [
            _("{power} ({cell})", power=power_name(CARDS[c].power), cell=label(state.where[c]))
            for c in available(state, state.current)
        ]
    )
    return _("Turn {turn}: {name} activates {cards}.", turn=state.turn, name=who, cards=left)


def _tie_line(data: dict[str, Any]) -> str:
    """Return the tie line a game_over event saved (in English), in the current language."""
    saved = data.get("tiebreak") or ""
    return _(saved) if saved else ""
