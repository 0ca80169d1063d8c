"""Validation of update_brain_memories and the Memory OS tools' arguments."""

from __future__ import annotations

from typing import Any

import pytest

from shared.validation.errors import FieldError, RequestRejected
from shared.validation.memory_requests import (
    parse_recall,
    parse_recall_context,
    parse_remember,
    parse_search,
    parse_update,
)
from shared.validation.parsed import UNSET, MemoryUpdateInput


def update(*entries: Any) -> Any:
    return parse_update({"inhalt": {"memories": list(entries), "nutzer": 1, "agent": "a"}})


def only_entry(*entries: Any) -> MemoryUpdateInput | list[FieldError]:
    return update(*entries).entries[0]


def test_update_omitted_fields_stay_unset_and_null_removes() -> None:
    entry = only_entry({"ID": "longterm_3", "tags": None, "scope": None, "embedding": None})
    assert isinstance(entry, MemoryUpdateInput)
    assert (entry.raw_id, str(entry.memory_id)) == ("longterm_3", "longterm_3")
    assert entry.kurzbeschreibung is UNSET and entry.memory is UNSET and entry.scope_vk is UNSET
    assert (entry.tags, entry.scope, entry.embedding) == ([], "", None)
    assert entry.embedding_profil_hash is UNSET


def test_update_values_are_validated_like_insert() -> None:
    entry = only_entry(
        {
            "ID": "shortterm_1",
            "memory": "neu",
            "tags": [" A ", "a", "B"],
            "scope_vk": 7,
            "embedding": [1, 2.5],
            "ebedding_profil_haash": "p",
        }
    )
    assert isinstance(entry, MemoryUpdateInput)
    assert (entry.memory, entry.tags, entry.scope_vk) == ("neu", ["A", "B"], "7")
    assert (entry.embedding, entry.embedding_profil_hash) == ([1, 2.5], "p")


@pytest.mark.parametrize(
    ("entry", "feld", "fragment"),
    [
        ({"memory": "x"}, "inhalt.memories[0].ID", "Pflichtfeld"),
        ({"ID": "longterm_0", "memory": "x"}, "inhalt.memories[0].ID", "Muster"),
        ({"ID": "longterm_1"}, "inhalt.memories[0]", "Keine Änderung"),
        ({"ID": "longterm_1", "memory": None}, "inhalt.memories[0].memory", "null"),
        (
            {"ID": "longterm_1", "kurzbeschreibung": None},
            "inhalt.memories[0].kurzbeschreibung",
            "null",
        ),
        ({"ID": "longterm_1", "memory": "  "}, "inhalt.memories[0].memory", "leer"),
        ({"ID": "longterm_1", "farbe": "x"}, "inhalt.memories[0].farbe", "Unbekanntes Feld"),
        (
            {"ID": "longterm_1", "embedding": [float("nan")]},
            "inhalt.memories[0].embedding[0]",
            "endliche",
        ),
        (
            {"ID": "longterm_1", "embedding_profil_hash": "a", "ebedding_profil_haash": "b"},
            "inhalt.memories[0].embedding_profil_hash",
            "ebedding_profil_haash",
        ),
        ({"ID": "longterm_1", "ttl_sekunden": 5}, "inhalt.memories[0].ttl_sekunden", "Unbekannt"),
    ],
)
def test_update_entry_errors(entry: dict[str, Any], feld: str, fragment: str) -> None:
    result = only_entry(entry)
    assert isinstance(result, list)
    assert result[0].feld == feld
    assert fragment in result[0].meldung


def test_update_envelope_errors_reject_the_request() -> None:
    with pytest.raises(RequestRejected) as rejected:
        parse_update({"inhalt": {"memories": [], "nutzer": 1, "agent": "a"}})
    assert rejected.value.errors[0].feld == "inhalt.memories"


@pytest.mark.parametrize(
    "path",
    ["projects/memory-os/decisions", "teams/plattform", "users/anna/notizen/2026", "/users/anna/"],
)
def test_remember_accepts_namespaced_paths(path: str) -> None:
    request = parse_remember({"content": "c", "path": path})
    assert request.path == path.strip("/")
    assert request.create_project is False


def test_remember_reads_paths_in_normal_form() -> None:
    # One normalisation for every path (validation/paths.py): NFKC, one case
    request = parse_remember({"content": "c", "path": " /Projects/Memory-OS/Entscheidungen/ "})
    assert request.path == "projects/memory-os/entscheidungen"
    assert parse_remember({"content": "c", "path": "ｔｅａｍｓ/ｏｐｓ"}).path == "teams/ops"


@pytest.mark.parametrize(
    ("path", "fragment"),
    [
        ("notes/x", "beginnen"),
        ("projects", "beginnen"),
        ("projects//x", "Pfadsegmente"),
        ("projects/../x", "Pfadsegmente"),
        ("projects/./x", "Pfadsegmente"),
        ("projects/Memory OS", "Pfadsegmente"),
        ("projects/mem\u043ery-os", "Pfadsegmente"),  # a Cyrillic "о"
        ("teams/..", "Pfadsegmente"),
        ("", "leer"),
        (5, "Zeichenkette"),
    ],
)
def test_remember_rejects_bad_paths(path: Any, fragment: str) -> None:
    with pytest.raises(RequestRejected) as rejected:
        parse_remember({"content": "c", "path": path})
    assert rejected.value.errors[0].feld == "path"
    assert fragment in rejected.value.errors[0].meldung


def test_remember_other_rules() -> None:
    with pytest.raises(RequestRejected) as rejected:
        parse_remember({"path": "users/a", "create_project": "yes", "extra": 1})
    felder = {error.feld for error in rejected.value.errors}
    assert felder == {"content", "create_project", "extra"}
    assert parse_remember(
        {"content": "c", "path": "users/a", "create_project": True}
    ).create_project


def test_search_limits_and_defaults() -> None:
    assert parse_search({"query": "q"}).limit == 10
    assert parse_recall({"query": "q"}).limit == 5
    assert parse_recall_context({"task": "t"}).limit == 10
    assert parse_search({"query": "q", "limit": 50}).limit == 50
    for parse, arguments, feld in [
        (parse_search, {"query": "q", "limit": 51}, "limit"),
        (parse_recall, {"query": "q", "limit": 21}, "limit"),
        (parse_search, {"query": " "}, "query"),
        (parse_recall_context, {"query": "q"}, "task"),
        (parse_search, {"query": "q", "limit": True}, "limit"),
    ]:
        with pytest.raises(RequestRejected) as rejected:
            parse(arguments)  # type: ignore[operator]
        assert feld in {error.feld for error in rejected.value.errors}
