"""Effects in the web client: a screen that waits for the app's service shows it, and the
result the server pushes later replaces it."""
from selenium.webdriver.common.by import By


def test_a_screen_waiting_for_an_effect_is_busy_until_the_pushed_result(slow_app):
    app = slow_app
    app.open("/")
    app.through_walkthrough()
    app.sign_in()
    # The account service takes 1.5 s and the server waits 200 ms: the answer shows the login
    # screen busy, its buttons disabled.
    app.wait(lambda d: app.top().get_attribute("data-screen-busy") == "true",
             message="the login screen did not show as busy")
    busy = app.top().find_element(By.CSS_SELECTOR, '[data-testid="screen-busy"]')
    assert busy.text == "Working…"
    buttons = app.top().find_elements(By.CSS_SELECTOR, '[data-component="button"]')
    assert buttons and all(not b.is_enabled() for b in buttons)
    app.screenshot("09-busy-sign-in")
    # The result arrives as a later revision, pushed on the event stream.
    app.wait_screen("dashboard", timeout=10)
    assert app.top().get_attribute("data-screen-busy") is None
