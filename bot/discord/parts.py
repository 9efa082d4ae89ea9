"""What commands and buttons work with: the services, the boards that show matches, and the follow-up
after a move. The client builds it once; command groups are built from it, buttons reach it through the
client, so neither needs to know the client's class."""

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

import discord

from bot.services import Services
from bot.services.games.follow_up import FollowUp

if TYPE_CHECKING:  # boards draw buttons, and buttons show boards: the type only, at check time
    from bot.discord.boards import Boards


@dataclass(frozen=True, slots=True)
class Parts:
    services: Services
    boards: "Boards"
    follow_up: FollowUp


class _HasParts(Protocol):
    parts: Parts


def parts_of(interaction: discord.Interaction[Any]) -> Parts:
    """The parts of the client that received this interaction."""
    return cast(_HasParts, interaction.client).parts
