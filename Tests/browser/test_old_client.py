"""Old clients (issue 16): the web client names the component kinds it renders in every request
(`Wayfinder-Components`, `?components=` on its event stream); `?components=…` on the page
previews the app as an older client that renders fewer kinds, which gets the server's fallbacks."""

WITHOUT_IMAGES = "heading,text,notice,field,toggle,button,list"
WITHOUT_FIELDS = "heading,text,notice,toggle,button,list,image"


def texts(app, component):
    return [e.get_attribute("textContent") for e in app.in_top(f'[data-component="{component}"]')]


def test_the_web_client_names_every_kind_it_renders(app):
    app.open("/")
    app.wait_screen("walkthrough")
    declared = app.driver.execute_script("return (await import('/render.js')).COMPONENTS")
    assert declared == "heading, text, notice, field, toggle, button, list, image"
    assert len(app.in_top('[data-component="image"]')) == 1


def test_an_older_client_without_images_gets_their_description_as_text(app):
    app.open("/?components=" + WITHOUT_IMAGES)
    app.wait_screen("walkthrough")
    assert not app.in_top('[data-component="image"]')
    heading = texts(app, "heading")[0]
    assert texts(app, "text")[0] == heading, "the picture's description, as text, where the picture was"
    app.screenshot("10-older-client")
    # A state pushed by the server (a change made elsewhere) comes with the fallbacks too.
    before = app.revision()
    status, _ = app.api("POST", f"/v1/sessions/{app.session()['id']}/routes", {"route": "next"})
    assert status == 200
    app.wait(lambda d: app.revision() > before, message="the pushed state")
    app.wait_screen("walkthrough")
    assert texts(app, "text")[-1] == "Page 2 of 3"
    assert not app.in_top('[data-component="image"]')
    # And the client still works: its own actions answer with fallbacks as well.
    app.click_route("next")
    assert texts(app, "text")[-1] == "Page 3 of 3" and not app.in_top('[data-component="image"]')


def test_an_older_client_without_fields_gets_the_update_required_screen(app):
    app.open("/?components=" + WITHOUT_FIELDS)
    app.through_walkthrough()
    assert app.title() == "Update required"
    assert texts(app, "heading") == ["Update required"]
    assert not app.in_top('[data-component="field"]')
    app.screenshot("11-update-required")


def test_the_tab_icons_the_web_client_draws_are_the_ones_the_api_reference_lists(app):
    import pathlib
    import re
    app.open("/")
    app.wait_screen("walkthrough")
    drawn = app.driver.execute_script("return (await import('/render.js')).TAB_ICON_NAMES")
    reference = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    paragraph = reference[reference.index("The web client draws these"):reference.index("for any other name it shows")]
    assert re.findall(r"`([a-z.]+)`", paragraph)[1:] == drawn, "docs/api.md and Public/render.js list other tab icons"
