"""Keys and items of the ledger on the single table (layout: docs/dynamodb.md, "Ledger").

A storno (`#S`) and a zahlung (`#Z`) live at their original's position, so a period query
returns a booking with its followers, and `attribute_not_exists` on that key allows one of
each. Record attributes are declared once (`RECORD`, items.py's codec): amounts are decimal
strings (DynamoDB normalises numbers: the scale the client sent is part of the record).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from typing import Any, Final

from shared.ledger.model import (
    KategorieSumme,
    LedgerArt,
    LedgerRecord,
    LedgerSatz,
    LedgerTotal,
)
from shared.ledger.money import MINOR_UNITS
from shared.storage.dynamo.items import (
    Item,
    Kind,
    action,
    codec,
    expression,
    key,
    padded,
    part,
    plain,
    tenant_prefix,
)

# Bookings of one area, month and currency spread their totals over this many items, so
# that concurrent writers rarely contend for one item; a totals Query reads all shards.
TOTAL_SHARDS: Final = 4
_FOLLOWER_SUFFIX: Final = {LedgerSatz.STORNO: "#S", LedgerSatz.ZAHLUNG: "#Z"}


def record_pk(tenant: str, area: str) -> str:
    return f"{tenant_prefix(tenant)}#LEDGER#{part(area)}"


def position_sk(pos_datum: date, pos_id: int) -> str:
    return f"E#{pos_datum.isoformat()}#{padded(pos_id)}"


def record_key(record: LedgerRecord) -> Item:
    pos_datum, pos_id = record.position
    suffix = _FOLLOWER_SUFFIX.get(record.satz, "")
    return key(record_pk(record.tenant, record.area), position_sk(pos_datum, pos_id) + suffix)


def follower_key(original: LedgerRecord, satz: LedgerSatz) -> Item:
    """Where the storno or zahlung of `original` sits (or would sit)."""
    return key(
        record_pk(original.tenant, original.area),
        position_sk(original.datum, original.id) + _FOLLOWER_SUFFIX[satz],
    )


def id_key(tenant: str, record_id: int) -> Item:
    return key(f"{tenant_prefix(tenant)}#LID#{padded(record_id)}", "LID")


def schluessel_key(tenant: str, schluessel: str) -> Item:
    """The idempotency key of a record: taken once, in the record's transaction."""
    return key(f"{tenant_prefix(tenant)}#LKEY#{part(schluessel)}", "LKEY")


def due_pk(tenant: str, area: str) -> str:
    return f"{tenant_prefix(tenant)}#LDUE#{part(area)}"


def due_key(record: LedgerRecord) -> Item:
    assert record.faellig_am is not None
    return key(
        due_pk(record.tenant, record.area),
        f"{record.faellig_am.isoformat()}#{padded(record.id)}",
    )


def total_pk(tenant: str, area: str) -> str:
    return f"{tenant_prefix(tenant)}#LTOTAL#{part(area)}"


def total_key(record: LedgerRecord) -> Item:
    shard = record.id % TOTAL_SHARDS
    return key(
        total_pk(record.tenant, record.area),
        f"{record.monat}#{part(record.waehrung)}#{shard}",
    )


# --- records ----------------------------------------------------------------------------


# Amounts are decimal strings: DynamoDB normalises numbers, the client's scale is kept.
AMOUNT: Final = Kind(str, Decimal)
RECORD: Final = codec(LedgerRecord, betrag=AMOUNT, wirkung=AMOUNT, created_at="created_us")


def record_item(record: LedgerRecord, item_key: Item) -> Item:
    return {**item_key, **RECORD.item(record)}


def record_from_item(item: Mapping[str, Any]) -> LedgerRecord:
    return LedgerRecord(**RECORD.fields(item))


# --- totals -----------------------------------------------------------------------------


_BY_ART: Final = {
    LedgerArt.EINNAHME: "einnahmen",
    LedgerArt.AUSGABE: "ausgaben",
    LedgerArt.UMBUCHUNG: "umbuchungen",
}
_COUNT, _SUM = "kn:", "ks:"  # a category's count and sum: top-level numbers ADD can reach


def total_update(record: LedgerRecord) -> Item:
    """The Update of the record's total shard: its effect `ADD`ed (a storno counts -1 and
    its negated effect), so concurrent bookings never conflict on a version."""
    step = -1 if record.satz is LedgerSatz.STORNO else 1
    added = {
        "anzahl": Decimal(step),
        "saldo": record.wirkung,
        _BY_ART[record.art]: record.wirkung,
        _COUNT + record.kategorie: Decimal(step),
        _SUM + record.kategorie: record.wirkung,
    }
    fixed = {"area": record.area, "monat": record.monat, "waehrung": record.waehrung}
    return action("Update", Key=total_key(record), **expression(add=added, put=fixed))


def total_from_item(item: Mapping[str, Any]) -> LedgerTotal:
    """A total shard as stored; sums at the currency's minor units (DynamoDB normalises
    numbers: a sum of 1.25 and 1.75 reads back as 3)."""
    stored = plain(item)
    digits = MINOR_UNITS.get(stored["waehrung"])
    unit = None if digits is None else Decimal(1).scaleb(-digits)

    def amount(name: str) -> Decimal:
        value = Decimal(stored.get(name, 0))
        return value if unit is None else value.quantize(unit)

    kategorien = {
        name[len(_COUNT) :]: KategorieSumme(int(count), amount(_SUM + name[len(_COUNT) :]))
        for name, count in stored.items()
        if name.startswith(_COUNT)
    }
    return LedgerTotal(
        area=stored["area"],
        monat=stored["monat"],
        waehrung=stored["waehrung"],
        anzahl=int(stored["anzahl"]),
        saldo=amount("saldo"),
        einnahmen=amount("einnahmen"),
        ausgaben=amount("ausgaben"),
        umbuchungen=amount("umbuchungen"),
        kategorien=kategorien,
    )
