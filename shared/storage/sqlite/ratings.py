"""Ratings: the score2memory records and each memory's rating aggregate."""

# SQL text is only ever built from this module's constants; every value is a bound parameter.
# ruff: noqa: S608

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime
from decimal import Decimal

from shared.domain import (
    EntryFailure,
    EntryFailureCode,
    Memory,
    MemoryId,
    MemoryType,
    Rating,
    RatingOutcome,
)
from shared.storage.sqlite.base import NOT_EXPIRED, Abort, SqliteBase, failure, memory_key
from shared.storage.values import dump, from_us, to_us

_log = logging.getLogger(__name__)

RATING_COLUMNS = "tenant, insert_id, typ, number, agent, nutzer, score, datum, referenzfelder"


class RatingStore(SqliteBase):
    """The rating part of `StoragePort`."""

    def record_ratings(
        self,
        ratings: Sequence[Rating],
        now: datetime,
        known: Mapping[MemoryId, Memory] | None = None,
    ) -> list[RatingOutcome | EntryFailure]:
        # `known` is not needed: each rating reads the memory inside its own write lock.
        now_us = to_us(now)
        for rating in ratings:  # reject naive datetimes before anything is written
            to_us(rating.datum)
        results: list[RatingOutcome | EntryFailure] = []
        for rating in ratings:
            try:
                results.append(self._record_rating(rating, now_us))
            except Abort as abort:
                results.append(abort.failure)
            except sqlite3.IntegrityError:
                results.append(
                    EntryFailure(EntryFailureCode.STORAGE, f"rating {rating.insert_id} exists")
                )
            except sqlite3.Error as exc:
                _log.exception("record_ratings: rating %s failed", rating.insert_id)
                results.append(EntryFailure(EntryFailureCode.STORAGE, str(exc)))
        return results

    def _record_rating(self, rating: Rating, now_us: int) -> RatingOutcome:
        key = memory_key(rating.tenant, rating.memory_id)
        datum = to_us(rating.datum)
        score = Decimal(rating.score)
        with self._write() as conn:
            row = conn.execute(
                "SELECT score_count, score_sum, last_call FROM memories"
                f" WHERE tenant = ? AND typ = ? AND number = ? AND {NOT_EXPIRED}",
                (*key, now_us),
            ).fetchone()
            if row is None:
                raise failure(EntryFailureCode.NOT_FOUND, f"memory {rating.memory_id}")
            conn.execute(
                f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    rating.tenant,
                    rating.insert_id,
                    key[1],
                    key[2],
                    rating.agent,
                    rating.nutzer,
                    str(score),
                    datum,
                    dump(rating.referenzfelder),
                ),
            )
            count = int(row[0]) + 1
            total = Decimal(row[1]) + score
            last_call = datum if row[2] is None else max(int(row[2]), datum)
            conn.execute(
                "UPDATE memories SET score_count = ?, score_sum = ?, last_call = ?,"
                " version = version + 1 WHERE tenant = ? AND typ = ? AND number = ?",
                (count, str(total), last_call, *key),
            )
        return RatingOutcome(
            insert_id=rating.insert_id,
            memory_id=rating.memory_id,
            score_count=count,
            score_avg=total / count,
            last_call=from_us(last_call),
        )

    def get_ratings(self, tenant: str, memory_id: MemoryId) -> list[Rating]:
        rows = self._read(
            f"SELECT {RATING_COLUMNS} FROM ratings"
            " WHERE tenant = ? AND typ = ? AND number = ? ORDER BY insert_id",
            memory_key(tenant, memory_id),
        )
        return [
            Rating(
                tenant=row[0],
                insert_id=row[1],
                memory_id=MemoryId(MemoryType(row[2]), row[3]),
                agent=row[4],
                nutzer=row[5],
                score=Decimal(row[6]),
                datum=from_us(row[7]),
                referenzfelder=json.loads(row[8]),
            )
            for row in rows
        ]
