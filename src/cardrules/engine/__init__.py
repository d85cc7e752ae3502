"""Game-independent engine parts shared by every game in cardrules.

- :mod:`cardrules.engine.chance`: the chance actions (:class:`ChooseDealer`,
  :class:`Shuffle`) and uniform sampling from a caller's ``random.Random``;
- :mod:`cardrules.engine.rules`: :class:`Rules`, one object per game holding its functions;
- :mod:`cardrules.engine.registry`: finding a game's rules by name;
- :mod:`cardrules.engine.records`: game records (JSON and text), :class:`Seated`
  entries for actions of a seat other than the player to act, and replay;
- :mod:`cardrules.engine.selfplay`: :func:`play`, bots playing a whole game;
- :mod:`cardrules.engine.readers`: strict readers for action text and JSON;
- :mod:`cardrules.engine.bots`: the :class:`Bot` protocol and :class:`RandomBot`;
- :mod:`cardrules.engine.conformance`: :func:`check_game`, random-playout checks.

>>> from cardrules.engine import Shuffle
>>> from cardrules import parse_cards
>>> str(Shuffle(parse_cards("AS KD")))
'shuffle AS KD'
"""

from cardrules.engine.bots import Bot, RandomBot
from cardrules.engine.chance import ChooseDealer, Shuffle
from cardrules.engine.conformance import check_game
from cardrules.engine.records import GameRecord, Seated
from cardrules.engine.registry import display_name, display_names, games, register, rules_for
from cardrules.engine.rules import Rules
from cardrules.engine.selfplay import PlayedGame, play

__all__ = [
    "Bot",
    "ChooseDealer",
    "GameRecord",
    "PlayedGame",
    "RandomBot",
    "Rules",
    "Seated",
    "Shuffle",
    "check_game",
    "display_name",
    "display_names",
    "games",
    "play",
    "register",
    "rules_for",
]
