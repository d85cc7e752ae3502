"""The web table on a desktop and a phone, in English, Japanese and
Ukrainian, in Debian's Chromium (see tests/server/test_browser.py for how the
browser and the server are run, and when the test is skipped).

At 1300x900 and 390x844 CSS pixels, in each language: nothing scrolls
sideways, a Japanese or Ukrainian page shows no English word of the
interface (card codes, rule ids and the language names aside), on your
turn your hand and every legal move are on the first screen, and every
card and button has a name a screen reader can say.  A short game
of each is played to the end by the keyboard alone (Tab, Space, Enter and
digits), and the final scores shown are the record's.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
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

LANGS = ["en", "ja", "uk"]
#: Short games: Back Alley of one deal, Down and Back of one round for two.
GAMES = {
    "back-alley": ({"max_hand_size": 1}, ["human", "bot:heuristic", "bot:heuristic",
                                          "bot:heuristic"]),
    "down-and-back": ({"num_players": 2, "rounds": 1}, ["human", "bot:greedy"]),
}
#: Games with the largest hands, for the first screen on your turn.
FULL = {
    "back-alley": ({"max_hand_size": 13}, GAMES["back-alley"][1]),
    "down-and-back": ({"num_players": 5, "rounds": 1}, ["human", *["bot:greedy"] * 4]),
}
#: Everything on the first screen on your turn: the hand and every legal move.
MINE = "#hand [data-card], #mine [data-action], #centre [data-action], #cut-count"


# On SQLite only: the subject is the pages' layout on a screen, which no
# store changes (the protocol runs on both stores in test_ws.py).
@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("screens") / "cardrules.sqlite"
    with browser.serve(db, bot_delay=0.01) as url:
        yield url


@pytest.fixture(scope="module")
def driver() -> Iterator[WebDriver]:
    with browser.browser() as chromium:
        yield chromium


@pytest.mark.parametrize("screen", sorted(browser.SCREENS))
@pytest.mark.parametrize("lang", LANGS)
def test_the_lobby_fits_the_screen_and_speaks_the_language(
        base: str, driver: WebDriver, lang: str, screen: str) -> None:
    from selenium.webdriver.common.by import By

    browser.set_screen(driver, *browser.SCREENS[screen])
    table, _ = _held_table(driver, base)
    driver.get(f"{base}/?lang={lang}")
    browser.wait_for(driver, f"[data-table='{table}'] [data-watch]")
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == lang
    assert browser.sideways_overflow(driver) == 0
    # The hints and the buttons of a listed table are all within the width.
    for css in ("#settings .hint", f"[data-open='{table}']", f"[data-watch='{table}']"):
        for element in driver.find_elements(By.CSS_SELECTOR, css):
            right = driver.execute_script("return arguments[0].getBoundingClientRect().right;",
                                          element)
            assert right <= browser.SCREENS[screen][0], css
    if lang != "en":
        assert browser.english_words(driver) == []
    assert browser.console_errors(driver) == []


@pytest.mark.parametrize("screen", sorted(browser.SCREENS))
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(FULL))
def test_on_your_turn_the_hand_and_the_moves_are_on_the_first_screen(
        base: str, driver: WebDriver, game: str, lang: str, screen: str) -> None:
    browser.set_screen(driver, *browser.SCREENS[screen])
    settings, seats = FULL[game]
    browser.sit_down(driver, base, game, settings, seats, lang, seed=len(lang) + len(screen))
    rng = random.Random(f"{game}{lang}{screen}")
    # The first turns: a cut or a bid, then the draws, discards or cards.
    for _ in range(3):
        browser.wait_for_turn(driver, timeout=60)
        if browser.page_state(driver)["over"]:
            break
        assert browser.sideways_overflow(driver) == 0
        assert browser.outside_first_screen(driver, MINE) == []
        assert browser.unnamed_controls(driver) == []
        if lang != "en":
            assert browser.english_words(driver) == []
        before = browser.page_state(driver)["version"]
        # A click may land while the page is redrawn: look again (bounded).
        assert any(browser.take_turn(driver, rng) for _ in range(20))
        browser.wait_for(driver, f"#table:not([data-version='{before}'])", timeout=60)
    assert browser.console_errors(driver) == []


@pytest.mark.parametrize(("game", "lang", "screen"), [
    ("back-alley", "uk", "phone"), ("back-alley", "ja", "desktop"),
    ("down-and-back", "ja", "phone"), ("down-and-back", "uk", "desktop")])
def test_a_short_game_is_played_to_the_end_by_keyboard_alone(
        base: str, driver: WebDriver, game: str, lang: str, screen: str) -> None:
    from selenium.webdriver.common.by import By

    browser.set_screen(driver, *browser.SCREENS[screen])
    settings, seats = GAMES[game]
    table = browser.sit_down(driver, base, game, settings, seats, lang)
    moves = browser.play_by_keyboard(driver, random.Random(f"{game}{lang}"))
    assert moves >= (2 if game == "back-alley" else 13)
    shown = browser.shown_scores(driver)
    assert shown == browser.recorded_scores(base, table)
    # The result names the teams or the players, in the page's language.
    result = driver.find_element(By.ID, "result").text
    assert ("チーム" in result or "команда" in result) if game == "back-alley" else \
        ("あなた" in result or "ви" in result)
    assert browser.english_words(driver) == []
    assert browser.sideways_overflow(driver) == 0
    assert browser.console_errors(driver) == []


def test_a_refusal_links_its_rule_to_the_rules_page_in_the_same_language(
        base: str, driver: WebDriver) -> None:
    from selenium.webdriver.common.by import By

    browser.set_screen(driver, *browser.SCREENS["desktop"])
    browser.sit_down(driver, base, "down-and-back", {"num_players": 2, "rounds": 1},
                     ["human", "bot:greedy"], "uk")
    browser.wait_for_turn(driver)
    # The rule ids the log cites are links to the rules too.
    cited = driver.find_elements(By.CSS_SELECTOR, "#log a.rule-link")
    assert cited
    assert all(f"/rules/down-and-back?lang=uk#{a.text}" in str(a.get_attribute("href"))
               for a in cited)
    legal = browser.legal(driver)
    wrong = "cut 99" if legal[0].startswith("cut") else "discard " + (
        "AS" if "discard AS" not in legal else "2S")
    driver.execute_script("T.socket.send(JSON.stringify({type: 'act', version: T.version,"
                          " action: arguments[0]}));", wrong)
    browser.wait_for(driver, "#notice[data-kind='error']:not([hidden]) a.rule-link")
    link = driver.find_element(By.CSS_SELECTOR, "#notice a.rule-link")
    rule = link.text
    assert rule.startswith("DB-")
    assert browser.english_words(driver) == []
    driver.get(str(link.get_attribute("href")))
    browser.wait_for(driver, f"body[data-ready='1'] [data-rule='{rule}']")
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "uk"
    assert browser.english_words(driver) == []
    # The table's "how to play" panel holds the same rules.
    driver.back()
    browser.wait_for(driver, "#table[data-version]:not([data-version=''])")
    driver.find_element(By.ID, "rules-open").click()
    browser.wait_for(driver, "#rules:not([hidden]) [data-rule='DB-34']")


def _held_table(driver: WebDriver, base: str) -> tuple[str, str]:
    """A Back Alley table whose seat 0 this browser holds (made once)."""
    held = driver.execute_script("return localStorage.getItem('cardrules.screens');")
    if held:
        table, token = str(held).split(" ")
        return table, token
    made = browser.post_json(f"{base}/api/tables", {
        "game": "back-alley", "settings": {"max_hand_size": 13},
        "seats": ["human", "open", "bot:heuristic", "bot:heuristic"]})
    assert isinstance(made, dict)
    table, token = str(made["id"]), str(made["seats"][0]["token"])
    driver.get(f"{base}/")
    driver.execute_script(
        "localStorage.setItem('cardrules.seats', JSON.stringify("
        "{[arguments[0]]: [{seat: 0, token: arguments[1]}]}));"
        "localStorage.setItem('cardrules.screens', arguments[0] + ' ' + arguments[1]);",
        table, token)
    return table, token
