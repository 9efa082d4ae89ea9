"""What the tests share: the simulated world around the bot and a few ways to look at it."""

import copy
import fnmatch
import io
import json
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import aiohttp
import discord
import simcord
from PIL import Image
from simcord.actors import _dispatch_actor_interaction
from simcord.backend import serializers
from simcord.components import walk_components
from simcord.enums import ComponentType, InteractionType

from bot.config import Settings
from bot.discord import HogBot
from bot.discord.client import now
from bot.services import GameService, HogError, Match, MatchStatus, Services
from bot.services.games.service import Seeds
from hogengine.game import State, choice_label
from hogengine.solver import exact_winrate
from hogengine.strategies import always_roll, table_from_function
from tests.hang import HANG

Choose = Callable[[State], int]
# How far one of SimCord's advances moves the virtual clock: each must settle within SimCord's horizon of real
# seconds, and the bot's clock does a little work every virtual second.
ADVANCE_STEP = 60.0


@dataclass
class World:
    """One guild with a #hog channel, three people and a moderator (Manage Server), and the bot under test."""

    env: simcord.Env
    settings: Settings
    seeds: Seeds
    channel: simcord.ChannelHandle
    alice: simcord.MemberActor
    bob: simcord.MemberActor
    carol: simcord.MemberActor
    mod: simcord.MemberActor
    errors_seen: int = 0

    @property
    def bot(self) -> HogBot:
        assert isinstance(self.env.bot, HogBot)
        return self.env.bot

    @property
    def services(self) -> Services:
        return self.bot.parts.services

    @property
    def service(self) -> GameService:
        return self.bot.parts.services.games

    def domain_errors(self) -> list[str]:
        """What the commands since the last call refused, as told to the user (SimCord records every
        error that reaches the command tree's handler, handled or not)."""
        errors = self.env.errors_since(self.errors_seen)
        self.errors_seen = self.env.error_cursor
        causes = [getattr(error, "original", error) for error in errors]
        assert all(isinstance(cause, HogError) for cause in causes), causes
        return [str(cause) for cause in causes]

    def actor(self, user_id: int) -> simcord.MemberActor:
        return next(person for person in (self.alice, self.bob, self.carol) if person.id == user_id)

    def message(self, message_id: int | None) -> discord.Message:
        """A message of the channel as everyone sees it now."""
        found = [message for message in self.channel.history() if message.id == message_id]
        assert found, f"message {message_id} is not in the channel"
        return found[0]

    async def match(self, match_id: int) -> Match:
        return await self.service.get(match_id)

    async def board(self, match_id: int) -> discord.Message:
        """The one message that shows this match now."""
        return self.message((await self.match(match_id)).message_id)

    async def challenge(self, rules: str = "swine-align", goal: int = 100) -> Match:
        """alice challenges bob and bob accepts: a live game, alice to move."""
        await self.alice.slash(self.channel, "hog challenge", opponent=self.bob, rules=rules, goal=goal)
        challenged = self.channel.last_message
        assert challenged is not None
        await self.bob.click(challenged, label="Accept")
        match = await self.service.open_match_in_channel(self.channel.id, self.alice.id)
        assert match is not None and match.status is MatchStatus.ACTIVE
        return match

    async def vs_bot(self, level: str = "easy") -> Match:
        """alice starts a game against the house bot at this level: a live game, alice to move."""
        await self.alice.slash(self.channel, "hog vs-bot", level=level)
        match = await self.service.open_match_in_channel(self.channel.id, self.alice.id)
        assert match is not None
        return match

    async def beat(self, winner: simcord.MemberActor, loser: simcord.MemberActor) -> Match:
        """A game between two people: each rolls one die (so it is rated), then the loser gives up."""
        await winner.slash(self.channel, "hog challenge", opponent=loser)
        await loser.click(self.channel.last_message, label="Accept")
        match = await self.service.open_match_in_channel(self.channel.id, winner.id)
        assert match is not None
        await winner.click(await self.board(match.id), label="Roll 1")
        await loser.click(await self.board(match.id), label="Roll 1")
        await loser.slash(self.channel, "hog forfeit")
        return await self.match(match.id)

    async def play_to_end(self, match_id: int, choose: Choose) -> list[discord.Message]:
        """Press the chosen button for whoever is to move until the game is over; every board seen."""
        match = await self.match(match_id)
        boards = [await self.board(match_id)]
        while match.status is MatchStatus.ACTIVE:
            person = match.player_to_move
            assert person is not None, "the house bot should have moved by itself"
            label = choice_label(match.state, choose(match.state))
            await self.actor(person.id).click(boards[-1], label=label)
            boards.append(await self.board(match_id))
            match = await self.match(match_id)
        return boards

    async def upload(
        self, person: simcord.MemberActor, filename: str, data: bytes, **options: Any
    ) -> simcord.InteractionResult:
        """`/hog upload strategy` with this file attached (SimCord stores it in its fake CDN)."""
        return await person.slash(self.channel, "hog upload strategy", file=(filename, data), **options)

    async def export(self, match_id: int) -> dict[str, Any]:
        """What `/hog export` hands over: the attached replay file, parsed."""
        result = await self.carol.slash(self.channel, "hog export", match=match_id)
        assert result.response is not None and result.response.ephemeral
        (attachment,) = result.response.attachments
        assert attachment.filename == f"hog-match-{match_id}.json"
        record: dict[str, Any] = json.loads(await attachment.read())
        return record

    def rendering(self, message: discord.Message) -> Any:
        """A copy of a message as clients render it now, to press its buttons later (see `press_stale`)."""
        return copy.deepcopy(self.env.backend.get_message(message.channel.id, message.id))

    async def press_stale(
        self, person: simcord.MemberActor, rendering: Any, label: str
    ) -> simcord.InteractionResult:
        """Press a button of an old rendering: what a double click or a client that has not yet seen
        the edit sends. SimCord's `click` only sees the current message, so this goes through SimCord's
        own (private) interaction dispatcher with the old message in the payload; unlike SimCord's verbs,
        which may not overlap, it may run while another verb (a slow upload) is still going on."""
        (button,) = [c for c in walk_components(rendering.components) if c.get("label") == label]
        channel = self.env.backend.get_channel(rendering.channel_id)
        return await _dispatch_actor_interaction(
            person,
            InteractionType.MESSAGE_COMPONENT,
            simcord.ChannelHandle(self.env, self.channel.guild, channel),
            {"custom_id": button["custom_id"], "component_type": ComponentType.BUTTON},
            extra={"message": dict(serializers.message_payload(self.env.backend, rendering))},
            source_message_id=rendering.id,
        )

    async def advance(self, seconds: float) -> None:
        """Move the virtual clock `seconds` on, waiting on the bot's work however long it takes: a minute at a
        time, and where a move's work (a contest's final, a solve) outlasts SimCord's horizon on a busy
        machine, SimCord keeps the progress made, the work is waited on, and the move goes on."""
        target = self.env.now() + timedelta(seconds=seconds)
        while (left := (target - self.env.now()).total_seconds()) > 0:
            try:
                await self.env.advance_time(min(left, ADVANCE_STEP))
            except TimeoutError:
                await self.env.settle(timeout=HANG)

    async def restart(self) -> None:
        """Stop this bot process and start a new one on the same database file (and the same Discord)."""
        old = self.bot
        services = await Services.open(self.settings.services, clock=now, seeds=self.seeds)
        await self.env.restart_bot(HogBot(self.settings, services=services))
        await old.close()


@dataclass
class Network:
    """Discord's REST API through a network that fails when told: a matching call raises aiohttp's
    ClientConnectionError below discord.py, as a dropped connection does (SimCord's `inject_error` answers
    with HTTP statuses, which are Discord's refusals, not the network's)."""

    dispatch: Callable[..., Any]  # SimCord's router: every REST call and interaction answer goes through it
    cuts: list[list[Any]] = field(default_factory=list)  # [method, path pattern, calls left]

    def cut(self, method: str, path: str, times: int = 1) -> None:
        """Fail the next `times` calls of `method` ("*": any) to paths matching the fnmatch `path`."""
        self.cuts.append([method, path, times])

    def heal(self) -> None:
        """Let every call through again."""
        self.cuts.clear()

    def route(self, backend: Any, method: str, path: str, **options: Any) -> Any:
        for cut in self.cuts:
            if cut[0] in (method, "*") and fnmatch.fnmatch(path, cut[1]) and cut[2] > 0:
                cut[2] -= 1
                raise aiohttp.ClientConnectionError(f"connection lost: {method} {path}")
        return self.dispatch(backend, method, path, **options)


def modelled(rules: str) -> None:
    """Make the solver's model of `rules` in this process before a bot needs it for an upload's figures: a
    bot in SimCord works within SimCord's horizon of real seconds, which a cold pig-fest model outlasts on a
    busy machine."""
    table = table_from_function(always_roll(4), rules)
    exact_winrate(rules, table, table)


def labels(message: discord.Message) -> list[str]:
    """The labels of the buttons under a message, in order."""
    return [
        child.label or ""
        for row in message.components
        if isinstance(row, discord.ActionRow)
        for child in row.children
        if isinstance(child, discord.Button)
    ]


def fields(message: discord.Message) -> dict[str, str]:
    """The fields of a message's embed, by name."""
    return {field.name or "": field.value or "" for field in message.embeds[0].fields}


def text(message: discord.Message) -> str:
    """The text of a message's embed (a board holds all it says there)."""
    return message.embeds[0].description or ""


def turns_shown(message: discord.Message) -> list[str]:
    """The turns a board shows, a line each ("**alice** 🎲 3 1 4 → +1, Pig Out"), oldest first."""
    return [line for line in text(message).splitlines() if " → " in line]


def last_turn(message: discord.Message) -> str:
    """The latest turn a board shows, in its one line."""
    return turns_shown(message)[-1]


def seat_lines(message: discord.Message) -> dict[str, str]:
    """Each seat's line on a board ("▶ alice · **12** `█░░░░░░░░░`"), by the name, with the hidden parts
    that follow it ("↳ Pork Chop: used") on lines of their own."""
    seats: dict[str, str] = {}
    name = None
    for line in text(message).splitlines():
        if " · **" in line and line.endswith("`"):
            name = line.removeprefix("▶ ").split(" · **")[0]
            seats[name] = line
        elif line.startswith("↳ ") and name is not None:
            seats[name] += "\n" + line
        else:
            name = None
    return seats


def turn_of(line: str) -> tuple[str, int]:
    """Who played a turn's line and how many dice they rolled (0: no roll)."""
    who, _, rest = line.removeprefix("**").partition("** ")
    faces = rest.split(" → ")[0].split()
    return who, len(faces) - 1 if faces and faces[0] == "🎲" else 0


def replay(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Run `python -m hogengine replay --json` on an exported game, as a user would."""
    done = subprocess.run(
        [sys.executable, "-m", "hogengine", "replay", "--json"],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        check=True,
        timeout=HANG,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def plain(text: str) -> str:
    """A text with the command mentions it holds (`</hog vs-bot:ID>`) written back as the commands' names."""
    return re.sub(r"</(hog[a-z -]*):\d+>", r"/\1", text)


def mention(world: World, command: str) -> str:
    """How the bot mentions one of its commands ("hog vs-bot"), clickable, by the id Discord gave it."""
    found = world.bot.command_mentions.mention(command)
    assert found is not None and found.startswith(f"</{command}:"), found
    return found


def private(result: simcord.InteractionResult) -> simcord.ResponseMessage:
    """The private answer an interaction got (its ephemeral response or last ephemeral follow-up)."""
    messages = [result.response, *result.followups]
    answers = [message for message in messages if message is not None and message.ephemeral]
    assert answers, f"no ephemeral answer in {result!r}"
    return answers[-1]


def said(result: simcord.InteractionResult) -> str:
    """The text of the private answer an interaction got."""
    return private(result).content


def private_embed(result: simcord.InteractionResult) -> discord.Embed:
    """The embed of the private answer an interaction got."""
    answer = private(result)
    assert answer.embeds, f"no embed in {answer!r}"
    return answer.embeds[0]


async def picture(attachment: discord.Attachment) -> Image.Image:
    """An attached picture, downloaded and decoded: a PNG with alt text, of a sensible size."""
    assert attachment.filename.endswith(".png") and attachment.description
    image = Image.open(io.BytesIO(await attachment.read()))
    image.load()
    assert image.format == "PNG" and 200 <= image.width <= 1500 and 100 <= image.height <= 1500
    return image


# A phone at 360 px in Discord: about 38 characters to a line of an embed; a board may take 14 such lines.
PHONE_COLUMNS = 38
BOARD_ROWS = 14


def drawn(line: str) -> str:
    """A line of embed Markdown as Discord draws it: no bold, underline or code marks, no escapes, a
    relative timestamp as its longest words, each emoji as wide as two letters."""
    for mark in ("**", "__", "`"):
        line = line.replace(mark, "")
    line = re.sub(r"\\(.)", r"\1", line)
    line = re.sub(r"<t:\d+:R>", "in 59 minutes", line)
    return "".join(c * 2 if ord(c) >= 0x1F000 else c for c in line)


def wrapped(line: str, columns: int = PHONE_COLUMNS) -> int:
    """How many lines a line of text takes when its words wrap at `columns` (a longer word is cut)."""
    rows, used = 1, 0
    for word in drawn(line).split(" "):
        if used and used + 1 + len(word) > columns:  # the word goes to the next line
            rows, used = rows + 1, 0
        used += (1 if used else 0) + len(word)
        while used > columns:  # a word longer than a line runs on
            rows, used = rows + 1, used - columns
    return rows


def phone_rows(embed: discord.Embed) -> int:
    """How many lines an embed's title, text, fields and footer take on a phone."""
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    parts += [f"{field.name}\n{field.value}" for field in embed.fields]
    return sum(wrapped(line) for part in parts if part for line in part.splitlines())
