"""The API docs page works with the network cut off: Redoc comes from this site
(drf-spectacular-sidecar), no font or script from another one."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

LOCAL = {"127.0.0.1", "localhost"}


def test_e2e_the_api_docs_show_the_endpoints_offline(browser: Any, site: str) -> None:
    # Not ``new_context``: the policy does block one thing here, Redoc's "powered by" logo
    # from its makers' site (the page is complete without it).
    context = browser.new_context(base_url=site)
    elsewhere: list[str] = []

    def only_this_site(route: Any) -> None:
        if urlsplit(route.request.url).hostname in LOCAL or route.request.url.startswith(
            ("data:", "blob:")
        ):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    context.route("**/*", only_this_site)
    page = context.new_page()
    page.goto("/api/docs/")
    expect(page.get_by_role("heading", name="Get an API token")).to_be_visible(timeout=30_000)
    expect(page.get_by_role("heading", name="Submit a whole turn")).to_be_attached()
    assert not elsewhere, elsewhere
    context.close()
