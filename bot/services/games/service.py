"""The game service: challenges, turns, bots, clocks and exports, one action per match at a time."""

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bot.domain.errors import (
    ChallengeClosed,
    ChallengedABot,
    ChallengedYourself,
    ChallengeExpired,
    HintsOnYourTurn,
    MatchOver,
    NoHintsAfterTheGame,
    NotStarted,
    NotYourChallenge,
    NotYourGame,
    NotYourTurn,
    RematchStarted,
    RematchUnavailable,
    RepeatedPress,
    TurnAlreadyPlayed,
    TurnTimedOut,
)
from bot.domain.matches import (
    PLAYED,
    Hint,
    Match,
    MatchStatus,
    Moment,
    Notice,
    Played,
    Player,
    TurnRecord,
)
from bot.domain.settings import Timeouts
from bot.domain.shards import Shards
from bot.domain.strategies import BotStrategy, StoredStrategy
from bot.domain.tokens import PressToken, PressTokens, Reach
from bot.services.clock import Clock
from bot.services.games import house_bot
from bot.services.games.match_store import Change, MatchStore, Watcher
from bot.services.solver import Solver
from bot.storage import Database
from bot.storage import matches as match_table
from bot.storage import players as player_table
from bot.storage import strategies as strategy_table
from bot.storage import tokens as token_table
from bot.storage import turns as turn_table
from bot.storage.database import NEW, Connection
from hogengine.dice import commitment, new_seed
from hogengine.game import State, distinct_choices, new_game, resolve_seeded
from hogengine.house import HouseLevel
from hogengine.replay import to_record
from hogengine.rules import DEFAULT_RULES

Seats = tuple[Player | None, Player | None]
Seeds = Callable[[], bytes]  # a fresh secret dice seed per game
# The moment a game's notice should announce now, the turn it is about, and whom it tells.
Due = tuple[Moment, int, Player | None]
# What each answer to a challenge makes of it.
ANSWERS = {"accept": MatchStatus.ACTIVE, "decline": MatchStatus.DECLINED, "cancel": MatchStatus.CANCELLED}
# A person's turn is said to be running out at a minute left, or a fifth of the clock for a short one.
HURRY_SECONDS = 60.0
HURRY_SHARE = 5


def hurry_seconds(turn_seconds: float) -> float:
    """How long before a turn's end its player is told that time is running out."""
    return min(HURRY_SECONDS, turn_seconds / HURRY_SHARE)


class GameService:
    """Every game action; each call re-reads the match from the database (no game state in memory)."""

    def __init__(
        self,
        db: Database,
        timeouts: Timeouts,
        clock: Clock,
        solver: Solver,
        seeds: Seeds = new_seed,
        *,
        shards: Shards | None = None,
    ) -> None:
        self.timeouts = timeouts
        self.shards = shards  # the clock and the house bot tend only these shards' games (None: all)
        self._solver = solver
        self._db = db
        self._store = MatchStore(db, clock)
        self._clock = clock
        self._seeds = seeds
        self._down_since: float | None = None  # when this process found the game records out of reach

    async def challenge(  # noqa: PLR0917 - positional order is the published API
        self,
        channel_id: int,
        challenger: Player,
        opponent: Player,
        opponent_is_bot: bool = False,
        rules: str = DEFAULT_RULES,
        goal: int = 100,
        *,
        guild_id: int | None = None,
    ) -> Match:
        """A pending challenge (challenger seat 0, moves first) on a server; expires after the challenge
        timeout.

        Raises CannotChallenge (oneself, a bot account), AlreadyPlaying (either player already has an
        open challenge or game in this channel), or the engine's UnknownRules / BadState.
        """
        if opponent_is_bot:
            raise ChallengedABot
        if challenger.id == opponent.id:
            raise ChallengedYourself
        challenge = self._new(
            channel_id,
            guild_id=guild_id,
            seats=(challenger, opponent),
            bot_level=None,
            state=new_game(rules, goal),
        )
        return await self._create(challenge, challenger.id)

    async def accept(self, match_id: int, user_id: int) -> Match:
        """The challenged player accepts: the game starts (seed committed, turn clock running)."""
        async with self._store.lock(match_id):
            match = await self._pending(match_id, user_id, seat=1, verb="accept")
            return await self._store.save(match, self._started(match))

    async def decline(self, match_id: int, user_id: int) -> Match:
        """The challenged player declines."""
        async with self._store.lock(match_id):
            match = await self._pending(match_id, user_id, seat=1, verb="decline")
            return await self._close(match, MatchStatus.DECLINED, None)

    async def cancel(self, match_id: int, user_id: int) -> Match:
        """The challenger withdraws a pending challenge."""
        async with self._store.lock(match_id):
            match = await self._pending(match_id, user_id, seat=0, verb="cancel")
            return await self._close(match, MatchStatus.CANCELLED, None)

    async def vs_bot(
        self,
        channel_id: int,
        player: Player,
        rules: str = DEFAULT_RULES,
        goal: int = 100,
        level: str = "easy",
        *,
        strategy: StoredStrategy | None = None,
        guild_id: int | None = None,
    ) -> Match:
        """A game against the house bot, active at once; the person takes seat 0 and moves first.

        With `strategy` (read with its table, for these rules: StrategyService.opponent) the bot plays
        that stored table, copied to the match, and `level` is not used.
        """
        bound, name, owner = None, None, None
        if strategy is None:
            bot_level = house_bot.house_level(level)
        elif strategy.table is None:
            raise ValueError("vs_bot needs the strategy with its table")
        else:
            bot_level, name, owner = HouseLevel.STRATEGY, strategy.name, strategy.owner.name
            bound = BotStrategy(strategy.id, strategy.name, strategy.table)
        game = self._new(
            channel_id,
            guild_id=guild_id,
            seats=(player, None),
            bot_level=bot_level,
            state=new_game(rules, goal),
            strategy_name=name,
            strategy_owner=owner,
        )
        if bot_level is HouseLevel.COURSE:  # its table made now: the house's first move never waits for it
            await self._solver.course(game.rules)
        return await self._create(self._started(game), player.id, strategy=bound)

    async def play(self, match_id: int, user_id: int, turn: int, choice: int) -> Played:
        """The person to move plays `choice` on turn number `turn` (from the button they pressed).

        Raises NotYourGame, NotYourTurn, MatchOver (the match is not active), StaleAction (that turn is
        gone or its clock ran out: a double or late press) or IllegalChoice.
        """
        async with self._store.lock(match_id):
            match = await self._store.load(match_id)
            seat = _seat(match, user_id)
            if match.status is not MatchStatus.ACTIVE:
                raise MatchOver
            if turn != match.state.turn:
                played = await turn_table.played_by(self._db, match_id, turn)
                raise RepeatedPress if played == user_id else TurnAlreadyPlayed
            if match.state.mover != seat:
                raise NotYourTurn(match.seat_name(match.state.mover))
            if _past(match.turn_deadline, self._clock()):
                raise TurnTimedOut
            return await self._play(match, choice, user_id)

    async def bot_turn(self, match_id: int) -> Played | None:
        """Play the house bot's turn if it is the bot's turn; None otherwise (nothing to do)."""
        async with self._store.lock(match_id):
            match = await self._store.load(match_id)
            if not match.is_bot_turn or match.bot_level is None:
                return None
            bound = await self._bound(match)
            table = None if bound is None else bound.table
            choice = await house_bot.choose(match.bot_level, match.state, self._solver, table)
            return await self._play(match, choice, None)

    async def forfeit(self, match_id: int, user_id: int) -> Match:
        """A player gives up an active game (the other side wins), or withdraws from a pending challenge
        (cancelled if they issued it, declined if they were challenged)."""
        async with self._store.lock(match_id):
            match = await self._store.load(match_id)
            seat = _seat(match, user_id)
            if match.status is MatchStatus.PENDING:
                withdrawn = MatchStatus.CANCELLED if seat == 0 else MatchStatus.DECLINED
                return await self._close(match, withdrawn, None)
            if match.status is not MatchStatus.ACTIVE:
                raise MatchOver
            return await self._close(match, MatchStatus.FORFEIT, 1 - seat)

    async def call_off(self, match_id: int) -> Match:
        """Cancel a new match nobody could see (its first message could not be posted); a match already
        closed stays as it is. A rematch called off is undone, so its players can vote for it again: it
        no longer follows on from the old game, whose votes are taken back (the house bot's stays)."""
        async with self._store.lock(match_id):
            match = await self._store.load(match_id)
            if not match.status.is_open:
                return match
            if match.rematch_of is None:
                return await self._close(match, MatchStatus.CANCELLED, None)
            async with self._store.lock(match.rematch_of):  # nobody holds the old game's lock for a new one
                old = await self._store.load(match.rematch_of)
                unvoted = replace(old, rematch_votes=_bot_vote(old))
                called_off = replace(self._closed(match, MatchStatus.CANCELLED, None), rematch_of=None)
                return await self._store.save(match, called_off, vote=(old, unvoted))

    async def open_match_in_channel(self, channel_id: int, user_id: int) -> Match | None:
        """The user's pending or active match in this channel, if any (at most one exists)."""
        return await match_table.open_match_for(self._db, channel_id, (user_id,))

    async def open_matches(self, guild_id: int, user_id: int) -> list[Match]:
        """The user's open challenges and games on this server, in every channel, newest first."""
        return await match_table.open_matches_of(self._db, guild_id, user_id)

    async def expire_due(self) -> list[Match]:
        """Close what is past its clock: challenges → "expired"; games → "timeout" lost by the mover."""
        closed = []
        for match_id in await match_table.due_matches(self._db, self._clock(), self.shards):
            async with self._store.lock(match_id):
                match = await self._store.load(match_id)
                now = self._clock()
                if match.status is MatchStatus.PENDING and _past(match.challenge_expires_at, now):
                    closed.append(await self._close(match, MatchStatus.EXPIRED, None))
                elif match.status is MatchStatus.ACTIVE and _past(match.turn_deadline, now):
                    closed.append(await self._close(match, MatchStatus.TIMEOUT, 1 - match.state.mover))
        return closed

    async def rematch(self, match_id: int, user_id: int) -> Match | None:
        """Vote for a rematch of a played game; once both sides voted (the bot's vote is cast when its game
        starts) return the new active match (same rules, goal and bot, seats swapped), else None."""
        async with self._store.lock(match_id):
            match = await self._store.load(match_id)
            seat = _seat(match, user_id)
            if match.status not in PLAYED:
                raise RematchUnavailable(still_on=match.status.is_open)
            if await match_table.rematch_of(self._db, match_id) is not None:
                raise RematchStarted
            votes = (True, match.rematch_votes[1]) if seat == 0 else (match.rematch_votes[0], True)
            voted = replace(match, rematch_votes=votes)
            if not all(votes):
                await self._store.save(match, voted)
                return None
            game = self._new(
                match.channel_id,
                guild_id=match.guild_id,
                seats=(match.players[1], match.players[0]),
                bot_level=match.bot_level,
                state=new_game(match.rules, match.goal),
                strategy_name=match.strategy_name,
                strategy_owner=match.strategy_owner,
            )
            rematch = replace(self._started(game), rematch_of=match.id)
            return await self._create(
                rematch, user_id, strategy=await self._bound(match), vote=(match, voted)
            )

    async def hint(self, match_id: int, user_id: int) -> Hint:
        """The solver's advice for the asking player; only on their own turn (else NotYourTurn)."""
        match = await self._store.load(match_id)
        seat = _seat(match, user_id)
        if match.status is MatchStatus.PENDING:
            raise NotStarted
        if match.status is not MatchStatus.ACTIVE:
            raise NoHintsAfterTheGame
        if match.state.mover != seat:
            raise HintsOnYourTurn
        solution = await self._solver.solution(match.rules, match.goal)
        state = match.state
        values = solution.choice_values(state)
        best = solution.best_choice(state)
        same = state.ruleset.plays_as(state.position(), best)  # each action once: a spent -1 is Roll 10
        return Hint(
            state,
            best if same is None else same,
            {choice: values[choice] for choice in distinct_choices(state)},
            solution.win_probability(state),
        )

    async def export(self, match_id: int, *, guild_id: int, user_id: int) -> dict[str, Any]:
        """The `hog replay` input of the match so far (its rolls, even before the seed is out; the seats'
        names), plus "seed" and its "commitment" once it is over.

        Only for a match of this server (`guild_id`) or one the asking user played in (else NotYourGame).
        """
        match = await self._store.load_visible(match_id, guild_id, user_id, "export")
        turns = await self.turns(match_id)
        start = new_game(match.rules, match.goal)
        data = to_record(start, [turn.result for turn in turns], players=match.seat_names)
        if match.seed is not None:
            data |= {"seed": match.seed, "commitment": match.seed_hash}
        return data

    def on_screen(self, match: Match) -> Match:
        """The match as its board is about to show it: a person's turn whose clock has not started yet gets
        its deadline from now (stored once the board is shown: see `shown`)."""
        if match.status is not MatchStatus.ACTIVE or match.is_bot_turn or match.turn_deadline is not None:
            return match
        return replace(match, turn_deadline=self._clock() + self.timeouts.turn_seconds)

    async def hold_clocks(self, down: bool) -> None:
        """Nobody can move while the game records are out of reach (`down`): once they answer again, every
        clock of this process's shards is put back by the time they were out, so nobody loses on time, nor
        a challenge expires, for an outage."""
        now = self._clock()
        if down:
            self._down_since = now if self._down_since is None else self._down_since
            return
        if self._down_since is not None:
            lost = now - self._down_since
            await self._db.write(lambda conn: match_table.delay_clocks(conn, lost, now, self.shards))
            self._down_since = None

    async def set_message(
        self, match: Match, channel_id: int, message_id: int, board: PressToken | None = None
    ) -> None:
        """Remember which message shows this match (the board or the challenge), as `match` (see `on_screen`)
        is shown in it, and start the turn clock it shows; and the token of the press it answered, if any."""

        async def work(conn: Connection) -> None:
            await match_table.set_message(conn, match, channel_id, message_id)
            if board is not None:
                await token_table.set_token(conn, match.id, Reach.BOARD, board)

        await self._db.write(work)

    async def shown(self, match: Match, board: PressToken | None = None) -> None:
        """Remember that the match's message now shows `match` (see `on_screen`, `unshown`), and start the
        turn clock it shows: a turn's clock runs only from when its board was shown. `board`: the token of
        the press it answered, if any (kept for whoever shows the game next)."""
        await self._db.write(lambda conn: _record_shown(conn, match, board))

    async def tokens(self, match_id: int) -> PressTokens:
        """The game's press tokens usable now."""
        return await token_table.tokens_of(self._db, match_id, self._clock())

    async def forget_tokens(self) -> int:
        """Delete every press token past its use (of any shard's games: a secret is kept no longer than
        useful); how many."""
        now = self._clock()
        return await self._db.write(lambda conn: token_table.forget_expired(conn, now))

    async def unshown(self, created_before: float) -> list[int]:
        """The matches to show again at start, of this process's shards: those whose message lags behind them
        (a crash between storing a change and showing it), and open ones created before `created_before`
        that no message shows."""
        return await match_table.unshown(self._db, created_before, self.shards)

    async def lagging(self) -> list[int]:
        """The matches of this process's shards whose message lags behind them (a board Discord would not
        take), for the clock to show again."""
        return await match_table.lagging(self._db, self.shards)

    async def notice(self, match: Match, acting: int | None = None) -> Notice | None:
        """How the game's notice changes now that its board shows `match` (None: it stays). Each moment that
        concerns a person is decided once (see `_due`); they are told unless they turned notices off or are
        `acting` (the one who just pressed: they see the board), and the previous notice is deleted."""
        record = await match_table.notice_of(self._db, match.id, match.state, self._clock())
        due = self._due(match, record.since)
        if due is None:
            return None
        moment, turn, person = due
        if record.decided is not None and record.decided >= (turn, moment):
            return None  # decided already
        wanted = (
            person is not None
            and person.id != acting
            and await player_table.setting_of(self._db, person.id, "turn_notices")
        )
        told = person if wanted else None
        return Notice(told, moment, turn, record.live, record.live_token, record.attempted)

    def _due(self, match: Match, since: int) -> Due | None:
        """The moment the game's notice announces now and to whom (None: to nobody):
        - a person's turn: the turn passing to them from the other person (`since`: when their moves began,
          so an extra turn is not announced again; never against the house bot, where they just moved), or
          their time running out (`hurry_seconds` before it ends; against the house bot too);
        - the game's end, to the person who did not end it: the other side of the last move, the winner of a
          forfeit or a timeout (against the house bot only a timeout, to the person);
        - a challenge declined or expired, to the challenger;
        - a rematch one person wants, to the other; once it began, nothing more.
        None while a challenge waits: its own message mentions the person challenged."""
        status, state = match.status, match.state
        if status is MatchStatus.PENDING:
            return None
        if status is MatchStatus.ACTIVE:
            person = match.player_to_move
            ends = match.turn_deadline
            if person is not None and ends is not None and ends - self._clock() <= self.hurry:
                return Moment.HURRY, state.turn, person
            return Moment.TURN, since, None if match.bot_level is not None else person
        if status in (MatchStatus.DECLINED, MatchStatus.EXPIRED):
            return Moment.END, state.turn, match.challenger
        if status is MatchStatus.CANCELLED:
            return Moment.END, state.turn, None
        votes = match.rematch_votes
        if all(votes):
            return Moment.REMATCHED, state.turn, None
        wanted = [seat for seat in (0, 1) if votes[seat] and match.players[seat] is not None]
        if wanted:
            return Moment.REMATCH, state.turn, match.players[1 - wanted[0]]
        return Moment.END, state.turn, self._told_of_the_end(match)

    @staticmethod
    def _told_of_the_end(match: Match) -> Player | None:
        """Who is told that a played game is over: whoever did not end it (see `_due`)."""
        winner = match.winner if match.winner is not None else 0
        if match.status is MatchStatus.TIMEOUT:
            return match.players[winner] or match.players[1 - winner]
        if match.bot_level is not None:
            return None  # the person just moved or gave up: they see the board
        if match.status is MatchStatus.FORFEIT:
            return match.players[winner]
        return match.players[match.state.mover]  # the side that did not make the last move

    async def noticing(self, match_id: int) -> None:
        """Record that a notice begins to be posted in a way Discord cannot make idempotent (through a press
        token: no nonce), until `noticed` records it: a crash meanwhile leaves its outcome unknown, which the
        next `notice` says (`Notice.attempted`)."""
        now = self._clock()
        await self._db.write(lambda conn: match_table.set_notice_attempt(conn, match_id, now))

    async def noticed(
        self,
        match_id: int,
        decided: Notice,
        message_id: int | None,
        through: PressToken | None = None,
        *,
        shown: Match | None = None,
        board: PressToken | None = None,
    ) -> None:
        """Record the game's live notice (None: none) for the moment `decided`, and the token it was posted
        through (None: none, or not through a token); with `shown`, in the same transaction, what `shown`
        records (the board that led to the notice shows it, `board` its press's token): one commit, not
        two, for each turn shown."""
        moment, turn = decided.moment, decided.turn

        async def work(conn: Connection) -> None:
            await match_table.set_notice(conn, match_id, message_id, turn, moment)
            token = None if message_id is None or through is None else through.reaching(message_id)
            await token_table.set_token(conn, match_id, Reach.NOTICE, token)
            if shown is not None:
                await _record_shown(conn, shown, board)

        await self._db.write(work)

    async def running_out(self) -> list[int]:
        """The live games of this process's shards whose person to move should now be told that their
        turn is running out (the clock asks; the notice is then decided as any other, see `notice`)."""
        return await match_table.running_out(self._db, self._clock(), self.hurry, self.shards)

    @property
    def hurry(self) -> float:
        """Seconds before a person's turn ends at which they are told it is running out."""
        return hurry_seconds(self.timeouts.turn_seconds)

    async def set_turn_notices(self, player: Player, wanted: bool) -> None:
        """Turn this person's notices on or off (on until they say otherwise)."""
        await self._set(player, "turn_notices", wanted)

    async def set_coach(self, player: Player, on: bool) -> None:
        """Turn this person's live coach on or off (off until they ask for it)."""
        await self._set(player, "coach", on)

    async def known(self, user_id: int) -> Player | None:
        """The person as the bot last saw them (None: never met, or forgotten)."""
        return await player_table.known_player(self._db, user_id)

    async def coached(self, user_id: int) -> bool:
        """Whether this person asked for the live coach."""
        return await player_table.setting_of(self._db, user_id, "coach")

    async def _set(self, player: Player, setting: player_table.Setting, on: bool) -> None:
        now = self._clock()
        await self._db.write(lambda conn: player_table.set_setting(conn, player, setting, on, now))

    def watch(self, watcher: Watcher) -> None:
        """Tell `watcher` of every match this process stores, as stored, once committed (it must not block:
        the Activity's live pages learn of each move so)."""
        self._store.watchers.append(watcher)

    async def get(self, match_id: int) -> Match:
        """The match as stored now; MatchNotFound if there is none."""
        return await self._store.load(match_id)

    async def bot_turns_waiting(self) -> list[int]:
        """The live games where the house bot is to move, to (re)start its turns: after a restart, or
        after its moves failed."""
        return await match_table.bot_to_move(self._db, self.shards)

    async def turns(self, match_id: int) -> list[TurnRecord]:
        """Every turn of the match in order."""
        return await turn_table.get_turns(self._db, match_id)

    def _new(
        self,
        channel_id: int,
        *,
        guild_id: int | None,
        seats: Seats,
        bot_level: HouseLevel | None,
        state: State,
        strategy_name: str | None = None,
        strategy_owner: str | None = None,
    ) -> Match:
        """A new challenge, waiting for its answer until the challenge timeout."""
        now = self._clock()
        return Match(
            id=NEW,
            rules=state.rules,
            goal=state.goal,
            status=MatchStatus.PENDING,
            guild_id=guild_id,
            channel_id=channel_id,
            players=seats,
            bot_level=bot_level,
            strategy_name=strategy_name,
            state=state,
            seed_hash=None,
            secret_seed=None,
            winner=None,
            challenge_expires_at=now + self.timeouts.challenge_seconds,
            turn_deadline=None,
            message_id=None,
            rematch_votes=(False, False),
            rematch_of=None,
            created_at=now,
            updated_at=now,
            finished_at=None,
            version=0,
            strategy_owner=strategy_owner,
        )

    def _started(self, match: Match) -> Match:
        """The match made active: a fresh committed seed and the house bot's rematch vote (it always wants
        one). The first turn's clock starts when its board is shown (`on_screen`)."""
        seed = self._seeds()
        return replace(
            match,
            status=MatchStatus.ACTIVE,
            secret_seed=seed.hex(),
            seed_hash=commitment(seed),
            challenge_expires_at=None,
            rematch_votes=_bot_vote(match),
        )

    async def _bound(self, match: Match) -> BotStrategy | None:
        """The stored strategy the house bot plays in this match, if it plays one."""
        if match.bot_level is not HouseLevel.STRATEGY:
            return None
        return await strategy_table.bot_strategy(self._db, match.id)

    async def _create(
        self,
        match: Match,
        asker_id: int,
        strategy: BotStrategy | None = None,
        vote: Change | None = None,
    ) -> Match:
        """Store a new match `asker_id` asked for, after checking nobody in it is busy in the channel (one
        creation at a time)."""
        people = [player for player in match.players if player is not None]
        async with self._store.lock(("channel", match.channel_id)):
            await self._store.ensure_free(match.channel_id, people, asker_id)
            return await self._store.create(match, vote, strategy)

    async def _pending(self, match_id: int, user_id: int, seat: int, verb: str) -> Match:
        """The pending challenge, if `user_id` sits in `seat` and it has not expired (RepeatedPress: they
        already gave this very answer)."""
        match = await self._store.load(match_id)
        if match.status is not MatchStatus.PENDING:
            repeated = match.status is ANSWERS[verb] and match.seat_of(user_id) == seat
            raise RepeatedPress if repeated else ChallengeClosed
        if _past(match.challenge_expires_at, self._clock()):
            raise ChallengeExpired
        if _seat(match, user_id) != seat:
            raise NotYourChallenge(match.seat_name(seat), verb)
        return match

    async def _close(self, match: Match, status: MatchStatus, winner: int | None) -> Match:
        return await self._store.save(match, self._closed(match, status, winner))

    def _closed(self, match: Match, status: MatchStatus, winner: int | None) -> Match:
        """The match closed now."""
        return replace(match, status=status, winner=winner, turn_deadline=None, finished_at=self._clock())

    async def _play(self, match: Match, choice: int, user_id: int | None) -> Played:
        """Roll the committed dice for this choice, resolve the turn, store it with the new state (the next
        turn's clock starts when its board is shown: `on_screen`)."""
        if match.secret_seed is None:
            raise MatchOver
        result = resolve_seeded(match.state, choice, bytes.fromhex(match.secret_seed))
        after, now = result.after, self._clock()
        changed = replace(match, state=after, turn_deadline=None)
        if after.over:
            changed = replace(changed, status=MatchStatus.FINISHED, winner=after.winner, finished_at=now)
        turn = TurnRecord(match.id, user_id, now, result)
        return Played(await self._store.save(match, changed, turn), result)


async def _record_shown(conn: Connection, match: Match, board: PressToken | None) -> None:
    """The match's message shows `match` (its turn clock starts); `board`: the token of the press it
    answered."""
    await match_table.set_shown(conn, match)
    if board is not None:
        await token_table.set_token(conn, match.id, Reach.BOARD, board)


def _bot_vote(match: Match) -> tuple[bool, bool]:
    """Rematch votes with only the house bot's cast (it always wants one)."""
    return (match.bot_seat == 0, match.bot_seat == 1)


def _seat(match: Match, user_id: int) -> int:
    seat = match.seat_of(user_id)
    if seat is None:
        raise NotYourGame
    return seat


def _past(deadline: float | None, now: float) -> bool:
    return deadline is not None and now >= deadline
