"""The example shop (Examples/Shop) in the same, unchanged web client: its checkout told with clicks
and typing. The shop's own executable is started here, beside the sample app run.sh serves.

$SHOP_BIN names the binary (default Examples/Shop/.build/debug/shop; build it with
`cd Examples/Shop && swift build`). Screenshots are named `shop-…`. A second shop, whose payment
service takes 1.5 s and whose server answers after 200 ms, shows the busy payment screen.
"""
import json
import os
import signal
import socket
import subprocess
import time
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from conftest import App

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SHOP_BIN = os.environ.get("SHOP_BIN", os.path.join(ROOT, "Examples/Shop/.build/debug/shop"))


def serve_shop(log_name, arguments=(), environment=None):
    """Starts the shop on a free port, yields its address once healthy, stops it with SIGTERM."""
    if not os.access(SHOP_BIN, os.X_OK):
        pytest.fail(f"no shop binary at {SHOP_BIN}: run `cd Examples/Shop && swift build`, or set SHOP_BIN")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    os.makedirs(os.path.join(ROOT, "artifacts"), exist_ok=True)
    log = open(os.path.join(ROOT, "artifacts", log_name), "wb")
    # The repository's own web client and contract, named explicitly: the shop knows no other.
    server = subprocess.Popen(
        [SHOP_BIN, "--host", "127.0.0.1", "--port", str(port), "--store", "memory",
         "--public", os.path.join(ROOT, "Public"), "--openapi", os.path.join(ROOT, "openapi.yaml"), *arguments],
        stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **(environment or {})})
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        assert server.poll() is None, f"the shop exited at start (see artifacts/{log_name})"
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1) as response:
                if response.status == 200:
                    break
        except OSError:
            pass
        assert time.monotonic() < deadline, "the shop was not healthy within 30 s"
        time.sleep(0.1)
    yield url
    server.send_signal(signal.SIGTERM)
    assert server.wait(timeout=30) == 0, "the shop did not stop cleanly on SIGTERM"
    log.close()


@pytest.fixture(scope="module")
def shop_url():
    yield from serve_shop("browser-shop-server.log")


@pytest.fixture(scope="module")
def slow_shop_url():
    yield from serve_shop("browser-slow-shop-server.log", ["--effect-wait", "200ms"], {"WAYFINDER_SHOP_PAYMENT_DELAY": "1.5"})


@pytest.fixture
def shop(browser, shop_url, console):
    return App(browser, shop_url, console)


@pytest.fixture
def slow_shop(browser, slow_shop_url, console):
    return App(browser, slow_shop_url, console)


def current_tab(shop):
    return shop.driver.find_element(By.CSS_SELECTOR, '[data-testid="tab"][aria-current="page"]').get_attribute("data-tab")


def add_beans_and_check_out(shop, first_screen):
    shop.wait_screen("products")
    shop.click_item("House beans, 1 kg")
    shop.wait_screen("product")
    shop.click_route("addToCart")
    assert shop.notices("success") == ["Added to your cart."]
    shop.tab("cart")
    shop.wait_screen("cart")
    # The cart's rows are not checkable: the server sends no `checked`, the client draws no mark.
    assert shop.in_top('[data-component="list"] .list-row') and not shop.in_top('[data-component="list"] .check')
    shop.click_route("checkout")
    shop.wait_screen(first_screen)


def fill_address(shop, street="1 Navy Way"):
    for name, text in (("name", "Grace Hopper"), ("street", street), ("postcode", "22201"), ("city", "Arlington"), ("country", "USA")):
        shop.fill(name, text)


def pay(shop, card):
    shop.fill("cardNumber", card)
    shop.fill("expiry", "12/30")
    shop.fill("securityCode", "123")
    shop.click_route("pay")
    # The payment service answers at once, within the server's wait; on a machine slow enough to
    # miss it, the answer comes as the next revision.
    shop.wait(lambda d: shop.top().get_attribute("data-screen-busy") is None, message="the payment screen stayed busy")
    shop.settled()


def test_the_shop_executable_answers_with_its_first_screen_and_lists_its_flows(shop_url):
    request = urllib.request.Request(shop_url + "/v1/sessions", data=b'{"context":{}}', method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as response:
        assert response.status == 201
        state = json.load(response)["state"]
    assert [screen["name"] for screen in state["stack"]] == ["products"]
    assert state["navigation"]["kind"] == "tabs"
    with urllib.request.urlopen(shop_url + "/v1/flows", timeout=5) as response:
        catalog = json.load(response)
    assert [flow["name"] for flow in catalog["flows"]] == ["app", "catalog", "cart", "account", "checkout", "address"]
    assert "shop://orders/{id}" in [link["pattern"] for link in catalog["deepLinks"]]


def test_a_guest_checks_out_with_three_d_secure_in_a_sheet_and_opens_the_order(shop):
    shop.open("/")
    shop.wait_screen("products")
    assert [t.get_attribute("data-tab") for t in shop.driver.find_elements(By.CSS_SELECTOR, '[data-testid="tab"]')] == ["shop", "cart", "account"]
    shop.screenshot("shop-01-products")

    add_beans_and_check_out(shop, "signIn")
    shop.screenshot("shop-02-sign-in-or-guest")
    shop.click_route("continueAsGuest")
    shop.wait_screen("guest")
    shop.fill("email", "grace@example.com")
    shop.click_route("continueWithEmail")
    shop.wait_screen("address")

    # A missing field is a notice on the same screen; what was typed stays.
    fill_address(shop, street="")
    shop.click_route("saveAddress")
    assert shop.top_name() == "address" and shop.notices("error") == ["Fill in the street."]
    name = shop.top().find_element(By.CSS_SELECTOR, '[data-component="field"][data-name="name"] input')
    assert name.get_attribute("value") == "Grace Hopper"
    shop.screenshot("shop-03-address-notice")
    shop.fill("street", "1 Navy Way")
    shop.click_route("saveAddress")
    shop.wait_screen("delivery")
    shop.screenshot("shop-04-delivery")

    shop.click_item("Express delivery, €9.95")
    shop.wait_screen("payment")
    pay(shop, "4000 0027 6000 3184")
    shop.wait_screen("secureCode")
    modal = shop.driver.find_element(By.CSS_SELECTOR, '[data-testid="modal"]')
    assert modal.get_attribute("data-presentation") == "sheet", "3-D Secure is a sheet over the payment"
    shop.screenshot("shop-05-three-d-secure")
    shop.fill("code", "000000")
    shop.click_route("confirmCode")
    assert shop.notices("error") == ["That code is not right. 2 tries left."]
    shop.fill("code", "123456")
    shop.click_route("confirmCode")
    shop.wait_screen("confirmation")
    assert not shop.driver.find_elements(By.CSS_SELECTOR, '[data-testid="modal"]'), "the sheet is gone"
    assert shop.notices("success") == ["Order 1002 is placed."]
    shop.screenshot("shop-06-confirmation")

    shop.click_route("viewOrder")
    shop.wait_screen("order")
    assert current_tab(shop) == "account"
    assert shop.title() == "Order 1002"
    shop.screenshot("shop-07-order")


def test_variant_b_opens_the_checkout_on_the_guest_door_and_a_declined_card_is_a_notice(shop):
    shop.open("/?variant=B")
    add_beans_and_check_out(shop, "guest")
    shop.click_route("signInInstead")
    shop.wait_screen("signIn")
    shop.fill("email", "ada@example.com")
    shop.fill("password", "correct horse")
    shop.click_route("signIn")
    shop.wait_screen("address")
    fill_address(shop)
    shop.click_route("saveAddress")
    shop.wait_screen("delivery")
    shop.click_item("Pick up in the shop, €0.00")
    shop.wait_screen("payment")
    payment = shop.top_id()
    pay(shop, "4000 0000 0000 0002")
    assert shop.top_id() == payment, "declined stays on the payment screen"
    assert shop.notices("error") == ["Your card was declined. Try another card; you have not been charged."]
    shop.screenshot("shop-08-declined")


def test_a_slow_payment_shows_the_busy_payment_screen_until_the_pushed_confirmation(slow_shop):
    shop = slow_shop
    shop.open("/?variant=B")
    add_beans_and_check_out(shop, "guest")
    shop.fill("email", "grace@example.com")
    shop.click_route("continueWithEmail")
    shop.wait_screen("address")
    fill_address(shop)
    shop.click_route("saveAddress")
    shop.wait_screen("delivery")
    shop.click_item("Pick up in the shop, €0.00")
    shop.wait_screen("payment")
    for name, text in (("cardNumber", "4242 4242 4242 4242"), ("expiry", "12/30"), ("securityCode", "123")):
        shop.fill(name, text)
    # The payment service takes 1.5 s and the server answers after 200 ms: the payment screen is
    # busy, says why, and its buttons are disabled.
    shop.button("pay").click()
    shop.wait(lambda d: shop.top().get_attribute("data-screen-busy") == "true",
              message="the payment screen did not show as busy")
    assert shop.top_name() == "payment"
    assert shop.notices("info") == ["Authorising €24.50 with your bank…"]
    buttons = shop.in_top('[data-component="button"]')
    assert buttons and all(not b.is_enabled() for b in buttons)
    shop.screenshot("shop-10-paying")
    # The service's answer arrives as a later revision, pushed on the event stream.
    shop.wait_screen("confirmation", timeout=15)
    assert shop.notices("success") == ["Order 1002 is placed."]


def test_the_account_tab_edits_the_address_book_with_the_same_address_flow(shop):
    shop.open("/")
    shop.wait_screen("products")
    shop.tab("account")
    shop.wait_screen("account")
    shop.click_route("addAddress")
    shop.wait_screen("address")
    assert shop.title() == "New address"
    fill_address(shop)
    shop.click_route("saveAddress")
    shop.wait_screen("account")
    assert shop.list_item("Grace Hopper") is not None, "the address is in the book"
    shop.screenshot("shop-09-account")


def test_an_order_link_opens_the_order_in_the_account_tab(shop):
    shop.open("/?link=shop://orders/1001")
    shop.wait_screen("order")
    assert current_tab(shop) == "account"
    assert shop.title() == "Order 1001"
    shop.back()
    shop.wait_screen("account")
