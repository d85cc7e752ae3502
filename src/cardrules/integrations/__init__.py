"""Bridges from cardrules to other game and learning libraries.

Each integration is its own module, imported on purpose, and needs its extra:
:mod:`cardrules.integrations.openspiel` (``pip install "cardrules[openspiel]"``)
registers both games with OpenSpiel, and :mod:`cardrules.integrations.pettingzoo`
(``pip install "cardrules[pettingzoo]"``) makes PettingZoo environments of them.
Importing this package imports none of them.
"""
