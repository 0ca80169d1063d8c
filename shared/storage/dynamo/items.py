"""Keys and items of the single DynamoDB table, and their mapping to domain objects
(every item type, key and attribute: docs/dynamodb.md, "Item types").

Every partition key starts with the tenant: `T#<tenant>#...` (GSI partition keys too), except
the `by_expiry` GSI's `EXP#<shard>` (the expiry sweep is a system job across tenants, never a
request path). Free-text key components (tenant, tag names, terms, scopes, reference IDs) are
escaped (`%` -> `%25`, `#` -> `%23`) so that no value can forge another key's shape.

Values (docs/dynamodb.md, "Value encoding"): an item type's `Codec` is derived from its
domain dataclass; boto3's TypeSerializer/TypeDeserializer make every attribute value (a
Decimal DynamoDB would round is refused); a None field is not stored, an absent one reads as
default. tests/unit/test_dynamo_item_layout.py pins every item type byte for byte: a change
there (a field added to a domain class is stored) is a migration.
"""

from __future__ import annotations

import dataclasses
import json
import math
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from enum import Enum
from types import NoneType, UnionType
from typing import Any, Final, cast, get_args, get_origin, get_type_hints

from boto3.dynamodb.conditions import Attr, ConditionBase, ConditionExpressionBuilder, Key
from boto3.dynamodb.types import TypeDeserializer, TypeSerializer

from shared.domain import (
    BrainEntry,
    CorpusStats,
    CounterName,
    MemoryId,
    Posting,
    Rating,
    VkTyp,
)
from shared.storage.values import dump, from_us, to_us

# Low-level client shapes: {"S": "..."} / {"N": "..."}; typed loosely on purpose.
Item = dict[str, Any]

PK: Final = "pk"
SK: Final = "sk"
REF_INDEX: Final = "by_reference"
REF_PK: Final = "ref_pk"
REF_SK: Final = "ref_sk"
TYP_INDEX: Final = "by_vk_typ"
TYP_PK: Final = "typ_pk"
TYP_SK: Final = "typ_sk"
AREA_INDEX: Final = "by_area"
AREA_PK: Final = "area_pk"
AREA_SK: Final = "area_sk"
EXP_INDEX: Final = "by_expiry"
EXP_PK: Final = "exp_pk"
EXP_SK: Final = "exp_sk"
TTL_ATTRIBUTE: Final = "expires_at"

SK_MEMORY: Final = "MEM"
RATING_SK_PREFIX: Final = "R#"

# The corpus stats (brain entries: `STATS`, memories: `MSTATS`) are spread over a few items
# so that parallel transactions of one tenant rarely touch the same item (DynamoDB cancels
# concurrent transactions on one item).
STATS_SHARDS: Final = 8
BRAIN_STATS: Final = "STATS"
MEMORY_STATS: Final = "MSTATS"

# --- attribute values -------------------------------------------------------------------


def s(value: str) -> dict[str, str]:
    return {"S": value}


def n(value: int) -> dict[str, str]:
    """An integer key or index attribute (Decimals go through a `Codec`)."""
    return {"N": str(value)}


def get_s(item: Mapping[str, Any], name: str) -> str:
    return str(item[name]["S"])


def get_n(item: Mapping[str, Any], name: str) -> int:
    return int(item[name]["N"])


def opt_s(item: Mapping[str, Any], name: str) -> str | None:
    return get_s(item, name) if name in item else None


def ttl_seconds(expires_us: int) -> int:
    """The TTL value: epoch seconds, rounded up so that TTL never deletes before expiry."""
    return math.ceil(expires_us / 1_000_000)


def ttl(expires_us: int | None) -> Item:
    """The TTL attribute of an item that expires at `expires_us` (None: none)."""
    return {} if expires_us is None else {TTL_ATTRIBUTE: n(ttl_seconds(expires_us))}


# --- the codec: derived from the domain dataclasses -------------------------------------

_SERIALIZER: Final = TypeSerializer()
_DESERIALIZER: Final = TypeDeserializer()


def attributes(values: Mapping[str, Any]) -> Item:
    """Plain values as attribute values (TypeSerializer; a set of strings is an SS)."""
    return {name: _SERIALIZER.serialize(value) for name, value in values.items()}


def plain(item: Mapping[str, Any]) -> dict[str, Any]:
    """An item's attribute values as plain values (TypeDeserializer: numbers as Decimal)."""
    return {name: _DESERIALIZER.deserialize(value) for name, value in item.items()}


@dataclass(frozen=True)
class Kind:
    """How a domain value is stored: `put` before TypeSerializer, `get` after
    TypeDeserializer (which reads every number as a Decimal)."""

    put: Callable[[Any], Any]
    get: Callable[[Any], Any]


def parse_memory_id(text: str) -> MemoryId:
    """A stored memory ID (`<typ>_<n>`); a broken one raises."""
    memory_id = MemoryId.parse(text)
    if memory_id is None:
        raise ValueError(f"stored item has a bad memory ID: {text!r}")
    return memory_id


JSON: Final = Kind(dump, json.loads)
_BY_TYPE: Final[Mapping[Any, Kind]] = {
    str: Kind(str, str),
    int: Kind(int, int),
    bool: Kind(bool, bool),
    Decimal: Kind(Decimal, Decimal),
    datetime: Kind(to_us, lambda value: from_us(int(value))),
    date: Kind(date.isoformat, date.fromisoformat),
    MemoryId: Kind(str, parse_memory_id),
    list: JSON,
    dict: JSON,
}


@dataclass(frozen=True)
class Codec[T]:
    """One item type: its domain class and, per stored attribute, the field it holds and
    its kind. Key and index attributes are not fields: the writers add them."""

    cls: type[T]
    attributes: Mapping[str, tuple[str, Kind]]

    def item(self, obj: Any) -> Item:
        """The attribute values of `obj`'s declared fields; None fields are left out."""
        values = (
            (name, kind, getattr(obj, field)) for name, (field, kind) in self.attributes.items()
        )
        return attributes({name: kind.put(v) for name, kind, v in values if v is not None})

    def read(self, item: Mapping[str, Any], **extra: Any) -> T:
        """The domain object stored in `item` (absent attributes: left to the defaults);
        `extra`: its fields the codec leaves out."""
        stored = {
            field: kind.get(_DESERIALIZER.deserialize(item[name]))
            for name, (field, kind) in self.attributes.items()
            if name in item
        }
        return self.cls(**stored, **extra)


def _kind_of(hint: Any) -> Kind:
    """A field type's kind: `X | None` as X; lists and dicts JSON; an Enum its value."""
    if isinstance(hint, UnionType):
        (hint,) = (arg for arg in get_args(hint) if arg is not NoneType)
    hint = get_origin(hint) or hint
    if isinstance(hint, type) and issubclass(hint, Enum):
        return Kind(lambda value: hint(value).value, hint)
    return _BY_TYPE[hint]


def codec[T](cls: type[T], **fields: str | Kind | tuple[str, Kind] | None) -> Codec[T]:
    """The codec of dataclass `cls`: each field stored under its name, with the kind of
    its type, unless `fields` gives it another attribute name, a kind, both, or None
    (not stored): `codec(Rating, datum="datum_us")`."""
    hints = get_type_hints(cls)
    attributes: dict[str, tuple[str, Kind]] = {}
    for field in dataclasses.fields(cast(Any, cls)):  # a dataclass: the codec reads its fields
        spec = fields.get(field.name, field.name)
        if isinstance(spec, str):
            spec = (spec, _kind_of(hints[field.name]))
        elif isinstance(spec, Kind):
            spec = (field.name, spec)
        if spec is not None:
            attributes[spec[0]] = (field.name, spec[1])
    return Codec(cls, attributes)


# --- keys -------------------------------------------------------------------------------


def part(value: str) -> str:
    """One free-text key component, escaped so that it cannot contain the separator."""
    return value.replace("%", "%25").replace("#", "%23")


def tenant_prefix(tenant: str, *parts: object) -> str:
    """`T#<tenant>[#<part>...]`, every component escaped (`part`)."""
    return "#".join(["T", *(part(str(value)) for value in (tenant, *parts))])


def key(pk: str, sk: str) -> Item:
    return {PK: s(pk), SK: s(sk)}


def own_key(tenant: str, kind: str, name: object) -> Item:
    """The key of an item of its own partition: `T#<tenant>#<kind>#<name>` / `<kind>`."""
    return key(tenant_prefix(tenant, kind, name), kind)


def expression(
    condition: ConditionBase | None = None,
    *,
    key: ConditionBase | None = None,
    filter: ConditionBase | None = None,
    add: Mapping[str, Any] | None = None,
    put: Mapping[str, Any] | None = None,
    remove: Sequence[str] = (),
) -> Item:
    """Request parameters: conditions built by boto3 (`Attr`/`Key`: the write's condition,
    a Query's `key` condition and `filter`) and an update `ADD add SET put REMOVE remove`,
    every value through TypeSerializer."""
    found: Item = {}
    names: dict[str, str] = {}
    values: dict[str, Any] = {}
    builder = ConditionExpressionBuilder()  # numbers its placeholders across the three
    for kind, given in (("Condition", condition), ("KeyCondition", key), ("Filter", filter)):
        if given is not None:
            built = builder.build_expression(given, is_key_condition=kind == "KeyCondition")
            found[f"{kind}Expression"] = built.condition_expression
            names.update(built.attribute_name_placeholders)
            values.update(built.attribute_value_placeholders)
    clauses = []
    for verb, pairs, form in (
        ("ADD", add or {}, "{} {}"),
        ("SET", put or {}, "{} = {}"),
        ("REMOVE", dict.fromkeys(remove), "{}"),
    ):
        parts = []
        for name, value in pairs.items():
            at = len(names)
            names[f"#u{at}"] = name
            if verb != "REMOVE":
                values[f":u{at}"] = value
            parts.append(form.format(f"#u{at}", f":u{at}"))
        if parts:
            clauses.append(f"{verb} {', '.join(parts)}")
    if clauses:
        found["UpdateExpression"] = " ".join(clauses)
    if names:
        found["ExpressionAttributeNames"] = names
    if values:
        found["ExpressionAttributeValues"] = attributes(values)
    return found


def action(
    kind: str, condition: ConditionBase | None = None, *, all_old: bool = False, **body: Any
) -> Item:
    """One TransactWriteItems action (`Put` Item=, `Update`/`Delete`/`ConditionCheck`
    Key=) with its condition (`all_old`: the stored item in the cancellation reason);
    `TableCalls.transact` names the table."""
    found = {**body, **expression(condition)}
    if all_old:
        found["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD"
    return {kind: found}


def query(
    pk: str,
    *,
    index: tuple[str, str] | None = None,
    begins: str | None = None,
    sort: ConditionBase | None = None,
    filter: ConditionBase | None = None,
    **extra: Any,
) -> Item:
    """The Query of one partition (of GSI `index`, (name, partition key attribute), if
    given), its sort keys optionally starting with `begins` or meeting `sort`, the items
    `filter`ed server-side; `extra` as given."""
    condition: ConditionBase = Key(PK if index is None else index[1]).eq(pk)
    if begins is not None:
        condition &= Key(SK).begins_with(begins)
    if sort is not None:
        condition &= sort
    found = {**expression(key=condition, filter=filter), **extra}
    if index is not None:
        found["IndexName"] = index[0]
    return found


def padded(number: int) -> str:
    if number < 0:
        raise ValueError(f"negative ID {number}")
    return f"{number:020d}"


def counter_key(tenant: str, counter: CounterName) -> Item:
    return own_key(tenant, "COUNTER", CounterName(counter).value)


def tag_key(tenant: str, name_key: str) -> Item:
    return own_key(tenant, "TAG", name_key)


def memory_pk(tenant: str, memory_id: MemoryId) -> str:
    return tenant_prefix(tenant, "MEM", memory_id)


def memory_key(tenant: str, memory_id: MemoryId) -> Item:
    return key(memory_pk(tenant, memory_id), SK_MEMORY)


def rating_guard_key(tenant: str, insert_id: int) -> Item:
    return own_key(tenant, "RATING", insert_id)


def brain_key(tenant: str, entry_id: int) -> Item:
    return own_key(tenant, "BRAIN", entry_id)


def term_pk(tenant: str, term: str) -> str:
    return tenant_prefix(tenant, "TERM", term)


def posting_key(tenant: str, term: str, entry_id: int) -> Item:
    return key(term_pk(tenant, term), "P#" + padded(entry_id))


def stats_shard(owner: object) -> int:
    """The shard that counts `owner` (a brain entry or memory ID)."""
    return zlib.crc32(str(owner).encode()) % STATS_SHARDS


def stats_key(tenant: str, stats: str, owner: object) -> Item:
    """The shard of `stats` (`BRAIN_STATS`, `MEMORY_STATS`) that counts `owner`."""
    return key(tenant_prefix(tenant, stats), f"STATS#{stats_shard(owner)}")


def stats_query(tenant: str, stats: str) -> Item:
    """The consistent Query of every shard of `stats`."""
    return query(tenant_prefix(tenant, stats), ConsistentRead=True)


def scope_ref_pk(tenant: str, scope: str, scope_vk: str) -> str:
    """by_reference partition of the long-term memories about one entity."""
    return tenant_prefix(tenant, "SCOPE", scope, scope_vk)


def brain_ref_pk(tenant: str, vk_typ: str, vk_referenz_id: str) -> str:
    """by_reference partition of the brain entries about one entity."""
    return tenant_prefix(tenant, "BREF", vk_typ, vk_referenz_id)


def brain_typ_pk(tenant: str, vk_typ: str) -> str:
    """by_vk_typ partition of the brain entries of one vk_typ."""
    return tenant_prefix(tenant, "BTYP", vk_typ)


# --- memories (the item itself: memory_items.py) ------------------------------------


def unexpired(now_us: int) -> ConditionBase:
    """The condition (or Query filter) "not expired at `now_us`" on a memory item."""
    return Attr("expires_us").not_exists() | Attr("expires_us").gt(now_us)


def is_live(item: Mapping[str, Any], now_us: int) -> bool:
    """False for a memory item that is expired at `now_us`."""
    return "expires_us" not in item or get_n(item, "expires_us") > now_us


# --- ratings ----------------------------------------------------------------------------

RATING: Final = codec(Rating, datum="datum_us")


def rating_items(rating: Rating, expires_us: int | None) -> tuple[Item, Item]:
    """(guard, record): the guard makes insert_ID unique per tenant; the record lives in
    the memory's partition so that its ratings are one consistent Query. Ratings of a
    short-term memory carry its TTL, so that the TTL backstop removes them with it."""
    sk = RATING_SK_PREFIX + padded(rating.insert_id)
    memory_id = s(str(rating.memory_id))
    guard = {**rating_guard_key(rating.tenant, rating.insert_id), "memory_id": memory_id}
    record = {**key(memory_pk(rating.tenant, rating.memory_id), sk), **RATING.item(rating)}
    return guard | ttl(expires_us), record | ttl(expires_us)


# --- brain entries, postings, stats -------------------------------------------------------

BRAIN: Final = codec(BrainEntry, id="entry_id", created_at="created_us", updated_at="updated_us")
POSTING: Final = codec(Posting)


def brain_item(e: BrainEntry) -> Item:
    vk_typ = VkTyp(e.vk_typ).value
    return {
        **brain_key(e.tenant, e.id),
        **BRAIN.item(e),
        REF_PK: s(brain_ref_pk(e.tenant, vk_typ, e.vk_referenz_id)),
        REF_SK: n(e.id),
        TYP_PK: s(brain_typ_pk(e.tenant, vk_typ)),
        TYP_SK: n(e.id),
    }


def posting_item(entry: BrainEntry, term: str, tf: int) -> Item:
    posting = Posting(entry.id, tf, entry.doc_len, VkTyp(entry.vk_typ).value, entry.vk_referenz_id)
    return {**posting_key(entry.tenant, term, entry.id), **POSTING.item(posting)}


def stats_update(shard: Item, *, documents: int, total_len: int) -> Item:
    """The transaction action that changes a corpus-stats shard (brain `STATS`, memory
    `MSTATS`): both are only ever `ADD`ed, in the transaction of what they count."""
    added = {"documents": documents, "total_len": total_len}
    return action("Update", Key=shard, **expression(add=added))


def stats_from_items(items: Sequence[Mapping[str, Any]]) -> CorpusStats:
    shards = [plain(item) for item in items]
    documents = sum(shard.get("documents", 0) for shard in shards)
    return CorpusStats(int(documents), int(sum(shard.get("total_len", 0) for shard in shards)))
