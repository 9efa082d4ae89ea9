"""Floor 3: `hog gui`, Hog in the local browser. An aiohttp server on loopback over the engine (every turn
through `resolve`, the house's levels, the solver's chances, replays and their analysis) and the static
page it serves; it needs no database."""
