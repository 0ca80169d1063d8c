"""The documented shapes of `/api/memory` (OpenAPI 3.1 from these pydantic models).

Limits are the shared constants the MCP tools validate with; request bodies are validated
by the shared field rules (German messages), these models describe them. Responses are
checked against them on the way out.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import SkipJsonSchema

from shared.domain import MEMORY_ID_PATTERN
from shared.services.memory_api import (
    QUELLE_REFERENZ_MAX_LEN,
    QUELLE_SYSTEM_MAX_LEN,
    Bucket,
    QuelleArt,
)
from shared.validation import rules
from shared.validation.memory_requests import PATH_MAX_LEN
from shared.validation.requests import (
    KURZBESCHREIBUNG_MAX_LEN,
    MEMORY_MAX_LEN,
    PROFIL_HASH_MAX_LEN,
)
from shared.validation.supersede import ERSETZT_DESCRIPTION, ERSETZT_MAX_IDS

PATH_PATTERN = r"^(users|teams|projects)/[a-z0-9._-]+(/[a-z0-9._-]+)*$"
Identity = str | int
Scalar = str | int | float | bool | None
MemoryIdText = Annotated[str, Field(pattern=MEMORY_ID_PATTERN)]
Ersetzt = (
    MemoryIdText | Annotated[list[MemoryIdText], Field(min_length=1, max_length=ERSETZT_MAX_IDS)]
)


class Quelle(BaseModel):
    """Herkunft: Quellsystem, Art und Referenz (Konversation, Dokument). Provenance."""

    model_config = ConfigDict(extra="forbid")

    system: str = Field(
        max_length=QUELLE_SYSTEM_MAX_LEN,
        description="Quellsystem, z. B. crm, slack, mail; source system.",
        examples=["crm"],
    )
    art: QuelleArt | None = Field(default=None, description="Art der Quelle; kind of source.")
    referenz: str | None = Field(
        default=None,
        max_length=QUELLE_REFERENZ_MAX_LEN,
        description="Konversations- oder Dokumentreferenz; conversation or document reference.",
        examples=["ticket-4711"],
    )


class MemoryCreate(BaseModel):
    """Eine neue Erinnerung (Felder wie insert_brain_*_memory plus bucket, pfad, quelle; oder
    mit den Namen von remember: content, path, create_project). Genau eines von memory und
    content; kurzbeschreibung fehlt = aus dem Text abgeleitet (wie bei remember)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "oneOf": [{"required": ["memory"]}, {"required": ["content"]}],
            "not": {"required": ["pfad", "path"]},
        },
    )

    kurzbeschreibung: str | SkipJsonSchema[None] = Field(
        default=None,
        min_length=1,
        max_length=KURZBESCHREIBUNG_MAX_LEN,
        description=(
            "Kurze Zusammenfassung; fehlt sie, die erste Zeile des Textes (wie remember). "
            "Short summary; derived from the text when absent."
        ),
    )
    memory: str | SkipJsonSchema[None] = Field(
        default=None,
        min_length=1,
        max_length=MEMORY_MAX_LEN,
        description="Der Inhalt; the memory text.",
    )
    content: str | SkipJsonSchema[None] = Field(
        default=None,
        min_length=1,
        max_length=MEMORY_MAX_LEN,
        description="Wie memory (der Name aus remember); same as memory (remember's name).",
    )
    tags: list[str] = Field(
        default_factory=list,
        max_length=rules.TAGS_MAX_ITEMS,
        description=f"Tag-Namen (je höchstens {rules.TAG_MAX_LEN} Zeichen); tag names.",
    )
    scope: Identity = Field(default="", description="z. B. kunde, produkt, projekt.")
    scope_vk: Identity = Field(default="", description="Referenz-ID zum scope; reference ID.")
    agent: Identity | None = Field(
        default=None, description="Agent; Standard: der einzige Agent des Tokens."
    )
    bucket: Bucket = Field(
        default=Bucket.LANGZEIT,
        description="langzeit (dauerhaft) oder kurzzeit (läuft nach ttl_sekunden ab).",
    )
    ttl_sekunden: int | None = Field(
        default=None,
        ge=1,
        le=365 * 24 * 3600,
        description="Nur bucket kurzzeit: Lebensdauer in Sekunden (Standard 7 Tage).",
    )
    pfad: str | None = Field(
        default=None,
        max_length=PATH_MAX_LEN,
        pattern=PATH_PATTERN,
        description=(
            "Bereich und Pfad: users/<nutzer>/…, teams/<team>/…, projects/<projekt>/…; "
            "Standard users/<nutzer>. Team- und Projektbereiche brauchen Mitgliedschaft."
        ),
    )
    path: str | SkipJsonSchema[None] = Field(
        default=None,
        max_length=PATH_MAX_LEN,
        pattern=PATH_PATTERN,
        description="Wie pfad (der Name aus remember); same as pfad (remember's name).",
    )
    create_project: bool = Field(
        default=False,
        description=(
            "Ein fehlendes Projekt des Pfads anlegen (der Aufrufer wird Eigentümer), wie bei "
            "remember; creates a missing project with the caller as its owner."
        ),
    )
    quelle: Quelle | None = Field(default=None, description="Herkunft; provenance.")
    duplikat_erlaubt: bool = Field(
        default=False,
        description=(
            "true: auch speichern, wenn eine Erinnerung des Bereichs dasselbe sagt "
            "(sonst nicht erneut gespeichert, `duplikat_von`); store even a near-duplicate."
        ),
    )
    referenzfelder: dict[str, Scalar] | None = Field(
        default=None,
        max_length=rules.REFERENZFELDER_MAX_KEYS,
        description="Eigene Referenzdaten (skalare Werte, höchstens 4 KB); caller reference data.",
    )
    embedding: list[float] | None = Field(
        default=None,
        min_length=1,
        max_length=rules.EMBEDDING_MAX_DIM,
        description="Optionaler Embedding-Vektor; optional embedding vector.",
    )
    embedding_profil_hash: str | None = Field(
        default=None,
        max_length=PROFIL_HASH_MAX_LEN,
        description="Profil-Hash des Embedding-Modells; embedding model profile hash.",
    )
    ersetzt: Ersetzt | SkipJsonSchema[None] = Field(default=None, description=ERSETZT_DESCRIPTION)


class MemoryPatch(BaseModel):
    """JSON Merge Patch (RFC 7396) wie update_brain_memories: fehlt = unverändert,
    null = entfernt (tags, scope, scope_vk, embedding, embedding_profil_hash);
    kurzbeschreibung und memory lassen sich ändern, nicht entfernen."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"minProperties": 1})

    # Optional but not nullable: None only marks "not given" and is left out of the schema.
    kurzbeschreibung: str | SkipJsonSchema[None] = Field(
        default=None, min_length=1, max_length=KURZBESCHREIBUNG_MAX_LEN
    )
    memory: str | SkipJsonSchema[None] = Field(
        default=None, min_length=1, max_length=MEMORY_MAX_LEN
    )
    tags: list[str] | None = Field(default=None, max_length=rules.TAGS_MAX_ITEMS)
    scope: Identity | None = None
    scope_vk: Identity | None = None
    embedding: list[float] | None = Field(
        default=None, min_length=1, max_length=rules.EMBEDDING_MAX_DIM
    )
    embedding_profil_hash: str | None = Field(default=None, max_length=PROFIL_HASH_MAX_LEN)
    ersetzt: Ersetzt | SkipJsonSchema[None] = Field(default=None, description=ERSETZT_DESCRIPTION)


class QuelleOut(BaseModel):
    system: str
    art: str | None
    referenz: str | None


class MemoryOut(BaseModel):
    """Eine Erinnerung; Zeiten ISO 8601 mit Offset (2026-12-01T11:03:23+01:00)."""

    ID: str = Field(pattern=MEMORY_ID_PATTERN, examples=["longterm_17"])
    bucket: Literal["kurzzeit", "langzeit"]
    kurzbeschreibung: str
    memory: str
    tags: list[str]
    scope: str
    scope_vk: str
    bereich: str = Field(description="users/<nutzer>, teams/<team> oder projects/<projekt>.")
    pfad: str
    quelle: QuelleOut | None
    nutzer: str
    agent: str
    konto: str | None
    geraet: str | None
    score_avg: float | None
    score_count: int
    last_call: str | None
    erstellt: str
    geaendert: str | None
    ablauf: str | None
    embedding_dim: int | None
    embedding_profil_hash: str | None
    referenzfelder: dict[str, Any]
    hinweis: str | None = Field(
        default=None, description="Gesetzt, wenn Geheimnisse entfernt wurden."
    )
    duplikat_von: str | None = Field(
        default=None,
        description=(
            "Gesetzt, wenn der Bereich dasselbe schon hielt: diese (bestehende) Erinnerung "
            "hat Tags und Herkunft übernommen, nichts neu gespeichert; the existing memory."
        ),
    )
    gueltig_bis: str | None = Field(
        default=None,
        description="Ersetzt seit (ISO 8601 mit Offset); null, solange die Erinnerung gilt.",
    )
    ersetzt_durch: str | None = Field(
        default=None, description="Die Erinnerung, die diese ersetzt hat (issue 25)."
    )
    ersetzt: list[str] | None = Field(
        default=None, description="Schreibantwort: die Erinnerungen, die diese ersetzt."
    )
    ersetzt_fehler: dict[str, str] | None = Field(
        default=None, description="Schreibantwort: warum das Ersetzen nicht gelang."
    )


ACTING_AS = "Der nutzer, als der der Aufruf handelte (?nutzer, sonst der des Tokens)."


class MemoryChanged(MemoryOut):
    """Die geänderte Erinnerung und als wen der Aufruf handelte; the changed memory."""

    handelnd_als: str = Field(description=ACTING_AS)


class MemoryDeleted(BaseModel):
    """Wo die gelöschte Erinnerung lag; where the forgotten memory was."""

    ID: str = Field(pattern=MEMORY_ID_PATTERN, examples=["longterm_17"])
    geloescht: Literal[True]
    bereich: str | None = Field(description="Ihr Bereich (null nur nach einem Absturz-Resend).")
    pfad: str | None
    handelnd_als: str = Field(description=ACTING_AS)
    entfernt: list[str] = Field(
        description="Was mit ihr entfernt wurde: die Erinnerung, ihre Bewertungen, ihr Vektor "
        "und ihre Suchindex-Einträge.",
        examples=[["erinnerung", "bewertungen", "vektor", "suchindex"]],
    )


class MemoryPage(BaseModel):
    """Eine Seite der Liste, neueste zuerst; newest first."""

    eintraege: list[MemoryOut]
    anzahl: int = Field(description="Einträge auf dieser Seite.")
    naechster_cursor: str | None = Field(
        description="Opaker Cursor der nächsten Seite; null am Ende. Opaque next-page cursor."
    )
