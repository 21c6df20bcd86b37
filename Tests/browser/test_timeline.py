"""The inspector's timeline: the session's journal, a rewind on click, the replay bundle."""
import glob
import json
import os
import tempfile
import time

from selenium.webdriver.common.by import By

from conftest import DESKTOP, account


def open_inspector(app):
    app.set_viewport(*DESKTOP)
    if app.driver.find_element(By.CSS_SELECTOR, '[data-testid="inspector"]').get_attribute("hidden") is not None:
        app.driver.find_element(By.CSS_SELECTOR, '[data-testid="inspector-toggle"]').click()


def entries(app):
    return app.driver.find_elements(By.CSS_SELECTOR, '[data-testid="inspector-timeline"] li[data-revision]')


def wait_timeline(app, revision):
    app.wait(lambda d: any(e.get_attribute("data-revision") == str(revision) for e in entries(app)),
             message=f"the timeline did not show revision {revision}")


def entry_text(app, revision):
    return next(e.text for e in entries(app) if e.get_attribute("data-revision") == str(revision))


def test_the_timeline_rewinds_to_an_earlier_screen_on_click(app):
    app.open("/")
    open_inspector(app)
    app.wait_screen("walkthrough")
    app.click_route("next")  # revision 2: page 2 of the walkthrough
    page_two = app.top_id()
    app.through_walkthrough()
    app.sign_in(email=account(app.base_url, app.mail, "timeline@example.com", "Timeline-Pw-1"), password="Timeline-Pw-1")
    app.wait_screen("dashboard")
    current = app.revision()
    wait_timeline(app, current)

    assert len(entries(app)) == current, "one entry per revision"
    assert "start" in entry_text(app, 1)
    assert "route next" in entry_text(app, 2)
    assert "walkthrough › walkthrough" in entry_text(app, 2), "the screens after the entry"
    assert "route login" in entry_text(app, current) and "dashboard" in entry_text(app, current)
    assert "Timeline-Pw-1" not in app.driver.find_element(By.CSS_SELECTOR, '[data-testid="inspector"]').text
    current_button = app.driver.find_element(By.CSS_SELECTOR, f'[data-testid="rewind-{current}"]')
    assert current_button.get_attribute("disabled") is not None, "the current revision is where the session is"
    app.screenshot("timeline-before-rewind")

    app.act(app.driver.find_element(By.CSS_SELECTOR, '[data-testid="rewind-2"]').click)
    app.wait_screen("walkthrough")
    assert app.top_id() == page_two, "the screen of revision 2, with its id"
    assert "Page 2 of 3" in app.top().text
    assert app.revision() == current + 1, "a rewind is a new revision"
    wait_timeline(app, current + 1)
    assert "rewind to #2" in entry_text(app, current + 1)
    app.screenshot("timeline-after-rewind")

    # The session goes on from there.
    app.click_route("next")
    assert app.top_name() == "walkthrough" and "Page 3 of 3" in app.top().text


def test_the_bundle_downloads_as_a_replay_file(app):
    folder = tempfile.mkdtemp(prefix="wayfinder-bundle-")
    app.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": folder})
    app.open("/")
    open_inspector(app)
    app.wait_screen("walkthrough")
    app.click_route("skip")
    wait_timeline(app, 2)
    app.driver.find_element(By.CSS_SELECTOR, '[data-testid="download-bundle"]').click()
    deadline = time.time() + 10
    files = []
    while time.time() < deadline and not files:
        files = [f for f in glob.glob(os.path.join(folder, "*.json"))]
        time.sleep(0.05)
    assert files, "no bundle was downloaded"
    with open(files[0], encoding="utf-8") as f:
        bundle = json.load(f)
    assert bundle["format"] == "wayfinder-replay/1"
    assert [e["revision"] for e in bundle["entries"]] == [1, 2]
    assert bundle["session"] == app.session()["id"]
