"""Browser tests of the Wayfinder web client (Public/) against a running server.

The server's address comes from WAYFINDER_URL (run.sh starts the server and sets it). Chromium and
chromedriver are Debian's (/usr/bin); Selenium Manager is never asked to download anything.

Every test fails on a SEVERE browser console entry, except entries a test says it caused on purpose
(`console.allow(...)`).
"""
import json
import os
import re
import time
import urllib.request

import pytest

os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must not download a browser or driver

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")
SCREENSHOTS = os.environ.get("SCREENSHOT_DIR", "artifacts/screenshots")
PHONE = (390, 844)
DESKTOP = (1280, 800)
TIMEOUT = 10
# The account every story signs in with; `account()` creates others.
ADA, PASSWORD = "ada@example.com", "correct horse"


@pytest.fixture(scope="session")
def base_url():
    url = os.environ.get("WAYFINDER_URL")
    if not url:
        pytest.fail("WAYFINDER_URL is not set: run Tests/browser/run.sh, or start a server and set it")
    return url.rstrip("/")


class Console:
    """The browser's console: SEVERE entries fail the test unless a test allowed them."""

    def __init__(self, driver):
        self.driver = driver
        self.allowed = []
        self.entries = []

    def allow(self, pattern, why):
        """Lets SEVERE entries matching `pattern` pass; `why` says which deliberate request caused them."""
        assert why, "say why this console error is expected"
        self.allowed.append(re.compile(pattern))

    def collect(self):
        try:
            self.entries += self.driver.get_log("browser")
        except WebDriverException:
            pass
        return self.entries

    def unexpected_errors(self):
        return [
            e for e in self.collect()
            if e.get("level") == "SEVERE" and not any(p.search(e.get("message", "")) for p in self.allowed)
        ]


def make_driver():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--hide-scrollbars", "--no-first-run", "--disable-extensions",
                f"--window-size={PHONE[0]},{PHONE[1]}"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


class App:
    """Drives the web client the way a person does: clicking and typing."""

    def __init__(self, driver, base_url, console):
        self.driver = driver
        self.base_url = base_url
        self.console = console
        self.viewport = None
        self.set_viewport(*PHONE)

    # -- viewport and screenshots
    def set_viewport(self, width, height, scale=1):
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": scale, "mobile": False})
        self.viewport = (width, height)

    def screenshot(self, name):
        """Saves `phone-NAME.png` (390x844) and `desktop-NAME.png` (1280x800) of what is on screen."""
        os.makedirs(SCREENSHOTS, exist_ok=True)
        previous = self.viewport
        for label, size, scale in (("phone", PHONE, 2), ("desktop", DESKTOP, 1)):
            self.set_viewport(*size, scale=scale)
            self.settled()
            self.driver.execute_script("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            self.driver.save_screenshot(os.path.join(SCREENSHOTS, f"{label}-{name}.png"))
        self.set_viewport(*previous)

    def screenshot_dark(self, name):
        """Saves `phone-dark-NAME.png`: the same screen with prefers-color-scheme: dark."""
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        previous = self.viewport
        self.set_viewport(*PHONE, scale=2)
        self.settled()
        self.driver.save_screenshot(os.path.join(SCREENSHOTS, f"phone-dark-{name}.png"))
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        self.set_viewport(*previous)

    # -- waiting
    def wait(self, condition, timeout=TIMEOUT, message=""):
        def safe(driver):
            try:
                return condition(driver)
            except (StaleElementReferenceException, WebDriverException):
                return False
        return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(safe, message)

    def flag(self, name):
        return self.driver.execute_script(f"return document.documentElement.dataset.{name} ?? null")

    def settled(self, timeout=TIMEOUT):
        """The page has a state, no action is on its way and nothing is moving."""
        self.wait(lambda d: d.execute_script(
            "const s = document.documentElement.dataset;"
            "return s.ready === 'true' && s.busy === 'false' && s.animating === 'false'"
        ), timeout, "the page did not settle")

    def revision(self):
        value = self.flag("revision")
        return int(value) if value is not None else -1

    # -- reading the screen
    def open(self, path="/"):
        self.driver.get(self.base_url + path)
        self.settled()

    def top(self):
        return self.driver.find_element(By.CSS_SELECTOR, '[data-testid="screen"][data-top="true"]')

    def top_name(self):
        return self.top().get_attribute("data-screen-name")

    def top_id(self):
        return self.top().get_attribute("data-screen-id")

    def title(self):
        return self.top().find_element(By.CSS_SELECTOR, '[data-testid="nav-title"]').text

    def in_top(self, css):
        return self.top().find_elements(By.CSS_SELECTOR, css)

    def wait_screen(self, name, timeout=TIMEOUT):
        self.wait(lambda d: self.top_name() == name, timeout, f"expected screen {name!r}")
        self.settled()
        return self.top()

    def notices(self, style=None):
        css = '[data-component="notice"]' + (f'[data-style="{style}"]' if style else "")
        return [n.get_attribute("textContent") for n in self.in_top(css)]

    def field_value(self, name):
        return self.top().find_element(By.CSS_SELECTOR, f'[data-component="field"][data-name="{name}"] :is(input, textarea)').get_attribute("value")

    def list_item(self, title):
        for item in self.in_top('[data-testid="list-item"]'):
            if item.find_element(By.CSS_SELECTOR, ".list-title").get_attribute("textContent") == title:
                return item
        return None

    def session(self):
        return self.driver.execute_script("return JSON.parse(sessionStorage.getItem('wayfinder.session'))")

    # -- acting
    def act(self, do):
        """Does something that changes the state and waits until the new state is shown."""
        before = self.revision()
        do()
        self.wait(lambda d: self.revision() > before, TIMEOUT, "the state did not change")
        self.settled()

    def button(self, route):
        return self.top().find_element(By.CSS_SELECTOR, f'button[data-route="{route}"]')

    def click_route(self, route):
        self.act(self.button(route).click)

    def click_item(self, title):
        item = self.list_item(title)
        assert item is not None, f"no list item {title!r}"
        self.act(item.click)

    def fill(self, name, text):
        field = self.top().find_element(By.CSS_SELECTOR, f'[data-component="field"][data-name="{name}"] :is(input, textarea)')
        field.clear()
        field.send_keys(text)
        return field

    def back(self):
        self.act(self.top().find_element(By.CSS_SELECTOR, '[data-testid="nav-back"]').click)

    def tab(self, tab):
        self.act(self.driver.find_element(By.CSS_SELECTOR, f'[data-testid="tab"][data-tab="{tab}"]').click)

    # -- the sample application's way in (clicks only)
    def through_walkthrough(self):
        self.wait_screen("walkthrough")
        while self.top_name() == "walkthrough":
            self.click_route("next")
        self.wait_screen("login")

    def sign_in(self, email=ADA, password=PASSWORD):
        self.fill("email", email)
        self.fill("password", password)
        self.click_route("login")

    def api(self, method, path, body=None):
        """Calls the server directly — only for tests about a change made outside this page."""
        session = self.session()
        request = urllib.request.Request(
            self.base_url + path, method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {session['token']}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read() or b"null")


def mailed_code(mail_file, address, after=0):
    """The six-digit code of the newest message to `address` in the server's mail file, once more
    than `after` messages went there."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        try:
            lines = [json.loads(line) for line in open(mail_file, encoding="utf-8") if line.strip()]
        except FileNotFoundError:
            lines = []
        mine = [m for m in lines if m["to"] == address]
        if len(mine) > after:
            match = re.search(r"\b\d{6}\b", mine[-1]["body"])
            assert match, mine[-1]
            return match.group(0)
        time.sleep(0.05)
    raise AssertionError(f"no code was mailed to {address}")


def messages_to(mail_file, address):
    try:
        return [m for m in (json.loads(line) for line in open(mail_file, encoding="utf-8") if line.strip()) if m["to"] == address]
    except FileNotFoundError:
        return []


def _call(base_url, method, path, body=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(base_url + path, method=method, data=None if body is None else json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
        return json.loads(response.read() or b"null")


def _settled(base_url, session, screen):
    """The session's state once its top screen is `screen` (a slow service answers later)."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        state = _call(base_url, "GET", f"/v1/sessions/{session['id']}", token=session["token"])
        if state["stack"][-1]["name"] == screen:
            return state
        time.sleep(0.05)
    raise AssertionError(f"the session never showed {screen}")


_accounts = set()


def account(base_url, mail_file, email, password=PASSWORD):
    """Creates the account `email` through the API as a user does (sign up, then the mailed code),
    once per server."""
    if (base_url, email) in _accounts:
        return email
    session = _call(base_url, "POST", "/v1/sessions", {"context": {"onboarded": True}})
    route = lambda name, params=None: _call(base_url, "POST", f"/v1/sessions/{session['id']}/routes",
                                            {"route": name, "params": params or {}}, token=session["token"])
    sent = len(messages_to(mail_file, email))
    route("register")
    route("signUp", {"name": "Ada", "email": email, "password": password})
    _settled(base_url, session, "confirmSignUp")
    route("confirmSignUp", {"code": mailed_code(mail_file, email, after=sent)})
    _settled(base_url, session, "dashboard")
    _accounts.add((base_url, email))
    return email


def mail_file(name):
    path = os.environ.get(name)
    if not path:
        pytest.fail(f"{name} is not set: run Tests/browser/run.sh")
    return path


@pytest.fixture
def browser():
    driver = make_driver()
    yield driver
    driver.quit()


@pytest.fixture
def console(browser):
    console = Console(browser)
    yield console
    errors = console.unexpected_errors()
    assert not errors, "console errors:\n" + "\n".join(e["message"] for e in errors)


@pytest.fixture
def app(browser, base_url, console):
    account(base_url, mail_file("WAYFINDER_MAIL"), ADA)
    app = App(browser, base_url, console)
    app.mail = mail_file("WAYFINDER_MAIL")
    return app


@pytest.fixture
def slow_app(browser, console):
    """The web client against the server whose account service is slow (see run.sh)."""
    url = os.environ.get("WAYFINDER_SLOW_URL")
    if not url:
        pytest.fail("WAYFINDER_SLOW_URL is not set: run Tests/browser/run.sh")
    account(url.rstrip("/"), mail_file("WAYFINDER_SLOW_MAIL"), ADA)
    return App(browser, url.rstrip("/"), console)


def timed(fn):
    start = time.monotonic()
    fn()
    return time.monotonic() - start
