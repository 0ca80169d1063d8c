"""Secret scrubbing applied to every text a tool stores (contract §8).

Policy `redact` replaces each secret by `[ENTFERNT:<art>]` and the entry succeeds with a
`hinweis` naming the kinds; `reject` fails the entry with a security error naming the kinds.
Neither ever repeats the secret.

Fields that cannot hold the marker - identifiers (scope, scope_vk, nutzer, agent,
vk_referenz_id, embedding_profil_hash), object keys (referenzfelder, stammdaten) and paths -
are never redacted: a secret in one refuses the entry (`secret_in_name`), whatever the policy.
Scrubbing checks the request's time budget before each text and between the scrubber's steps
(its rows) within one text (`check_budget`): a long batch or one long text stops with the
German budget error before anything is written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from shared.scrubbing import ScrubPolicy, scan, scrub
from shared.services.budget import check_budget
from shared.services.responses import with_hinweise
from shared.tools.idempotency_fields import KEY_FIELD
from shared.validation.envelope import parse_referenzfelder
from shared.validation.errors import FieldError, RequestRejected


@dataclass(frozen=True)
class Cleaned[T]:
    value: T
    kinds: tuple[str, ...] = ()


def _clean(value: Any, kinds: set[str]) -> Any:
    if isinstance(value, str):
        result = scrub(value, check_budget)
        kinds.update(result.kinds)
        return result.text
    if isinstance(value, list):
        return [_clean(item, kinds) for item in value]
    if isinstance(value, Mapping):
        return {key: _clean(item, kinds) for key, item in value.items()}
    return value


def clean_value[T](value: T) -> Cleaned[T]:
    """Strings, lists of strings and the string values of mappings, scrubbed."""
    kinds: set[str] = set()
    cleaned = _clean(value, kinds)
    return Cleaned(cleaned, tuple(sorted(kinds)))


def clean_fields[T](entry: T, names: Sequence[str]) -> Cleaned[T]:
    """A copy of a (frozen) dataclass with the named fields scrubbed."""
    present = {field.name for field in fields(entry)}  # type: ignore[arg-type]
    kinds: set[str] = set()
    changes = {name: _clean(getattr(entry, name), kinds) for name in names if name in present}
    return Cleaned(replace(entry, **changes), tuple(sorted(kinds)))  # type: ignore[type-var]


def hinweis(kinds: Sequence[str], where: str = "") -> str:
    return (
        f"Geheimnisse {where + ' ' if where else ''}entfernt und durch [ENTFERNT:<art>] ersetzt: "
        + ", ".join(kinds)
        + ". Zugangsdaten gehören nicht ins Gedächtnis."
    )


def with_removed(envelope: dict[str, Any], kinds: Sequence[str]) -> dict[str, Any]:
    """A write's answer when its call-level `referenzfelder` lost secrets (they are stored
    with every entry): each stored entry's `hinweis` names the kinds (contract §8), as a
    scrubbed text's does. Computed from the call as sent, so a replay says the same."""
    if not kinds:
        return envelope
    note = hinweis(kinds, "in referenzfelder")
    daten = envelope.get("daten")
    if not isinstance(daten, list):  # a refused call stored nothing
        return envelope
    hinweise = {r["index"]: note for r in daten if isinstance(r, dict) and "index" in r}
    return {**envelope, "daten": with_hinweise(daten, hinweise)}


def rejection(path: str, kinds: Sequence[str]) -> FieldError:
    return FieldError(
        path,
        "Sicherheitsablehnung: Der Text enthält Geheimnisse (" + ", ".join(kinds) + ") und "
        "wurde nicht gespeichert. Geheimnisse entfernen und erneut senden.",
    )


def secret_in_name(path: str, kinds: Sequence[str]) -> FieldError:
    return FieldError(
        path,
        "Sicherheitsablehnung: Dieses Feld enthält ein Geheimnis (" + ", ".join(kinds) + "). "
        "Kennungen, Schlüssel und Pfade können keinen [ENTFERNT:…]-Platzhalter aufnehmen; "
        "der Eintrag wurde nicht gespeichert. Das Geheimnis entfernen und erneut senden.",
    )


def _name_kinds(value: Any) -> set[str]:
    """Kinds of secrets in an identifier, a list of them, or the keys of a mapping."""
    if isinstance(value, str):
        return set(scan(value, check_budget))
    if isinstance(value, list):
        return {kind for item in value for kind in _name_kinds(item)}
    if isinstance(value, Mapping):
        return {kind for key in value for kind in _name_kinds(str(key))}
    return set()


def name_errors(values: Sequence[tuple[str, Any]]) -> list[FieldError]:
    """One refusal per (field path, identifier/key holder) that contains a secret. For a
    mapping only its keys are checked and the path names the mapping, never the key."""
    errors = []
    for path, value in values:
        kinds = _name_kinds(value)
        if kinds:
            errors.append(secret_in_name(path, sorted(kinds)))
    return errors


@dataclass(frozen=True)
class Screened[T]:
    """An entry after the policy: the value to store and its hinweis, or its errors."""

    value: T | None
    hinweis: str | None = None
    errors: tuple[FieldError, ...] = ()


def screen[T](
    entry: T,
    names: Sequence[str],
    policy: ScrubPolicy,
    path: str,
    identifiers: Sequence[str] = (),
) -> Screened[T]:
    """Scrub the texts `names` by the policy; refuse the entry when one of `identifiers`
    (fields that cannot hold a marker; for mappings: their keys) contains a secret."""
    refused = name_errors([(f"{path}.{name}", getattr(entry, name)) for name in identifiers])
    if refused:
        return Screened(None, errors=tuple(refused))
    cleaned = clean_fields(entry, names)
    if not cleaned.kinds:
        return Screened(entry)
    if policy is ScrubPolicy.REJECT:
        return Screened(None, errors=(rejection(path, cleaned.kinds),))
    return Screened(cleaned.value, hinweis(cleaned.kinds))


@dataclass(frozen=True)
class ScreenedCall:
    """A call's `referenzfelder` as echoed and stored (`echo`), the arguments carrying them
    (`arguments`) and the kinds of secrets removed from them (`kinds`)."""

    echo: dict[str, Any]
    arguments: dict[str, Any]
    kinds: tuple[str, ...] = ()


def screened_call(arguments: Mapping[str, Any]) -> ScreenedCall:
    """The limits first (a 4 KB check costs nothing, scrubbing 4 MB does), then a secret in
    a key refuses the call, secrets in values are redacted (the idempotency key stays)."""
    screened = screen_referenzfelder(parse_referenzfelder(arguments))
    cleaned = dict(arguments)
    if "referenzfelder" in arguments:
        cleaned["referenzfelder"] = screened.value
    return ScreenedCall(screened.value, cleaned, screened.kinds)


def screen_referenzfelder(
    referenzfelder: Mapping[str, Any], path: str = "referenzfelder"
) -> Cleaned[dict[str, Any]]:
    """Caller reference data as every write stores it, and the kinds removed: a key with a
    secret refuses the whole call (RequestRejected; keys cannot hold a marker), secrets in
    values are redacted — except the idempotency key, an opaque identifier left as sent
    (two random keys must never become one marker). The one implementation for tools, REST
    and import."""
    refused = name_errors([(path, referenzfelder)])
    if refused:
        raise RequestRejected(refused)
    others = clean_value({k: v for k, v in referenzfelder.items() if k != KEY_FIELD})
    value = {k: referenzfelder[k] if k == KEY_FIELD else others.value[k] for k in referenzfelder}
    return Cleaned(value, others.kinds)
