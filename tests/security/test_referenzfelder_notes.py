"""Contract §8 for call-level reference data: `referenzfelder` are stored with every entry of
a write, so a secret scrubbed from them is named in each stored entry's `hinweis` (the kind,
never the value), on a first call and on its replay alike; through a real MCP client, on both
adapters. (REST `POST /api/memory`: tests/security/test_rest_input_paths.py.)"""

from __future__ import annotations

import pytest

from shared.storage.port import StoragePort
from tests.conftest import InProcessServer
from tests.e2e.helpers import call, insert_args, memory_entry

pytestmark = pytest.mark.anyio

SECRET = "ghp_" + "Q4m8Zt2LxR7vWk9NcY3pHd6sJf1GbA5eQu0T"  # a fake GitHub token
NOTE = "Geheimnisse in referenzfelder entfernt"


async def test_a_batch_names_what_its_referenzfelder_lost_and_a_replay_says_the_same(
    secure_server: InProcessServer, backend: StoragePort, dev_token: str
) -> None:
    arguments = {
        **insert_args(memory_entry(memory="Rückruf am Montag."), memory_entry(memory="Zwei.")),
        "referenzfelder": {"ticket": SECRET, "quelle": "crm"},
    }
    async with secure_server.client(dev_token) as client:
        first = await call(client, "insert_brain_longterm_memory", arguments)
        again = await call(client, "insert_brain_longterm_memory", arguments)
    # Then every stored entry names the kind in its hinweis, and the value is nowhere
    for entry in first["daten"]:
        assert entry["erfolg"] is True, entry
        assert entry["hinweis"].startswith(NOTE) and "github_pat" in entry["hinweis"], entry
    assert first["referenzfelder"] == {"ticket": "[ENTFERNT:github_pat]", "quelle": "crm"}
    assert SECRET not in str(first)
    # And the replay answers the same (IDs and notes)
    assert again["daten"] == first["daten"]


async def test_clean_referenzfelder_add_no_note(
    secure_server: InProcessServer, backend: StoragePort, dev_token: str
) -> None:
    async with secure_server.client(dev_token) as client:
        answer = await call(
            client,
            "insert_brain_longterm_memory",
            {**insert_args(memory_entry(memory="Nur Text.")), "referenzfelder": {"ticket": "T-7"}},
        )
    assert "hinweis" not in answer["daten"][0], answer
