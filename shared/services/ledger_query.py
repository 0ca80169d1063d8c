"""`ledger` aktion `abfragen`: entries, exact sums and due reminders of the caller's areas.

Sums come from the running totals (one read per area, whatever the number of entries)
when the filters are ones the totals are kept by: area (a path down to the area), whole
months, currency and category. Filters the totals do not know (counterparty, status, art,
a path below the area, a period that cuts a month) sum the matching records instead, at
most `SUM_SCAN_MAX` of them; the answer names its source in `summen_quelle`.
"""

from __future__ import annotations

import calendar
from collections.abc import Iterable
from datetime import date
from decimal import Decimal
from typing import Any, Final

from shared.auth.principal import Principal
from shared.ledger.model import LedgerSatz, LedgerTotal, LedgerView, month_of, totals_of
from shared.ledger.money import mask
from shared.ledger.requests import Abfrage, parse_abfrage
from shared.services import areas, responses
from shared.services.context import ServiceContext
from shared.validation.errors import FieldError, RequestRejected

SUM_SCAN_MAX: Final = 10_000
REMINDERS_MAX: Final = 500


def view(item: LedgerView) -> dict[str, Any]:
    """A record as answered: amounts as exact decimal strings, the IBAN masked."""
    record = item.record
    return {
        "ID": record.id,
        "satz": record.satz.value,
        "art": record.art.value,
        "betrag": str(record.betrag),
        "wirkung": str(record.wirkung),
        "waehrung": record.waehrung,
        "datum": record.datum.isoformat(),
        "gegenpartei": record.gegenpartei,
        "kategorie": record.kategorie,
        "beschreibung": record.beschreibung,
        "status": item.status.value,
        "faellig_am": None if record.faellig_am is None else record.faellig_am.isoformat(),
        "path": record.path,
        "bereich": record.area,
        "iban": None if record.iban is None else mask(record.iban),
        "bezug": record.bezug,
        "storniert_durch": item.storniert_durch,
        "bezahlt_durch": item.bezahlt_durch,
        "bezahlt_am": None if item.bezahlt_am is None else item.bezahlt_am.isoformat(),
        "autor": record.autor,
        "nutzer": record.nutzer,
        "agent": record.agent,
        "konto": record.konto,
        "geraet": record.geraet,
        "gebucht_am": record.created_at.isoformat(),
        "referenzfelder": record.referenzfelder,
    }


def _month_aligned(von: date | None, bis: date | None) -> bool:
    last_day = None if bis is None else calendar.monthrange(bis.year, bis.month)[1]
    return (von is None or von.day == 1) and (bis is None or bis.day == last_day)


def _areas(ctx: ServiceContext, principal: Principal, query: Abfrage) -> list[str]:
    nutzer = areas.acting_nutzer(principal)
    readable = areas.readable_areas(ctx, principal, nutzer)
    return sorted(area for area in readable if areas.area_may_match(area, query.path))


def _matches(item: LedgerView, query: Abfrage) -> bool:
    record = item.record
    if query.status is not None and (
        record.satz is not LedgerSatz.BUCHUNG
        or item.storniert_durch is not None
        or item.status.value != query.status
    ):
        return False
    return areas.within(record.path, query.path) and all(
        wanted is None or actual == wanted
        for wanted, actual in (
            (query.kategorie, record.kategorie),
            (query.gegenpartei, record.gegenpartei),
            (query.waehrung, record.waehrung),
            (query.art, record.art.value),
        )
    )


def _sums(totals: Iterable[LedgerTotal], kategorie: str | None) -> dict[str, Any]:
    per_currency: dict[str, dict[str, Any]] = {}
    per_month: list[dict[str, Any]] = []
    for total in totals:
        parts = (
            {kategorie: total.kategorien[kategorie]}
            if kategorie is not None and kategorie in total.kategorien
            else {}
            if kategorie is not None
            else dict(total.kategorien)
        )
        for name, part in sorted(parts.items()):
            per_month.append(
                {
                    "monat": total.monat,
                    "waehrung": total.waehrung,
                    "kategorie": name,
                    "bereich": total.area,
                    "saldo": str(part.saldo),
                    "anzahl": part.anzahl,
                }
            )
        if kategorie is not None and kategorie not in total.kategorien:
            continue
        sums = per_currency.setdefault(
            total.waehrung,
            {
                "waehrung": total.waehrung,
                "saldo": Decimal(0),
                "einnahmen": Decimal(0),
                "ausgaben": Decimal(0),
                "umbuchungen": Decimal(0),
                "anzahl": 0,
            },
        )
        if kategorie is None:
            for name in ("saldo", "einnahmen", "ausgaben", "umbuchungen"):
                sums[name] += getattr(total, name)
            sums["anzahl"] += total.anzahl
        else:
            sums["saldo"] += total.kategorien[kategorie].saldo
            sums["anzahl"] += total.kategorien[kategorie].anzahl
    currencies = [
        {key: str(value) if isinstance(value, Decimal) else value for key, value in sums.items()}
        for _, sums in sorted(per_currency.items())
    ]
    if kategorie is not None:
        for row in currencies:
            for name in ("einnahmen", "ausgaben", "umbuchungen"):
                row.pop(name)
    return {"summen": currencies, "summen_nach_monat": per_month}


def abfragen(ctx: ServiceContext, principal: Principal, args: Any) -> dict[str, Any]:
    query, referenzfelder = parse_abfrage(args)
    bereiche = _areas(ctx, principal, query)
    storage, tenant = ctx.storage, principal.tenant
    by_totals = (
        query.gegenpartei is None
        and query.status is None
        and query.art is None
        and (query.path is None or areas.area_of_path(query.path) == query.path)
        and _month_aligned(query.von, query.bis)
    )
    listing_filtered = (
        by_totals is False
        or any(value is not None for value in (query.kategorie, query.waehrung))
        or (query.path is not None and areas.area_of_path(query.path) != query.path)
    )
    read_limit = SUM_SCAN_MAX + 1 if listing_filtered else query.limit + 1
    listed: list[LedgerView] = []
    scanned_all = True
    # Every readable area in one round trip (DynamoDB: one Query per area, side by side)
    for found in storage.find_ledger(tenant, bereiche, query.von, query.bis, read_limit).values():
        scanned_all = scanned_all and len(found) < read_limit
        listed += [item for item in found if _matches(item, query)]
    listed.sort(key=lambda item: item.record.sort_key, reverse=True)
    if by_totals:
        totals = storage.ledger_totals(
            tenant,
            bereiche,
            None if query.von is None else month_of(query.von),
            None if query.bis is None else month_of(query.bis),
        )
        totals = [t for t in totals if query.waehrung is None or t.waehrung == query.waehrung]
        quelle = "laufende_summen"
    else:
        if not scanned_all:
            raise RequestRejected(
                [
                    FieldError(
                        "inhalt",
                        f"Zu viele Einträge (mehr als {SUM_SCAN_MAX}) für Summen mit diesen "
                        "Filtern; Zeitraum (von/bis) oder Bereich (path) eingrenzen, oder nur "
                        "nach Bereich, ganzen Monaten, Währung und Kategorie summieren.",
                    )
                ]
            )
        totals = totals_of(item.record for item in listed)
        quelle = "eintraege"
    daten: dict[str, Any] = {
        "bereiche": bereiche,
        "zeitraum": {
            "von": None if query.von is None else query.von.isoformat(),
            "bis": None if query.bis is None else query.bis.isoformat(),
        },
        **_sums(totals, query.kategorie),
        "summen_quelle": quelle,
        "eintraege": [view(item) for item in listed[: query.limit]],
        "anzahl_eintraege": min(len(listed), query.limit),
        "weitere": len(listed) > query.limit,
    }
    if query.faellig_bis is not None:
        due = storage.open_reminders(tenant, bereiche, query.faellig_bis, REMINDERS_MAX)
        daten["offene_erinnerungen"] = [view(item) for item in due if _matches(item, query)][
            : query.limit
        ]
    return responses.success(daten, referenzfelder)
