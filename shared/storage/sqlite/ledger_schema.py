"""The ledger's SQLite tables (created with the rest of the schema on every open).

`ledger_records` is append-only. `pos_datum`/`pos_id`/`pos_rank` are a record's position
(its own datum and ID, or its original's for a storno/zahlung; rank 0 booking, 1 storno,
2 zahlung), so that a period query returns an entry with its correction and payment.
`ledger_claims` (a unique partial index) allows one storno and one zahlung per original;
`ledger_keys` one record per idempotency key (`schluessel`).
`ledger_totals` holds the running totals per (area, month, currency) as one JSON document
of exact Decimal strings (`LedgerTotal.dumps`), updated in the record's transaction.
"""

from __future__ import annotations

from typing import Final

LEDGER_SCHEMA: Final = (
    """
    CREATE TABLE IF NOT EXISTS ledger_records (
        tenant         TEXT NOT NULL,
        id             INTEGER NOT NULL,
        satz           TEXT NOT NULL,
        art            TEXT NOT NULL,
        betrag         TEXT NOT NULL,
        wirkung        TEXT NOT NULL,
        waehrung       TEXT NOT NULL,
        datum          TEXT NOT NULL,
        area           TEXT NOT NULL,
        path           TEXT NOT NULL,
        gegenpartei    TEXT NOT NULL,
        kategorie      TEXT NOT NULL,
        beschreibung   TEXT NOT NULL,
        status         TEXT NOT NULL,
        nutzer         TEXT NOT NULL,
        agent          TEXT NOT NULL,
        autor          TEXT NOT NULL,
        konto          TEXT,
        geraet         TEXT,
        faellig_am     TEXT,
        iban           TEXT,
        bezug          INTEGER,
        anker_datum    TEXT,
        created_at     INTEGER NOT NULL,
        referenzfelder TEXT NOT NULL,
        pos_datum      TEXT NOT NULL,
        pos_id         INTEGER NOT NULL,
        pos_rank       INTEGER NOT NULL,
        schluessel     TEXT,
        PRIMARY KEY (tenant, id)
    )
    """,
    """
    CREATE UNIQUE INDEX IF NOT EXISTS ledger_claims
        ON ledger_records (tenant, bezug, satz) WHERE bezug IS NOT NULL
    """,
    """
    CREATE UNIQUE INDEX IF NOT EXISTS ledger_keys
        ON ledger_records (tenant, schluessel) WHERE schluessel IS NOT NULL
    """,
    """
    CREATE INDEX IF NOT EXISTS ledger_by_position
        ON ledger_records (tenant, area, pos_datum, pos_id, pos_rank)
    """,
    """
    CREATE INDEX IF NOT EXISTS ledger_reminders
        ON ledger_records (tenant, area, faellig_am, id)
        WHERE faellig_am IS NOT NULL AND satz = 'buchung' AND status = 'offen'
    """,
    """
    CREATE TABLE IF NOT EXISTS ledger_totals (
        tenant   TEXT NOT NULL,
        area     TEXT NOT NULL,
        monat    TEXT NOT NULL,
        waehrung TEXT NOT NULL,
        summe    TEXT NOT NULL,
        version  INTEGER NOT NULL,
        PRIMARY KEY (tenant, area, monat, waehrung)
    ) WITHOUT ROWID
    """,
)
