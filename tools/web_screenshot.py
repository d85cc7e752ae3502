"""Take the documentation's screenshots of the web table (docs/_static/server-table*.png).

Starts ``cardrules serve`` on a free loopback port with a temporary
database and, for each picture of :data:`SHOTS` (a desktop of 1300x900 and
a phone of 390x844 CSS pixels, in English, Japanese and Ukrainian), creates
a table (you and three bots, a fixed seed), plays by clicking until it is
your turn with cards on the table (a trick in play, or a discard pile), and
saves what headless Chromium shows.  Needs Debian's chromium
and chromium-driver and the Python packages of the ``server`` and ``test``
extras (Selenium)::

    python tools/web_screenshot.py [--out docs/_static]

The helpers are the browser test's (``tests/support/browser.py``).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from support import browser  # noqa: E402


def _trick_size(driver: browser.WebDriver) -> int:
    from selenium.webdriver.common.by import By

    return len(driver.find_elements(By.CSS_SELECTOR, "#trick:not(.finished) .played"))


#: The pictures: file name, screen (CSS pixels), language, game and seed.
SHOTS = (
    ("server-table.png", (1300, 900), "en", "back-alley", 11),
    ("server-table-ja.png", (1300, 900), "ja", "back-alley", 11),
    ("server-table-phone-uk.png", (390, 844), "uk", "back-alley", 11),
    ("server-table-phone-ja-down-and-back.png", (390, 844), "ja", "down-and-back", 5),
)


def _shoot(base: str, out: Path, screen: tuple[int, int], lang: str, game: str,
           seed: int) -> bool:
    from selenium.webdriver.common.by import By

    rng = random.Random(seed)
    with browser.browser(*screen) as driver:
        browser.set_screen(driver, *screen)
        settings = {"max_hand_size": 5} if game == "back-alley" else {"num_players": 4,
                                                                     "rounds": 1}
        seats = (["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"]
                 if game == "back-alley" else ["human", "bot:greedy", "bot:greedy",
                                                "bot:greedy"])
        browser.sit_down(driver, base, game, settings, seats, lang, seed=seed)
        for _ in range(200):
            browser.wait_for_turn(driver)
            legal = browser.legal(driver)
            if game == "back-alley" and any(a.startswith("play ") for a in legal) \
                    and _trick_size(driver) >= 2:
                break
            if game == "down-and-back" and any(a.startswith("discard ") for a in legal) \
                    and len(driver.find_elements(By.CSS_SELECTOR, "#discard [data-card]")) >= 3:
                break
            browser.take_turn(driver, rng)
        else:
            return False
        driver.execute_script("window.scrollTo(0, 0);")
        out.parent.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(out))
    return True


def main(argv: list[str] | None = None) -> int:
    """Take the screenshots; 1 (with the reason) when the browser is missing."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "_static",
                        help="the folder the pictures are written to")
    args = parser.parse_args(argv)
    why = browser.missing()
    if why is not None:
        print(f"web_screenshot: {why}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp, \
            browser.serve(Path(tmp) / "cardrules.sqlite", bot_delay=0.02) as base:
        for name, screen, lang, game, seed in SHOTS:
            if not _shoot(base, args.out / name, screen, lang, game, seed):
                print(f"web_screenshot: no position worth showing for {name}", file=sys.stderr)
                return 1
            print(f"web_screenshot: wrote {args.out / name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
