"""The web table in a real browser: Debian's Chromium, driven through Selenium
and chromedriver, plays both games to the end against bots on a real
``cardrules serve`` (a child process on a free loopback port, a temporary
database), by clicking what the page offers; the final scores it shows must
be the record's, replayed through the library.

Skipped when Chromium, chromedriver or Selenium are missing, unless
``CARDRULES_REQUIRE_BROWSER=1`` (as ``.ci/run`` sets it): then missing is a
failure.  Every wait is bounded (see ``support.browser``).
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from support import browser

pytestmark = pytest.mark.slow   # a real browser: python -m pytest -m "not slow" skips it

if TYPE_CHECKING:
    from selenium.webdriver.chrome.webdriver import WebDriver

_WHY = browser.missing()
if _WHY is not None:
    if os.environ.get("CARDRULES_REQUIRE_BROWSER") == "1":
        raise RuntimeError(f"CARDRULES_REQUIRE_BROWSER=1 but the browser test cannot run: {_WHY}")
    pytest.skip(f"no browser here: {_WHY}", allow_module_level=True)


# On SQLite: the subject is the pages in a browser; what they send and are
# sent runs on both stores in test_ws.py.  One game on PostgreSQL with two
# workers is the last test here.
@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real server with a fresh database and quick bots."""
    db = tmp_path_factory.mktemp("browser") / "cardrules.sqlite"
    with browser.serve(db, bot_delay=0.02) as url:
        yield url


@pytest.fixture(scope="module")
def driver() -> Iterator[WebDriver]:
    """One headless Chromium with a fresh profile for the module."""
    with browser.browser() as chromium:
        yield chromium


def test_the_lobby_lists_both_games_and_a_card_picture_is_served(
        base: str, driver: WebDriver) -> None:
    from selenium.webdriver.common.by import By

    driver.get(f"{base}/")
    browser.wait_for(driver, "body[data-ready='1']")
    options = [o.get_attribute("value") for o in
               driver.find_elements(By.CSS_SELECTOR, "#game option")]
    assert options == ["back-alley", "down-and-back"]
    driver.get(f"{base}/cards/BB.svg")
    assert "BB" in driver.page_source
    assert browser.console_errors(driver) == []


def test_back_alley_with_two_cards_against_three_bots_is_played_to_the_end_by_clicking(
        base: str, driver: WebDriver) -> None:
    table = browser.create_table(driver, base, "back-alley", {"max_hand_size": 2},
                                 ["human", "bot:heuristic", "bot:random", "bot:heuristic"])
    # A reload half-way must reconnect with the seat's token from localStorage.
    moves = browser.play_to_end(driver, random.Random(17), timeout=240, reload_after=2)
    assert moves >= 3   # a bid and a card in each of the three deals, at least
    assert browser.page_state(driver)["seat"] == "0"
    shown = browser.shown_scores(driver)
    assert shown == browser.recorded_scores(base, table)
    assert browser.console_errors(driver) == []


def test_one_round_of_down_and_back_against_two_bots_is_played_to_the_end_by_clicking(
        base: str, driver: WebDriver) -> None:
    from selenium.webdriver.common.by import By

    table = browser.create_table(driver, base, "down-and-back",
                                 {"num_players": 3, "rounds": 1},
                                 ["human", "bot:greedy", "bot:random"])
    moves = browser.play_to_end(driver, random.Random(18), timeout=240)
    # Six turns of a draw and a discard, and a split; perhaps the cut too.
    assert moves >= 13
    shown = browser.shown_scores(driver)
    assert shown == browser.recorded_scores(base, table)
    assert len(shown) == 3
    # The lobby lists it among the finished games; watching it shows the end.
    driver.get(f"{base}/")
    browser.wait_for(driver, f"#finished [data-finished='{table}']")
    driver.find_element(By.CSS_SELECTOR, f"#finished [data-finished='{table}'] a").click()
    browser.wait_for(driver, "#table[data-over='1']")
    assert browser.page_state(driver)["seat"] == ""
    assert browser.shown_scores(driver) == shown
    assert browser.console_errors(driver) == []


def test_a_spectator_sees_the_table_but_no_hand_and_no_move(
        base: str, driver: WebDriver, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    data = browser.post_json(f"{base}/api/tables", {
        "game": "back-alley", "settings": {"max_hand_size": 3},
        "seats": ["open", "bot:heuristic", "bot:heuristic", "bot:heuristic"]})
    assert isinstance(data, dict)
    driver.get(f"{base}/tables/{data['id']}?watch=1")
    browser.wait_for(driver, "#table[data-version]:not([data-version=''])")
    browser.wait_for(driver, "#seats [data-seat='3']")
    state = browser.page_state(driver)
    assert state["seat"] == ""
    assert state["legal"] == "[]"
    assert driver.find_elements(By.CSS_SELECTOR, "#hand [data-card]") == []
    assert driver.find_elements(By.CSS_SELECTOR, "[data-action]") == []


def test_a_second_person_joins_a_free_seat_from_the_lobby(base: str, driver: WebDriver) -> None:
    from selenium.webdriver.common.by import By

    data = browser.post_json(f"{base}/api/tables", {
        "game": "down-and-back", "settings": {"rounds": 1},
        "seats": ["human", "open", "bot:greedy"]})
    assert isinstance(data, dict)
    driver.get(f"{base}/")
    browser.wait_for(driver, f"[data-join='{data['id']}']")
    driver.find_element(By.CSS_SELECTOR, f"[data-join='{data['id']}']").click()
    browser.wait_for(driver, "#table[data-seat='1']")
    described = browser.get_json(f"{base}/api/tables/{data['id']}")
    assert isinstance(described, dict)
    assert [s["taken"] for s in described["seats"]] == [True, True, True]
    # The token is kept: the lobby now offers the seat back instead of a join.
    driver.get(f"{base}/")
    browser.wait_for(driver, f"[data-open='{data['id']}']")
    assert driver.find_elements(By.CSS_SELECTOR, f"[data-join='{data['id']}']") == []


def test_a_bad_token_is_refused_politely_and_the_page_offers_to_watch(
        base: str, driver: WebDriver) -> None:
    from selenium.webdriver.common.by import By

    data = browser.post_json(f"{base}/api/tables", {
        "game": "down-and-back", "settings": {"rounds": 1},
        "seats": ["open", "bot:greedy"]})
    assert isinstance(data, dict)
    driver.get(f"{base}/")
    driver.execute_script(
        "localStorage.setItem('cardrules.seats', JSON.stringify("
        "{[arguments[0]]: [{seat: 0, token: 'not-the-token'}]}));", data["id"])
    driver.get(f"{base}/tables/{data['id']}?seat=0")
    browser.wait_for(driver, "#connection[data-state='closed']")
    notice = driver.find_element(By.ID, "notice")
    assert "not accepted" in notice.text
    assert notice.find_element(By.LINK_TEXT, "watch instead")


def test_stale_and_illegal_moves_are_answered_politely_and_change_nothing(
        base: str, driver: WebDriver) -> None:
    from selenium.webdriver.common.by import By

    table = browser.create_table(driver, base, "down-and-back", {"num_players": 2, "rounds": 1},
                                 ["human", "bot:greedy"])
    browser.wait_for_turn(driver)
    version = browser.page_state(driver)["version"]
    legal = browser.legal(driver)
    # Sent as the page would, but with an old version, then an action the
    # rules refuse (a cut needs 1 to 51 cards, a draw comes before a discard).
    driver.execute_script("T.socket.send(JSON.stringify({type: 'act', version: T.version - 1,"
                          " action: arguments[0]}));", legal[0])
    browser.wait_for(driver, "#notice[data-kind='info']:not([hidden])")
    assert "moved on" in driver.find_element(By.ID, "notice").text
    wrong = "cut 99" if legal[0].startswith("cut") else "discard " + (
        "AS" if "discard AS" not in legal else "2S")
    driver.execute_script("T.socket.send(JSON.stringify({type: 'act', version: T.version,"
                          " action: arguments[0]}));", wrong)
    browser.wait_for(driver, "#notice[data-kind='error']:not([hidden])")
    text = driver.find_element(By.ID, "notice").text
    assert "not accepted" in text
    assert "DB-" in text
    assert browser.page_state(driver)["version"] == version
    assert browser.legal(driver) == legal
    assert browser.get_json(f"{base}/api/tables/{table}")["version"] == int(version)  # type: ignore[index]


def test_with_a_turn_timer_the_page_counts_down_and_a_bot_moves_for_a_late_seat(
        driver: WebDriver, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    with browser.serve(tmp_path / "timer.sqlite", bot_delay=0.02,
                       extra=["--turn-timer", "3"]) as base:
        browser.create_table(driver, base, "back-alley", {"max_hand_size": 2},
                             ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"])
        browser.wait_for_turn(driver)
        browser.wait_for(driver, "#status #clock")
        assert driver.find_element(By.ID, "clock").text.endswith("s left")
        version = browser.page_state(driver)["version"]
        # Nobody clicks: the default bot moves for the seat when time is up.
        WebDriverWait(driver, 30).until(lambda d: browser.page_state(d)["version"] != version)


def test_the_page_reconnects_with_its_token_when_the_server_restarts(
        driver: WebDriver, tmp_path: Path) -> None:
    db, port = tmp_path / "restart.sqlite", browser.free_port()
    with browser.serve(db, bot_delay=0.02, port=port) as first:
        table = browser.create_table(driver, first, "down-and-back",
                                     {"num_players": 2, "rounds": 1}, ["human", "bot:greedy"])
        browser.play_to_end(driver, random.Random(19), timeout=120, stop_after=4)
        browser.wait_for_turn(driver)
        version = int(browser.page_state(driver)["version"])
    # The server is gone: the page says so and keeps trying.
    browser.wait_for(driver, "#connection[data-state='closed']")
    with browser.serve(db, bot_delay=0.02, port=port) as second:
        browser.wait_for(driver, "#connection[data-state='open']", timeout=60)
        browser.wait_for_turn(driver)
        assert int(browser.page_state(driver)["version"]) == version
        browser.play_to_end(driver, random.Random(20), timeout=240)
        assert browser.shown_scores(driver) == browser.recorded_scores(second, table)
    # The page would go on trying to reconnect to the stopped server: leave it,
    # then drop the failed reconnects it logged (not for the next test).
    driver.get("about:blank")
    browser.console_errors(driver)


@pytest.mark.postgres
def test_on_postgresql_with_two_workers_a_game_is_played_to_the_end_across_reloads(
        postgres_database: str, driver: WebDriver) -> None:
    # Two worker processes share one socket, so each reload's connection may
    # land on either: the page must go on with its token whichever answers,
    # and the table's bots are driven by whichever holds its lease.
    with browser.serve(postgres_database, bot_delay=0.02, extra=("--workers", "2")) as base:
        table = browser.create_table(driver, base, "back-alley", {"max_hand_size": 2},
                                     ["human", "bot:heuristic", "bot:random", "bot:heuristic"])
        moves = browser.play_to_end(driver, random.Random(23), timeout=240, reload_after=1)
        assert moves >= 3
        assert browser.shown_scores(driver) == browser.recorded_scores(base, table)
        assert browser.console_errors(driver) == []
