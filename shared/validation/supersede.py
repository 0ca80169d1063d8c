"""The `ersetzt` field (issue 25, superseded facts): the memory or memories a write replaces.

One rule, read by every write that takes it (remember, the insert tools'
`referenzfelder.ersetzt`, update entries, REST `POST /api/memory` and the update route) and
by the schemas' descriptions: an ID (`longterm_5`) or a list of 1 to `ERSETZT_MAX_IDS`
distinct IDs. Refusals name the field and the rule and never repeat the refused value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from shared.domain import MemoryId
from shared.validation.errors import FieldError

ERSETZT_FIELD: Final = "ersetzt"
ERSETZT_MAX_IDS: Final = 10
VERLAUF_FIELD: Final = "verlauf"

ERSETZT_RULE: Final = (
    "eine Erinnerungs-ID (shortterm_<n> oder longterm_<n>) oder eine Liste von 1 bis "
    f"{ERSETZT_MAX_IDS} solchen IDs (in referenzfelder: durch Kommas getrennt)"
)
ERSETZT_DESCRIPTION: Final = (
    "Optional: ID (oder Liste von bis zu "
    f"{ERSETZT_MAX_IDS} IDs) der Erinnerung(en), die diese ersetzt. Die ersetzte erhaelt "
    "gueltig_bis und ersetzt_durch, verschwindet aus der Standardsuche und bleibt per ID "
    "und mit verlauf=true lesbar. Nur erlaubt, wenn der Aufrufer beide schreiben darf."
)
BATCH_RULE: Final = (
    "ungültig: {feld}: referenzfelder.ersetzt gilt für einen Aufruf mit genau einem Eintrag; "
    "in einem Batch referenzfelder.ersetzt.<index> je Eintrag (Index ab 0, kleiner als die "
    "Zahl der Einträge), jeweils eine ID oder mehrere durch Kommas getrennt."
)
# The insert tools' seed schemas cannot carry `ersetzt`: their descriptions say where it goes.
INSERT_ERSETZT_NOTE: Final = (
    " Optional ersetzt der Eintrag aeltere Erinnerungen: referenzfelder.ersetzt = ID (mehrere "
    "durch Kommas getrennt) bei einem Eintrag, referenzfelder.ersetzt.<index> je Eintrag im "
    "Batch; die ersetzten erhalten gueltig_bis und ersetzt_durch und erscheinen nur noch per "
    "ID und mit verlauf=true."
)
UPDATE_ERSETZT_NOTE: Final = (
    " Optional je Eintrag ersetzt (ID oder Liste): diese Erinnerung ersetzt die genannten "
    "(gueltig_bis, ersetzt_durch; aus der Standardsuche, per ID und mit verlauf=true lesbar)."
)
VERLAUF_DESCRIPTION: Final = (
    "Optional, Standard false: true findet auch ersetzte Erinnerungen (mit gueltig_bis "
    "und ersetzt_durch), fuer Fragen nach frueheren Staenden."
)


def ersetzt_ids(value: Any, path: str, errors: list[FieldError]) -> list[MemoryId] | None:
    """The IDs an `ersetzt` value names, in request order without repeats; None (and an
    error naming `path`) when it breaks the rule."""
    raw = [value] if isinstance(value, str) else value
    if not isinstance(raw, list) or not raw or not all(isinstance(item, str) for item in raw):
        errors.append(FieldError(path, f"ungültig: {path} muss {ERSETZT_RULE} sein."))
        return None
    if len(raw) > ERSETZT_MAX_IDS:
        errors.append(
            FieldError(
                path,
                f"ungültig: {path} nennt {len(raw)} IDs, höchstens {ERSETZT_MAX_IDS} sind erlaubt.",
            )
        )
        return None
    ids = [MemoryId.parse(item) for item in raw]
    if any(memory_id is None for memory_id in ids):
        errors.append(
            FieldError(
                path,
                f"ungültig: jede ID in {path} hat die Form shortterm_<n> oder longterm_<n> "
                "(n ab 1).",
            )
        )
        return None
    return list(dict.fromkeys(memory_id for memory_id in ids if memory_id is not None))


def is_ersetzt_key(key: str) -> bool:
    """`ersetzt` or `ersetzt.<index>`: the insert tools' instruction keys in referenzfelder
    (never stored as provenance)."""
    return key == ERSETZT_FIELD or key.startswith(ERSETZT_FIELD + ".")


def batch_ersetzt(
    referenzfelder: Mapping[str, Any], count: int, errors: list[FieldError]
) -> dict[int, tuple[str, list[MemoryId]]]:
    """The insert tools' `referenzfelder.ersetzt` (their seed schema admits no entry field,
    referenzfelder only scalar values): `ersetzt` for a call of one entry, `ersetzt.<index>`
    per entry of a batch; each a string of one ID or IDs separated by commas. Per entry
    index: the field that named them and the IDs."""
    wanted: dict[int, tuple[str, list[MemoryId]]] = {}
    for key, value in referenzfelder.items():
        if not is_ersetzt_key(key):
            continue
        feld = f"referenzfelder.{key}"
        suffix = key[len(ERSETZT_FIELD) + 1 :]
        index = 0 if key == ERSETZT_FIELD else int(suffix) if suffix.isdigit() else -1
        if (key == ERSETZT_FIELD and count != 1) or not 0 <= index < count:
            errors.append(FieldError(feld, BATCH_RULE.format(feld=feld)))
            continue
        if not isinstance(value, str):
            errors.append(FieldError(feld, f"ungültig: {feld} muss {ERSETZT_RULE} sein."))
            continue
        ids = ersetzt_ids([part.strip() for part in value.split(",")], feld, errors)
        if ids is not None:
            wanted[index] = (feld, ids)
    return wanted


def history_flag(value: Any, path: str, errors: list[FieldError]) -> bool | None:
    """`verlauf`: true or false."""
    if not isinstance(value, bool):
        errors.append(FieldError(path, f"ungültig: {path} muss true oder false sein."))
        return None
    return value
