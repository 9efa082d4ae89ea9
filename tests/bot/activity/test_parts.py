"""The Activity's smaller parts on their own: its settings, the signed tokens of its sign-ins, and the
pacing of the bot's own board redraws within Discord's limits (each with a clock the test moves)."""

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from pydantic import ValidationError

from bot.activity.pacing import BOARD_BURST, Pacer
from bot.activity.settings import DISCORD_CLIENTS
from bot.activity.tokens import Tokens
from bot.config import Settings
from bot.discord.budget import Budget, Priority, spending
from bot.domain.errors import SignInExpired, SignInNeeded
from bot.domain.matches import Player
from tests.hang import HANG
from tests.helpers import FakeClock

BIG = Player(1_300_000_000_000_000_123, "Zoë 🐷")  # a Discord id past a JavaScript number's exact range


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


def test_the_activity_is_served_only_with_its_client_id_and_secret() -> None:
    assert settings().activity is None
    served = settings(activity_client_id=42, activity_client_secret="s3cret").activity
    assert served is not None
    assert served.origins == ("https://42.discordsays.com",) and served.frame_ancestors == DISCORD_CLIENTS
    assert (served.host, served.port, served.hosts) == ("127.0.0.1", 8090, None)
    assert "s3cret" not in repr(served)
    for half in ({"activity_client_id": 42}, {"activity_client_secret": "s3cret"}):
        with pytest.raises(ValidationError, match="goes with HOG_ACTIVITY_CLIENT_ID"):
            settings(**half)


def test_lists_are_written_as_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOG_ACTIVITY_CLIENT_ID", "42")
    monkeypatch.setenv("HOG_ACTIVITY_CLIENT_SECRET", "s3cret")
    monkeypatch.setenv("HOG_ACTIVITY_HOSTS", "hog.example.org, Hog.Example.net")
    monkeypatch.setenv("HOG_ACTIVITY_FRAME_ANCESTORS", "https://discord.com https://*.discord.com")
    served = Settings(_env_file=None).activity  # type: ignore[call-arg]
    assert served is not None
    assert served.hosts == ("hog.example.org", "Hog.Example.net")
    assert served.frame_ancestors == ("https://discord.com", "https://*.discord.com")


def test_a_token_says_who_signed_in_where_until_it_runs_out() -> None:
    clock = FakeClock()
    tokens = Tokens("secret", 900, clock)
    token, granted = tokens.issue(BIG, "i-1-gc-2-3")
    assert tokens.read(token) == granted and granted.person == BIG and granted.expires == clock.now + 900
    assert "Zo" not in token.split(".")[1]  # the signature says nothing of the body
    clock.advance(899.9)
    assert tokens.read(token).instance_id == "i-1-gc-2-3"
    clock.advance(0.1)
    with pytest.raises(SignInExpired):
        tokens.read(token)


@pytest.mark.parametrize("change", ["secret", "body", "signature", "junk"])
def test_a_token_not_signed_with_this_secret_is_nobodys(change: str) -> None:
    clock = FakeClock()
    token, _ = Tokens("secret", 900, clock).issue(BIG, "i-1")
    body, signature = token.split(".")
    other = {
        "secret": Tokens("another secret", 900, clock).issue(BIG, "i-1")[0],
        "body": Tokens("secret", 900, clock).issue(Player(1, "x"), "i-1")[0].split(".")[0] + "." + signature,
        "signature": body + "." + signature[::-1],
        "junk": "%%%.@@@",
    }[change]
    with pytest.raises(SignInNeeded) as refused:
        Tokens("secret", 900, clock).read(other)
    assert type(refused.value) is SignInNeeded


class Boards:
    """The show function a pacer is given: it records each redraw, and may hold them until released."""

    def __init__(self) -> None:
        self.started: list[int] = []
        self.shown: list[int] = []
        self.released = asyncio.Event()
        self.released.set()
        self.changed = asyncio.Condition()

    async def show(self, match_id: int) -> None:
        async with self.changed:
            self.started.append(match_id)
            self.changed.notify_all()
        await self.released.wait()
        async with self.changed:
            self.shown.append(match_id)
            self.changed.notify_all()

    async def until(self, check: Callable[[list[int]], bool], of: str = "shown") -> None:
        async with self.changed:
            await asyncio.wait_for(self.changed.wait_for(lambda: check(getattr(self, of))), HANG)


async def ask_all(pacer: Pacer, ids: list[int]) -> None:
    for match_id in ids:
        await pacer.ask(match_id)


async def closed(pacer: Pacer, work: Awaitable[None]) -> None:
    try:
        await work
    finally:
        await pacer.close()


async def test_asks_while_a_board_is_redrawn_make_one_more_redraw() -> None:
    boards = Boards()
    boards.released.clear()
    pacer = Pacer(boards.show)

    async def work() -> None:
        await pacer.ask(1)
        await boards.until(lambda started: started == [1], of="started")
        await ask_all(pacer, [1] * 10)  # while the first redraw is under way: these are one more
        boards.released.set()
        await boards.until(lambda shown: len(shown) >= 2)
        await pacer.ask(2)
        await boards.until(lambda shown: 2 in shown)
        assert boards.shown == [1, 1, 2]

    await closed(pacer, work())


async def test_a_board_is_redrawn_in_a_burst_then_once_a_second() -> None:
    clock = FakeClock()
    boards = Boards()
    pacer = Pacer(boards.show, clock)

    async def work() -> None:
        for count in range(1, BOARD_BURST + 1):
            await pacer.ask(7)
            await boards.until(lambda shown, count=count: len(shown) == count)
        await pacer.ask(7)
        await pacer.ask(8)  # another board is not held up by this one's limit
        await boards.until(lambda shown: 8 in shown)
        assert boards.shown == [7] * BOARD_BURST + [8]
        clock.advance(1.0)
        await boards.until(lambda shown: shown.count(7) == BOARD_BURST + 1)

    await closed(pacer, work())


async def test_a_redraws_calls_wait_in_the_bots_budget_at_the_priority_of_who_asked() -> None:
    budget = Budget(1000.0)  # Discord's global limit is the bot's budget's, not the pacer's
    spent: list[int] = []
    both = asyncio.Event()

    async def show(match_id: int) -> None:  # a redraw's call to Discord, as the bot's HTTP client makes it
        await budget.spend()
        spent.append(match_id)
        if len(spent) == 2:
            both.set()

    pacer = Pacer(show)

    async def work() -> None:
        with spending(Priority.BACKGROUND):  # the clock's redraw of a board that lags
            await pacer.ask(1)
        await pacer.ask(2)  # the house bot's move: a person waits for it
        await asyncio.wait_for(both.wait(), HANG)
        assert sorted(spent) == [1, 2]
        assert budget.spent == {Priority.BACKGROUND: 1, Priority.URGENT: 1}

    await closed(pacer, work())
