"""Run 10 Gallon Tank: rounds of splitting the school of fish into groups, then drafting them."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.base import Action, Event, Game, IllegalAction, Outcome, Standing
from engine.tank import rules, text
from engine.tank.cards import CARDS, FISH_CARDS, deck_for, is_fish
from engine.tank.data import RULES
from engine.tank.grid import LETTERS, cells, cut_lines, from_label, label, letter, parse_line, size, split
from engine.tank.names import card_name
from engine.tank.names import title as translated_title
from engine.tank.scoring import KINDS, score_all
from engine.tank.state import Pending, TankState, dump_state, load_state
from engine.tank.views import sort_key, table_view
from engine.words import join_list, quote
from i18n import _


class TankGame(Game[TankState]):
    """Implement 10 Gallon Tank for 2 to 5 players."""

    key = "tank"
    min_players = RULES.min_players
    max_players = RULES.max_players
    schema_version = 1
    hidden_information = True

    @property
    def title(self) -> str:
        """Return the title in the current language."""
        return translated_title()

    # ----- setup and turn order -------------------------------------------------------------------

    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> TankState:
        """Shuffle the deck for this player count, draw the goal card and the start player, deal round 1."""
        if players not in RULES.setups:
            raise ValueError(f"10 Gallon Tank takes {self.min_players} to {self.max_players} players")
        setup = RULES.setup(players)
        deck = deck_for(players)
        if len(deck) < setup.rounds * setup.grid * setup.grid:
            raise ValueError(f"the {players}-player deck is too small for {setup.rounds} rounds")
        rng = random.Random(seed)
        rng.shuffle(deck)
        goal = rng.choice(RULES.goals).key
        state = TankState(
            players=players,
            goal=goal,
            first_start=rng.randrange(players),
            round=1,
            phase="split",
            deck=deck,
            grid=[],
            groups={},
            made=0,
            queue=[],
            take_queue=[],
            hands=[[] for _ in range(players)],
            discards=[],
            own_discards=[[] for _ in range(players)],
            resigned=[False] * players,
        )
        self._start_round(state, 1, [])
        return state

    def round_order(self, state: TankState) -> list[int]:
        """Return the seats in play this round, clockwise from the round's start player."""
        start = (state.first_start + state.round - 1) % state.players
        seats = [(start + i) % state.players for i in range(state.players)]
        return [s for s in seats if not state.resigned[s]]

    def _start_round(self, state: TankState, rnd: int, events: list[Event]) -> None:
        """Deal the school of fish and set the split and take orders (snake when there are two passes)."""
        state.round = rnd
        cells_needed = state.side * state.side
        state.grid = list(state.deck[:cells_needed])
        state.deck = state.deck[cells_needed:]
        state.groups = {letter(0): (0, 0, state.side, state.side)}
        state.made = 1
        order = self.round_order(state)
        sequence: list[int] = []
        for p in range(state.setup.passes):
            sequence.extend(order if p % 2 == 0 else reversed(order))
        state.queue = list(sequence)
        state.take_queue = list(sequence)
        state.phase = "split"
        state.pending = None
        events.append(Event("round_start", order[0], {"round": rnd, "rounds": state.setup.rounds, "start": order[0]}))

    def _advance(self, state: TankState, events: list[Event]) -> None:
        """Move to the next phase, round or the end once the current phase has nobody left to act."""
        if state.phase == "split" and not state.queue:
            state.phase = "take"
            state.queue, state.take_queue = state.take_queue, []
        if state.phase == "take" and not state.queue:
            for name in sorted(state.groups):
                rect = state.groups[name]
                taken = self._lift(state, rect)
                state.discards.extend(taken)
                events.append(Event("leftover", None, {"group": name, "count": len(taken)}))
            state.groups = {}
            if state.round >= state.setup.rounds:
                self._finish(state, events)
            else:
                self._start_round(state, state.round + 1, events)

    def _finish(self, state: TankState, events: list[Event]) -> None:
        """End the game and announce the result."""
        state.phase = "over"
        state.queue = []
        state.take_queue = []
        state.pending = None
        result = self.outcome(state)
        events.append(
            Event(
                "game_over",
                None,
                {
                    "winners": result.winners,
                    "totals": [s.score for s in sorted(result.standings, key=lambda s: s.seat)],
                    "reason": "resigned" if state.resigned.count(False) < self.min_players else "rounds",
                },
            )
        )

    def _lift(self, state: TankState, rect: tuple[int, int, int, int]) -> list[str]:
        """Remove a group's cards from the grid and return them, row by row."""
        taken: list[str] = []
        side = state.side
        for r, c in cells(rect):
            card = state.grid[r * side + c]
            if card is not None:
                taken.append(card)
            state.grid[r * side + c] = None
        return taken

    # ----- queries --------------------------------------------------------------------------------

    def to_act(self, state: TankState) -> list[int]:
        """Return the seat the game waits for."""
        if state.phase == "over":
            return []
        if state.phase == "discard" and state.pending is not None:
            return [state.pending.seat]
        return state.queue[:1]

    def legal_actions(self, state: TankState, seat: int) -> list[Action]:
        """Return every split, take, discard or keep `seat` may make now."""
        if seat not in self.to_act(state):
            return []
        if state.phase == "split":
            return [
                {"type": "split", "group": name, "line": line}
                for name in sorted(state.groups)
                for line in cut_lines(state.groups[name])
            ]
        if state.phase == "take":
            return [{"type": "take", "group": name} for name in sorted(state.groups)]
        assert state.pending is not None
        options: list[Action] = [{"type": "discard", "card": c} for c in self.discard_options(state, seat)]
        return [*options, {"type": "keep"}]

    def discard_options(self, state: TankState, seat: int) -> list[str]:
        """Return the fish `seat` may discard for its Gouramis: any it holds but the Gouramis just taken."""
        protected = set(state.pending.protected) if state.pending is not None else set()
        return sorted((c for c in state.hands[seat] if c in FISH_CARDS and c not in protected), key=sort_key)

    def mid_turn(self, state: TankState, seat: int) -> bool:
        """Return True while the seat still has Gourami discards to choose after its take."""
        return state.pending is not None and state.pending.seat == seat

    def is_over(self, state: TankState) -> bool:
        """Return True once the game has ended."""
        return state.phase == "over"

    # ----- actions --------------------------------------------------------------------------------

    def apply(self, state: TankState, seat: int, action: Action) -> list[Event]:
        """Apply a split, take, discard or keep; raise IllegalAction and change nothing if not allowed."""
        if state.phase == "over":
            raise IllegalAction(_("The game is over."))
        if not isinstance(action, Mapping):
            raise IllegalAction(_("That is not an action in this game."))
        if isinstance(seat, int) and 0 <= seat < state.players and state.resigned[seat]:
            raise IllegalAction(_("You have left this game."))
        if seat not in self.to_act(state):
            raise IllegalAction(_("It is not your turn."))
        kind = action.get("type")
        events: list[Event] = []
        if kind == "split":
            self._split(state, seat, action, events)
        elif kind == "take":
            self._take(state, seat, action, events)
        elif kind == "discard":
            self._discard(state, seat, action, events)
        elif kind == "keep":
            self._keep(state, seat, events)
        else:
            raise IllegalAction(
                _("{typed} is not an action in this game: split, take, discard or keep.", typed=quote(kind))
            )
        return events

    def _group(self, state: TankState, raw: Any) -> str:
        """Return the name of an existing group the player gave by number (or letter), or raise IllegalAction."""
        if not isinstance(raw, str) or not raw.strip():
            raise IllegalAction(_("Name a group by its number, for example 1."))
        name = from_label(raw)
        if name in state.groups:
            return name
        if name in LETTERS[: state.made]:
            raise IllegalAction(_("Group {group} no longer exists.", group=label(name)))
        raise IllegalAction(_("There is no group {typed}.", typed=quote(raw.strip())))

    def _split(self, state: TankState, seat: int, action: Action, events: list[Event]) -> None:
        """Cut one group into two along a full row or column line."""
        if state.phase == "discard":
            raise IllegalAction(_("First discard a card for your Gourami, or keep your fish."))
        if state.phase != "split":
            raise IllegalAction(_("Splitting is over for this round: take a group."))
        name = self._group(state, action.get("group"))
        rect = state.groups[name]
        if size(rect) == 1:
            raise IllegalAction(_("Group {group} is a single card and cannot be split.", group=label(name)))
        raw = action.get("line")
        if not isinstance(raw, str):
            raise IllegalAction(_("Name a cut line, for example h1 (between rows) or v1 (between columns)."))
        parsed = parse_line(raw, state.side)
        if parsed is None:
            last = state.side - 1
            raise IllegalAction(
                _(
                    "{typed} is not a cut line: use h1-h{last} (between rows) or v1-v{last} (between columns).",
                    typed=quote(raw),
                    last=last,
                )
            )
        axis, k = parsed
        line = f"{axis}{k}"
        allowed = cut_lines(rect)
        if line not in allowed:
            raise IllegalAction(
                _(
                    "Line {line} does not cut all the way through group {group}; it can be cut along {lines}.",
                    line=line,
                    group=label(name),
                    lines=join_list(allowed),
                )
            )
        keep, new = split(rect, axis, k)
        new_name = letter(state.made)
        state.made += 1
        state.groups[name] = keep
        state.groups[new_name] = new
        state.queue.pop(0)
        events.append(Event("split", seat, {"group": name, "line": line, "new": new_name}))
        self._advance(state, events)

    def _take(self, state: TankState, seat: int, action: Action, events: list[Event]) -> None:
        """Move a group into the seat's aquarium; Gouramis in it open a discard step for the same seat."""
        if state.phase == "discard":
            raise IllegalAction(_("First discard a card for your Gourami, or keep your fish."))
        if state.phase != "take":
            raise IllegalAction(_("Groups are still being split: split a group first."))
        name = self._group(state, action.get("group"))
        rect = state.groups.pop(name)
        taken = self._lift(state, rect)
        state.hands[seat].extend(taken)
        state.queue.pop(0)
        granting = [c for c in taken if KINDS[CARDS[c].kind].discards > 0]
        allowance = sum(KINDS[CARDS[c].kind].discards for c in granting)
        events.append(Event("take", seat, {"group": name, "count": len(taken), "discards": allowance}))
        events.append(Event("took", seat, {"group": name, "cards": taken}, private_to=seat))
        if allowance:
            state.pending = Pending(seat, allowance, granting)
            if self.discard_options(state, seat):
                state.phase = "discard"
                return
            state.pending = None
        self._advance(state, events)

    def _discard(self, state: TankState, seat: int, action: Action, events: list[Event]) -> None:
        """Discard one fish face down for a Gourami just taken."""
        pending = state.pending
        if state.phase != "discard" or pending is None:
            raise IllegalAction(_("You have no Gourami discards to make."))
        card = action.get("card")
        if not isinstance(card, str) or card not in state.hands[seat]:
            raise IllegalAction(_("You do not hold that card."))
        if card in pending.protected:
            raise IllegalAction(_("You cannot discard a Gourami you just took: it is what lets you discard."))
        if not is_fish(card):
            raise IllegalAction(_("The {card} is not a fish and cannot be discarded.", card=card_name(card)))
        state.hands[seat].remove(card)
        state.discards.append(card)
        state.own_discards[seat].append(card)
        pending.left -= 1
        events.append(Event("discard", seat, {"count": 1}))
        events.append(Event("discarded", seat, {"card": card}, private_to=seat))
        if pending.left == 0 or not self.discard_options(state, seat):
            self._end_discards(state, events)

    def _keep(self, state: TankState, seat: int, events: list[Event]) -> None:
        """Stop discarding and keep every remaining fish."""
        if state.phase != "discard" or state.pending is None:
            raise IllegalAction(_("You have no Gourami discards to make."))
        events.append(Event("keep", seat, {"unused": state.pending.left}))
        self._end_discards(state, events)

    def _end_discards(self, state: TankState, events: list[Event]) -> None:
        """Close the Gourami step and pass the turn."""
        state.pending = None
        state.phase = "take"
        self._advance(state, events)

    def resign(self, state: TankState, seat: int) -> list[Event]:
        """Take a seat out of the turn order; end the game when fewer than two seats remain in play."""
        if state.phase == "over":
            raise IllegalAction(_("The game is over."))
        if not isinstance(seat, int) or not 0 <= seat < state.players:
            raise IllegalAction(_("There is no such seat."))
        if state.resigned[seat]:
            raise IllegalAction(_("You have already left this game."))
        state.resigned[seat] = True
        events = [Event("resign", seat, {})]
        if state.resigned.count(False) < self.min_players:
            self._finish(state, events)
            return events
        if state.pending is not None and state.pending.seat == seat:
            state.pending = None
            state.phase = "take"
        state.queue = [s for s in state.queue if s != seat]
        state.take_queue = [s for s in state.take_queue if s != seat]
        if state.phase == "split":
            # Keep exactly one group left over: drop splits beyond what the remaining takes need.
            room = max(0, len(state.take_queue) + 1 - len(state.groups))
            del state.queue[room:]
        self._advance(state, events)
        return events

    # ----- results and views ----------------------------------------------------------------------

    def outcome(self, state: TankState) -> Outcome:
        """Rank seats still in play by total (ties share rank and victory); resigned seats come last."""
        goal = RULES.goal(state.goal)
        scores = score_all(state.hands, goal, [not r for r in state.resigned])
        standings: list[Standing] = []
        for resigned, offset in ((False, 0), (True, state.resigned.count(False))):
            seats = [s for s in range(state.players) if state.resigned[s] == resigned]
            best = max((scores[s]["total"] for s in seats), default=0)
            for s in sorted(seats, key=lambda s: (-scores[s]["total"], s)):
                rank = offset + 1 + sum(1 for o in seats if scores[o]["total"] > scores[s]["total"])
                detail = dict(scores[s])
                detail["resigned"] = resigned
                standings.append(
                    Standing(s, scores[s]["total"], rank, not resigned and scores[s]["total"] == best, detail)
                )
        tied = sum(1 for st in standings if st.winner) > 1
        return Outcome(standings, _("No tiebreak: tied players share the victory") if tied else "")

    def view(self, state: TankState, seat: int | None) -> dict[str, Any]:
        """Return the public table, plus `seat`'s own aquarium, discards and score preview when given."""
        return table_view(self, state, seat)

    # ----- persistence and text -------------------------------------------------------------------

    def dump(self, state: TankState) -> dict[str, Any]:
        """Serialise the state to JSON-safe data."""
        return dump_state(state, self.schema_version)

    def load(self, data: Mapping[str, Any]) -> TankState:
        """Rebuild a state from dump output; raise CorruptState on anything malformed."""
        return load_state(data, self.schema_version)

    def describe(self, event: Event, names: Sequence[str]) -> str:
        """Return one line about a public event; private events stay silent."""
        return text.describe(event, names)

    def status(self, state: TankState, names: Sequence[str]) -> str:
        """Return one line saying what the game waits for."""
        if state.phase == "over":
            return text.final_line(self.outcome(state), names)
        return text.status_line(state, self.to_act(state)[0], names)

    def rules_text(self) -> str:
        """Return the rules in a few lines plus the rulings applied."""
        return rules.rules()
