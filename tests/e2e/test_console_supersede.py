"""The console and superseded memories (issue 25), through the real app in-process: the
default list leaves a replaced memory out, its page says by what and since when it was
replaced (with a link to the successor)."""

from __future__ import annotations

import pytest

from shared.auth.local_tokens import LocalTokenIssuer
from tests.conftest import InProcessServer
from tests.e2e.test_console_pages import client, signed_in
from tests.e2e.test_rest_api import bearer, body, token

pytestmark = pytest.mark.anyio


async def test_the_console_lists_the_successor_and_the_old_page_names_it(
    server: InProcessServer, issuer: LocalTokenIssuer
) -> None:
    value = token(issuer)
    headers = bearer(value)
    async with client(server) as http:
        old = (
            await http.post("/api/memory", json=body(memory="Alt: Raum Nord."), headers=headers)
        ).json()
        replacing = body(memory="Neu: Raum Süd.", ersetzt=old["ID"])
        new = (await http.post("/api/memory", json=replacing, headers=headers)).json()
        await signed_in(http, value)
        listing = await http.get("/console/suche")
        page = await http.get(f"/console/erinnerungen/{old['ID']}")
    assert listing.status_code == 200
    assert new["ID"] in listing.text and old["ID"] not in listing.text
    assert page.status_code == 200
    assert "Ersetzt durch" in page.text
    assert f"/console/erinnerungen/{new['ID']}" in page.text
