"""Game-independent engine parts shared by every game in cardrules.

- :mod:`cardrules.engine.chance`: the chance actions (:class:`ChooseDealer`,
  :class:`Shuffle`) and uniform sampling from a caller's ``random.Random``;
- :mod:`cardrules.engine.protocol`: :class:`Rules`, what a game module offers;
- :mod:`cardrules.engine.records`: game records (JSON and text) and replay;
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
from cardrules.engine.protocol import Rules
from cardrules.engine.records import GameRecord

__all__ = ["Bot", "ChooseDealer", "GameRecord", "RandomBot", "Rules", "Shuffle", "check_game"]
