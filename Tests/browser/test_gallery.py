"""Every component type, rendered from the fixture state in Public/gallery.html (no server state)."""
import json
import os

from selenium.webdriver.common.by import By

from conftest import SCREENSHOTS


def test_every_component_type_renders_and_an_unknown_one_is_a_placeholder(app):
    app.open("/gallery.html")
    find = app.driver.find_elements
    screen = app.top()
    assert screen.get_attribute("data-screen-name") == "gallery"
    assert app.title() == "Gallery"
    assert screen.find_element(By.CSS_SELECTOR, '[data-testid="nav-back"]').text.strip() == "Components", \
        "a pushed screen's back button names the screen below"

    def components(kind):
        return screen.find_elements(By.CSS_SELECTOR, f'[data-component="{kind}"]')

    assert components("heading")[0].tag_name == "h2"
    assert components("text")[0].text.startswith("This screen")
    assert sorted(n.get_attribute("data-style") for n in components("notice")) == ["error", "info", "success"]

    kinds = {f.get_attribute("data-kind"): f for f in components("field")}
    assert set(kinds) == {"text", "email", "password", "multiline"}
    assert kinds["text"].find_element(By.TAG_NAME, "input").get_attribute("type") == "text"
    assert kinds["email"].find_element(By.TAG_NAME, "input").get_attribute("type") == "email"
    assert kinds["password"].find_element(By.TAG_NAME, "input").get_attribute("type") == "password"
    assert kinds["multiline"].find_element(By.TAG_NAME, "textarea").get_attribute("value") == "Two cartons."
    for field in components("field") + components("toggle"):
        control = field.find_element(By.CSS_SELECTOR, "input, textarea")
        assert field.find_element(By.TAG_NAME, "label").get_attribute("for") == control.get_attribute("id")

    switch = components("toggle")[0].find_element(By.TAG_NAME, "input")
    assert switch.get_attribute("type") == "checkbox" and switch.get_attribute("role") == "switch"
    assert sorted(b.get_attribute("data-style") for b in components("button")) == ["destructive", "link", "primary", "secondary"]
    assert all(b.tag_name == "button" for b in components("button"))

    items = screen.find_elements(By.CSS_SELECTOR, '[data-testid="list-item"]')
    assert [i.get_attribute("data-item-id") for i in items] == ["1", "2", "3"]
    assert [i.get_attribute("data-checked") for i in items] == ["false", "true", None]
    assert items[0].tag_name == "button" and items[2].tag_name != "button", "only items with an action are buttons"
    assert "Oat, two cartons" in items[0].get_attribute("textContent")

    image = components("image")[0].find_element(By.TAG_NAME, "img")
    assert image.get_attribute("alt") == "The Wayfinder compass"
    app.wait(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image))

    unsupported = components("unsupported")
    assert len(unsupported) == 1 and unsupported[0].get_attribute("textContent") == "Unsupported component: chart"
    assert unsupported[0].is_displayed()

    tabs = find(By.CSS_SELECTOR, '[data-testid="tab"]')
    assert [t.get_attribute("data-tab") for t in tabs] == ["home", "gallery", "profile", "more"]
    assert find(By.CSS_SELECTOR, '[data-testid="tab"][aria-current="page"]')[0].get_attribute("data-tab") == "gallery"
    app.screenshot("08-component-gallery")
    # And the whole screen at once, on a very tall phone.
    app.set_viewport(390, 2300, scale=1)
    app.settled()
    app.driver.save_screenshot(os.path.join(SCREENSHOTS, "phone-08-component-gallery-full.png"))


def test_submit_merges_the_screens_field_and_toggle_values_into_params(app):
    app.open("/gallery.html")
    app.fill("title", "Buy oat milk and bread")
    app.fill("email", "ada@example.com")
    app.top().find_element(By.CSS_SELECTOR, '[data-component="toggle"] label').click()
    app.button("save").click()
    app.button("share").click()
    app.list_item("Buy milk").click()
    app.driver.find_element(By.CSS_SELECTOR, '[data-testid="tab"][data-tab="profile"]').click()
    app.top().find_element(By.CSS_SELECTOR, '[data-testid="nav-back"]').click()

    intents = json.loads(app.driver.find_element(By.CSS_SELECTOR, '[data-testid="gallery-intents"]').get_attribute("textContent"))
    assert intents[0] == {"route": "save", "params": {
        "id": "7", "title": "Buy oat milk and bread", "email": "ada@example.com", "password": "",
        "notes": "Two cartons.", "completed": True}}
    assert intents[1] == {"route": "share", "params": {}}, "a button without submit sends only its own params"
    assert intents[2] == {"route": "show", "params": {"id": "1"}}
    assert intents[3] == {"tab": "profile"}
    assert intents[4] == {"back": "s3"}
