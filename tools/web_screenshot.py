"""Take the documentation's screenshot of the web table (docs/_static/server-table.png).

Starts ``cardrules serve`` on a free loopback port with a temporary
database, creates a Back Alley table (you and three bots, a fixed seed),
plays by clicking until it is your turn to play a card with cards already in
the trick, and saves what headless Chromium shows.  Needs Debian's chromium
and chromium-driver and the Python packages of the ``server`` and ``test``
extras (Selenium)::

    python tools/web_screenshot.py [--out docs/_static/server-table.png]

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


def main(argv: list[str] | None = None) -> int:
    """Take the screenshot; 1 (with the reason) when the browser is missing."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "_static" / "server-table.png")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)
    why = browser.missing()
    if why is not None:
        print(f"web_screenshot: {why}", file=sys.stderr)
        return 1
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp, \
            browser.serve(Path(tmp) / "cardrules.sqlite", bot_delay=0.02) as base, \
            browser.browser(1280, 860) as driver:
        made = browser.post_json(f"{base}/api/tables", {
            "game": "back-alley", "settings": {"max_hand_size": 5}, "seed": args.seed,
            "seats": ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"]})
        assert isinstance(made, dict)
        table, token = made["id"], made["seats"][0]["token"]
        driver.get(f"{base}/")
        driver.execute_script(
            "localStorage.setItem('cardrules.seats', JSON.stringify("
            "{[arguments[0]]: [{seat: 0, token: arguments[1]}]}));", table, token)
        driver.get(f"{base}/tables/{table}?seat=0")
        browser.wait_for(driver, "#table[data-version]:not([data-version=''])")
        for _ in range(200):
            browser.wait_for_turn(driver)
            legal = browser.legal(driver)
            if any(a.startswith("play ") for a in legal) and _trick_size(driver) >= 2:
                break
            if not browser.take_turn(driver, rng):
                continue
        else:
            print("web_screenshot: no position with a trick in play was reached", file=sys.stderr)
            return 1
        browser.wait_for(driver, "#seats [data-seat='3'] .name")
        args.out.parent.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(args.out))
    print(f"web_screenshot: wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
