"""The games the page plays: each is the engine's State after its resolved turns and its secret dice seed,
kept in this process only (a local page's games end with its server)."""

import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from bot.domain.errors import GameNotKept
from hogengine.cli.turns import seat_names
from hogengine.dice import commitment
from hogengine.game import State, TurnResult, resolve_seeded
from hogengine.house import HouseLevel
from hogengine.replay import to_record

HOUSE_SEAT = 1  # the person takes seat 0 and moves first, as against the bot in Discord
MAX_GAMES = 100  # games kept; starting another forgets the one left alone longest


@dataclass
class Game:
    """One game: its start, every turn played so far, and who plays seat 1 (None: a second person)."""

    id: str
    start: State
    seed: bytes
    house: HouseLevel | None
    results: list[TurnResult] = field(default_factory=list)

    @property
    def state(self) -> State:
        return self.results[-1].after if self.results else self.start

    @property
    def names(self) -> tuple[str, str]:
        """How the seats are called, as `hog play` calls them."""
        return seat_names(None if self.house is None else self.house.value, HOUSE_SEAT)

    @property
    def house_to_move(self) -> bool:
        return self.house is not None and not self.state.over and self.state.mover == HOUSE_SEAT

    @property
    def your_turn(self) -> bool:
        """Whether the person (or either friend) at the screen moves now: the game goes on, the house not
        to move."""
        return not self.state.over and not self.house_to_move

    @property
    def commitment(self) -> str:
        """The SHA-256 of the dice seed, shown from the first turn on."""
        return commitment(self.seed)

    def play(self, choice: int) -> TurnResult:
        """Resolve the next turn with the game's committed dice."""
        result = resolve_seeded(self.state, choice, self.seed)
        self.results.append(result)
        return result

    def record(self) -> dict[str, Any]:
        """What `hog replay` re-plays: the choices and, the game being over, the seed that gives the rolls."""
        return to_record(self.start, self.results, self.seed)


class Games:
    """The games of this server by their unguessable ids, the MAX_GAMES most recently used of them (a game
    being played is never forgotten for games started after it)."""

    def __init__(self) -> None:
        self._games: OrderedDict[str, Game] = OrderedDict()

    def start(self, start: State, seed: bytes, house: HouseLevel | None) -> Game:
        game = Game(secrets.token_urlsafe(16), start, seed, house)
        self._games[game.id] = game
        while len(self._games) > MAX_GAMES:
            self._games.popitem(last=False)
        return game

    def get(self, game_id: str) -> Game:
        """The game with this id, now the most recently used; GameNotKept for an id this server never
        gave, or has forgotten."""
        game = self._games.get(game_id)
        if game is None:
            raise GameNotKept(MAX_GAMES)
        self._games.move_to_end(game_id)
        return game
