import os

import pytest
from hypothesis import HealthCheck, settings

from crisis.content.loader import default_content_dir, load_content

# "ci" runs more examples; the default keeps a local run quick.
settings.register_profile("default", max_examples=40, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_report_header(config):
    """The releases this run tested against: a failure on a new machine starts here."""
    from importlib import metadata
    names = ("lark", "attrs", "PyYAML", "hypothesis", "textual", "pygls", "matplotlib", "ray", "rich")
    found = []
    for name in names:
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name} (not installed)")
    try:
        import yaml
        found.append("libyaml " + ("yes" if getattr(yaml, "__with_libyaml__", False) else "no"))
    except ImportError:
        pass
    return "packages: " + ", ".join(found)


@pytest.fixture(scope="session")
def content():
    """The shipped game, loaded once."""
    return load_content()


@pytest.fixture(scope="session")
def content_dir():
    return default_content_dir()
