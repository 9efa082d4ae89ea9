"""What every group of `/hog` commands shares: the rule-set choices, and the parts they work with."""

from discord import app_commands
from discord.ext import commands

from bot.discord.parts import Parts
from hogengine.rules import RULE_SETS

RULES = [app_commands.Choice(name=rules.title[:100], value=rules.id) for rules in RULE_SETS]


class Commands(commands.Cog):
    """A part of the `/hog` cog, never added alone: the cog class inherits the parts, and discord.py
    collects their commands along its MRO."""

    parts: Parts
