"""The Dockerfile follows the production rules of issue 6 (parsed with the `dockerfile` package)."""
import re
import shlex
import subprocess

import dockerfile
import pytest

from conftest import REPO


def stages():
    result, current = [], None
    for command in dockerfile.parse_file(str(REPO / "Dockerfile")):
        if command.cmd.upper() == "FROM":
            value = command.value
            name = value[2] if len(value) >= 3 and value[1].upper() == "AS" else str(len(result))
            current = {"image": value[0], "name": name, "commands": []}
            result.append(current)
        else:
            assert current is not None, f"{command.original}: before any FROM"
            current["commands"].append(command)
    return result


def commands(stage, kind):
    return [c for c in stage["commands"] if c.cmd.upper() == kind]


def one(stage, kind):
    found = commands(stage, kind)
    assert len(found) == 1, f"expected one {kind} in stage {stage['name']}, found {len(found)}"
    return found[0]


def apt_packages(stage):
    """Packages named by `apt-get install` in the stage's RUN lines."""
    packages = []
    for run in commands(stage, "RUN"):
        for part in re.split(r"&&|;|\|\|", " ".join(run.value)):
            words = shlex.split(part)
            if "apt-get" in words and "install" in words:
                packages += [w for w in words[words.index("install") + 1:] if not w.startswith("-")]
    return packages


@pytest.fixture(scope="module")
def build():
    return stages()[0]


@pytest.fixture(scope="module")
def runtime():
    return stages()[-1]


def toolchain_version():
    out = subprocess.run(["swift", "--version"], capture_output=True, text=True, timeout=60).stdout
    match = re.search(r"Swift version (\d+\.\d+(?:\.\d+)?)", out)
    assert match, out
    return match.group(1)


def test_multi_stage():
    assert len(stages()) >= 2


def test_build_stage_uses_the_official_swift_image_of_the_toolchain(build):
    image = build["image"]
    assert image.startswith("swift:"), image
    tag = image.split(":", 1)[1]
    version = toolchain_version()
    assert tag == version or tag.startswith(version + "-"), f"{image} does not match Swift {version}"


def build_args(stage):
    """The stage's ARG names with their defaults."""
    return dict(value.split("=", 1) if "=" in value else (value, None) for c in commands(stage, "ARG") for value in c.value)


def test_build_is_static_release(build):
    builds = [c for c in commands(build, "RUN") if "swift build" in " ".join(c.value)]
    assert builds, "no swift build in the build stage"
    text = " ".join(builds[-1].value)
    for flag in ("-c release", "--static-swift-stdlib", '--product "$PRODUCT"', 'cd "$PACKAGE"'):
        assert flag in text, f"swift build lacks {flag}: {text}"


def test_the_product_and_its_package_are_build_arguments_defaulting_to_the_sample_app(build):
    assert build_args(build) == {"PACKAGE": ".", "PRODUCT": "wayfinder"}


def test_build_stage_installs_every_system_library_provider(build):
    """Each system-library target's Debian provider in Package.swift is installed in the build."""
    manifest = (REPO / "Package.swift").read_text()
    providers = set(re.findall(r'\.apt\(\[([^\]]*)\]\)', manifest))
    wanted = {p.strip().strip('"') for group in providers for p in group.split(",") if p.strip()}
    assert wanted, "no apt providers found in Package.swift"
    missing = wanted - set(apt_packages(build))
    assert not missing, f"build stage does not install {sorted(missing)}"


def test_manifest_is_copied_and_resolved_before_sources(build):
    order = build["commands"]
    def index(predicate, what):
        for i, c in enumerate(order):
            if predicate(c):
                return i
        pytest.fail(f"build stage has no {what}")
    copy_manifest = index(lambda c: c.cmd.upper() == "COPY" and any(v.startswith("Package.") for v in c.value[:-1]),
                          "COPY of Package.swift")
    resolve = index(lambda c: c.cmd.upper() == "RUN" and "swift package resolve" in " ".join(c.value),
                    "swift package resolve")
    copy_sources = index(lambda c: c.cmd.upper() == "COPY" and any(v.rstrip("/") == "Sources" for v in c.value[:-1]),
                         "COPY of Sources")
    index(lambda c: c.cmd.upper() == "COPY" and any(v.rstrip("/") == "Tests" for v in c.value[:-1]),
          "COPY of Tests (SwiftPM checks every target's folder)")
    assert copy_manifest < resolve < copy_sources


def test_runtime_stage_is_slim_debian_with_runtime_libraries_only(runtime):
    assert runtime["image"] == "debian:bookworm-slim"
    packages = apt_packages(runtime)
    assert packages, "the runtime stage installs no libraries"
    dev = [p for p in packages if p.endswith("-dev")]
    assert not dev, f"development packages in the runtime image: {dev}"
    for tool in ("curl", "wget", "swift", "build-essential"):
        assert tool not in packages, f"{tool} in the runtime image"
    assert "libsqlite3-0" in packages


def test_non_root_user(runtime):
    user = one(runtime, "USER").value[0]
    name = user.split(":")[0]
    assert name not in ("root", "0"), user
    if name.isdigit():
        assert int(name) >= 1000


def test_exec_form_entrypoint(runtime):
    entry = one(runtime, "ENTRYPOINT")
    assert entry.json, "ENTRYPOINT must be in exec (JSON) form so SIGTERM reaches the server"
    assert entry.value[0] == "/usr/local/bin/wayfinder"
    assert not commands(runtime, "CMD") or one(runtime, "CMD").json


def test_healthcheck_in_exec_form(runtime):
    check = one(runtime, "HEALTHCHECK")
    assert check.json, "HEALTHCHECK CMD must be in exec form"
    assert check.value[0].upper() == "CMD"
    assert list(check.value[1:]) == ["/usr/local/bin/wayfinder", "healthcheck"]


def test_expose_and_volume(runtime):
    exposed = [v.split("/")[0] for c in commands(runtime, "EXPOSE") for v in c.value]
    assert "8080" in exposed
    volumes = [v for c in commands(runtime, "VOLUME") for v in c.value]
    assert "/data" in volumes


def env(stage):
    values = {}
    for command in commands(stage, "ENV"):
        pairs = list(command.value)
        values.update(dict(zip(pairs[0::2], pairs[1::2])))
    return values


def test_runtime_files_are_copied_and_configured(runtime):
    copies = {}
    for command in commands(runtime, "COPY"):
        *sources, dest = command.value
        origin = next((f.split("=", 1)[1] for f in command.flags if f.startswith("--from=")), None)
        for source in sources:
            copies[dest.rstrip("/")] = (origin, source)
    entry = one(runtime, "ENTRYPOINT").value[0]
    assert copies.get(entry, (None, None))[0] == stages()[0]["name"], f"{entry} is not copied from the build stage"
    settings = env(runtime)
    assert settings.get("WAYFINDER_HOST") == "0.0.0.0"
    assert settings.get("WAYFINDER_PORT") == "8080"
    assert settings.get("WAYFINDER_STORE", "").startswith("sqlite:/data/")
    assert copies.get(settings.get("WAYFINDER_PUBLIC")) == (None, "Public"), "Public/ is not where WAYFINDER_PUBLIC points"
    assert copies.get(settings.get("WAYFINDER_OPENAPI")) == (None, "openapi.yaml"), "openapi.yaml is not where WAYFINDER_OPENAPI points"


def test_data_volume_belongs_to_the_user(runtime):
    user = one(runtime, "USER").value[0]
    runs = " ".join(" ".join(c.value) for c in commands(runtime, "RUN"))
    assert re.search(r"chown\s+(-R\s+)?" + re.escape(user.split(":")[0]) + r"(:\S+)?\s+/data", runs) or \
        re.search(r"chown\s+(-R\s+)?" + re.escape(user) + r"\s+/data", runs), "/data is not chowned to the USER"


def test_dockerignore_keeps_the_context_small():
    patterns = [line.strip() for line in (REPO / ".dockerignore").read_text().splitlines()
                if line.strip() and not line.startswith("#")]
    for needed in (".build*", ".git", "data", "artifacts", ".venv"):
        assert needed in patterns, f".dockerignore lacks {needed}"
    for kept in ("Sources", "Tests", "Public", "openapi.yaml", "Package.swift"):
        assert kept not in patterns, f".dockerignore drops {kept}, which the build needs"
