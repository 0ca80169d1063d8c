"""Projects on DynamoDB: the records of the `projects/<name>` areas and their members
(items: docs/dynamodb.md, "Item types").

A member item and its reverse membership item are always written in one transaction
(together with the project item on creation, or a condition check that it exists), so the
two directions never disagree. Reads never scan: a project with its members is one Query
of its partition, the projects of a nutzer one Query of the nutzer's partition.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from boto3.dynamodb.conditions import Attr

from shared.domain import Project
from shared.storage.dynamo.calls import (
    AWS_ERRORS,
    CONDITION_FAILED,
    TableCalls,
    cancel_reasons,
    chunks,
)
from shared.storage.dynamo.items import (
    PK,
    SK,
    Item,
    action,
    attributes,
    codec,
    get_s,
    key,
    part,
    query,
    tenant_prefix,
)
from shared.storage.dynamo.membership_hints import MembershipHints

SK_PROJECT: Final = "PROJECT"
MEMBER_SK_PREFIX: Final = "MEMBER#"
MEMBERSHIP_SK_PREFIX: Final = "PROJECT#"
# A transaction holds at most 100 items: the project item (or its check) + 2 per member.
_MEMBERS_PER_TRANSACTION: Final = 49
PROJECT: Final = codec(Project, created_at="created_us", members=None)


def _project_pk(tenant: str, name: str) -> str:
    return tenant_prefix(tenant, "PROJECT", name)


def _nutzer_pk(tenant: str, nutzer: str) -> str:
    return tenant_prefix(tenant, "NUTZER", nutzer)


def _member_writes(tenant: str, name: str, members: Sequence[str], *, put: bool) -> list[Item]:
    """Put (or Delete) each member's item (project partition) and its reverse membership."""
    writes: list[Item] = []
    for nutzer in members:
        member = key(_project_pk(tenant, name), MEMBER_SK_PREFIX + part(nutzer))
        membership = key(_nutzer_pk(tenant, nutzer), MEMBERSHIP_SK_PREFIX + part(name))
        for at, values in ((member, {"nutzer": nutzer}), (membership, {"project": name})):
            writes.append(
                action("Put", Item=at | attributes(values)) if put else action("Delete", Key=at)
            )
    return writes


def membership_query(tenant: str, nutzer: str) -> Item:
    """The Query of a nutzer's reverse membership items (its projects)."""
    return query(_nutzer_pk(tenant, nutzer), begins=MEMBERSHIP_SK_PREFIX, ConsistentRead=True)


def projects_from_items(items: Sequence[Mapping[str, Any]]) -> frozenset[str]:
    return frozenset(get_s(item, "project") for item in items)


class ProjectRecords:
    """The writes keep the membership hints (`membership_hints.py`) in step: searches
    speculate with them; a hint never grants (the membership read of the same stage
    decides). Hints of removed members stay until their next read (a stale one costs one
    stage)."""

    def __init__(self, calls: TableCalls, hints: MembershipHints) -> None:
        self._calls = calls
        self._hints = hints

    def create(self, project: Project) -> bool:
        members = sorted({project.owner, *project.members})
        first, *rest = chunks(members, _MEMBERS_PER_TRANSACTION)
        item = key(_project_pk(project.tenant, project.name), SK_PROJECT) | PROJECT.item(project)
        put = action("Put", Attr(PK).not_exists(), Item=item)
        if not self._transact(put, *_member_writes(project.tenant, project.name, first, put=True)):
            return False
        self._hints.add(project.tenant, project.name, frozenset(members))
        for group in rest:
            self.add(project.tenant, project.name, group)
        return True

    def add(self, tenant: str, name: str, members: Sequence[str]) -> bool:
        if not self._members(tenant, name, members, put=True):
            return False
        self._hints.add(tenant, name, frozenset(members))
        return True

    def remove(self, tenant: str, name: str, members: Sequence[str]) -> bool:
        return self._members(tenant, name, members, put=False)

    def _members(self, tenant: str, name: str, members: Sequence[str], *, put: bool) -> bool:
        """Write (or delete) member and membership items together, one transaction per 49
        members, each conditioned on the project existing."""
        at = key(_project_pk(tenant, name), SK_PROJECT)
        check = action("ConditionCheck", Attr(PK).exists(), Key=at)
        for group in chunks(sorted(set(members)), _MEMBERS_PER_TRANSACTION) or [[]]:
            if not self._transact(check, *_member_writes(tenant, name, group, put=put)):
                return False
        return True

    def get(self, tenant: str, name: str) -> Project | None:
        (items,) = self._calls.query_many([query(_project_pk(tenant, name), ConsistentRead=True)])
        by_sk = {get_s(item, SK): item for item in items}
        if SK_PROJECT not in by_sk:
            return None
        members = [get_s(i, "nutzer") for sk, i in by_sk.items() if sk.startswith(MEMBER_SK_PREFIX)]
        return PROJECT.read(by_sk[SK_PROJECT], members=frozenset(members))

    def of(self, tenant: str, nutzer: str) -> frozenset[str]:
        (items,) = self._calls.query_many([membership_query(tenant, nutzer)])
        projects = projects_from_items(items)
        self._hints.put(tenant, nutzer, projects)  # searches speculate with it
        return projects

    def _transact(self, *actions: Item) -> bool:
        """One transaction with a fresh ClientRequestToken; False when its first action's
        condition failed (the project exists / does not exist)."""
        try:
            self._calls.transact(actions)
        except AWS_ERRORS as exc:
            reasons = cancel_reasons(exc)
            if reasons and reasons[0].get("Code") == CONDITION_FAILED:
                return False
            raise
        return True
