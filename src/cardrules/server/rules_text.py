"""The rules as the web table shows them ("how to play"), in three languages.

The text is the two game sections of the documentation's rules page and of
its Japanese and Ukrainian translations, gathered by ``tools/web_rules.py``
into ``static/rules.json`` (a test checks that file is current).  Each rule
keeps its id (``BA-31``), which the pages use as its anchor, so a refusal
naming a rule links to it.

>>> found = game_rules("back-alley", "ja")
>>> found["game"], found["lang"], found["title"]
('back-alley', 'ja', 'バックアリー')
>>> any(item["id"] == "BA-31" for section in found["sections"] for item in section["items"])
True
>>> game_rules("chess", "en") is None
True
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import cast

from cardrules.engine.registry import display_name, rules_for
from cardrules.errors import CardRulesError
from cardrules.i18n import normalize
from cardrules.server.web import STATIC

__all__ = ["game_rules"]


@lru_cache(maxsize=1)
def _all() -> dict[str, dict[str, dict[str, object]]]:
    data = json.loads((STATIC / "rules.json").read_text(encoding="utf-8"))
    return cast(dict[str, dict[str, dict[str, object]]], data)


def game_rules(game: str, lang: str) -> dict[str, object] | None:
    """The rules of ``game`` (``back-alley`` or ``down-and-back``; ``_`` for
    ``-`` and any case accepted) in ``lang`` (normalised: English for a
    language cardrules does not speak): ``{"game", "lang", "title",
    "sections": [{"heading", "items": [{"id", "title", "text"}]}]}`` where
    ``id`` is a rule's id or None for a paragraph between rules; None for an
    unknown game.

    >>> game_rules("Down_And_Back", "xx")["title"]
    'Down and Back'
    """
    try:
        key = display_name(rules_for(game))
    except CardRulesError:
        return None
    code = normalize(lang)
    found = _all().get(code, {}).get(key)
    if found is None:
        return None
    return {"game": key, "lang": code, **found}
