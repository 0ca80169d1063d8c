"""Every tool of the contract: name, scope, description, published schema, example, handler.

The one source of tool metadata for every transport. Importing it loads no service: each
handler imports its service and request parser when first called, so a tool's Lambda
function loads only its own tool's code (the schemas load on demand too).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from shared.auth.principal import Scope
from shared.domain import MemoryType
from shared.schemas import load_schema
from shared.tools import handlers
from shared.tools.handlers import Handler, Preparer
from shared.validation.supersede import INSERT_ERSETZT_NOTE, UPDATE_ERSETZT_NOTE


@dataclass(frozen=True)
class ToolSpec:
    name: str
    title: str
    scope: Scope
    description: str
    example: dict[str, Any]
    handler: Handler
    read_only: bool
    destructive: bool = False
    # A tool with read and write actions: the scope a given call needs (default `scope`).
    scope_of: Callable[[Mapping[str, Any]], Scope] | None = None

    def needed_scope(self, arguments: Mapping[str, Any]) -> Scope:
        """The scope this call needs; read by the dispatcher and the HTTP middleware."""
        return self.scope if self.scope_of is None else self.scope_of(arguments)

    # Retry-safe write (CONTRACT §3): the write's first phase (validation and the token's
    # authorization, services/writes.py); `dispatch.call_tool` runs the retry layer
    # (tools/retry.py) between it and the storage, so an identical call within the window
    # returns the first answer and writes nothing. Every tool that writes sets it.
    prepare: Preparer | None = None
    # A tool with read and write actions: whether a given call runs through the records
    # (its writing actions; a read is safe to resend as it is). Default: every call.
    idempotent_of: Callable[[Mapping[str, Any]], bool] | None = None

    @property
    def idempotent(self) -> bool:
        return self.prepare is not None

    def runs_once(self, arguments: Mapping[str, Any]) -> bool:
        """Whether this call runs through the idempotency records; read by the dispatcher."""
        if not self.idempotent:
            return False
        return self.idempotent_of is None or self.idempotent_of(arguments)

    @property
    def input_schema(self) -> dict[str, Any]:
        return load_schema(self.name)

    @property
    def published_description(self) -> str:
        """The description with every limit the validator enforces (`shared.tools.limits`)."""
        from shared.tools.limits import describe  # the validators: not on a tool's cold path

        return describe(self.name, self.description)


# The hybrid-search rule of the search tools, stated once (hybrid.py implements it).
HYBRID = (
    "Hybridsuche: optional embedding (eigener Suchvektor) mit embedding_profil_hash; "
    "Erinnerungen mit Embeddings desselben Profils und derselben Dimension werden nach "
    "Kosinus-Aehnlichkeit gerankt und mit der Wortsuche per Reciprocal Rank Fusion "
    "verbunden (treffer_durch: woerter, vektor); ein anderes Profil oder eine andere "
    "Dimension ist ein Fehler. Hat der Server einen Embedder, bettet er Anfragen ohne "
    "Vektor selbst ein."
)

_MEMORY_EXAMPLE = {
    "kurzbeschreibung": "Kunde bevorzugt Rückruf am Vormittag",
    "memory": "Die Firma Beispiel GmbH (K-1001) möchte Rückrufe nur zwischen 9 und 12 Uhr.",
    "tags": ["kunde", "kommunikation"],
    "scope": "kunde",
    "scope_vk": "K-1001",
    "agent": "support-agent",
    "nutzer": 42,
}

TOOLS: dict[str, ToolSpec] = {
    spec.name: spec
    for spec in (
        ToolSpec(
            name="fetch_brain_memories",
            title="FETCH: Erinnerungen SYSTEM",
            scope=Scope.MEMORY_READ,
            description=(
                "Laedt Inhalte nach Typ und IDs. Eingabe unter inhalt: "
                '{"memories":{"shortterm":["shortterm_1","shortterm_2"],'
                '"longterm":["longterm_3"]}}. Ausgabe daten.shortterm und daten.longterm '
                "enthalten jeweils ID, kurzbeschreibung, memory (dazu tags, scope, scope_vk, "
                "score_avg, score_count, last_call). "
                "Nicht gefundene IDs stehen unter nicht_gefunden. Maximal 100 IDs pro Typ."
            ),
            example={
                "inhalt": {
                    "memories": {"shortterm": ["shortterm_1"], "longterm": ["longterm_3"]},
                    "nutzer": 42,
                    "agent": "support-agent",
                },
                "referenzfelder": {"ticket": "T-7"},
            },
            handler=handlers.fetch,
            read_only=True,
        ),
        ToolSpec(
            name="insert_brain_longterm_memory",
            title="Langzeiterinnerungen INSERT",
            scope=Scope.MEMORY_WRITE,
            description=(
                "Erstellt ausschliesslich Langzeiterinnerungen mit scope, scope_vk, agent, nutzer, "
                "kurzbeschreibung, memory und tags. Tags sind Namen und werden bei Bedarf "
                "angelegt. embedding und der Profil-Hash sind optional. Eingabe unter inhalt: "
                '{"memories":[{...}]}. Auch einzelne Erinnerungen als Liste mit einem Element '
                "senden. Maximal 100 Eintraege. Ergebnis daten enthaelt index, typ, erfolg und "
                "bei Erfolg ID je Eintrag. Eintraege werden einzeln verarbeitet; erfolgreiche "
                "Eintraege bleiben bei Fehlern anderer Eintraege gespeichert. Fehlgeschlagene "
                "Eintraege gezielt wiederholen." + INSERT_ERSETZT_NOTE
            ),
            example={
                "inhalt": {"memories": [_MEMORY_EXAMPLE], "nutzer": 42, "agent": "support-agent"}
            },
            handler=handlers.plain(handlers.insert(MemoryType.LONGTERM)),
            read_only=False,
            prepare=handlers.insert(MemoryType.LONGTERM),
        ),
        ToolSpec(
            name="insert_brain_shortterm_memory",
            title="Kurzzeiterinnerungen INSERT",
            scope=Scope.MEMORY_WRITE,
            description=(
                "Erstellt Kurzzeiterinnerungen; Felder und Ergebnis wie "
                "insert_brain_longterm_memory (typ shortterm), dazu optional je Eintrag "
                "ttl_sekunden (Standard 7 Tage, hoechstens 365 Tage). Kurzzeiterinnerungen laufen "
                "ab und werden danach wie nicht vorhanden behandelt. Maximal 100 Eintraege; "
                "Eintraege werden einzeln verarbeitet. Ein Beinahe-Duplikat einer Erinnerung "
                "desselben Bereichs wird (wie bei Langzeiterinnerungen) nicht erneut gespeichert: "
                "ID und duplikat_von nennen die bestehende; referenzfelder.duplikat_erlaubt=true "
                "speichert trotzdem." + INSERT_ERSETZT_NOTE
            ),
            example={
                "inhalt": {
                    "memories": [{**_MEMORY_EXAMPLE, "ttl_sekunden": 86400}],
                    "nutzer": 42,
                    "agent": "support-agent",
                }
            },
            handler=handlers.plain(handlers.insert(MemoryType.SHORTTERM)),
            read_only=False,
            prepare=handlers.insert(MemoryType.SHORTTERM),
        ),
        ToolSpec(
            name="rate_brain_memories",
            title="RATE: Erinnerungen SYSTEM",
            scope=Scope.MEMORY_WRITE,
            description=(
                "Bewertet eine oder mehrere Erinnerungen. Eingabe unter inhalt: "
                '{"memories":[{"typ":"shortterm","parameter":{"memory_ID":"shortterm_123",'
                '"agent":23,"score":8}},{"typ":"longterm","parameter":{"memory_ID":"longterm_45",'
                '"agent":23,"score":7}}]}. shortterm und longterm duerfen gemischt werden. Pro '
                "Bewertung werden score2memory, last_call und der durchschnittliche Memory-Score "
                "aktualisiert. datum ist optional (Y-m-d H:i:s Ortszeit oder ISO 8601 mit "
                "Zeitzone). Maximal 100 Eintraege. Rueckgabe: "
                "erfolg und daten mit index, typ, memory_ID, erfolg und insert_ID je Eintrag. "
                "Eintraege werden einzeln verarbeitet; erfolgreiche Bewertungen bleiben bei "
                "Fehlern anderer Eintraege gespeichert. Fehlgeschlagene Eintraege gezielt "
                "wiederholen."
            ),
            example={
                "inhalt": {
                    "memories": [
                        {
                            "typ": "longterm",
                            "parameter": {"memory_ID": "longterm_45", "agent": 23, "score": 7},
                        }
                    ],
                    "nutzer": 42,
                    "agent": 23,
                }
            },
            handler=handlers.plain(handlers.rate),
            read_only=False,
            prepare=handlers.rate,
        ),
        ToolSpec(
            name="select_brain",
            title="Brain: Kontextwissen durchsuchen SELECT",
            scope=Scope.BRAIN_READ,
            description=(
                "Durchsucht das Brain: Kontextwissen zu Kunden, Produkten, Mitarbeitern und "
                "Projekten (vk_typ kunde | produkt | mitarbeiter | projekt, vk_referenz_id). "
                "Filter werden UND-verknuepft: ID (Liste), vk_typ + vk_referenz_id, query "
                "(Volltext ueber Titel und Inhalt, Deutsch und Englisch, nach Relevanz sortiert). "
                "detailgrad kommagetrennt: stammdaten (Standard), texte, erinnerungen. "
                "limit Standard 20, hoechstens 100. Ergebnis: daten.treffer."
            ),
            example={
                "agent": "support-agent",
                "nutzer": 42,
                "detailgrad": "stammdaten,texte,erinnerungen",
                "query": "Rückruf Vormittag",
                "suchtyp": "brain",
                "vk_typ": "kunde",
                "vk_referenz_id": "K-1001",
            },
            handler=handlers.select,
            read_only=True,
        ),
        ToolSpec(
            name="upsert_brain",
            title="Brain: Kontextwissen anlegen oder aendern UPSERT",
            scope=Scope.BRAIN_WRITE,
            description=(
                "Legt Brain-Eintraege an oder aendert sie (mit ID). Eingabe unter inhalt: "
                '{"eintraege":[{"titel":...,"inhalt":...,"vk_typ":"kunde","vk_referenz_id":'
                '"K-1001","tags":[...],"stammdaten":{...}}]}. Maximal 100 Eintraege; Ergebnis '
                "daten mit index, erfolg und ID je Eintrag. Eintraege werden einzeln verarbeitet."
            ),
            example={
                "inhalt": {
                    "eintraege": [
                        {
                            "titel": "Beispiel GmbH",
                            "inhalt": "Maschinenbauer, Ansprechpartnerin Frau Roth.",
                            "vk_typ": "kunde",
                            "vk_referenz_id": "K-1001",
                            "tags": ["kunde"],
                            "stammdaten": {"ort": "Stuttgart", "mitarbeitende": 250},
                        }
                    ],
                    "nutzer": 42,
                    "agent": "support-agent",
                }
            },
            handler=handlers.plain(handlers.upsert),
            read_only=False,
            prepare=handlers.upsert,
        ),
        ToolSpec(
            name="update_brain_memories",
            title="Erinnerungen UPDATE",
            scope=Scope.MEMORY_WRITE,
            description=(
                'Aendert Erinnerungen. Eingabe unter inhalt: {"memories":[{"ID":'
                '"longterm_3","memory":"..."}]}. Weggelassene Felder bleiben '
                "unveraendert, null entfernt den Wert (tags, scope, scope_vk, embedding, "
                "embedding_profil_hash); kurzbeschreibung und memory koennen nur geaendert "
                "werden. Maximal 100 Eintraege; Ergebnis daten mit index, ID und erfolg je "
                "Eintrag, bei Erfolg bereich, pfad und handelnd_als (der nutzer des Aufrufs). "
                "Bewertungen bleiben erhalten." + UPDATE_ERSETZT_NOTE
            ),
            example={
                "inhalt": {
                    "memories": [
                        {"ID": "longterm_3", "memory": "Rueckrufe jetzt 8-11 Uhr.", "tags": None}
                    ],
                    "nutzer": 42,
                    "agent": "support-agent",
                }
            },
            handler=handlers.plain(handlers.update),
            read_only=False,
            prepare=handlers.update,
        ),
        ToolSpec(
            name="delete_brain_memories",
            title="Erinnerungen DELETE",
            scope=Scope.MEMORY_WRITE,
            description=(
                "Vergisst Erinnerungen samt Bewertungen und Embedding. Eingabe wie fetch: "
                '{"memories":{"shortterm":[...],"longterm":[...]}}, maximal 100 IDs pro Typ. '
                "Ergebnis: daten.geloescht, daten.nicht_gefunden, daten.orte (ID, bereich, "
                "pfad je geloeschter Erinnerung), daten.handelnd_als und daten.entfernt "
                "(was mit jeder entfernt wurde: erinnerung, bewertungen, vektor, suchindex)."
            ),
            example={
                "inhalt": {
                    "memories": {"longterm": ["longterm_3"]},
                    "nutzer": 42,
                    "agent": "support-agent",
                }
            },
            handler=handlers.plain(handlers.delete),
            read_only=False,
            prepare=handlers.delete,
            destructive=True,
        ),
        ToolSpec(
            name="remember",
            title="remember",
            scope=Scope.MEMORY_WRITE,
            description=(
                "Dauerhafte Informationen speichern, die ein autorisierter Agent spaeter "
                "wieder abrufen kann: content (sachlich, ohne Geheimnisse) und path "
                "(projects/<projekt>/..., teams/<team>/..., users/<nutzer>/...). "
                "Schreiben nur in den eigenen Bereich, in Teams des Tokens und in Projekte, "
                "deren Mitglied der Nutzer ist. create_project=true legt ein fehlendes Projekt "
                "an (Aufrufer wird Eigentuemer; nicht in den Plugin-Profilen chatgpt/claude). "
                "Verfasser, Konto und Geraet kommen aus dem Token. Sagt eine Erinnerung des "
                "Bereichs schon dasselbe, wird nicht erneut gespeichert (daten.duplikat_von "
                "nennt sie; duplikat_erlaubt=true speichert trotzdem). Danach per search_memory "
                "zuruecklesen."
            ),
            example={
                "content": "Use OAuth for hosted ChatGPT connections.",
                "path": "projects/memory-os/decisions",
                "create_project": True,
            },
            handler=handlers.plain(handlers.remember),
            read_only=False,
            prepare=handlers.remember,
        ),
        ToolSpec(
            name="search_memory",
            title="search_memory",
            scope=Scope.MEMORY_READ,
            description=(
                "Sucht Erinnerungen (beide Familien, Deutsch und Englisch), die der Aufrufer "
                "sehen darf, nach Relevanz sortiert. query, limit (Standard 10, hoechstens 50), "
                "path (optional: nur Bereiche unter diesem Praefix, z. B. projects/memory-os). "
                f"{HYBRID} Jeder Treffer nennt pfad, bereich und treffer_durch."
            ),
            example={"query": "OAuth for hosted ChatGPT connections", "limit": 3},
            handler=handlers.search,
            read_only=True,
        ),
        ToolSpec(
            name="recall",
            title="recall",
            scope=Scope.MEMORY_READ,
            description=(
                "Einige relevante Erinnerungen in Kurzform (ID, kurzbeschreibung, Auszug). "
                "query, limit (Standard 5, hoechstens 20), path (optionales Bereichs-Praefix). "
                f"{HYBRID}"
            ),
            example={"query": "Rueckrufzeiten Beispiel GmbH"},
            handler=handlers.recall,
            read_only=True,
        ),
        ToolSpec(
            name="recall_context",
            title="recall_context",
            scope=Scope.MEMORY_READ,
            description=(
                "Strukturiertes Kontextpaket vor einer komplexen Aufgabe: relevante "
                "Langzeiterinnerungen, aktuelle Kurzzeiterinnerungen und die Brain-Eintraege, "
                "auf die sie verweisen. task, limit (Standard 10, hoechstens 50), path "
                f"(optionales Bereichs-Praefix). {HYBRID}"
            ),
            example={"task": "Angebot fuer Beispiel GmbH vorbereiten", "limit": 5},
            handler=handlers.context,
            read_only=True,
        ),
        ToolSpec(
            name="ledger",
            title="ledger: Hauptbuch fuer Ausgaben, Einnahmen und Zahlungserinnerungen",
            # abfragen needs memory:read; buchen, storno and bezahlen need memory:write.
            scope=Scope.MEMORY_READ,
            scope_of=handlers.ledger_scope,
            description=(
                "Strukturiertes, unveraenderliches Hauptbuch statt Speichertext fuer Ausgaben, "
                "Finanztransaktionen und Zahlungserinnerungen. inhalt.aktion: "
                "buchen (eintraege 1-100: art ausgabe|einnahme|umbuchung, betrag als "
                'Dezimal-Zeichenkette wie "49.90", waehrung ISO 4217, datum JJJJ-MM-TT, '
                "gegenpartei, kategorie, beschreibung, path (und create_project) wie bei "
                "remember, optional "
                "faellig_am und status offen|bezahlt, iban, referenzfelder), storno "
                "(eintraege [{ID, grund}]: kehrt eine Buchung um, nichts wird ueberschrieben), "
                "bezahlen (eintraege [{ID, bezahlt_am}]: markiert eine Erinnerung als bezahlt, "
                "mit wem und wann), abfragen (Filter path, von, bis, kategorie, gegenpartei, "
                "status, waehrung, art; exakte Summen je Waehrung und je Kategorie/Monat; "
                "faellig_bis listet offene Erinnerungen, aelteste zuerst). Betraege in "
                "Antworten sind exakte Dezimal-Zeichenketten. Ergebnis je Eintrag: index, "
                "erfolg, ID. Verfasser, Agent, Konto und Geraet kommen aus dem Token."
            ),
            example={
                "inhalt": {
                    "aktion": "buchen",
                    "eintraege": [
                        {
                            "art": "ausgabe",
                            "betrag": "49.90",
                            "waehrung": "EUR",
                            "datum": "2026-11-28",
                            "gegenpartei": "Hetzner Online GmbH",
                            "kategorie": "infrastruktur",
                            "beschreibung": "Server November",
                            "path": "projects/memory-os/kosten",
                            "create_project": True,
                            "faellig_am": "2026-12-05",
                            "status": "offen",
                        }
                    ],
                },
                "referenzfelder": {"beleg": "RE-2026-1107"},
            },
            handler=handlers.ledger,
            read_only=False,
            prepare=handlers.ledger_write,
            idempotent_of=handlers.ledger_writes,
        ),
    )
}
