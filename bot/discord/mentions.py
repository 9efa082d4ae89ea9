"""Slash commands named in what the bot says become clickable mentions (`</hog vs-bot:ID>`): a person taps
one and Discord fills the command in. Every text names a command plainly ("/hog vs-bot", maybe in
backticks); once Discord has said the commands' ids (when they are synced or fetched), `linked` turns each
command it knows into its mention. Until then, or for a name it does not know, the text stays as written."""

import re
from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands

# A command named whole in backticks ("`/hog upload strategy`"), or plainly ("/hog vs-bot level:perfect").
_NAMED = re.compile(r"`/(hog(?: [a-z][a-z-]*){1,2})`|(?<![`\w])/(hog(?: [a-z][a-z-]*){1,2})")


class CommandMentions:
    """The ids Discord gave the bot's top-level commands, and every command name under them."""

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}  # top-level command name -> id
        self._names: set[str] = set()  # qualified names: "hog vs-bot", "hog upload strategy"

    def learn(self, commands: Iterable[app_commands.AppCommand], tree: app_commands.CommandTree[Any]) -> None:
        """Remember the ids Discord gave these commands, and the names of every command of the tree."""
        self._ids |= {command.name: command.id for command in commands}
        self._names = {command.qualified_name for command in tree.walk_commands()}

    def mention(self, name: str) -> str | None:
        """The mention of a command by its qualified name ("hog vs-bot"), if Discord said its id."""
        top = self._ids.get(name.split(maxsplit=1)[0])
        return None if top is None or name not in self._names else f"</{name}:{top}>"

    def linked(self, text: str) -> str:
        """The text with every command it names that Discord knows turned into a clickable mention (a name
        followed by options, "/hog vs-bot level:perfect", keeps its options as written)."""

        def link(found: re.Match[str]) -> str:
            if found[1] is not None:  # in backticks: the whole name, or it stays code
                return self.mention(found[1]) or found[0]
            words = found[2].split()
            for length in (3, 2):
                mention = self.mention(" ".join(words[:length])) if len(words) >= length else None
                if mention is not None:
                    rest = " ".join(words[length:])
                    return mention + (f" {rest}" if rest else "")
            return found[0]

        return _NAMED.sub(link, text)


def linked(interaction: discord.Interaction[Any], text: str) -> str:
    """`text` with the commands it names as mentions, by the ids the client that got `interaction` learnt."""
    mentions: CommandMentions | None = getattr(interaction.client, "command_mentions", None)
    return text if mentions is None else mentions.linked(text)
