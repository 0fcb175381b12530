"""Run a game of Flippers: setup discards, turns of play and activation, resignation and the end."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import combinations
from operator import itemgetter
from typing import Any

from engine.base import Action, Event, Game, IllegalAction, OptionSpec, Outcome
from engine.flippers import rules, text, views
from engine.flippers.cards import (
    CARDS,
    FOOD,
    FOOD_IDS,
    FOOD_SIDES,
    HAND_SIZE,
    LAYOUT,
    LEADER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SETUP_DRAW,
    STARTING_STASH,
    SUPPLY_TOTAL,
    TEAM_UP_PLAYERS,
    explorer_id,
    setup_rule,
    team_cards,
)
from engine.flippers.checks import cannot_activate, card_text, check_turn, hand_card, table_card
from engine.flippers.names import compass_letter, compass_letters, facing_code
from engine.flippers.orders import order_matters
from engine.flippers.powers import available, markers, resolve
from engine.flippers.recall import before_play, check_recalls
from engine.flippers.scoring import food_awards, outcome, scores, side_totals
from engine.flippers.state import LEADERS, OVER, PLAY, SETUP, UP, FlippersState, dump_state, load_state
from engine.flippers.table import DIRECTIONS, Cell, frontier, label, neighbours, parse_label, rotate, step
from engine.words import join_list, quote
from i18n import ENGLISH, N_, _, ngettext, pgettext, using

_READING = itemgetter(1, 0)
"""Sort key of a cell in reading order: row, then column."""


def open_cells(state: FlippersState) -> list[Cell]:
    """Return every empty cell that shares an edge with a card on the table, in reading order."""
    return sorted(frontier(state.cells), key=_READING)


def leader_spots(state: FlippersState) -> list[tuple[Cell, str]]:
    """Return each (empty cell sharing an edge with a Food card, facing toward that Food), in reading order."""
    spots = set()
    for cid, cell in state.where.items():
        if CARDS[cid].kind != FOOD:
            continue
        for direction in DIRECTIONS:
            spot = step(cell, direction)
            if spot not in state.cells:
                spots.add((spot, rotate(direction, 2)))
    return sorted(spots, key=lambda s: (s[0][1], s[0][0], DIRECTIONS.index(s[1])))


class FlippersGame(Game[FlippersState]):
    """Implement Flippers for 2-6 players, with the Team Up option for 4 or 6."""

    key = "flippers"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    schema_version = 3
    hidden_information = True
    options = (OptionSpec("teams", N_("Team Up: alternate seats play as partners (4 or 6 players)")),)

    @property
    def title(self) -> str:
        """Return the title in the current language."""
        return pgettext("game title", "Flippers")

    def new_game(self, players: int, options: Mapping[str, Any], seed: int) -> FlippersState:
        """Lay out the Food cards and shuffle each seat's deck from `seed`; cards are drawn after the Leaders."""
        if not self.min_players <= players <= self.max_players:
            raise IllegalAction(
                _("{title} needs {low}-{high} players.", title=self.title, low=self.min_players, high=self.max_players)
            )
        teams_mode = bool(options.get("teams", False))
        if teams_mode and players not in TEAM_UP_PLAYERS:
            low, high = TEAM_UP_PLAYERS
            raise IllegalAction(_("Team Up needs {low} or {high} players.", low=low, high=high))
        rng = random.Random(seed)
        discard, food_count = setup_rule(players)
        foods = rng.sample(FOOD_IDS, food_count)
        decks = []
        for seat in range(players):
            deck = list(team_cards(seat)[1:])
            rng.shuffle(deck)
            decks.append(deck)
        first = rng.randrange(players)
        state = FlippersState(
            players=players,
            teams_mode=teams_mode,
            phase=LEADERS,
            cells={},
            where={},
            facing={},
            face={},
            hands=[[] for _ in decks],
            decks=decks,
            discards=[[] for _ in range(players)],
            unused_food=[fid for fid in FOOD_IDS if fid not in foods],
            chosen=[discard == 0] * players,
            resigned=[False] * players,
            stash=[STARTING_STASH] * players,
            supply=SUPPLY_TOTAL - STARTING_STASH * players,
            engaged=[False] * players,
            current=first,
            first=first,
            last_plays=[None] * players,
        )
        centre, row = LAYOUT["centre_column"], LAYOUT["food_row"]
        for i, fid in enumerate(foods):
            state.place(fid, (centre - (food_count - 1) // 2 + i, row), LAYOUT["food_facing"], rng.choice(FOOD_SIDES))
        state.widen(list(state.cells) + [spot for spot, _ in leader_spots(state)])
        return state

    def to_act(self, state: FlippersState) -> list[int]:
        """Return the seat placing its Leader, the seats still choosing discards, or the seat whose turn it is."""
        if state.phase == LEADERS:
            return [state.current]
        if state.phase == SETUP:
            return [s for s in range(state.players) if not state.chosen[s] and not state.resigned[s]]
        if state.phase == PLAY:
            return [state.current]
        return []

    def legal_actions(self, state: FlippersState, seat: int) -> list[Action]:
        """Return every Leader placement, discard, play or activation `seat` may make now."""
        if seat not in self.to_act(state):
            return []
        if state.phase == LEADERS:
            return [{"type": "leader", "cell": label(cell), "facing": d} for cell, d in leader_spots(state)]
        if state.phase == SETUP:
            count = setup_rule(state.players)[0]
            return [{"type": "discard", "cards": list(c)} for c in combinations(state.hands[seat], count)]
        if state.played is None:
            cells = [label(c) for c in open_cells(state)]
            return [
                {"type": "play", "card": cid, "cell": cell, "facing": d}
                for cid in state.hands[seat]
                for cell in cells
                for d in DIRECTIONS
            ]
        return [{"type": "activate", "card": cid} for cid in available(state, seat)]

    def apply(self, state: FlippersState, seat: int, action: Action) -> list[Event]:
        """Check the action fully, then discard, play or activate."""
        if state.phase == OVER:
            raise IllegalAction(_("The game is over."))
        if not isinstance(seat, int) or not 0 <= seat < state.players:
            raise IllegalAction(_("You are not playing in this game."))
        if state.resigned[seat]:
            raise IllegalAction(_("You have resigned from this game."))
        kind = action.get("type") if isinstance(action, Mapping) else None
        if kind == "leader":
            events = self._place_leader(state, seat, action)
        elif kind == "discard":
            return self._discard(state, seat, action)
        elif kind == "play":
            events = self._play(state, seat, action)
        elif kind == "activate":
            events = self._activate(state, seat, action)
        else:
            raise IllegalAction(_("Unknown action: place your Leader, choose discards, play a card or activate one."))
        state.widen(list(state.cells) + list(markers(state)))
        return events

    def _place_leader(self, state: FlippersState, seat: int, action: Action) -> list[Event]:
        """Put the seat's Leader face up on an empty cell beside a Food card, facing that Food card."""
        if state.phase != LEADERS:
            raise IllegalAction(_("Leaders are placed only at the start of the game."))
        if seat != state.current:
            raise IllegalAction(_("It is not your turn to place your Leader."))
        cell = parse_label(action.get("cell", ""))
        if cell is None:
            raise IllegalAction(
                _("{typed} is not a cell: give a column and a row, like N14.", typed=quote(action.get("cell")))
            )
        facings = [d for spot, d in leader_spots(state) if spot == cell]
        if not facings:
            choices = join_list(sorted({label(spot) for spot, _facing in leader_spots(state)}))
            raise IllegalAction(
                _(
                    "{cell} is not an empty cell beside a Food card: choose one of {choices}.",
                    cell=label(cell),
                    choices=choices,
                )
            )
        raw = action.get("facing")
        facing = facing_code(raw) if raw is not None else facings[0]
        if facing not in facings:
            raise IllegalAction(
                _(
                    "A Leader at {cell} must face its Food card ({facings}).",
                    cell=label(cell),
                    facings=join_list([compass_letter(d) for d in facings]),
                )
            )
        if raw is None and len(facings) > 1:
            raise IllegalAction(
                _(
                    "{cell} touches two Food cards: say which one to face ({facings}).",
                    cell=label(cell),
                    facings=join_list([compass_letter(d) for d in facings]),
                )
            )
        leader = explorer_id(seat, LEADER)
        state.place(leader, cell, facing, UP)
        state.last_card = leader
        food = state.cells[step(cell, facing)]
        events = [Event("leader", seat, {"cell": label(cell), "facing": facing, "food": food})]
        return events + self._next_leader(state, seat)

    def _next_leader(self, state: FlippersState, after: int) -> list[Event]:
        """Hand Leader placement to the next seat in turn order still to place; then open the discards."""
        for k in range(1, state.players + 1):
            seat = (after + k) % state.players
            if not state.resigned[seat] and explorer_id(seat, LEADER) not in state.where:
                state.current = seat
                return [Event("leader_turn", seat, {})]
        return self._open_discards(state)

    def _open_discards(self, state: FlippersState) -> list[Event]:
        """Deal the setup cards and open the private discards; when a seat must discard its whole draw, do it."""
        state.phase, state.current = SETUP, state.first
        events = []
        for seat in range(state.players):
            if not state.resigned[seat]:
                drawn, state.decks[seat] = state.decks[seat][:SETUP_DRAW], state.decks[seat][SETUP_DRAW:]
                state.hands[seat] = drawn
                events.append(Event("drew", seat, {"cards": list(drawn)}, private_to=seat))
        count = setup_rule(state.players)[0]
        if count == 0:
            return events + self._start_play(state)
        if count < SETUP_DRAW:
            return [*events, Event("discards_open", None, {"count": count})]
        for seat in range(state.players):
            if not state.resigned[seat] and not state.chosen[seat]:
                events.append(Event("discarded", seat, {"cards": list(state.hands[seat])}, private_to=seat))
                state.discards[seat].extend(state.hands[seat])
                state.hands[seat], state.chosen[seat] = [], True
        events.append(Event("auto_discard", None, {"count": count, "players": state.players}))
        return events + self._start_play(state)

    def _discard(self, state: FlippersState, seat: int, action: Action) -> list[Event]:
        """Set aside the seat's setup discards; start play once every seat has chosen."""
        if state.phase != SETUP:
            raise IllegalAction(_("Discards are only chosen during setup."))
        if state.chosen[seat]:
            raise IllegalAction(_("You have already chosen your discards; waiting for the others."))
        count = setup_rule(state.players)[0]
        raw = action.get("cards")
        if not isinstance(raw, list) or len(raw) != count:
            raise IllegalAction(
                ngettext("Choose exactly {n} card to discard.", "Choose exactly {n} cards to discard.", count)
            )
        picked = [hand_card(state, seat, ref) for ref in raw]
        if len(set(picked)) != count:
            raise IllegalAction(_("Choose each card to discard only once."))
        for cid in picked:
            state.hands[seat].remove(cid)
        state.discards[seat].extend(picked)
        state.chosen[seat] = True
        events = [
            Event("discarded", seat, {"cards": picked}, private_to=seat),
            Event("chose", seat, {"count": count}),
        ]
        if not self.to_act(state):
            events += self._start_play(state)
        return events

    def _start_play(self, state: FlippersState) -> list[Event]:
        """Fill every hand to the hand size and hand the first turn to the first seat with cards."""
        events = []
        for seat in range(state.players):
            if not state.resigned[seat]:
                events += self._refill(state, seat)
        state.phase = PLAY
        events.append(Event("setup_done", None, {}))
        return events + self._next_turn(state, (state.first - 1) % state.players)

    def _play(self, state: FlippersState, seat: int, action: Action) -> list[Event]:
        """Place a card from hand next to the table, face up, and resolve its power."""
        check_turn(state, seat)
        if state.played is not None:
            raise IllegalAction(_("You have already played a card this turn: activate your remaining cards."))
        cid = hand_card(state, seat, action.get("card"))
        cell = parse_label(action.get("cell", ""))
        if cell is None:
            raise IllegalAction(
                _("{typed} is not a cell: give a column and a row, like N14.", typed=quote(action.get("cell")))
            )
        if cell in state.cells:
            raise IllegalAction(
                _("{cell} already holds {card}.", cell=label(cell), card=card_text(state, state.cells[cell]))
            )
        if not any(spot in state.cells for spot in neighbours(cell)):
            raise IllegalAction(_("{cell} is not next to a card on the table: play beside one.", cell=label(cell)))
        facing = facing_code(action.get("facing", ""))
        if facing is None:
            raise IllegalAction(
                _(
                    "{typed} is not a direction: say where the card points with {letters}.",
                    typed=quote(action.get("facing", "")),
                    letters=compass_letters(),
                )
            )
        if len(state.last_plays) != state.players:
            state.last_plays = [None] * state.players
        state.last_plays[seat] = before_play(state, seat, cid)
        state.hands[seat].remove(cid)
        state.place(cid, cell, facing, UP)
        state.played = state.last_card = cid
        state.activated = [cid]
        events = [Event("played", seat, {"card": cid, "cell": label(cell), "facing": facing})]
        events += resolve(state, cid)
        return events + self._maybe_end_turn(state, action.get("rest") is True)

    def _activate(self, state: FlippersState, seat: int, action: Action) -> list[Event]:
        """Use one of the seat's available face-up cards on the table."""
        check_turn(state, seat)
        if state.played is None:
            raise IllegalAction(_("Play a card from your hand first."))
        cid = table_card(state, seat, action.get("card"))
        problem = cannot_activate(state, seat, cid)
        if problem:
            raise IllegalAction(problem)
        state.activated.append(cid)
        return resolve(state, cid) + self._maybe_end_turn(state, action.get("rest") is True)

    def _maybe_end_turn(self, state: FlippersState, rest: bool = False) -> list[Event]:
        """Activate by itself the only card left and, with `rest`, every card left whose order changes nothing.

        `rest` comes from an action's optional "rest": true (what a player on a phone wants: no question whose
        answer cannot matter). End the turn once nothing is left.
        """
        seat = state.current
        events: list[Event] = []
        while (left := available(state, seat)) and (len(left) == 1 or (rest and not order_matters(state, seat))):
            why = "only" if len(left) == 1 else "any_order"
            state.activated.append(left[0])
            events.append(Event("auto", seat, {"card": left[0], "cell": label(state.where[left[0]]), "why": why}))
            for event in resolve(state, left[0]):
                if event.kind == "fizzle":
                    event.data["auto"] = True  # nobody chose it: if it did nothing, there is nothing to tell
                events.append(event)
        if left:
            return events
        events += self._refill(state, seat)
        events.append(Event("turn_end", seat, {"hand": len(state.hands[seat]), "deck": len(state.decks[seat])}))
        return events + self._next_turn(state, seat)

    def _refill(self, state: FlippersState, seat: int) -> list[Event]:
        """Draw the seat back up to the hand size while its deck lasts."""
        drawn = []
        while len(state.hands[seat]) < HAND_SIZE and state.decks[seat]:
            drawn.append(state.decks[seat].pop(0))
            state.hands[seat].append(drawn[-1])
        return [Event("drew", seat, {"cards": drawn}, private_to=seat)] if drawn else []

    def _next_turn(self, state: FlippersState, after: int) -> list[Event]:
        """Give the turn to the next seat after `after` holding cards, or end the game."""
        state.played, state.activated = None, []
        for k in range(1, state.players + 1):
            seat = (after + k) % state.players
            if not state.resigned[seat] and state.hands[seat]:
                state.current = seat
                state.turn += 1
                return [Event("turn_start", seat, {"turn": state.turn})]
        return self._finish(state)

    def _finish(self, state: FlippersState) -> list[Event]:
        """End the game and announce every Food and Leader award and the final standings."""
        state.phase = OVER
        state.played, state.activated = None, []
        events = [Event("award", award["seat"], award) for award in food_awards(state)]
        with using(ENGLISH):  # the log keeps the English line; describe() translates it when it is read
            result = outcome(state)
        data = {
            "scores": scores(state),
            "winners": result.winners,
            "tiebreak": result.tiebreak,
            "teams": state.teams_mode,
            "sides": {str(side): points for side, points in side_totals(state).items()},
            "reason": "resigned" if len(_sides_in_play(state)) < 2 else "played",
        }
        return [*events, Event("game_over", None, data)]

    def resign(self, state: FlippersState, seat: int) -> list[Event]:
        """Discard the seat's hand and deck; its cards on the table stay and it is skipped from now on."""
        if state.phase == OVER:
            raise IllegalAction(_("The game is over."))
        if not 0 <= seat < state.players:
            raise IllegalAction(_("You are not playing in this game."))
        if state.resigned[seat]:
            raise IllegalAction(_("You have already resigned."))
        state.resigned[seat] = True
        state.discards[seat] += state.hands[seat] + state.decks[seat]
        state.hands[seat], state.decks[seat] = [], []
        events = [Event("resigned", seat, {})]
        if len(_sides_in_play(state)) < 2:
            return events + self._finish(state)
        if state.phase == LEADERS:
            if state.current == seat:
                events += self._next_leader(state, seat)
        elif state.phase == SETUP:
            if not self.to_act(state):
                events += self._start_play(state)
        elif state.current == seat:
            events += self._next_turn(state, seat)
        return events

    def mid_turn(self, state: FlippersState, seat: int) -> bool:
        """Return True between playing a card and activating the last available one."""
        return state.phase == PLAY and state.current == seat and state.played is not None

    def is_over(self, state: FlippersState) -> bool:
        """Return True once the game has ended."""
        return state.phase == OVER

    def outcome(self, state: FlippersState) -> Outcome:
        """Return the standings with Food and Leader points counted as the table stands."""
        return outcome(state)

    def view(self, state: FlippersState, seat: int | None) -> dict[str, Any]:
        """Return the public table, plus the seat's own hand and discards when `seat` is given."""
        spots = [label(c) for c, _ in leader_spots(state)] if state.phase == LEADERS else []
        return views.view(state, seat, self.to_act(state), [label(c) for c in open_cells(state)], spots)

    def dump(self, state: FlippersState) -> dict[str, Any]:
        """Serialise the state to JSON-safe data."""
        return dump_state(state, self.schema_version)

    def load(self, data: Mapping[str, Any]) -> FlippersState:
        """Rebuild a state from `dump` output, checking every card is in exactly one place.

        A schema-1 save plays on under the current rules; should its turn now have nothing left to
        activate (a marker now blocks its own team too), that turn ends as it would have on play.
        """
        state = load_state(data, self.schema_version)
        state.last_plays = check_recalls(data.get("last_plays"), state.players)  # saves from before it have none
        old = isinstance(data, Mapping) and data.get("schema") == 1
        if old and self.mid_turn(state, state.current) and not available(state, state.current):
            self._maybe_end_turn(state)
        return state

    def describe(self, event: Event, names: Sequence[str]) -> str:
        """Return one line about a public event; private events stay silent."""
        return text.describe(event, names)

    def status(self, state: FlippersState, names: Sequence[str]) -> str:
        """Return one line saying whom the game waits for."""
        return text.status(state, names, self.to_act(state))

    def rules_text(self) -> str:
        """Return the rules in brief and every ruling the bot applies."""
        return rules.rules_text()


def _sides_in_play(state: FlippersState) -> set[int]:
    """Return the sides (players, or teams in Team Up) with a seat still in the game."""
    return {state.side(s) for s in range(state.players) if not state.resigned[s]}
