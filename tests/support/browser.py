"""Driving the web table in a real browser: Debian's Chromium through
Selenium and chromedriver, and the real server (``cardrules serve``) in a
child process on a free loopback port.

Written once for the browser test (``tests/server/test_browser.py``) and the
script that takes the documentation's screenshot (``tools/web_screenshot.py``).
Every wait is an explicit wait with a timeout; nothing sleeps to let time pass.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from selenium.webdriver.chrome.webdriver import WebDriver

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
#: The flags the browser runs with: headless, no sandbox (CI runs as root), and
#: nothing that reaches out to the network on its own.
CHROMIUM_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run", "--disable-default-apps",
                  "--disable-extensions", "--window-size=1400,1000")
ROOT = Path(__file__).resolve().parents[2]


def missing() -> str | None:
    """Why the browser cannot run here (None: it can): a missing program or module."""
    for program in (CHROMIUM, CHROMEDRIVER):
        if not os.access(program, os.X_OK):
            return f"{program} is missing (apt-get install chromium chromium-driver)"
    for module in ("selenium", "uvicorn", "starlette"):
        try:
            __import__(module)
        except ImportError:
            return f"the Python module {module} is missing"
    return None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def get_json(url: str, timeout: float = 10.0) -> object:
    """GET ``url`` and read its JSON."""
    with urllib.request.urlopen(url, timeout=timeout) as answer:
        return json.loads(answer.read().decode("utf-8"))


def post_json(url: str, body: object, timeout: float = 10.0) -> object:
    """POST ``body`` as JSON to ``url`` and read the JSON answer."""
    request = urllib.request.Request(url, data=json.dumps(body).encode("utf-8"),
                                     headers={"Content-Type": "application/json"},
                                     method="POST")
    with urllib.request.urlopen(request, timeout=timeout) as answer:
        return json.loads(answer.read().decode("utf-8"))


@contextlib.contextmanager
def serve(db: str | Path, *, bot_delay: float = 0.05, timeout: float = 60.0,
          port: int | None = None, extra: Sequence[str] = ()) -> Iterator[str]:
    """``cardrules serve`` on a loopback port (a free one unless ``port`` says)
    with database ``db`` (a SQLite file or a PostgreSQL URL); yields the base
    URL once the lobby API answers, and stops the server at the end."""
    port = free_port() if port is None else port
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")])
    command = [sys.executable, "-m", "cardrules", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--db", str(db), "--bot-delay", str(bot_delay), *extra]
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL)
        try:
            yield _started(process, log, f"http://127.0.0.1:{port}", timeout)
        finally:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)


def _started(process: subprocess.Popen[bytes], log: IO[bytes], base: str,
             timeout: float) -> str:
    """``base`` once the server answers; its log in the error when it stops or
    does not answer in time."""
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"cardrules serve stopped ({process.returncode}):\n"
                               + log.read().decode("utf-8", "replace")[-3000:])
        try:
            get_json(f"{base}/api/games", timeout=2.0)
            return base
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            if time.monotonic() > deadline:
                raise RuntimeError("cardrules serve did not answer in time") from None
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(0.1)   # a bounded pause before the next try


@contextlib.contextmanager
def browser(width: int = 1400, height: int = 1000) -> Iterator[WebDriver]:
    """Headless Chromium with a fresh profile, driven through /usr/bin/chromedriver."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    with tempfile.TemporaryDirectory(prefix="cardrules-chromium-") as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in CHROMIUM_FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--window-size={width},{height}")
        options.add_argument(f"--user-data-dir={profile}")
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        try:
            driver.set_page_load_timeout(30)
            yield driver
        finally:
            driver.quit()


def wait_for(driver: WebDriver, css: str, timeout: float = 20.0) -> None:
    """Wait until an element matching ``css`` is on the page."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, timeout).until(
        expected_conditions.presence_of_element_located((By.CSS_SELECTOR, css)))


def create_table(driver: WebDriver, base: str, game: str, settings: Mapping[str, int],
                 seats: Sequence[str]) -> str:
    """Create a table from the lobby's form (seat 0 is the person at the
    browser); returns the table's id once its page shows a view."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    driver.get(f"{base}/")
    wait_for(driver, "body[data-ready='1']")
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    for name, value in settings.items():
        box = driver.find_element(By.ID, f"setting-{name}")
        box.clear()
        box.send_keys(str(value))
    for seat, kind in enumerate(seats):
        Select(driver.find_element(By.ID, f"seat-{seat}")).select_by_value(kind)
    driver.find_element(By.ID, "create-button").click()
    WebDriverWait(driver, 20).until(lambda d: "/tables/" in d.current_url)
    wait_for(driver, "#table[data-version]:not([data-version=''])")
    return str(driver.current_url.split("/tables/")[1].split("?")[0])


def page_state(driver: WebDriver) -> dict[str, str]:
    """The table page's data attributes (version, phase, seat, over, pending...)."""
    from selenium.webdriver.common.by import By

    element = driver.find_element(By.ID, "table")
    names = ("version", "phase", "seat", "current", "myTurn", "over", "pending", "legal")
    got = driver.execute_script(
        "const d = arguments[0].dataset;"
        " return Object.fromEntries(arguments[1].map(k => [k, d[k] || '']));",
        element, list(names))
    assert isinstance(got, dict)
    return {str(k): str(v) for k, v in got.items()}


def legal(driver: WebDriver) -> list[str]:
    """The legal actions the page offers now (none while a move is on its way)."""
    listed = json.loads(page_state(driver)["legal"] or "[]")
    return [str(action) for action in listed]


def wait_for_turn(driver: WebDriver, timeout: float = 30.0) -> None:
    """Wait until the page offers a move (or the game is over)."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, timeout, poll_frequency=0.05).until(
        lambda d: page_state(d)["over"]
        or (page_state(d)["myTurn"] and not page_state(d)["pending"]))


def take_turn(driver: WebDriver, rng: random.Random) -> bool:
    """Make one legal move by clicking, if the page offers one now: pick the
    cards of a legal split then its button, or click a random legal action
    (a card or a button).  Returns True when something was clicked."""
    from selenium.common.exceptions import (
        ElementClickInterceptedException,
        ElementNotInteractableException,
        NoSuchElementException,
        StaleElementReferenceException,
    )
    from selenium.webdriver.common.by import By

    try:
        state = page_state(driver)
        if state["pending"] or not state["myTurn"]:
            return False
        legal = json.loads(state["legal"] or "[]")
        splits = [a for a in legal if a.startswith("split ")]
        if splits:
            down = rng.choice(splits)[len("split "):].split("/")[0].split()
            for pick in driver.find_elements(By.CSS_SELECTOR, "[data-pick].chosen"):
                pick.click()   # start from no card chosen
            for card in down:
                driver.find_element(By.CSS_SELECTOR, f"[data-pick='{card}']").click()
            button = driver.find_element(By.ID, "split-button")
            if button.get_attribute("data-action") not in splits:
                return False
            button.click()
            return True
        clickable = [e for e in driver.find_elements(By.CSS_SELECTOR, "[data-action]")
                     if e.get_attribute("data-action") in legal and e.is_enabled()]
        if not clickable:
            return False
        rng.choice(clickable).click()
        return True
    except (StaleElementReferenceException, NoSuchElementException,
            ElementClickInterceptedException, ElementNotInteractableException):
        return False   # the page was redrawn under the click: look again


def play_to_end(driver: WebDriver, rng: random.Random, timeout: float = 240.0,
                reload_after: int | None = None, stop_after: int | None = None) -> int:
    """Click legal moves until the page shows the game over (or ``stop_after``
    moves were clicked); returns the number of moves clicked.  With
    ``reload_after``, the page is reloaded once after that many moves (it
    must reconnect with the stored token)."""
    from selenium.webdriver.support.ui import WebDriverWait

    deadline = time.monotonic() + timeout
    moves = 0
    reloaded = False
    while not page_state(driver)["over"] and (stop_after is None or moves < stop_after):
        if time.monotonic() > deadline:
            raise AssertionError(f"the game did not end within {timeout} s "
                                 f"({moves} moves clicked, page {page_state(driver)})")
        if reload_after is not None and not reloaded and moves >= reload_after:
            driver.refresh()
            wait_for(driver, "#table[data-version]:not([data-version=''])")
            reloaded = True
        check_text(driver)
        before = page_state(driver)["version"]
        if take_turn(driver, rng):
            moves += 1
            # Wait for the answer: a new view, or the page free to act again.
            WebDriverWait(driver, 20).until(_answered(before))
        else:
            # Wait until it is our move or the game is over (bots play meanwhile).
            WebDriverWait(driver, 30, poll_frequency=0.05).until(_ready(before))
    check_text(driver)
    return moves


def check_text(driver: WebDriver) -> None:
    """The page shows no JavaScript leftovers (``null``, ``undefined``, ``NaN``,
    ``[object Object]``) where text should be."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    try:
        text = driver.find_element(By.TAG_NAME, "body").text
    except StaleElementReferenceException:
        return
    found = re.search(r"\b(null|undefined|NaN)\b|\[object Object\]", text)
    assert found is None, f"the page shows {found.group(0)!r}: {text[:2000]}"


def _answered(before: str) -> Callable[[WebDriver], bool]:
    def check(driver: WebDriver) -> bool:
        state = page_state(driver)
        return state["version"] != before or bool(state["over"]) or not state["pending"]
    return check


def _ready(before: str) -> Callable[[WebDriver], bool]:
    def check(driver: WebDriver) -> bool:
        state = page_state(driver)
        return (bool(state["over"]) or (bool(state["myTurn"]) and not state["pending"])
                or state["version"] != before)
    return check


def console_errors(driver: WebDriver) -> list[str]:
    """The errors the page's console logged since the last call."""
    entries = driver.get_log("browser")  # type: ignore[no-untyped-call]
    return [str(entry["message"]) for entry in entries if entry.get("level") == "SEVERE"]


def shown_scores(driver: WebDriver) -> list[int]:
    """The final scores the page shows, one per seat in seat order."""
    from selenium.webdriver.common.by import By

    items = driver.find_elements(By.CSS_SELECTOR, "#final-scores [data-seat]")
    scores = {int(str(e.get_attribute("data-seat"))): int(str(e.get_attribute("data-score")))
              for e in items}
    return [scores[seat] for seat in sorted(scores)]


def recorded_scores(base: str, table: str) -> list[int]:
    """The final scores of the table's record (``GET /api/tables/{id}/record``),
    replayed through the library: each seat's returns."""
    from cardrules.engine.records import GameRecord
    from cardrules.engine.registry import rules_for

    data = get_json(f"{base}/api/tables/{table}/record")
    assert isinstance(data, dict)
    record = GameRecord.from_dict(data.get("record", data))
    rules = rules_for(record.game)
    *_, final = rules.replay(record)
    assert final.is_terminal
    return list(rules.returns(final))


def which(program: str) -> str | None:
    """``shutil.which``, for the tool's messages."""
    return shutil.which(program)


# -- screens, languages and the keyboard (tests/server/test_browser_screens.py) --------

#: The screens the pages are checked on: a desktop and a phone (CSS pixels).
SCREENS = {"desktop": (1300, 900), "phone": (390, 844)}


def set_screen(driver: WebDriver, width: int, height: int) -> None:
    """Make the page's viewport exactly ``width`` x ``height`` CSS pixels (a
    phone's is a mobile one: overlay scrollbars, the page's viewport tag)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 700})


def sideways_overflow(driver: WebDriver) -> int:
    """How many CSS pixels the page is wider than its viewport (0: no sideways scroll)."""
    got = driver.execute_script(
        "return Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
        " - document.documentElement.clientWidth;")
    return int(got)


def outside_first_screen(driver: WebDriver, css: str) -> list[str]:
    """The elements matching ``css`` that are not wholly inside the first
    screen (the page scrolled to the top), each as its data-action, data-card
    or text."""
    got = driver.execute_script(
        "window.scrollTo(0, 0);"
        "const out = [];"
        "for (const e of document.querySelectorAll(arguments[0])) {"
        "  const r = e.getBoundingClientRect();"
        "  if (r.width === 0 && r.height === 0) continue;"
        "  if (r.top < 0 || r.left < 0 || r.bottom > window.innerHeight + 0.5"
        "      || r.right > document.documentElement.clientWidth + 0.5)"
        "    out.push(e.dataset.action || e.dataset.card || e.textContent.trim().slice(0, 40));"
        "}"
        "return out;", css)
    return [str(item) for item in got]


#: What may be written in Latin letters on a Japanese or Ukrainian page: the
#: program's name, card codes, rule ids, table ids, the bids as typed (PASS,
#: BOARD) and "mod" in the rules' arithmetic (the language switch is left out).
_NOT_WORDS = re.compile(r"cardrules|#[0-9a-f]{6,}|(?<![A-Za-z0-9])(?:(?:BA|DB)-\d+|[2-9TJQKA][SHDC]"
                        r"|BB|LB|PASS|BOARD|mod)(?![A-Za-z0-9])")


def english_words(driver: WebDriver) -> list[str]:
    """The English words the page shows or names for a screen reader (its
    visible text, ``aria-label``, ``title`` and ``alt``), less the language
    switch's names of the languages and what :data:`_NOT_WORDS` allows."""
    texts = driver.execute_script(
        "const out = [];"
        "const skip = (n) => n.closest && n.closest('[data-endonyms], script, style');"
        "const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);"
        "while (walker.nextNode()) {"
        "  const node = walker.currentNode, parent = node.parentElement;"
        "  if (!parent || skip(parent) || !parent.checkVisibility()) continue;"
        "  out.push(node.textContent);"
        "}"
        "for (const e of document.body.querySelectorAll('[aria-label], [title], [alt]')) {"
        "  if (skip(e)) continue;"
        "  for (const a of ['aria-label', 'title', 'alt'])"
        "    if (e.getAttribute(a)) out.push(e.getAttribute(a));"
        "}"
        "out.push(document.title);"
        "return out;")
    found: list[str] = []
    for text in texts:
        found += re.findall(r"[A-Za-z]{2,}", _NOT_WORDS.sub(" ", str(text)))
    return found


def unnamed_controls(driver: WebDriver) -> list[str]:
    """The buttons, links and boxes of the page with no name a screen reader
    could say (no text, ``aria-label``, ``title`` or label)."""
    got = driver.execute_script(
        "const out = [];"
        "for (const e of document.querySelectorAll('button, a[href], input, select')) {"
        "  if (!e.checkVisibility()) continue;"
        "  const labelled = e.id && document.querySelector(`label[for='${e.id}']`);"
        "  const name = (e.getAttribute('aria-label') || e.textContent || e.title || '').trim();"
        "  if (!name && !labelled && !e.closest('label')) out.push(e.outerHTML.slice(0, 80));"
        "}"
        "return out;")
    return [str(item) for item in got]


def press(driver: WebDriver, *keys: str) -> None:
    """Press keys on the focused element, as a person at the keyboard would."""
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(*keys).perform()


def tab_to(driver: WebDriver, test: str, limit: int = 80) -> None:
    """Press Tab until the focused element passes the JavaScript ``test`` (an
    expression of ``e``, the focused element); fails after ``limit`` presses."""
    from selenium.webdriver.common.keys import Keys

    check = f"const e = document.activeElement; return Boolean(e && ({test}));"
    for _ in range(limit):
        if driver.execute_script(check):
            return
        press(driver, Keys.TAB)
    raise AssertionError(f"Tab never reached an element with {test}")


def key_turn(driver: WebDriver, rng: random.Random) -> bool:
    """Make one legal move with the keyboard alone (Tab, Space, Enter, digits):
    a split's four cards then its button, a cut's count then its button, or
    a random legal card or button.  True when a move was sent."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.keys import Keys

    state = page_state(driver)
    if state["pending"] or not state["myTurn"]:
        return False
    legal = json.loads(state["legal"] or "[]")
    try:
        splits = [a for a in legal if a.startswith("split ")]
        if splits:
            down = rng.choice(splits)[len("split "):].split("/")[0].split()
            for card in down:
                tab_to(driver, f"e.dataset.pick === {json.dumps(card)}")
                press(driver, Keys.SPACE)
            tab_to(driver, "e.id === 'split-button' && !e.disabled")
            press(driver, Keys.ENTER)
            return True
        choice = rng.choice(legal)
        if choice.startswith("cut "):
            tab_to(driver, "e.id === 'cut-count'")
            press(driver, Keys.END, *[Keys.BACKSPACE] * 4, choice.split()[1])
            tab_to(driver, f"e.id === 'cut-button' && e.dataset.action === {json.dumps(choice)}")
        else:
            tab_to(driver, f"e.dataset.action === {json.dumps(choice)} && !e.disabled")
        press(driver, Keys.ENTER)
        return True
    except StaleElementReferenceException:
        return False


def play_by_keyboard(driver: WebDriver, rng: random.Random, timeout: float = 120.0) -> int:
    """Play with :func:`key_turn` until the page shows the game over; the
    number of moves made."""
    from selenium.webdriver.support.ui import WebDriverWait

    deadline = time.monotonic() + timeout
    moves = 0
    while not page_state(driver)["over"]:
        if time.monotonic() > deadline:
            raise AssertionError(f"the game did not end within {timeout} s ({moves} moves)")
        before = page_state(driver)["version"]
        if key_turn(driver, rng):
            moves += 1
            WebDriverWait(driver, 20).until(_answered(before))
        else:
            WebDriverWait(driver, 30, poll_frequency=0.05).until(_ready(before))
    return moves


def sit_down(driver: WebDriver, base: str, game: str, settings: Mapping[str, int],
             seats: Sequence[str], lang: str, seed: int = 5) -> str:
    """Create a table through the API with seat 0 held by this browser, open
    its page in ``lang`` and wait for the first view; the table's id."""
    made = post_json(f"{base}/api/tables", {"game": game, "settings": dict(settings),
                                            "seats": list(seats), "seed": seed})
    assert isinstance(made, dict)
    table, token = str(made["id"]), made["seats"][0]["token"]
    driver.get(f"{base}/?lang={lang}")
    driver.execute_script(
        "localStorage.setItem('cardrules.seats', JSON.stringify("
        "{[arguments[0]]: [{seat: 0, token: arguments[1]}]}));", table, token)
    driver.get(f"{base}/tables/{table}?seat=0&lang={lang}")
    wait_for(driver, "#table[data-version]:not([data-version=''])")
    return table
