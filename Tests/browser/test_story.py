"""The sample application's story, told with clicks and typing only."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ADA, PASSWORD, account, mailed_code, messages_to


def test_walkthrough_then_a_failed_and_a_successful_login(app):
    app.open("/")
    app.wait_screen("walkthrough")
    assert app.in_top('[data-testid="nav-back"]') == [], "the first screen has nothing to go back to"
    app.screenshot("01-walkthrough")

    first = app.top_id()
    app.click_route("next")
    assert app.top_name() == "walkthrough" and app.top_id() != first, "next pushes the next page"
    assert app.in_top('[data-testid="nav-back"]'), "a pushed page offers back"
    # Focus moves to the new screen's title after a transition.
    assert app.driver.switch_to.active_element == app.top().find_element(By.CSS_SELECTOR, '[data-testid="nav-title"]')
    app.through_walkthrough()
    assert app.in_top('[data-testid="nav-back"]') == [], "login is a new root"

    # A short password is a validation notice on the same screen, not an error answer.
    login_id = app.top_id()
    app.sign_in(password="short")
    assert app.top_name() == "login" and app.top_id() == login_id
    assert app.notices("error"), "the login screen shows an error notice"
    app.wait(lambda d: app.notices("error")[0] in d.find_element(By.CSS_SELECTOR, '[data-testid="live-region"]').get_attribute("textContent"),
             message="the notice is announced in the aria-live region")
    email = app.top().find_element(By.CSS_SELECTOR, '[data-component="field"][data-name="email"] input')
    assert email.get_attribute("value") == "ada@example.com", "what the user typed survives the re-render"
    assert app.driver.switch_to.active_element.get_attribute("data-route") == "login", "focus stays on the button"
    app.screenshot("02-login-error")

    # A wrong password and an address with no account read the same.
    app.sign_in(password="not the password")
    refused = "That email and password do not match."
    assert any(refused in n for n in app.notices("error")), app.notices("error")
    app.sign_in(email="nobody@example.com")
    assert app.field_value("email") == "nobody@example.com"
    assert any(refused in n for n in app.notices("error")), "an unknown address gets the same notice"
    app.fill("email", ADA)

    app.sign_in()
    app.wait_screen("dashboard")
    assert app.driver.find_element(By.CSS_SELECTOR, '[data-testid="tab"][aria-current="page"]').get_attribute("data-tab") == "home"


def test_sign_up_mails_a_code_and_the_account_exists_once_it_is_entered(app):
    app.open("/")
    app.through_walkthrough()
    app.click_route("register")
    app.wait_screen("register")
    app.fill("name", "Grace")
    app.fill("email", "grace@example.com")
    app.fill("password", PASSWORD)
    app.click_route("signUp")
    app.wait_screen("confirmSignUp")
    assert "grace@example.com" in app.top().text
    app.screenshot("02b-confirm-sign-up")
    app.fill("code", mailed_code(app.mail, "grace@example.com"))
    app.click_route("confirmSignUp")
    app.wait_screen("dashboard")
    assert [t.get_attribute("data-tab") for t in app.driver.find_elements(By.CSS_SELECTOR, '[data-testid="tab"]')] == ["home", "todos", "profile"]


def test_add_a_todo_in_the_sheet_open_it_and_complete_it(app):
    app.open("/")
    app.through_walkthrough()
    app.sign_in()
    app.wait_screen("dashboard")

    app.tab("todos")
    app.wait_screen("todoList")
    assert len(app.in_top('[data-testid="list-item"]')) >= 5, "the sample todos are listed"
    app.screenshot("03-todo-list")
    app.screenshot_dark("03-todo-list")

    app.click_route("addTodo")
    app.wait_screen("todoAdd")
    modal = app.driver.find_element(By.CSS_SELECTOR, '[data-testid="modal"]')
    assert modal.get_attribute("data-presentation") == "sheet", "the web platform gets a sheet"
    assert app.in_top('[data-testid="nav-back"]'), "a modal can be closed"
    app.fill("title", "Write the browser tests")
    app.fill("description", "Selenium, headless Chromium")
    app.screenshot("04-add-todo-sheet")
    app.screenshot_dark("04-add-todo-sheet")
    app.click_route("saveTodo")
    app.wait_screen("todoList")
    assert not app.driver.find_elements(By.CSS_SELECTOR, '[data-testid="modal"]'), "the sheet is dismissed"
    item = app.list_item("Write the browser tests")
    assert item is not None, "the new todo is in the list"
    assert item.get_attribute("data-checked") == "false"

    app.click_item("Write the browser tests")
    app.wait_screen("todoDetail")
    title = app.top().find_element(By.CSS_SELECTOR, '[data-component="field"][data-name="title"] input')
    assert title.get_attribute("value") == "Write the browser tests"
    app.screenshot("05-todo-detail")
    toggle = app.top().find_element(By.CSS_SELECTOR, '[data-component="toggle"][data-name="completed"] input')
    assert not toggle.is_selected()
    # The toggle is reached through its label, as a person would.
    app.top().find_element(By.CSS_SELECTOR, '[data-component="toggle"][data-name="completed"] label').click()
    assert toggle.is_selected()
    app.click_route("updateTodo")
    app.wait_screen("todoList")
    assert app.list_item("Write the browser tests").get_attribute("data-checked") == "true"


def test_change_password_from_profile_and_return_to_profile(app):
    # An account of its own: the other stories keep signing in with theirs.
    email = account(app.base_url, app.mail, "changes@example.com")
    app.open("/")
    app.through_walkthrough()
    app.sign_in(email=email)
    app.wait_screen("dashboard")
    app.tab("profile")
    app.wait_screen("profile")
    app.screenshot("06-profile")

    app.click_route("changePassword")
    app.wait_screen("changePassword")
    app.fill("current", PASSWORD)
    app.fill("password", "new password 1")
    app.fill("confirm", "different 2")
    app.click_route("savePassword")
    assert app.top_name() == "changePassword" and app.notices("error"), "mismatched passwords give a notice"
    app.screenshot("07-change-password")

    app.fill("current", PASSWORD)
    app.fill("password", "new password 1")
    app.fill("confirm", "new password 1")
    app.click_route("savePassword")
    app.wait_screen("passwordChanged")
    app.click_route("done")
    app.wait_screen("profile")
    assert app.in_top('[data-testid="nav-back"]') == [], "back at the profile tab's root"

    # The new password is the account's now.
    app.click_route("logout")
    app.wait_screen("login")
    app.sign_in(email=email, password="new password 1")
    app.wait_screen("dashboard")


def test_forgot_password_mails_a_code_that_sets_a_new_one(app):
    email = account(app.base_url, app.mail, "forgot@example.com")
    app.open("/")
    app.through_walkthrough()
    app.click_route("forgotPassword")
    app.wait_screen("forgotPassword")
    sent = len(messages_to(app.mail, email))
    app.fill("email", email)
    app.click_route("sendCode")
    app.wait_screen("resetPassword")
    app.fill("code", mailed_code(app.mail, email, after=sent))
    app.fill("password", "brand new pw")
    app.fill("confirm", "brand new pw")
    app.click_route("resetPassword")
    app.wait_screen("passwordChanged")
    app.click_route("done")
    app.wait_screen("login")
    app.sign_in(email=email, password="brand new pw")
    app.wait_screen("dashboard")


def test_deep_link_while_logged_out_opens_after_login(app):
    app.open("/?link=wayfinder://todos/2")
    assert "link=" not in app.driver.current_url, "the link is dropped from the address"
    app.through_walkthrough()
    app.sign_in()
    app.wait_screen("todoDetail")
    assert app.driver.find_element(By.CSS_SELECTOR, '[data-testid="tab"][aria-current="page"]').get_attribute("data-tab") == "todos"
    title = app.top().find_element(By.CSS_SELECTOR, '[data-component="field"][data-name="title"] input')
    assert title.get_attribute("value"), "todo 2 is shown"
    app.back()
    app.wait_screen("todoList")


def test_deep_link_into_a_running_session(app):
    app.open("/")
    app.through_walkthrough()
    app.sign_in()
    app.wait_screen("dashboard")
    app.open("/?link=wayfinder://todos/new")
    app.wait_screen("todoAdd")
    assert "link=" not in app.driver.current_url


def test_logout_returns_to_login(app):
    app.open("/")
    app.through_walkthrough()
    app.sign_in()
    app.wait_screen("dashboard")
    app.tab("profile")
    app.wait_screen("profile")
    app.click_route("logout")
    app.wait_screen("login")
    assert not app.driver.find_elements(By.CSS_SELECTOR, '[data-testid="tab-bar"]')


def test_browser_back_and_escape(app):
    app.open("/")
    app.wait_screen("walkthrough")
    first = app.top_id()
    app.click_route("next")
    app.act(app.driver.back)
    assert app.top_id() == first, "browser back pops the pushed page"

    app.through_walkthrough()
    app.sign_in()
    app.wait_screen("dashboard")
    app.tab("todos")
    app.click_item(app.in_top('[data-testid="list-item"] .list-title')[0].get_attribute("textContent"))
    app.wait_screen("todoDetail")
    app.act(app.driver.back)
    app.wait_screen("todoList")

    app.click_route("addTodo")
    app.wait_screen("todoAdd")
    app.act(lambda: app.driver.switch_to.active_element.send_keys(Keys.ESCAPE))
    app.wait_screen("todoList")
    assert not app.driver.find_elements(By.CSS_SELECTOR, '[data-testid="modal"]')


def test_reload_in_the_middle_of_a_flow_keeps_the_screen(app):
    app.open("/")
    app.through_walkthrough()
    app.sign_in()
    app.wait_screen("dashboard")
    app.tab("todos")
    app.click_route("addTodo")
    app.wait_screen("todoAdd")
    screen, session = app.top_id(), app.session()["id"]

    app.driver.refresh()
    app.settled()
    assert app.top_id() == screen and app.top_name() == "todoAdd"
    assert app.session()["id"] == session
    assert app.driver.find_element(By.CSS_SELECTOR, '[data-testid="modal"]').get_attribute("data-presentation") == "sheet"

    app.click_route("cancel")
    app.wait_screen("todoList")
    app.driver.refresh()
    app.settled()
    assert app.top_name() == "todoList"


def test_variant_b_has_a_single_walkthrough_page(app):
    app.open("/?variant=B")
    app.wait_screen("walkthrough")
    app.click_route("next")
    app.wait_screen("login")


def test_platform_from_the_url_gives_a_full_screen_modal_on_phone(app):
    app.open("/?platform=phone")
    app.through_walkthrough()
    app.sign_in()
    app.wait_screen("dashboard")
    app.tab("todos")
    app.click_route("addTodo")
    app.wait_screen("todoAdd")
    modal = app.driver.find_element(By.CSS_SELECTOR, '[data-testid="modal"]')
    assert modal.get_attribute("data-presentation") == "fullScreen"
    assert not modal.find_elements(By.CSS_SELECTOR, ".backdrop"), "a full-screen modal covers, it does not dim"
    app.back()
    app.wait_screen("todoList")
