"""Word Hey, That's My Fish! for players: event summaries, whose turn it is, the rules and the tie-break sentence."""

from __future__ import annotations

from collections.abc import Sequence

from engine.base import Event, Standing
from engine.fish.state import OVER, PLACEMENT, FishState
from engine.words import plural


def describe(event: Event, names: Sequence[str]) -> str:
    """Return a one-line summary of an event."""
    who = names[event.seat] if event.seat is not None else ""
    d = event.data
    match event.kind:
        case "place":
            return f"{who} placed a penguin on {d['tile']}."
        case "move":
            turn = f"Turn {d['turn']}: " if "turn" in d else ""  # logs saved before turns were numbered lack it
            return f"{turn}{who} moved {d['from']}→{d['to']} and took a {d['fish']}-fish tile."
        case "stranded":
            return f"{who}'s penguin on {d['tile']} is stranded: {who} takes its {d['fish']}-fish tile."
        case "out":
            return f"{who} has no penguins left."
        case "play_begins":
            return "All penguins are placed: the hunt for fish begins."
        case "resign":
            return f"{who} resigned; their penguins leave the board."
        case "game_over" if d.get("reason") == "resigned":
            return "Only one player is left after a resignation: the game is over."
        case "game_over":
            return "No penguin can move: the game is over."
    return ""


def status(state: FishState, names: Sequence[str]) -> str:
    """Say whose turn it is and what they do; turns are counted from the first move, not the placements."""
    if state.phase == OVER:
        return "Game over."
    who = names[state.current]
    if state.phase == PLACEMENT:
        left = sum(state.to_place)
        return f"Placement · {who} places a penguin on a 1-fish tile ({left} still to place)."
    return f"Turn {state.moves + 1} · {who} moves a penguin."


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
        return f"Tied on {fish} fish and {plural(best, 'tile')}: the victory is shared."
    fewer = sorted((t for t in tiles if t < best), reverse=True)
    rest = ", ".join(str(t) for t in fewer)
    if sharing > 1:
        return (
            f"Tied on {fish} fish: the most tiles breaks the tie ({best} against {rest}); "
            f"{sharing} players still tie on {plural(best, 'tile')}, so they share the victory."
        )
    return f"Tied on {fish} fish: the most tiles breaks the tie, {plural(best, 'tile')} against {rest}."
