"""Times in answers carry their offset (ISO 8601), and a time an answer gave is accepted back
as a rating's `datum` (issue 26: `"erstellt": "2026-12-01 10:03:23"` beside UTC logs left the
zone to be guessed)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from shared.auth.verifiers import local_issuer
from shared.config import Settings
from shared.services.context import ServiceContext
from shared.services.responses import format_local
from shared.storage.sqlite import SqliteStorage
from shared.tools.dispatch import call_tool

ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$")
BERLIN = ZoneInfo("Europe/Berlin")


@pytest.mark.parametrize(
    ("moment", "text"),
    [
        (datetime(2026, 1, 15, 11, 0, 5, 999, tzinfo=UTC), "2026-01-15T12:00:05+01:00"),
        (datetime(2026, 7, 15, 10, 0, tzinfo=UTC), "2026-07-15T12:00:00+02:00"),
    ],
)
def test_a_time_is_given_in_the_configured_zone_with_its_offset(
    moment: datetime, text: str
) -> None:
    assert format_local(moment, BERLIN) == text
    assert datetime.fromisoformat(text) == moment.replace(microsecond=0)


def test_answers_carry_offsets_and_a_last_call_goes_back_in_as_datum(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    storage = SqliteStorage.in_data_dir(settings.data_dir)
    issuer = local_issuer(settings)
    principal = issuer.verify(issuer.development_token(600))
    ctx = ServiceContext(storage=storage, settings=settings)

    def call(tool: str, inhalt: dict[str, Any]) -> dict[str, Any]:
        return call_tool(
            ctx, principal, tool, {"inhalt": {"nutzer": "dev", "agent": "a", **inhalt}}
        )

    memory = {"kurzbeschreibung": "Zeit", "memory": "mit Zone", "tags": ["t"], "scope": "kunde"}
    memory |= {"scope_vk": "K-1", "agent": "a", "nutzer": "dev"}
    inserted = call("insert_brain_longterm_memory", {"memories": [memory]})
    assert inserted["erfolg"], inserted
    rating = {"memory_ID": "longterm_1", "agent": "a", "score": 8, "datum": "2026-11-30T14:05:00Z"}
    rated = call("rate_brain_memories", {"memories": [{"typ": "longterm", "parameter": rating}]})
    assert rated["erfolg"], rated
    (view,) = call("fetch_brain_memories", {"memories": {"longterm": ["longterm_1"]}})["daten"][
        "longterm"
    ]
    assert ISO.match(view["erstellt"]) and view["last_call"] == "2026-11-30T15:05:00+01:00"
    # the answer's own text is a valid datum: rating again with it moves nothing backwards
    again = {**rating, "datum": view["last_call"]}
    assert call("rate_brain_memories", {"memories": [{"typ": "longterm", "parameter": again}]})[
        "erfolg"
    ]
    storage.close()
