"""The authorization server's state in DynamoDB: one table shared by every Lambda, items
expiring by TTL (attribute `ttl`, epoch seconds; absent = never).

Key layout (`keys.py`): the record itself is stored field by field with boto3's
`TypeSerializer` (`OAUTH_TABLE_PROPERTIES` is the template's table, exactly). Two attributes
carry the facts the atomic steps condition on: `used` (a code's grant) and `rotated` (a
refresh token's retirement). TTL deletion is late, so every read also checks `ttl`.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Final

from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from botocore.exceptions import ClientError

from shared.auth.oauth import keys
from shared.auth.oauth.records import (
    NO_EXPIRY,
    ClientRecord,
    CodeRecord,
    GrantRecord,
    LocalUser,
    PendingAuthorization,
    RefreshRecord,
    from_doc,
    to_doc,
)
from shared.auth.oauth.state import CodeUse, RefreshUse

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

PK: Final = "pk"
SK: Final = "sk"
TTL: Final = "ttl"
_DOC: Final = "doc"

OAUTH_TABLE_PROPERTIES: Final[dict[str, Any]] = {
    "BillingMode": "PAY_PER_REQUEST",
    "AttributeDefinitions": [
        {"AttributeName": PK, "AttributeType": "S"},
        {"AttributeName": SK, "AttributeType": "S"},
    ],
    "KeySchema": [
        {"AttributeName": PK, "KeyType": "HASH"},
        {"AttributeName": SK, "KeyType": "RANGE"},
    ],
    "TimeToLiveSpecification": {"AttributeName": TTL, "Enabled": True},
    "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": True},
    "SSESpecification": {"SSEEnabled": True},
}

_SERIALIZER = TypeSerializer()
_DESERIALIZER = TypeDeserializer()
_LIVE: Final = "(attribute_not_exists(#ttl) OR #ttl > :now)"


def create_table(client: DynamoDBClient, table_name: str) -> None:
    """The table for local stacks and tests (the template declares it on AWS)."""
    properties = {
        name: value
        for name, value in OAUTH_TABLE_PROPERTIES.items()
        if name in ("BillingMode", "AttributeDefinitions", "KeySchema")
    }
    try:
        client.create_table(TableName=table_name, **properties)
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") != "ResourceInUseException":
            raise
        return
    client.get_waiter("table_exists").wait(TableName=table_name)
    client.update_time_to_live(
        TableName=table_name, TimeToLiveSpecification={"AttributeName": TTL, "Enabled": True}
    )


def _item(key: tuple[str, str], record: Any, expires_at: int) -> dict[str, Any]:
    item: dict[str, Any] = {PK: {"S": key[0]}, SK: {"S": key[1]}}
    item[_DOC] = _SERIALIZER.serialize(to_doc(record))
    if expires_at != NO_EXPIRY:
        item[TTL] = {"N": str(expires_at)}
    return item


def _key(key: tuple[str, str]) -> dict[str, Any]:
    return {PK: {"S": key[0]}, SK: {"S": key[1]}}


def _doc(item: dict[str, Any]) -> dict[str, Any]:
    doc: dict[str, Any] = _DESERIALIZER.deserialize(item[_DOC])
    return doc


def _live(item: dict[str, Any] | None, now: int) -> bool:
    if not item:
        return False
    ttl = item.get(TTL)
    return ttl is None or now == 0 or int(ttl["N"]) > now


def _condition_failed(exc: ClientError) -> bool:
    code = exc.response.get("Error", {}).get("Code")
    return code in ("ConditionalCheckFailedException", "TransactionCanceledException")


class DynamoOAuthState:
    def __init__(self, client: DynamoDBClient, table_name: str) -> None:
        self._client = client
        self._table = table_name

    def close(self) -> None:
        """Nothing to release: the client belongs to the process."""

    def _put(self, key: tuple[str, str], record: Any, expires_at: int) -> None:
        self._client.put_item(TableName=self._table, Item=_item(key, record, expires_at))

    def _get(self, key: tuple[str, str], now: int) -> dict[str, Any] | None:
        item = self._client.get_item(TableName=self._table, Key=_key(key), ConsistentRead=True).get(
            "Item"
        )
        return item if item is not None and _live(item, now) else None

    def _delete(self, key: tuple[str, str]) -> bool:
        answer = self._client.delete_item(
            TableName=self._table, Key=_key(key), ReturnValues="ALL_OLD"
        )
        return bool(answer.get("Attributes"))

    def _query(self, pk: str, now: int) -> list[dict[str, Any]]:
        pages = self._client.get_paginator("query").paginate(
            TableName=self._table,
            KeyConditionExpression="#pk = :pk",
            ExpressionAttributeNames={"#pk": PK},
            ExpressionAttributeValues={":pk": {"S": pk}},
            ConsistentRead=True,
        )
        return [item for page in pages for item in page.get("Items", []) if _live(item, now)]

    # --- clients ---------------------------------------------------------------------------

    def put_client(self, client: ClientRecord) -> None:
        self._put(keys.client(client.client_id), client, client.expires_at)

    def get_client(self, client_id: str, now: int) -> ClientRecord | None:
        item = self._get(keys.client(client_id), now)
        return None if item is None else from_doc(ClientRecord, _doc(item))

    def delete_client(self, client_id: str) -> bool:
        return self._delete(keys.client(client_id))

    # --- pending authorizations ------------------------------------------------------------

    def put_pending(self, pending: PendingAuthorization) -> None:
        self._put(keys.pending(pending.tx_id), pending, pending.expires_at)

    def get_pending(self, tx_id: str, now: int) -> PendingAuthorization | None:
        item = self._get(keys.pending(tx_id), now)
        return None if item is None else from_doc(PendingAuthorization, _doc(item))

    def delete_pending(self, tx_id: str) -> None:
        self._delete(keys.pending(tx_id))

    # --- codes -----------------------------------------------------------------------------

    def put_code(self, code: CodeRecord) -> None:
        self._put(keys.code(code.code_hash), code, code.expires_at)

    def consume_code(self, code_hash: str, grant_id: str, now: int) -> CodeUse | None:
        key = keys.code(code_hash)
        try:
            answer = self._client.update_item(
                TableName=self._table,
                Key=_key(key),
                UpdateExpression="SET #used = :grant",
                ConditionExpression=f"attribute_exists(#pk) AND attribute_not_exists(#used) "
                f"AND {_LIVE}",
                ExpressionAttributeNames={"#pk": PK, "#used": "used", "#ttl": TTL},
                ExpressionAttributeValues={":grant": {"S": grant_id}, ":now": {"N": str(now)}},
                ReturnValues="ALL_OLD",
            )
        except ClientError as exc:
            if not _condition_failed(exc):
                raise
            item = self._get(key, now)
            if item is None or "used" not in item:
                return None
            record = from_doc(CodeRecord, _doc(item))
            return CodeUse("reused", dataclasses.replace(record, consumed_by=item["used"]["S"]))
        return CodeUse("fresh", from_doc(CodeRecord, _doc(answer["Attributes"])))

    # --- grants and refresh tokens ---------------------------------------------------------

    def put_grant(self, grant: GrantRecord, refresh: RefreshRecord) -> None:
        grant_key = keys.grant(grant.tenant, grant.subject, grant.grant_id)
        self._client.transact_write_items(
            TransactItems=[
                {
                    "Put": {
                        "TableName": self._table,
                        "Item": _item(grant_key, grant, grant.expires_at),
                    }
                },
                {
                    "Put": {
                        "TableName": self._table,
                        "Item": _item(
                            keys.refresh(refresh.token_hash), refresh, refresh.expires_at
                        ),
                    }
                },
            ]
        )

    def get_grant(self, tenant: str, subject: str, grant_id: str, now: int) -> GrantRecord | None:
        item = self._get(keys.grant(tenant, subject, grant_id), now)
        return None if item is None else from_doc(GrantRecord, _doc(item))

    def list_grants(self, tenant: str, subject: str, now: int) -> list[GrantRecord]:
        pk, _ = keys.grant(tenant, subject, "")
        return [from_doc(GrantRecord, _doc(item)) for item in self._query(pk, now)]

    def all_grants(self, now: int) -> list[GrantRecord]:
        """Every connection of every user (the CLI's admin listing): a scan."""
        pages = self._client.get_paginator("scan").paginate(
            TableName=self._table,
            FilterExpression="begins_with(#pk, :prefix)",
            ExpressionAttributeNames={"#pk": PK},
            ExpressionAttributeValues={":prefix": {"S": keys.GRANT_PREFIX}},
            ConsistentRead=True,
        )
        grants = [
            from_doc(GrantRecord, _doc(item))
            for page in pages
            for item in page.get("Items", [])
            if _live(item, now)
        ]
        return sorted(grants, key=lambda g: (g.tenant, g.subject, g.grant_id))

    def delete_grant(self, tenant: str, subject: str, grant_id: str) -> bool:
        return self._delete(keys.grant(tenant, subject, grant_id))

    def get_refresh(self, token_hash: str, now: int) -> RefreshRecord | None:
        item = self._get(keys.refresh(token_hash), now)
        if item is None:
            return None
        record = from_doc(RefreshRecord, _doc(item))
        return dataclasses.replace(record, rotated="rotated" in item)

    def rotate_refresh(
        self, token_hash: str, new: RefreshRecord, grant: GrantRecord, now: int
    ) -> RefreshUse | None:
        old_key = keys.refresh(token_hash)
        grant_key = keys.grant(grant.tenant, grant.subject, grant.grant_id)
        names = {"#pk": PK, "#ttl": TTL}
        values = {":now": {"N": str(now)}}
        try:
            self._client.transact_write_items(
                TransactItems=[
                    {
                        "Update": {
                            "TableName": self._table,
                            "Key": _key(old_key),
                            "UpdateExpression": "SET #rotated = :yes",
                            "ConditionExpression": "attribute_exists(#pk) AND "
                            f"attribute_not_exists(#rotated) AND {_LIVE}",
                            "ExpressionAttributeNames": {**names, "#rotated": "rotated"},
                            "ExpressionAttributeValues": {**values, ":yes": {"BOOL": True}},
                        }
                    },
                    {
                        "Put": {
                            "TableName": self._table,
                            "Item": _item(grant_key, grant, grant.expires_at),
                            "ConditionExpression": f"attribute_exists(#pk) AND {_LIVE}",
                            "ExpressionAttributeNames": names,
                            "ExpressionAttributeValues": values,
                        }
                    },
                    {
                        "Put": {
                            "TableName": self._table,
                            "Item": _item(keys.refresh(new.token_hash), new, new.expires_at),
                        }
                    },
                ]
            )
        except ClientError as exc:
            if not _condition_failed(exc):
                raise
            old = self.get_refresh(token_hash, now)
            return "reused" if old is not None and old.rotated else None
        return "rotated"

    # --- users of the built-in login ------------------------------------------------------

    def put_user(self, user: LocalUser) -> None:
        self._put(keys.user(user.username), user, NO_EXPIRY)

    def get_user(self, username: str) -> LocalUser | None:
        item = self._get(keys.user(username), 0)
        return None if item is None else from_doc(LocalUser, _doc(item))

    def list_users(self) -> list[LocalUser]:
        return [from_doc(LocalUser, _doc(item)) for item in self._query(keys.USERS, 0)]

    def delete_user(self, username: str) -> bool:
        return self._delete(keys.user(username))
