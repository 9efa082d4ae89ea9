"""What commands and buttons work with: the services, the boards that show matches, the follow-up after a
move, the work under way and the live coach. The client builds it once; command groups are built from it,
buttons reach it through the client, so neither needs to know the client's class."""

from dataclasses import dataclass
from typing import Any, Protocol, cast

import discord

from bot.discord.boards import Boards
from bot.discord.coach import Coach
from bot.discord.in_flight import InFlight
from bot.services import Services
from bot.services.games.follow_up import FollowUp


@dataclass(frozen=True, slots=True)
class Parts:
    services: Services
    boards: Boards
    follow_up: FollowUp
    in_flight: InFlight
    coach: Coach


class _HasParts(Protocol):
    parts: Parts


def parts_of(interaction: discord.Interaction[Any]) -> Parts:
    """The parts of the client that received this interaction."""
    return cast(_HasParts, interaction.client).parts
