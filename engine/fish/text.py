"""Word Hey, That's My Fish! for players: event summaries, whose turn it is, the rules and the tie-break sentence."""

from __future__ import annotations

from collections.abc import Sequence

from engine.base import Event, Standing
from engine.fish.state import OVER, PLACEMENT, FishState
from engine.words import join_list
from i18n import _, ngettext


def describe(event: Event, names: Sequence[str]) -> str:
    """Return a one-line summary of an event."""
    who = names[event.seat] if event.seat is not None else ""
    d = event.data
    match event.kind:
        case "place":
            return _("{name} placed a penguin on {tile}.", name=who, tile=d["tile"])
        case "move" if "turn" in d:
            return ngettext(
                "Turn {turn}: {name} moved {start}→{end} and took a {n}-fish tile.",
                "Turn {turn}: {name} moved {start}→{end} and took a {n}-fish tile.",
                d["fish"],
                turn=d["turn"],
                name=who,
                start=d["from"],
                end=d["to"],
            )
        case "move":  # logs saved before turns were numbered lack the turn
            return ngettext(
                "{name} moved {start}→{end} and took a {n}-fish tile.",
                "{name} moved {start}→{end} and took a {n}-fish tile.",
                d["fish"],
                name=who,
                start=d["from"],
                end=d["to"],
            )
        case "stranded":
            return ngettext(
                "{name}'s penguin on {tile} is stranded: {name} takes its {n}-fish tile.",
                "{name}'s penguin on {tile} is stranded: {name} takes its {n}-fish tile.",
                d["fish"],
                name=who,
                tile=d["tile"],
            )
        case "out":
            return _("{name} has no penguins left.", name=who)
        case "play_begins":
            return _("All penguins are placed: the hunt for fish begins.")
        case "resign":
            return _("{name} resigned; their penguins leave the board.", name=who)
        case "game_over" if d.get("reason") == "resigned":
            return _("Only one player is left after a resignation: the game is over.")
        case "game_over":
            return _("No penguin can move: the game is over.")
    return ""


def status(state: FishState, names: Sequence[str]) -> str:
    """Say whose turn it is and what they do; turns are counted from the first move, not the placements."""
    if state.phase == OVER:
        return _("Game over.")
    who = names[state.current]
    if state.phase == PLACEMENT:
        left = sum(state.to_place)
        return ngettext(
            "Placement · {name} places a penguin on a 1-fish tile ({n} still to place).",
            "Placement · {name} places a penguin on a 1-fish tile ({n} still to place).",
            left,
            name=who,
        )
    return _("Turn {turn} · {name} moves a penguin.", turn=state.moves + 1, name=who)


def tiebreak(playing: list[Standing]) -> str:
    """Return the sentence saying how a tie for first place was settled, or "" when no one tied on fish."""
    if len(playing) < 2 or playing[0].score != playing[1].score:
        return ""
    fish = playing[0].score
    tied = [s for s in playing if s.score == fish]
    tiles = [s.detail["tiles"] for s in tied]
    best = max(tiles)
    sharing = tiles.count(best)
    if sharing == len(tied):
        return ngettext(
            "Tied on {fish} fish and {n} tile: the victory is shared.",
            "Tied on {fish} fish and {n} tiles: the victory is shared.",
            best,
            fish=fish,
        )
    fewer = sorted((t for t in tiles if t < best), reverse=True)
    rest = join_list([str(t) for t in fewer])
    if sharing > 1:
        return ngettext(
            "Tied on {fish} fish: the most tiles breaks the tie ({n} against {rest}); "
            "{sharing} players still tie on {n} tile, so they share the victory.",
            "Tied on {fish} fish: the most tiles breaks the tie ({n} against {rest}); "
            "{sharing} players still tie on {n} tiles, so they share the victory.",
            best,
            fish=fish,
            rest=rest,
            sharing=sharing,
        )
    return ngettext(
        "Tied on {fish} fish: the most tiles breaks the tie, {n} tile against {rest}.",
        "Tied on {fish} fish: the most tiles breaks the tie, {n} tiles against {rest}.",
        best,
        fish=fish,
        rest=rest,
    )
