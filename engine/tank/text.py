"""Word 10 Gallon Tank for players: event lines, status lines and the rules with the rulings applied."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.base import Event, Outcome
from engine.tank.cards import kinds_in_play
from engine.tank.data import RULES, CardKind
from engine.tank.grid import label
from engine.tank.names import kind_name
from engine.words import join_list, per_language
from engine.words import join_names as join_words
from i18n import N_, _, ngettext
from i18n.commands import command_path

if TYPE_CHECKING:
    from engine.tank.state import TankState


def name_of(names: Sequence[str], seat: int | None) -> str:
    """Return a seat's display name, or "Seat N" when none is known."""
    if seat is None:
        return _("Someone")
    return names[seat] if 0 <= seat < len(names) else _("Seat {number}", number=seat + 1)


def join_names(parts: Sequence[str]) -> str:
    """Return "Ana", "Ana and Bo" or "Ana, Bo and Cy"."""
    return join_words(parts)


def describe(event: Event, names: Sequence[str]) -> str:
    """Return one sentence about a public event, never naming a held card; private events stay silent."""
    if event.private_to is not None:
        return ""
    who = name_of(names, event.seat)
    data = event.data
    match event.kind:
        case "round_start":
            return _(
                "Round {round} of {rounds} · {name} is the start player.",
                round=data["round"],
                rounds=data["rounds"],
                name=name_of(names, data["start"]),
            )
        case "split":
            return _(
                "{name} split group {group} along {line} (new group {new}).",
                name=who,
                group=label(data["group"]),
                line=data["line"],
                new=label(data["new"]),
            )
        case "take":
            return ngettext(
                "{name} took group {group} ({n} card).",
                "{name} took group {group} ({n} cards).",
                data["count"],
                name=who,
                group=label(data["group"]),
            )
        case "discard":
            return ngettext("{name} discarded {n} card.", "{name} discarded {n} cards.", data["count"], name=who)
        case "keep":
            return _("{name} kept their fish.", name=who)
        case "leftover":
            return ngettext(
                "Group {group} ({n} card) was left over and discarded.",
                "Group {group} ({n} cards) was left over and discarded.",
                data["count"],
                group=label(data["group"]),
            )
        case "resign":
            return _("{name} resigned.", name=who)
        case "game_over":
            winners = data["winners"]
            best = data["totals"][winners[0]] if winners else 0
            result = _winners_sentence(winners, best, names)
            if data.get("reason") == "resigned":
                return _("Too few players are left after a resignation. Game over: {result}", result=result)
            return _("Game over: {result}", result=result)
    return ""


def _winners_sentence(winners: Sequence[int], best: int, names: Sequence[str]) -> str:
    """Return "Ana wins with 54 points." or "Ana and Bo share the victory with 40 points."."""
    if not winners:
        return _("nobody wins.")
    who = join_names([name_of(names, s) for s in winners])
    if len(winners) == 1:
        return ngettext("{name} wins with {n} point.", "{name} wins with {n} points.", best, name=who)
    return ngettext(
        "{names} share the victory with {n} point.", "{names} share the victory with {n} points.", best, names=who
    )


def final_line(outcome: Outcome, names: Sequence[str]) -> str:
    """Return the status line of a finished game."""
    best = max((s.score for s in outcome.standings if s.winner), default=0)
    winners = outcome.winners
    if not winners:
        return _("Game over · nobody wins")
    who = join_names([name_of(names, s) for s in winners])
    if len(winners) == 1:
        return ngettext(
            "Game over · {name} wins with {n} point", "Game over · {name} wins with {n} points", best, name=who
        )
    return ngettext(
        "Game over · {names} share the victory with {n} point",
        "Game over · {names} share the victory with {n} points",
        best,
        names=who,
    )


def status_line(state: TankState, seat: int, names: Sequence[str]) -> str:
    """Return "Round 2 of 4 · Split phase · Ana splits a group" and the like."""
    who = name_of(names, seat)
    rounds = {"round": state.round, "rounds": state.setup.rounds}
    if state.phase == "split":
        return _("Round {round} of {rounds} · Split phase · {name} splits a group", name=who, **rounds)
    if state.phase == "take":
        return _("Round {round} of {rounds} · Take phase · {name} takes a group", name=who, **rounds)
    left = state.pending.left if state.pending is not None else 0
    return ngettext(
        "Round {round} of {rounds} · Take phase · {name} may discard up to {n} fish card (Gourami) or keep them "
        "all: choose privately, in the menu sent by DM (with closed DMs: `{command}`)",
        "Round {round} of {rounds} · Take phase · {name} may discard up to {n} fish cards (Gourami) or keep them "
        "all: choose privately, in the menu sent by DM (with closed DMs: `{command}`)",
        left,
        name=who,
        command=command_path("game hand"),
        **rounds,
    )


def range_text(values: dict[int, int]) -> str:
    """Return "2 players: 4, 3 players: 3, ..." from a per-player-count table."""
    return join_list([_("{players} players: {value}", players=n, value=v) for n, v in sorted(values.items())])


_PLACES = (
    N_("most {points}"),
    N_("second most {points}"),
    N_("third most {points}"),
    N_("fourth most {points}"),
)
"""Discus majority: the points for having the most, second most, ... Discus cards."""


def kind_scoring(kind: CardKind) -> str:
    """Return how one card kind scores, in a few words read from data, e.g. "9 per set of 3"."""
    rule = kind.scoring
    match rule["kind"]:
        case "printed":
            return _("the value printed on each")
        case "each" if kind.is_fish and kind.discards:
            return ngettext(
                "{points} each, lets you discard up to {n} other fish",
                "{points} each, lets you discard up to {n} other fish",
                kind.discards,
                points=rule["points"],
            )
        case "each" if kind.is_fish:
            return _("{points} each", points=rule["points"])
        case "each":
            return _("{points}, not a fish", points=rule["points"])
        case "majority":
            ranks = join_list([_(_PLACES[i], points=pts) for i, pts in enumerate(rule["ranks"])])
            return _("{ranks} (compared at the end)", ranks=ranks)
        case "parity":
            return _("odd count {odd} each, even count {even} each", odd=rule["odd_each"], even=rule["even_each"])
        case "sets":
            return _("{points} per set of {size}", points=rule["points"], size=rule["size"])
        case "table":
            table = rule["table"]
            last = len(table) - 1
            counts = [*map(str, range(1, last)), f"{last}+"]
            return _(
                "{points} for {counts} cards", points=join_list([str(p) for p in table[1:]]), counts=join_list(counts)
            )
    raise ValueError(f"{kind.key}: unknown scoring kind {rule['kind']!r}")


def scoring_reminders(players: int) -> list[dict[str, str]]:
    """Return one {key, name, text} per fish type in play and the chest, saying how it scores."""
    present = set(kinds_in_play(players))
    return [
        {"key": k.key, "name": kind_name(k.key), "text": _scoring_text(k.key)}
        for k in RULES.kinds
        if k.key in present or not k.is_fish
    ]


@per_language
def _scoring_text(kind: str) -> str:
    """Return how the card kind with this key scores, in the current language."""
    return kind_scoring(RULES.kind(kind))
