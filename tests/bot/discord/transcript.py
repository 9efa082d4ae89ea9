"""A sitting as a player sees it: every message of the channel as it changes, and every private answer, in
plain text (embeds, button rows, pictures' alt text), for a person to read and for the tests' phone rules."""

from dataclasses import dataclass, field

import discord
import simcord

from tests.bot.discord.harness import World


def render(message: discord.Message) -> str:
    """One message as a phone shows it: content, embed (title, text, fields, footer), buttons, pictures."""
    lines = []
    if message.content:
        lines.append(message.content)
    for embed in message.embeds:
        colour = f"#{embed.colour.value:06x}" if embed.colour else "none"
        lines.append(f"┃ [{colour}] **{embed.title}**" if embed.title else f"┃ [{colour}]")
        lines += [f"┃ {line}" for line in (embed.description or "").splitlines()]
        for item in embed.fields:
            lines.append(f"┃ __{item.name}__")
            lines += [f"┃   {line}" for line in (item.value or "").splitlines()]
        if embed.footer and embed.footer.text:
            lines.append(f"┃ ({embed.footer.text})")
    for row in message.components:
        if isinstance(row, discord.ActionRow):
            buttons = [
                f"[{child.label}{' ✗' if child.disabled else ''}]"
                for child in row.children
                if isinstance(child, discord.Button)
            ]
            lines.append(" ".join(buttons))
    for attachment in message.attachments:
        lines.append(f"🖼 {attachment.filename}: {attachment.description}")
    return "\n".join(lines)


@dataclass
class Transcript:
    """What a sitting showed, in order: each new or changed channel message, each private answer."""

    world: World
    lines: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)  # every rendering, for the phone rules
    public: list[str] = field(default_factory=list)  # every rendering of a channel message
    footers: list[str] = field(default_factory=list)
    _seen: dict[int, str] = field(default_factory=dict)

    def _add(self, heading: str, message: discord.Message) -> None:
        text = render(message)
        self.lines += [heading, text, ""]
        self.texts.append(text)
        self.footers += [embed.footer.text for embed in message.embeds if embed.footer.text]

    def look(self, what: str) -> None:
        """After `what` happened: every channel message that is new or changed since the last look."""
        self.lines.append(f"=== {what}")
        for message in self.world.channel.history():
            text = render(message)
            if self._seen.get(message.id) != text:
                edited = "edited" if message.id in self._seen else "new"
                self._seen[message.id] = text
                self._add(f"--- {edited} message {message.id} by {message.author.name}", message)
                self.public.append(text)

    def private(self, who: str, result: simcord.InteractionResult) -> None:
        """The private answers `who` got to a command or press."""
        for message in [result.response, *result.followups]:
            if message is not None and message.ephemeral:
                self._add(f"--- only {who} sees", message.message)

    def text(self) -> str:
        return "\n".join(self.lines)
