"""The ledger part of `StoragePort` on SQLite (tables: `ledger_schema.py`).

Each append is one write transaction (BEGIN IMMEDIATE): the record, its claim (the unique
index `ledger_claims`) and its running total change together or not at all; writers are
serialised by SQLite, so no update of a total is ever lost.
"""

# SQL text is only ever built from this module's constants; every value is a bound parameter.
# ruff: noqa: S608

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from typing import Any, Final

from shared.domain import EntryFailure, EntryFailureCode
from shared.ledger.model import (
    AlreadyAppended,
    LedgerArt,
    LedgerRecord,
    LedgerSatz,
    LedgerStatus,
    LedgerTotal,
    LedgerView,
    LedgerWrite,
    attach_followers,
)
from shared.storage.sqlite.base import Abort, SqliteBase, failure
from shared.storage.values import dump, from_us, to_us

_log = logging.getLogger(__name__)

_COLUMNS: Final = (
    "tenant, id, satz, art, betrag, wirkung, waehrung, datum, area, path, gegenpartei,"
    " kategorie, beschreibung, status, nutzer, agent, autor, konto, geraet, faellig_am, iban,"
    " bezug, anker_datum, created_at, referenzfelder, pos_datum, pos_id, pos_rank, schluessel"
)
_RANK: Final = {LedgerSatz.BUCHUNG: 0, LedgerSatz.STORNO: 1, LedgerSatz.ZAHLUNG: 2}
_NEWEST_FIRST: Final = "ORDER BY pos_datum DESC, pos_id DESC, pos_rank DESC"


def _opt_date(value: str | None) -> date | None:
    return None if value is None else date.fromisoformat(value)


def _opt_iso(value: date | None) -> str | None:
    return None if value is None else value.isoformat()


def _row(record: LedgerRecord) -> tuple[Any, ...]:
    pos_datum, pos_id = record.position
    return (
        record.tenant,
        record.id,
        record.satz.value,
        record.art.value,
        str(record.betrag),
        str(record.wirkung),
        record.waehrung,
        record.datum.isoformat(),
        record.area,
        record.path,
        record.gegenpartei,
        record.kategorie,
        record.beschreibung,
        record.status.value,
        record.nutzer,
        record.agent,
        record.autor,
        record.konto,
        record.geraet,
        _opt_iso(record.faellig_am),
        record.iban,
        record.bezug,
        _opt_iso(record.anker_datum),
        to_us(record.created_at),
        dump(record.referenzfelder),
        pos_datum.isoformat(),
        pos_id,
        _RANK[record.satz],
        record.schluessel,
    )


def _record(row: Sequence[Any]) -> LedgerRecord:
    return LedgerRecord(
        tenant=row[0],
        id=int(row[1]),
        satz=LedgerSatz(row[2]),
        art=LedgerArt(row[3]),
        betrag=Decimal(row[4]),
        wirkung=Decimal(row[5]),
        waehrung=row[6],
        datum=date.fromisoformat(row[7]),
        area=row[8],
        path=row[9],
        gegenpartei=row[10],
        kategorie=row[11],
        beschreibung=row[12],
        status=LedgerStatus(row[13]),
        nutzer=row[14],
        agent=row[15],
        autor=row[16],
        konto=row[17],
        geraet=row[18],
        faellig_am=_opt_date(row[19]),
        iban=row[20],
        bezug=None if row[21] is None else int(row[21]),
        anker_datum=_opt_date(row[22]),
        created_at=from_us(int(row[23])),
        referenzfelder=json.loads(row[24]),
        schluessel=row[28],
    )


def _with_followers(
    rows: Sequence[Sequence[Any]], followers: Sequence[Sequence[Any]] = ()
) -> list[LedgerView]:
    """Views of `rows`, each booking told about its storno/zahlung among rows + followers."""
    records = [_record(row) for row in rows]
    views = attach_followers([*records, *(_record(row) for row in followers)])
    return views[: len(records)]


class LedgerStore(SqliteBase):
    def append_ledger(
        self, writes: Sequence[LedgerWrite]
    ) -> list[EntryFailure | AlreadyAppended | None]:
        for write in writes:  # reject naive datetimes before anything is written
            to_us(write.record.created_at)
        results: list[EntryFailure | AlreadyAppended | None] = []
        for write in writes:
            try:
                results.append(self._append(write))
            except Abort as abort:
                results.append(abort.failure)
            except sqlite3.Error as exc:
                _log.warning("append_ledger: record %s failed: %s", write.record.id, type(exc))
                results.append(EntryFailure(EntryFailureCode.STORAGE, type(exc).__name__))
        return results

    def _append(self, write: LedgerWrite) -> AlreadyAppended | None:
        record = write.record
        with self._write() as conn:
            if record.schluessel is not None:
                found = conn.execute(
                    "SELECT id FROM ledger_records WHERE tenant = ? AND schluessel = ?",
                    (record.tenant, record.schluessel),
                ).fetchone()
                if found is not None:
                    return AlreadyAppended(int(found[0]))
            if record.bezug is not None:
                claimed = conn.execute(
                    "SELECT satz FROM ledger_records WHERE tenant = ? AND bezug = ?",
                    (record.tenant, record.bezug),
                ).fetchall()
                kinds = {LedgerSatz(row[0]) for row in claimed}
                if record.satz in kinds:
                    raise failure(
                        EntryFailureCode.CONFLICT, f"{record.bezug} hat schon {record.satz}"
                    )
                if record.satz is LedgerSatz.ZAHLUNG and LedgerSatz.STORNO in kinds:
                    raise failure(EntryFailureCode.CONFLICT, f"{record.bezug} ist storniert")
            try:
                conn.execute(
                    f"INSERT INTO ledger_records ({_COLUMNS}) VALUES"
                    f" ({', '.join('?' * len(_COLUMNS.split(',')))})",
                    _row(record),
                )
            except sqlite3.IntegrityError as exc:
                raise failure(EntryFailureCode.CONFLICT, f"record {record.id}") from exc
            if record.satz is not LedgerSatz.ZAHLUNG:
                self._add_to_total(conn, record)
        return None

    def _add_to_total(self, conn: sqlite3.Connection, record: LedgerRecord) -> None:
        key = (record.tenant, record.area, record.monat, record.waehrung)
        row = conn.execute(
            "SELECT summe, version FROM ledger_totals"
            " WHERE tenant = ? AND area = ? AND monat = ? AND waehrung = ?",
            key,
        ).fetchone()
        current = (
            LedgerTotal(*key[1:])
            if row is None
            else LedgerTotal.loads(*key[1:], row[0], version=int(row[1]))
        )
        conn.execute(
            "INSERT INTO ledger_totals (tenant, area, monat, waehrung, summe, version)"
            " VALUES (?, ?, ?, ?, ?, 1) ON CONFLICT (tenant, area, monat, waehrung)"
            " DO UPDATE SET summe = excluded.summe, version = version + 1",
            (*key, current.add(record).dumps()),
        )

    def get_ledger(self, tenant: str, ids: Sequence[int]) -> dict[int, LedgerView]:
        wanted = dump(sorted(set(ids)))
        with self._snapshot() as conn:
            rows = conn.execute(
                f"SELECT {_COLUMNS} FROM ledger_records"
                " WHERE tenant = ? AND id IN (SELECT value FROM json_each(?))",
                (tenant, wanted),
            ).fetchall()
            followers = conn.execute(
                f"SELECT {_COLUMNS} FROM ledger_records"
                " WHERE tenant = ? AND bezug IN (SELECT value FROM json_each(?))",
                (tenant, wanted),
            ).fetchall()
        return {view.record.id: view for view in _with_followers(rows, followers)}

    def find_ledger(
        self,
        tenant: str,
        areas: Sequence[str],
        von: date | None,
        bis: date | None,
        limit: int | None,
    ) -> dict[str, list[LedgerView]]:
        found: dict[str, list[LedgerView]] = {}
        for area in dict.fromkeys(areas):
            rows = self._read(
                f"SELECT {_COLUMNS} FROM ledger_records WHERE tenant = ? AND area = ?"
                " AND pos_datum >= ? AND pos_datum <= ?"
                f" {_NEWEST_FIRST} LIMIT ?",
                (
                    tenant,
                    area,
                    _opt_iso(von) or "0000-00-00",
                    _opt_iso(bis) or "9999-99-99",
                    -1 if limit is None else limit,
                ),
            )
            # Followers sort right before their booking (newest first): a limit never
            # separates a listed booking from its storno or zahlung.
            found[area] = _with_followers(rows)
        return found

    def ledger_totals(
        self, tenant: str, areas: Sequence[str], von_monat: str | None, bis_monat: str | None
    ) -> list[LedgerTotal]:
        rows = self._read(
            "SELECT area, monat, waehrung, summe, version FROM ledger_totals"
            " WHERE tenant = ? AND area IN (SELECT value FROM json_each(?))"
            " AND monat >= ? AND monat <= ? ORDER BY area, monat, waehrung",
            (tenant, dump(sorted(set(areas))), von_monat or "0000-00", bis_monat or "9999-99"),
        )
        return [LedgerTotal.loads(row[0], row[1], row[2], row[3], int(row[4])) for row in rows]

    def open_reminders(
        self, tenant: str, areas: Sequence[str], faellig_bis: date, limit: int
    ) -> list[LedgerView]:
        rows = self._read(
            f"SELECT {_COLUMNS} FROM ledger_records AS r"
            " WHERE tenant = ? AND area IN (SELECT value FROM json_each(?))"
            " AND faellig_am IS NOT NULL AND satz = 'buchung' AND status = 'offen'"
            " AND faellig_am <= ?"
            " AND NOT EXISTS (SELECT 1 FROM ledger_records AS f"
            "   WHERE f.tenant = r.tenant AND f.bezug = r.id)"
            " ORDER BY faellig_am, id LIMIT ?",
            (tenant, dump(sorted(set(areas))), faellig_bis.isoformat(), limit),
        )
        return [LedgerView(_record(row)) for row in rows]
