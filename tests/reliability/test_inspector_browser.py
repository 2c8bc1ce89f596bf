"""The memory inspector in a real browser (Debian's headless Chromium driven by selenium) over the
running suite: after a conversation the page shows the person, their face and a moment's image; a new
moment appears live; forgetting a moment and then the person from the page is confirmed by every
process and leaves no byte of the person in the data root (the forget tests' byte scan).
A screenshot of the person page is saved in the test's temporary folder."""

from __future__ import annotations

import shutil
import socket
import time
import urllib.request

import pytest

from common import topics as t
from common.store import SceneStore
from tests.reliability.live import LiveSuite
from tests.reliability.test_forget_e2e import meet, user_needles
from tests.reliability.traces import find_traces
from tests.support import NadineProcess, process_env

pytestmark = [pytest.mark.shared_data, pytest.mark.slow]

CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")
WAIT_S = 60


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_http(url: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


@pytest.fixture(scope="module")
def live(broker, tmp_path_factory):
    suite = LiveSuite(broker, tmp_path_factory.mktemp("inspector"))
    yield suite
    suite.stop()


@pytest.fixture
def browser():
    if not (CHROMIUM and CHROMEDRIVER):
        pytest.fail("chromium and chromium-driver are not installed (scripts/bootstrap.sh installs them)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,1600"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(WAIT_S)
    yield driver
    driver.quit()


def _loaded(driver, css: str) -> bool:
    """Every image matching css exists and was decoded (a broken image has naturalWidth 0)."""
    images = driver.find_elements("css selector", css)
    return bool(images) and all(driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth", i)
                                for i in images)


def test_inspector_shows_and_forgets_in_a_browser(live: LiveSuite, browser, shared_data, tmp_path):
    from selenium.webdriver.support.ui import WebDriverWait

    wait = WebDriverWait(browser, WAIT_S)
    maya = meet(live, shared_data / "faces" / "df_a_01.jpg", "Maya", "I just defended my PhD thesis today, I'm so happy!")
    live.camera.show([shared_data / "faces" / "df_a_02.jpg"])
    live.rec[t.USER_DETECTED].wait_for(lambda m: m.user_id == maya, timeout=30)
    live.say("I live in Paris.")
    live.say("I relocated to Lyon last month.")

    port = _free_port()

    env = process_env(live.broker, live.root, live.data, tmp_path / "logs")
    inspector = NadineProcess("scripts.inspector", env, ["--port", str(port)])
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_http(base + "/")
        browser.get(base + "/")
        wait.until(lambda d: _loaded(d, f"#person-{maya} img"))
        assert "Maya" in browser.find_element("id", f"person-{maya}").text
        browser.find_element("css selector", f"#person-{maya} a").click()
        wait.until(lambda d: _loaded(d, ".moment img"))
        page = browser.find_element("tag name", "body").text
        assert "PhD thesis" in page and "Lyon (current)" in page and "Paris" in page and "replaced" in page
        browser.save_screenshot(str(tmp_path / "inspector_person.png"))

        # a moment stored while the page is open appears without a reload
        shown = set(SceneStore(live.layout).metadata_files(maya))
        turn = live.say("My sister just had twins, I'm an aunt now, I'm over the moon!", emotion=("happy", 0.95))
        assert live.decision(turn.turn_id).stored
        wait.until(lambda d: d.find_elements("css selector", ".moment.live"))
        assert len(SceneStore(live.layout).metadata_files(maya)) == len(shown) + 1

        live.camera.show([])
        live.rec[t.USER_DETECTED].wait_for(lambda m: m.user_id is None, timeout=30)
        needles = user_needles(live, maya, "Maya")
        # forget one moment: confirmation page, then every process confirms
        scene = SceneStore(live.layout).list(maya)[0]
        browser.get(f"{base}/people/{maya}/memories/moment/{scene.scene_id}/forget")
        browser.find_element("id", "confirm-forget").click()
        wait.until(lambda d: d.find_elements("id", "forgotten") or d.find_elements("id", "missing")
                   or d.find_elements("id", "no-broker"))
        assert browser.find_elements("id", "forgotten"), browser.find_element("tag name", "body").text
        assert not list(live.layout.user_dir(maya).rglob(f"{scene.scene_id}*"))
        # forget the person, from their page
        browser.get(f"{base}/people/{maya}")
        browser.find_element("css selector", "button.danger").click()
        browser.find_element("id", "confirm-forget").click()
        wait.until(lambda d: d.find_elements("id", "forgotten") or d.find_elements("id", "missing")
                   or d.find_elements("id", "no-broker"))
        assert browser.find_elements("id", "forgotten"), browser.find_element("tag name", "body").text
        assert find_traces(live.layout.root, needles) == []
        browser.get(base + "/")
        assert "Maya" not in browser.find_element("tag name", "body").text
    finally:
        inspector.stop()
