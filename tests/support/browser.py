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
def serve(db: Path, *, bot_delay: float = 0.05, timeout: float = 60.0, port: int | None = None,
          extra: Sequence[str] = ()) -> Iterator[str]:
    """``cardrules serve`` on a loopback port (a free one unless ``port`` says)
    with database ``db``; yields the base URL once the lobby API answers, and
    stops the server at the end."""
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
