"""A memory as a row of the `memories` table and back (columns in `MEMORY_COLUMNS` order).

Invariant: read by both the writes (`memories.py`) and the index reads (`memory_index.py`),
importing neither, so the two form no import cycle.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from shared.domain import Memory, MemoryId, MemoryType
from shared.storage.sqlite.base import memory_key
from shared.storage.values import dump, from_us, opt_datetime, opt_us, to_us

MEMORY_COLUMNS = (
    "tenant, typ, number, kurzbeschreibung, memory, tags, scope, scope_vk, nutzer, agent,"
    " created_at, updated_at, referenzfelder, expires_at, embedding_dim,"
    " embedding_profil_hash, score_count, score_sum, last_call, version, terms, doc_len,"
    " area, gueltig_bis, ersetzt_durch"
)


def memory_row(m: Memory) -> tuple[Any, ...]:
    return (
        *memory_key(m.tenant, m.id),
        m.kurzbeschreibung,
        m.memory,
        dump(list(m.tags)),
        m.scope,
        m.scope_vk,
        m.nutzer,
        m.agent,
        to_us(m.created_at),
        to_us(m.updated_at),
        dump(m.referenzfelder),
        opt_us(m.expires_at),
        m.embedding_dim,
        m.embedding_profil_hash,
        m.score_count,
        str(Decimal(m.score_sum)),
        opt_us(m.last_call),
        m.version,
        dump(m.terms),
        m.doc_len,
        m.area,
        opt_us(m.gueltig_bis),
        None if m.ersetzt_durch is None else str(m.ersetzt_durch),
    )


def memory_from_row(row: Sequence[Any]) -> Memory:
    return Memory(
        tenant=row[0],
        id=MemoryId(MemoryType(row[1]), row[2]),
        kurzbeschreibung=row[3],
        memory=row[4],
        tags=json.loads(row[5]),
        scope=row[6],
        scope_vk=row[7],
        nutzer=row[8],
        agent=row[9],
        created_at=from_us(row[10]),
        updated_at=from_us(row[11]),
        referenzfelder=json.loads(row[12]),
        expires_at=opt_datetime(row[13]),
        embedding_dim=row[14],
        embedding_profil_hash=row[15],
        score_count=row[16],
        score_sum=Decimal(row[17]),
        last_call=opt_datetime(row[18]),
        version=row[19],
        terms=json.loads(row[20]),
        doc_len=row[21],
        area=row[22],
        gueltig_bis=opt_datetime(row[23]),
        ersetzt_durch=None if row[24] is None else MemoryId.parse(row[24]),
    )
