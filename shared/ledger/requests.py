"""The `ledger` tool's input: pydantic models (validated with `TypeAdapter`), every error
in the contract's German envelope form with its absolute field path.

    {"inhalt": {"aktion": "buchen",   "eintraege": [Buchung, ...]},           1-100
     "inhalt": {"aktion": "storno",   "eintraege": [{"ID": 7, "grund": ...}]}, 1-100
     "inhalt": {"aktion": "bezahlen", "eintraege": [{"ID": 7, "bezahlt_am": ...}]},
     "inhalt": {"aktion": "abfragen", "path": ..., "von": ..., "bis": ..., ...},
     "help": 1, "referenzfelder": {...}}

The envelope (aktion, the list of entries) fails whole; each entry is validated on its own.
Limits are defined once here and read by the validator and the published schema.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Annotated, Any, Final, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

from shared.auth.principal import Scope
from shared.ledger.money import (
    BETRAG_PATTERN,
    AmountError,
    currency_error,
    iban_error,
    normalize_iban,
    parse_betrag,
)
from shared.services.secrets import name_errors
from shared.validation import messages, rules, scalar_maps
from shared.validation.envelope import parse_referenzfelder
from shared.validation.errors import FieldError, RequestRejected
from shared.validation.memory_requests import _memory_path

AKTIONEN: Final = ("buchen", "storno", "bezahlen", "abfragen")
TEXT_MAX_LEN: Final = 200
BESCHREIBUNG_MAX_LEN: Final = 2000
ABFRAGE_LIMIT_DEFAULT: Final = 50
ABFRAGE_LIMIT_MAX: Final = 500
_DATE_RE: Final = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _date(value: Any) -> date:
    if not isinstance(value, str) or not _DATE_RE.fullmatch(value):
        raise ValueError("Datum muss das Format JJJJ-MM-TT haben, z. B. 2026-11-30.")
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise ValueError(f"Kein gültiges Kalenderdatum ({value[:10]}).") from exc


def _no_control(*, name: bool) -> AfterValidator:
    """Control characters refused like in every memory tool (`rules.control_error`); names
    (gegenpartei, kategorie) also refuse tab and line breaks."""

    def check(value: str) -> str:
        problem = rules.control_error(value, name=name)
        if problem is not None:
            raise ValueError(problem)
        return value

    return AfterValidator(check)


def _no_secret(value: Any) -> Any:
    """A field that cannot hold `[ENTFERNT:…]` (a path, the keys of referenzfelder) refuses
    the entry when it contains a secret: the memory tools' rule (`secrets.name_errors`)."""
    refused = name_errors([("", value)])
    if refused:
        raise ValueError(refused[0].meldung)
    return value


def _text(value: str) -> str:
    stripped = value.strip()
    if not stripped:
        raise ValueError(messages.NOT_BLANK)
    return stripped


def _path(value: str) -> str:
    errors: list[FieldError] = []
    path = _memory_path(value, "", errors)
    if path is None:
        raise ValueError(errors[0].meldung)
    return path


def _iban(value: str) -> str:
    problem = iban_error(value)
    if problem is not None:
        raise ValueError(problem)
    return normalize_iban(value)


def _waehrung(value: str) -> str:
    problem = currency_error(value)
    if problem is not None:
        raise ValueError(problem)
    return value


def _referenzfelder(value: dict[str, Any]) -> dict[str, Any]:
    parsed = parse_referenzfelder_value(value)
    _no_secret(parsed)
    return parsed


Datum = Annotated[date, BeforeValidator(_date)]
Text = Annotated[
    StrictStr, Field(max_length=TEXT_MAX_LEN), _no_control(name=True), AfterValidator(_text)
]
FreeText = Annotated[StrictStr, Field(max_length=BESCHREIBUNG_MAX_LEN), _no_control(name=False)]
Pfad = Annotated[StrictStr, AfterValidator(_path), AfterValidator(_no_secret)]
Waehrung = Annotated[StrictStr, AfterValidator(_waehrung)]
Referenzfelder = Annotated[dict[str, Any], AfterValidator(_referenzfelder)]
LedgerId = Annotated[StrictInt, Field(ge=1, le=rules.ID_MAX)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def _describe(text: str, **extra: Any) -> Any:
    return Field(description=text, json_schema_extra=extra or None)


class Buchung(_Model):
    """Eine Buchung (aktion buchen)."""

    art: Annotated[
        Literal["ausgabe", "einnahme", "umbuchung"],
        _describe("ausgabe zieht ab, einnahme zählt hinzu, umbuchung mit eigenem Vorzeichen."),
    ]
    betrag: Annotated[
        StrictStr,
        _describe(
            'Dezimalzahl als Zeichenkette (nie als Zahl), z. B. "1234.50"; ohne Vorzeichen '
            "ausser bei umbuchung; höchstens so viele Nachkommastellen wie die Währung hat.",
            pattern=BETRAG_PATTERN,
        ),
    ]
    waehrung: Annotated[Waehrung, _describe("ISO-4217-Code, z. B. EUR, USD, CHF, JPY.")]
    datum: Annotated[Datum, _describe("Buchungsdatum JJJJ-MM-TT.")]
    gegenpartei: Annotated[Text, _describe("Wer zahlt oder bezahlt wird.")]
    kategorie: Annotated[Text, _describe("Kategorie für Summen je Kategorie und Monat.")]
    path: Annotated[
        Pfad,
        _describe(
            "Bereich wie bei remember: projects/<projekt>/..., teams/<team>/... oder "
            "users/<nutzer>/...; es gelten dieselben Mitgliedschaftsregeln."
        ),
    ]
    beschreibung: Annotated[
        FreeText,
        _describe("Freitext; IBANs/Kartennummern werden maskiert, Geheimnisse entfernt."),
    ] = ""
    faellig_am: Annotated[
        Datum | None, _describe("Zahlungserinnerung: fällig am JJJJ-MM-TT (Status dann offen).")
    ] = None
    status: Annotated[
        Literal["offen", "bezahlt"] | None,
        _describe("Standard: offen mit faellig_am, sonst bezahlt."),
    ] = None
    iban: Annotated[
        Annotated[StrictStr, Field(max_length=50), AfterValidator(_iban)] | None,
        _describe("Bankverbindung; geprüft (Modulo 97), in Antworten maskiert."),
    ] = None
    create_project: Annotated[
        StrictBool,
        _describe(
            "Wie bei remember: legt das Projekt eines projects/-Pfads an, falls es fehlt "
            "(nicht in den Plugin-Profilen)."
        ),
    ] = False
    referenzfelder: Annotated[
        Referenzfelder | None, _describe("Referenzdaten dieses Eintrags (wie referenzfelder).")
    ] = None


class Storno(_Model):
    """Ein Storno (aktion storno): kehrt eine Buchung um, ohne sie zu ändern."""

    ID: Annotated[LedgerId, _describe("ID der Buchung, die storniert wird.")]
    grund: Annotated[FreeText, _describe("Grund des Stornos.")] = ""
    referenzfelder: Referenzfelder | None = None


class Zahlung(_Model):
    """Eine Zahlung (aktion bezahlen): markiert eine offene Buchung als bezahlt."""

    ID: Annotated[LedgerId, _describe("ID der offenen Buchung (Zahlungserinnerung).")]
    bezahlt_am: Annotated[Datum | None, _describe("JJJJ-MM-TT; Standard heute.")] = None
    notiz: Annotated[FreeText, _describe("Notiz zur Zahlung.")] = ""
    referenzfelder: Referenzfelder | None = None


class Abfrage(_Model):
    """Filter der aktion abfragen (alle optional, UND-verknüpft)."""

    aktion: Literal["abfragen"]
    path: Annotated[
        Pfad | None, _describe("Nur Bereiche/Pfade unter diesem Präfix; Standard: alle lesbaren.")
    ] = None
    von: Annotated[Datum | None, _describe("Zeitraum ab JJJJ-MM-TT (einschliesslich).")] = None
    bis: Annotated[Datum | None, _describe("Zeitraum bis JJJJ-MM-TT (einschliesslich).")] = None
    kategorie: Text | None = None
    gegenpartei: Text | None = None
    status: Literal["offen", "bezahlt"] | None = None
    waehrung: Waehrung | None = None
    art: Literal["ausgabe", "einnahme", "umbuchung"] | None = None
    faellig_bis: Annotated[
        Datum | None,
        _describe("Offene Zahlungserinnerungen fällig bis JJJJ-MM-TT, älteste zuerst."),
    ] = None
    limit: Annotated[
        StrictInt,
        Field(ge=1, le=ABFRAGE_LIMIT_MAX),
        _describe(f"Höchstzahl gelisteter Einträge (Standard {ABFRAGE_LIMIT_DEFAULT})."),
    ] = ABFRAGE_LIMIT_DEFAULT


@dataclass(frozen=True)
class ParsedBuchung:
    """A booking after validation: the amount exact, the effect's sign still by `art`."""

    entry: Buchung
    betrag: Decimal


ENTRY_MODELS: Final[dict[str, type[_Model]]] = {
    "buchen": Buchung,
    "storno": Storno,
    "bezahlen": Zahlung,
}
_ADAPTERS: Final = {name: TypeAdapter(model) for name, model in ENTRY_MODELS.items()}
_ABFRAGE: Final = TypeAdapter(Abfrage)


@dataclass(frozen=True)
class LedgerBatch:
    aktion: str
    referenzfelder: dict[str, Any]
    entries: list[Any | list[FieldError]]  # Buchung-as-ParsedBuchung / Storno / Zahlung


# --- German errors -------------------------------------------------------------------------


def _field_path(base: str, loc: Sequence[int | str]) -> str:
    path = base
    for part in loc:
        if _is_step(part):
            continue  # pydantic's name of a validator step or union member, not a field
        path = rules.index_path(path, part) if isinstance(part, int) else rules.key_path(path, part)
    return path


def _message(error: Mapping[str, Any], model: type[BaseModel] | None) -> str:
    kind = str(error["type"])
    value = error.get("input")
    ctx: Mapping[str, Any] = error.get("ctx") or {}
    if kind == "missing":
        return messages.REQUIRED
    if kind == "extra_forbidden":
        allowed = list(model.model_fields) if model is not None else []
        return messages.unknown_field(error["loc"][-1], allowed)
    if kind == "value_error":
        return str(ctx.get("error", "Ungültiger Wert."))
    if kind == "string_type":
        return messages.must_be("eine Zeichenkette", value)
    if kind == "bool_type":
        return messages.must_be("true oder false", value)
    if kind == "int_type":
        return messages.must_be("eine Ganzzahl", value)
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return messages.must_be("ein Objekt", value)
    if kind == "string_too_long":
        return messages.too_long(
            int(ctx["max_length"]), len(value) if isinstance(value, str) else None
        )
    if kind == "literal_error":
        allowed = [
            item.strip(" '")
            for item in str(ctx.get("expected", "")).replace(" or ", ",").split(",")
        ]
        return messages.one_of([a for a in allowed if a], value)
    if kind == "greater_than_equal":
        return messages.below_minimum(ctx.get("ge"), value)
    if kind == "less_than_equal":
        return f"Darf höchstens {ctx.get('le')} sein (erhalten: {messages.echo(value)})."
    return f"Ungültiger Wert ({kind})."


def _errors(exc: ValidationError, base: str, model: type[BaseModel] | None) -> list[FieldError]:
    return [
        FieldError(_field_path(base, error["loc"]), _message(error, model))
        for error in exc.errors(include_url=False)
    ]


def _is_step(part: int | str) -> bool:
    return isinstance(part, str) and ("[" in part or "(" in part)


def parse_referenzfelder_value(value: dict[str, Any]) -> dict[str, Any]:
    errors: list[FieldError] = []
    result = scalar_maps.referenzfelder(value, "referenzfelder", errors)
    if errors or result is None:
        raise ValueError(errors[0].meldung if errors else messages.must_be("ein Objekt", value))
    return result


# --- parsing -------------------------------------------------------------------------------


def ledger_scope(arguments: Mapping[str, Any]) -> Scope:
    """abfragen (and anything not yet a valid aktion) needs memory:read; the writing
    actions need memory:write."""
    inhalt = arguments.get("inhalt")
    aktion = inhalt.get("aktion") if isinstance(inhalt, Mapping) else None
    if aktion in ("buchen", "storno", "bezahlen"):
        return Scope.MEMORY_WRITE
    return Scope.MEMORY_READ


def _inhalt(arguments: Mapping[str, Any]) -> tuple[Mapping[str, Any], str, dict[str, Any]]:
    referenzfelder = parse_referenzfelder(arguments)
    errors: list[FieldError] = []
    for key in arguments:
        if key not in ("inhalt", "help", "referenzfelder"):
            errors.append(
                FieldError(key, messages.unknown_field(key, ["inhalt", "help", "referenzfelder"]))
            )
    inhalt = arguments.get("inhalt")
    if "inhalt" not in arguments:
        errors.append(FieldError("inhalt", messages.REQUIRED))
    elif not isinstance(inhalt, Mapping):
        errors.append(FieldError("inhalt", messages.must_be("ein Objekt", inhalt)))
    if errors:
        raise RequestRejected(errors)
    assert isinstance(inhalt, Mapping)
    aktion = inhalt.get("aktion")
    if "aktion" not in inhalt:
        raise RequestRejected([FieldError("inhalt.aktion", messages.REQUIRED)])
    if aktion not in AKTIONEN:
        raise RequestRejected([FieldError("inhalt.aktion", messages.one_of(AKTIONEN, aktion))])
    return inhalt, str(aktion), referenzfelder


def parse_abfrage(arguments: Mapping[str, Any]) -> tuple[Abfrage, dict[str, Any]]:
    inhalt, _, referenzfelder = _inhalt(arguments)
    try:
        query = _ABFRAGE.validate_python(dict(inhalt))
    except ValidationError as exc:
        raise RequestRejected(_errors(exc, "inhalt", Abfrage)) from exc
    if query.von is not None and query.bis is not None and query.bis < query.von:
        raise RequestRejected([FieldError("inhalt.bis", "bis darf nicht vor von liegen.")])
    return query, referenzfelder


def _buchung(value: Buchung, path: str) -> ParsedBuchung | list[FieldError]:
    try:
        amount = parse_betrag(value.betrag, value.waehrung, signed=value.art == "umbuchung")
    except AmountError as exc:
        return [FieldError(rules.key_path(path, "betrag"), str(exc))]
    return ParsedBuchung(value, amount)


def parse_ledger(arguments: Mapping[str, Any]) -> tuple[str, LedgerBatch | None]:
    """(aktion, batch); the batch is None for `abfragen` (use `parse_abfrage`)."""
    inhalt, aktion, referenzfelder = _inhalt(arguments)
    if aktion == "abfragen":
        return aktion, None
    errors: list[FieldError] = []
    for key in inhalt:
        if key not in ("aktion", "eintraege"):
            errors.append(
                FieldError(
                    rules.key_path("inhalt", key),
                    messages.unknown_field(key, ["aktion", "eintraege"]),
                )
            )
    items = rules.Fields(inhalt, "inhalt", errors).required(
        "eintraege", rules.array, min_items=1, max_items=rules.MAX_BATCH
    )
    if errors:
        raise RequestRejected(errors)
    model = ENTRY_MODELS[aktion]
    adapter = _ADAPTERS[aktion]
    entries: list[Any | list[FieldError]] = []
    for index, item in enumerate(rules.present(items)):
        path = rules.index_path("inhalt.eintraege", index)
        try:
            parsed = adapter.validate_python(item)
        except ValidationError as exc:
            entries.append(_errors(exc, path, model))
            continue
        entries.append(_buchung(parsed, path) if isinstance(parsed, Buchung) else parsed)
    return aktion, LedgerBatch(aktion, referenzfelder, entries)


# --- the published schema (MCP inputSchema), derived from the models above ---------------


def _untitled(node: Any) -> Any:
    if isinstance(node, dict):
        return {key: _untitled(value) for key, value in node.items() if key != "title"}
    if isinstance(node, list):
        return [_untitled(value) for value in node]
    return node


def input_schema() -> dict[str, Any]:
    """The tool's input schema, generated from the request models (one place per limit);
    `shared/schemas/ledger.json` is this, checked by a test."""
    entries = [_untitled(TypeAdapter(model).json_schema()) for model in ENTRY_MODELS.values()]
    query = _untitled(TypeAdapter(Abfrage).json_schema())
    query["properties"].pop("aktion")
    inhalt = {
        "type": "object",
        "description": (
            "aktion und ihre Felder: buchen/storno/bezahlen mit eintraege (1-100), "
            "abfragen mit Filtern direkt in inhalt."
        ),
        "properties": {
            "aktion": {"type": "string", "enum": list(AKTIONEN)},
            "eintraege": {
                "type": "array",
                "minItems": 1,
                "maxItems": rules.MAX_BATCH,
                "description": (
                    "buchen: Buchungen; storno: {ID, grund}; bezahlen: {ID, bezahlt_am, notiz}."
                ),
                "items": {"anyOf": entries},
            },
            **query["properties"],
        },
        "required": ["aktion"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {
            "inhalt": inhalt,
            "help": {
                "type": "integer",
                "description": "1 = Aktionsdefinitionen dieses Tools anzeigen, nichts ausführen.",
            },
            "referenzfelder": {
                "type": "object",
                "description": (
                    "Referenzdaten des Aufrufers: unverändert zurück, mit jeder Buchung "
                    "gespeichert."
                ),
            },
        },
        "additionalProperties": False,
    }
