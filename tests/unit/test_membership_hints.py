"""Membership hints stay bounded and evict the least recently used (membership_hints.py)."""

from __future__ import annotations

import pytest

from shared.storage.dynamo import membership_hints
from shared.storage.dynamo.membership_hints import MembershipHints


def test_the_least_recently_put_hint_is_evicted_first(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given room for two hints, and a search that used (and put back) the older one
    monkeypatch.setattr(membership_hints, "HINTS_MAX", 2)
    hints = MembershipHints()
    hints.put("t", "anna", frozenset({"p1"}))
    hints.put("t", "ben", frozenset({"p2"}))
    hints.put("t", "anna", frozenset({"p1", "p3"}))
    # When a third nutzer's hint is put
    hints.put("t", "cem", frozenset())
    # Then the one not used since goes, the others stay as last put
    assert hints.get("t", "ben") is None
    assert hints.get("t", "anna") == {"p1", "p3"}
    assert hints.get("t", "cem") == frozenset()


def test_members_added_by_this_process_extend_only_known_hints() -> None:
    # Given a hint for anna and none for ben
    hints = MembershipHints()
    hints.put("t", "anna", frozenset({"p1"}))
    # When both join project p2
    hints.add("t", "p2", frozenset({"anna", "ben"}))
    # Then anna's hint names it; ben still has none (his next membership read decides)
    assert hints.get("t", "anna") == {"p1", "p2"}
    assert hints.get("t", "ben") is None
