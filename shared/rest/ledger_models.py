"""The documented shapes of `/api/ledger` (OpenAPI 3.1). Request entries are the `ledger`
tool's own request models (`shared.ledger.requests`: one definition of every field and
limit; the tool validates with them); the answers mirror `ledger_query.view` and the
ledger service's per-entry results and are checked on the way out."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from shared.ledger.model import LedgerArt, LedgerSatz, LedgerStatus
from shared.ledger.requests import Buchung, Storno, Zahlung
from shared.rest.problems import ProblemField
from shared.validation import rules

REFERENZFELDER = (
    "Referenzdaten des Aufrufs (wie referenzfelder der Tools): mit jeder Buchung gespeichert "
    "und unverändert zurückgegeben. Reference data, stored with every entry."
)


def _entries(text: str) -> Any:
    return Field(min_length=1, max_length=rules.MAX_BATCH, description=text)


class BuchungenIn(BaseModel):
    """Buchungen (aktion buchen) / bookings."""

    model_config = ConfigDict(extra="forbid")

    eintraege: list[Buchung] = _entries("1–100 Buchungen; bookings.")
    referenzfelder: dict[str, Any] | None = Field(default=None, description=REFERENZFELDER)


class StornosIn(BaseModel):
    """Stornos (aktion storno): kehren Buchungen um, ohne sie zu ändern / reversals."""

    model_config = ConfigDict(extra="forbid")

    eintraege: list[Storno] = _entries("1–100 Stornos: {ID, grund}.")
    referenzfelder: dict[str, Any] | None = Field(default=None, description=REFERENZFELDER)


class ZahlungenIn(BaseModel):
    """Zahlungen (aktion bezahlen): markieren offene Buchungen als bezahlt / payments."""

    model_config = ConfigDict(extra="forbid")

    eintraege: list[Zahlung] = _entries("1–100 Zahlungen: {ID, bezahlt_am, notiz}.")
    referenzfelder: dict[str, Any] | None = Field(default=None, description=REFERENZFELDER)


class Ergebnis(BaseModel):
    """Das Ergebnis eines Eintrags / one entry's result."""

    index: int = Field(description="Position im Feld eintraege.")
    erfolg: bool
    ID: int | None = Field(default=None, description="ID des neuen Ledger-Eintrags.")
    wirkung: str | None = Field(default=None, description="Vorzeichenbehafteter Betrag.")
    waehrung: str | None = None
    monat: str | None = Field(default=None, description="JJJJ-MM der Buchung.")
    bereich: str | None = None
    storno_von: int | None = Field(default=None, description="Stornierte Buchung.")
    bezahlt: int | None = Field(default=None, description="Bezahlte Buchung.")
    bezahlt_am: str | None = None
    bezahlt_von: str | None = None
    autor: str | None = None
    hinweis: str | None = Field(default=None, description="Hinweis, z. B. maskierte IBANs.")
    fehler: list[ProblemField] | None = Field(
        default=None, description="Fehler dieses Eintrags mit Feldpfad (eintraege[i]…)."
    )


class SchreibAntwort(BaseModel):
    """Ergebnis je Eintrag; 201 wenn alle gebucht wurden, 200 wenn nur ein Teil."""

    erfolg: bool = Field(description="true, wenn jeder Eintrag gebucht wurde.")
    ergebnisse: list[Ergebnis]
    anzahl_erfolgreich: int
    anzahl_fehlgeschlagen: int
    referenzfelder: dict[str, Any]


class LedgerEintrag(BaseModel):
    """Ein Ledger-Eintrag (Buchung, Storno oder Zahlung); Beträge als exakte Dezimaltexte."""

    ID: int
    satz: LedgerSatz
    art: LedgerArt
    betrag: str
    wirkung: str
    waehrung: str
    datum: str
    gegenpartei: str
    kategorie: str
    beschreibung: str
    status: LedgerStatus
    faellig_am: str | None
    path: str
    bereich: str
    iban: str | None = Field(description="Maskiert, nur die letzten 4 Zeichen.")
    bezug: int | None
    storniert_durch: int | None
    bezahlt_durch: int | None
    bezahlt_am: str | None
    autor: str
    nutzer: str
    agent: str
    konto: str
    geraet: str
    gebucht_am: str
    referenzfelder: dict[str, Any]


class Summe(BaseModel):
    """Summen einer Währung (mit kategorie-Filter nur saldo und anzahl)."""

    waehrung: str
    saldo: str
    einnahmen: str | None = None
    ausgaben: str | None = None
    umbuchungen: str | None = None
    anzahl: int


class MonatsSumme(BaseModel):
    monat: str
    waehrung: str
    kategorie: str
    bereich: str
    saldo: str
    anzahl: int


class Zeitraum(BaseModel):
    von: str | None
    bis: str | None


class LedgerAbfrage(BaseModel):
    """Einträge, exakte Summen und fällige Erinnerungen der lesbaren Bereiche."""

    bereiche: list[str] = Field(description="Die abgefragten Bereiche.")
    zeitraum: Zeitraum
    summen: list[Summe] = Field(description="Je Währung.")
    summen_nach_monat: list[MonatsSumme] = Field(description="Je Monat, Währung, Kategorie.")
    summen_quelle: Literal["laufende_summen", "eintraege"]
    eintraege: list[LedgerEintrag] = Field(description="Neueste zuerst, höchstens limit.")
    anzahl_eintraege: int
    weitere: bool = Field(description="Mehr Einträge als limit passten.")
    offene_erinnerungen: list[LedgerEintrag] | None = Field(
        default=None, description="Nur mit faellig_bis: offene Erinnerungen, älteste zuerst."
    )
