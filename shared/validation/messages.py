"""Every German message of request validation, and what of the input they may show.

Messages name the field and the rule and never repeat a refused value (issue 20: refusals
echoed secrets): `echo` describes a value by its type and size only. A key the client sent
is named only when it is a plain field name without a secret in it (`safe_key`), otherwise
by "…". `rules` applies them; nothing else words a validation error.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping, Sequence
from typing import Final

ECHO_MAX: Final = 40

# --- echoing input -------------------------------------------------------------------------


def shorten(text: str) -> str:
    """At most ECHO_MAX characters of `text` (an ellipsis marks the cut)."""
    return text if len(text) <= ECHO_MAX else text[:ECHO_MAX] + "…"


def type_name(value: object) -> str:
    """The JSON type of `value`, in German."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "Wahrheitswert"
    if isinstance(value, int):
        return "Ganzzahl"
    if isinstance(value, float):
        return "Zahl"
    if isinstance(value, str):
        return "Zeichenkette"
    if isinstance(value, Mapping):
        return "Objekt"
    if isinstance(value, list | tuple):
        return "Liste"
    return type(value).__name__


def echo(value: object) -> str:
    """What a message says about a refused input value: its type and size, never the value
    (NaN and the infinities by name: they are the rule's subject, not content)."""
    if isinstance(value, str):
        return f"Zeichenkette mit {len(value)} Zeichen"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return "Zahl"
    if isinstance(value, int):
        return "Ganzzahl"
    return type_name(value)


_PLAIN_KEY: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]{0,39}")
_WORD_KEY: Final = re.compile(r"[A-Za-z_][A-Za-z_.-]{0,39}")  # no digit: no token shape


def safe_key(key: object) -> str:
    """A key for a message or field path: the key itself when it is a plain field name (at
    most 40 characters of letters, digits, `_.-`) that holds no secret, else "…". Names
    without a digit (every field name of the contract) need no scan."""
    text = str(key)
    if _WORD_KEY.fullmatch(text):
        return text
    return _scanned_key(text) if _PLAIN_KEY.fullmatch(text) else "…"


@functools.lru_cache(maxsize=1024)
def _scanned_key(text: str) -> str:
    from shared.scrubbing import scan  # lazy: the pattern table compiles on first use

    return "…" if scan(text) else text


# --- messages (the only place their wording lives) -----------------------------------------

REQUIRED: Final = "Pflichtfeld fehlt."
NOT_BLANK: Final = "Darf nicht leer sein."
NOT_NULL: Final = "Darf nicht null sein: dieses Feld kann geändert, aber nicht entfernt werden."
NOTHING_TO_CHANGE: Final = (
    "Keine Änderung angegeben: neben ID mindestens eines von kurzbeschreibung, memory, tags, "
    "scope, scope_vk, embedding, embedding_profil_hash senden."
)
NOT_FINITE: Final = "Muss eine endliche Zahl sein (NaN und Infinity sind nicht erlaubt)."
DATUM_FORMAT: Final = (
    "Datum muss das Format JJJJ-MM-TT HH:MM:SS haben (Y-m-d H:i:s, Ortszeit), z. B. "
    "2026-11-30 14:05:00, oder ISO 8601 mit Zeitzone, z. B. 2026-11-30T14:05:00+01:00."
)
VK_REFERENZ_OHNE_TYP: Final = (
    "vk_referenz_id erfordert vk_typ (kunde, produkt, mitarbeiter oder projekt)."
)


def must_be(kind: str, value: object) -> str:
    """`kind` with its article: "eine Liste", "ein Objekt", ..."""
    return f"Muss {kind} sein (erhalten: {type_name(value)})."


def help_type(value: object) -> str:
    return (
        f"Muss eine Ganzzahl sein (1 = Aktionsdefinitionen anzeigen; erhalten: {type_name(value)})."
    )


def too_many_items(maximum: int, received: int) -> str:
    return f"Höchstens {maximum} Einträge erlaubt (erhalten: {received})."


def too_few_items(minimum: int) -> str:
    if minimum == 1:
        return "Mindestens 1 Eintrag erforderlich."
    return f"Mindestens {minimum} Einträge erforderlich."


def too_long(maximum: int, received: int | None) -> str:
    got = "mehr" if received is None else str(received)
    return f"Höchstens {maximum} Zeichen erlaubt (erhalten: {got})."


def unknown_field(key: object, allowed: Sequence[str]) -> str:
    return (
        f"Unbekanntes Feld '{safe_key(key)}' ist nicht erlaubt "
        f"(erlaubte Felder: {', '.join(allowed)})."
    )


def pattern_mismatch(pattern: str, value: str) -> str:
    return f"Muss dem Muster {pattern} entsprechen (erhalten: {echo(value)})."


def out_of_range(minimum: object, maximum: object, value: object) -> str:
    return f"Muss zwischen {minimum} und {maximum} liegen."


def below_minimum(minimum: object, value: object) -> str:
    return f"Muss mindestens {minimum} sein."


def float32_range(maximum: float, value: object) -> str:
    return f"Betrag darf höchstens {maximum} sein (Wertebereich float32)."


def one_of(allowed: Sequence[str], value: object) -> str:
    return f"Muss einer der Werte {', '.join(allowed)} sein (erhalten: {echo(value)})."


def unknown_value(allowed: Sequence[str], value: object, position: int | None = None) -> str:
    where = "" if position is None else f" an Position {position + 1} der Liste"
    return f"Unbekannter Wert{where}: {echo(value)} (erlaubt: {', '.join(allowed)})."


def only_value(allowed: str, value: object) -> str:
    return f"Nur '{allowed}' ist erlaubt (erhalten: {echo(value)})."


def datum_format(value: object) -> str:
    return f"{DATUM_FORMAT[:-1]} (erhalten: {echo(value)})."


def datum_invalid(value: str) -> str:
    return f"Kein gültiges Kalenderdatum bzw. keine gültige Uhrzeit (erhalten: {echo(value)})."


def datum_nonexistent(value: str, timezone: str) -> str:
    return (
        f"Diese Ortszeit gibt es in der Zeitzone {timezone} nicht (Umstellung auf Sommerzeit; "
        f"erhalten: {echo(value)})."
    )


def path_namespace(allowed: Sequence[str], value: str) -> str:
    names = ", ".join(f"{name}/<name>/…" for name in allowed)
    return f"Pfad muss mit {names} beginnen (erhalten: {echo(value)})."


def path_segment(segment: str) -> str:
    return (
        "Pfadsegmente bestehen aus a-z, 0-9, '.', '_' und '-'; leere, '.' und '..' sind "
        f"nicht erlaubt (erhalten: {echo(segment)})."
    )


def typ_mismatch(typ: str, memory_id: str) -> str:
    # Both passed their rules (an enum value, an ID of the ID pattern): safe to name.
    return f"typ '{typ}' passt nicht zur memory_ID '{memory_id}'."


def alias_conflict(canonical: str, alias: str) -> str:
    return (
        f"{canonical} und {alias} haben unterschiedliche Werte; nur eines der beiden Felder "
        "angeben (oder in beiden denselben Wert)."
    )


def too_many_keys(maximum: int, received: int) -> str:
    return f"Höchstens {maximum} Schlüssel erlaubt (erhalten: {received})."


def too_many_bytes(maximum: int, received: int | None) -> str:
    got = "mehr" if received is None else str(received)
    return f"Höchstens {maximum} Bytes erlaubt (als JSON in UTF-8; erhalten: {got})."


def scalar_only(value: object) -> str:
    return (
        "Nur einfache Werte erlaubt: Zeichenkette, Zahl, Wahrheitswert oder null "
        f"(erhalten: {type_name(value)})."
    )


def empty_key() -> str:
    return "Schlüssel dürfen nicht leer sein."


def key_too_long(maximum: int, received: int) -> str:
    return f"Schlüssel darf höchstens {maximum} Zeichen lang sein (erhalten: {received})."


def control_character(position: int) -> str:
    return (
        "Steuerzeichen (z. B. NUL) und ungepaarte Surrogate sind nicht erlaubt "
        f"(erstes an Position {position})."
    )


def memory_id_range(maximum: int, value: str) -> str:
    return (
        f"Die Nummer der memory_ID muss zwischen 1 und {maximum} liegen (erhalten: {echo(value)})."
    )


def more_errors(count: int) -> str:
    return f"Weitere {count} ungültige Werte, nicht einzeln aufgeführt."
