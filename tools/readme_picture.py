"""Draw the picture at the top of the README: a Back Alley table drawn by
cardrules itself (``cardrules.back_alley.pictures.view_svg``).

Four heuristic bots play a seeded game until the fourth trick of the first
deal is under way; the picture is that table as seat 0 sees it, so the other
hands are face down.  The same seed and library give the same picture, and
``tests/test_docs.py`` checks that the committed file is what this draws now.
After a change to the pictures, run (from the top of the repository)::

    python tools/readme_picture.py          # rewrites assets/back-alley-table.svg
    python tools/readme_picture.py --check  # exit 1 if the file is out of date
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from cardrules import back_alley
from cardrules.back_alley.pictures import view_svg

#: Where the README's picture lives, from the top of the repository.
PICTURE = Path(__file__).resolve().parent.parent / "assets" / "back-alley-table.svg"
SEED = 1


def picture() -> str:
    """The SVG text of the README's picture, drawn now."""
    rng = random.Random(SEED)
    bots = [back_alley.HeuristicBot(seed) for seed in range(4)]
    state = back_alley.new_game()
    while len(state.tricks) < 3 or len(state.trick) < 2:
        if state.is_chance:
            action = back_alley.sample_chance(state, rng)
        else:
            seat = state.current_player
            action = bots[seat].act(back_alley.view(state, seat),
                                    back_alley.legal_actions(state))
        state = back_alley.apply(state, action)
    return view_svg(back_alley.view(state, 0)) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the picture, or with ``--check`` only compare it; see the docstring."""
    args = sys.argv[1:] if argv is None else argv
    fresh = picture()
    if args == ["--check"]:
        committed = PICTURE.read_text("utf-8") if PICTURE.exists() else None
        if committed != fresh:
            print(f"{PICTURE} is out of date: run python tools/readme_picture.py",
                  file=sys.stderr)
            return 1
        return 0
    if args:
        print("usage: python tools/readme_picture.py [--check]", file=sys.stderr)
        return 2
    PICTURE.parent.mkdir(exist_ok=True)
    PICTURE.write_text(fresh, "utf-8")
    print(f"wrote {PICTURE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
