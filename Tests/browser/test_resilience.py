"""Server push, problems, lost connections, the inspector, and keyboard use."""
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def signed_in_on_todos(app):
    app.open("/")
    app.through_walkthrough()
    app.sign_in()
    app.wait_screen("dashboard")
    app.tab("todos")
    app.wait_screen("todoList")


def test_a_change_made_through_the_api_appears_within_a_second(app):
    signed_in_on_todos(app)
    before = app.revision()
    # The one place a test calls the API itself: the change is made outside this page.
    status, answer = app.api("POST", f"/v1/sessions/{app.session()['id']}/routes", {"route": "showTodo", "params": {"id": "1"}})
    assert status == 200
    start = time.monotonic()
    app.wait(lambda d: app.top_name() == "todoDetail", timeout=5, message="the pushed state did not appear within 5 s")
    elapsed = time.monotonic() - start
    assert app.revision() == answer["state"]["revision"] > before
    print(f"server push shown after {elapsed:.3f} s")
    assert elapsed < 5
    # The page keeps working after an outside change: its back button pops the pushed screen.
    app.back()
    app.wait_screen("todoList")


def test_unknown_deep_link_shows_a_problem_banner_and_still_starts(app):
    # The session is first asked for with the bad link, which the server refuses (422): Chrome logs
    # that deliberate failed request as a console error, so only that entry is allowed here.
    app.console.allow(r"/v1/sessions - Failed to load resource: the server responded with a status of 422",
                      why="POST /v1/sessions with an unknown deepLink answers 422 unknown_deeplink on purpose")
    app.open("/?link=wayfinder://no/such/place")
    banner = app.driver.find_element(By.CSS_SELECTOR, '[data-testid="problem-banner"]')
    app.wait(lambda d: banner.is_displayed(), message="the problem banner is shown")
    assert banner.get_attribute("data-code") == "unknown_deeplink"
    assert "unknown_deeplink" in banner.text
    assert app.top_name() == "walkthrough", "a session was started without the link"
    assert "link=" not in app.driver.current_url
    app.screenshot("09-problem-banner")
    app.driver.find_element(By.CSS_SELECTOR, '[data-testid="problem-dismiss"]').click()
    app.wait(lambda d: not banner.is_displayed(), message="the banner can be dismissed")


def test_a_lost_connection_shows_reconnecting_and_recovers_by_itself(app):
    signed_in_on_todos(app)
    # While offline, Chrome logs the requests that cannot be sent (the route, the retries, the
    # event stream) as console errors; they are the point of this test.
    app.console.allow(r"net::ERR_INTERNET_DISCONNECTED|net::ERR_NETWORK_CHANGED|net::ERR_CONNECTION_REFUSED",
                      why="the test takes the network away on purpose")
    driver = app.driver
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    app.button("addTodo").click()
    banner = driver.find_element(By.CSS_SELECTOR, '[data-testid="connection-banner"]')
    app.wait(lambda d: banner.is_displayed(), message="'Reconnecting…' is shown")
    assert "Reconnecting" in banner.text
    assert banner.find_element(By.CSS_SELECTOR, '[data-testid="connection-retry"]').is_displayed()
    assert app.top_name() == "todoList", "nothing happened while offline"

    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    # The action that could not be sent is sent again by itself (same Idempotency-Key).
    app.wait(lambda d: app.top_name() == "todoAdd", timeout=15, message="the action was not retried")
    app.wait(lambda d: not banner.is_displayed(), timeout=15, message="the banner did not go away")
    app.settled()
    assert len(driver.find_elements(By.CSS_SELECTOR, '[data-testid="modal"]')) == 1, "applied exactly once"


def test_inspector_shows_the_trees_and_its_toggle_is_remembered(app):
    app.set_viewport(1280, 800)
    app.open("/")
    app.wait_screen("walkthrough")
    inspector = app.driver.find_element(By.CSS_SELECTOR, '[data-testid="inspector"]')
    toggle = app.driver.find_element(By.CSS_SELECTOR, '[data-testid="inspector-toggle"]')
    if not inspector.is_displayed():
        toggle.click()
    assert inspector.is_displayed()
    app.click_route("next")
    assert app.driver.find_element(By.CSS_SELECTOR, '[data-testid="inspector-revision"]').text == str(app.revision())
    coordinators = app.driver.find_element(By.CSS_SELECTOR, '[data-testid="inspector-coordinators"]').text
    assert "app" in coordinators and "onboarding" in coordinators
    navigation = app.driver.find_element(By.CSS_SELECTOR, '[data-testid="inspector-navigation"]').text
    assert "walkthrough" in navigation and "stack" in navigation
    log = app.driver.find_elements(By.CSS_SELECTOR, '[data-testid="inspector-log"] li')
    assert log and log[0].get_attribute("data-op") == "push", "newest transition first"

    toggle.click()
    assert not inspector.is_displayed()
    app.driver.refresh()
    app.settled()
    inspector = app.driver.find_element(By.CSS_SELECTOR, '[data-testid="inspector"]')
    assert not inspector.is_displayed(), "the choice is remembered"
    app.driver.find_element(By.CSS_SELECTOR, '[data-testid="inspector-toggle"]').click()
    assert inspector.is_displayed()


def tab_to(app, css, limit=15):
    """Presses Tab until the focused element matches `css`."""
    driver = app.driver
    for _ in range(limit):
        if driver.execute_script("return document.activeElement.matches(arguments[0])", css):
            return driver.switch_to.active_element
        driver.switch_to.active_element.send_keys(Keys.TAB)
    raise AssertionError(f"Tab never reached {css}")


def test_everything_works_from_the_keyboard(app):
    app.open("/")
    app.wait_screen("walkthrough")
    driver = app.driver
    while app.top_name() == "walkthrough":
        next_button = tab_to(app, '[data-top="true"] button[data-route="next"]')
        app.act(lambda: next_button.send_keys(Keys.ENTER))
        title = app.top().find_element(By.CSS_SELECTOR, '[data-testid="nav-title"]')
        assert driver.switch_to.active_element == title, "focus moves to the new screen's title"
    app.wait_screen("login")

    # Every field has a label bound with for=.
    for field in app.in_top('[data-component="field"]'):
        control = field.find_element(By.CSS_SELECTOR, "input, textarea")
        label = field.find_element(By.CSS_SELECTOR, "label")
        assert label.get_attribute("for") == control.get_attribute("id")

    # Tab into the form, type, and press Enter in the password field to sign in.
    tab_to(app, '[data-top="true"] [data-name="email"] input').send_keys("ada@example.com")
    password = tab_to(app, '[data-top="true"] [data-name="password"] input')
    password.send_keys("correct horse")
    app.act(lambda: password.send_keys(Keys.ENTER))
    app.wait_screen("dashboard")
    todos = tab_to(app, '[data-testid="tab"][data-tab="todos"]', limit=40)
    app.act(lambda: todos.send_keys(Keys.SPACE))
    app.wait_screen("todoList")
    # A list item is a button: Enter opens it.
    item = tab_to(app, '[data-top="true"] button[data-testid="list-item"]', limit=40)
    app.act(lambda: item.send_keys(Keys.ENTER))
    app.wait_screen("todoDetail")


RECORD_ANIMATING = """
window.__animating = [];
new MutationObserver(() => window.__animating.push(document.documentElement.dataset.animating))
  .observe(document.documentElement, { attributes: true, attributeFilter: ['data-animating'] });
"""


def test_transitions_animate_unless_reduced_motion_is_asked_for(app):
    app.open("/")
    app.wait_screen("walkthrough")
    app.driver.execute_script(RECORD_ANIMATING)
    app.click_route("next")
    assert "true" in app.driver.execute_script("return window.__animating"), "a push slides"

    app.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    app.driver.execute_script(RECORD_ANIMATING)
    app.click_route("next")
    app.act(app.driver.back)
    assert "true" not in app.driver.execute_script("return window.__animating"), "nothing moves"
