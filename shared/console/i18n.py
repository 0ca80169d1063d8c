"""The console's words: German first (the text in the templates is the German text and the
key), English by this catalog. `tests/unit/test_console_i18n.py` checks that every text the
templates and pages use has its English entry. Messages of the REST API (field errors)
stay as the API words them: German."""

from __future__ import annotations

from typing import Any, Final

EN: Final[dict[str, str]] = {
    "(aus dem Token)": "(from the token)",
    "API-Dokumentation": "API documentation",
    "Abbrechen": "Cancel",
    "Abmelden": "Sign out",
    "Agent": "Agent",
    "Alle Projekte": "All projects",
    "Alle Teams": "All teams",
    "Alles, was diese Filter treffen, löschen …": "Delete everything these filters match …",
    "Angelegt": "Created",
    "Angemeldet als": "Signed in as",
    "Anmelden": "Sign in",
    "Anzahl": "Count",
    "Anzeigen": "Show",
    "Art": "Kind",
    "Ausgaben": "Expenses",
    "Bearbeiten": "Edit",
    "Bearer-Token": "Bearer token",
    "Bereich": "Area",
    "Beschreibung": "Description",
    "Betrag": "Amount",
    "Bewertung": "Rating",
    "Bewertungen": "Ratings",
    "Bewertungsprotokoll, neueste zuerst": "Rating log, newest first",
    "Bezug": "About",
    "Bezug (scope)": "About (scope)",
    "Bis": "To",
    "Bitte ein gültiges Token einfügen.": "Please paste a valid token.",
    "Bitte gleich noch einmal versuchen.": "Please try again in a moment.",
    "Brain-Konsole: dieselben Daten und Rechte wie die REST-API.": (
        "Brain console: the same data and rights as the REST API."
    ),
    "Buchungen": "Bookings",
    "Das gibt es nicht, oder Sie dürfen es nicht sehen.": (
        "It does not exist, or you may not see it."
    ),
    "Das hat nicht geklappt": "That did not work",
    "Datum": "Date",
    "Dem Token fehlt der Scope memory:read.": "The token lacks the scope memory:read.",
    "Der Filter trifft jetzt {n} Erinnerungen.": "The filter now matches {n} memories.",
    "Die Erinnerung wird mit ihren Bewertungen und ihrem Embedding endgültig gelöscht.": (
        "The memory is deleted for good, with its ratings and its embedding."
    ),
    "Die Konsole ist nicht eingerichtet": "The console is not set up",
    "Die Konsole zeigt, was Ihre Agenten in Brain gespeichert haben, und handelt dabei "
    "genau mit Ihren Rechten.": (
        "The console shows what your agents stored in Brain, acting with exactly your rights."
    ),
    "Diese Erinnerungen werden gelöscht": "These memories will be deleted",
    "Diese {n} endgültig löschen": "Delete these {n} for good",
    "Durchschnitt": "Average",
    "Eigentümer": "Owner",
    "Eine oder mehrere nutzer-IDs, mit Komma getrennt.": "One or more nutzer IDs, comma-separated.",
    "Einnahmen": "Income",
    "Endgültig löschen": "Delete for good",
    "Entfernen": "Remove",
    "Enthält alle Wörter": "Contains all words",
    "Erinnerung bearbeiten": "Edit memory",
    "Erinnerung löschen?": "Delete this memory?",
    "Erinnerungen dieses Projekts": "Memories of this project",
    "Erinnerungen dieses Teams": "Memories of this team",
    "Erinnerungen finden": "Find memories",
    "Erstellt": "Created",
    "Erstellt ab": "Created from",
    "Erstellt bis": "Created until",
    "Filter": "Filters",
    "Fällig am": "Due",
    "Gefunden durch": "Found by",
    "Gegenpartei": "Counterparty",
    "Gegenprobe in der Suche": "Checked in the search",
    "Gegenprobe mit demselben Filter": "Checked with the same filter",
    "Gelöscht": "Deleted",
    "Gelöscht werden in diesem Schritt die ersten {n}; danach erneut Vorschau.": (
        "This step deletes the first {n}; preview again afterwards."
    ),
    "Gerät": "Device",
    "Gesendet werden nur geänderte Felder (JSON Merge Patch); ein geleertes Feld wird "
    "entfernt.": "Only changed fields are sent (JSON Merge Patch); an emptied field is removed.",
    "Gespeichert.": "Saved.",
    "Geändert": "Changed",
    "Hauptbuch": "Ledger",
    "Hauptnavigation": "Main navigation",
    "Herkunft": "Provenance",
    "Hinzufügen": "Add",
    "Ihr Token darf keine Brain-Einträge lesen (Scope brain:read).": (
        "Your token may not read brain entries (scope brain:read)."
    ),
    "Ihr Token nennt keine Teams.": "Your token names no teams.",
    "Ihre Anmeldung ist abgelaufen. Bitte erneut anmelden.": (
        "Your session has expired. Please sign in again."
    ),
    "Kategorie": "Category",
    "Keine Buchungen.": "No bookings.",
    "Keine Erinnerung passt.": "No memory matches.",
    "Keine Tags.": "No tags.",
    "Keine der gelöschten ist mehr darunter.": "None of the deleted ones is among them.",
    "Keine offenen Zahlungserinnerungen.": "No open payment reminders.",
    "Keine: die Erinnerung nennt keinen Kunden, kein Produkt, keinen Mitarbeiter und kein "
    "Projekt mit Brain-Eintrag.": (
        "None: the memory names no customer, product, employee or project with a brain entry."
    ),
    "Konsole": "Console",
    "Konto": "Account",
    "Kurzbeschreibung": "Summary",
    "Kurzzeit": "Short-term",
    "Langzeit": "Long-term",
    "Letzte Bewertung": "Last rating",
    "Läuft ab": "Expires",
    "Ersetzt durch": "Superseded by",
    "gültig bis": "valid until",
    "Löschen": "Delete",
    "Löschen …": "Delete …",
    "Massenlöschung": "Bulk delete",
    "Massenlöschung ausgeführt": "Bulk delete done",
    "Mehrere Erinnerungen löschen": "Delete several memories",
    "Mehrere mit Komma: alle müssen passen.": "Several, comma-separated: all must match.",
    "Meine Projekte": "My projects",
    "Meine Teams": "My teams",
    "Mindestens {n} Erinnerungen passen.": "At least {n} memories match.",
    "Mit Brain-Konto anmelden": "Sign in with your Brain account",
    "Mit Komma getrennt; leer entfernt alle Tags.": "Comma-separated; empty removes all tags.",
    "Mit Token anmelden": "Sign in with a token",
    "Mitglied entfernt.": "Member removed.",
    "Mitglied hinzufügen": "Add a member",
    "Mitglieder": "Members",
    "Mitglieder hinzugefügt.": "Members added.",
    "Neueste Erinnerungen ({n})": "Newest memories ({n})",
    "Nicht erlaubt": "Not allowed",
    "Nicht gefunden": "Not found",
    "Nicht gefunden (schon gelöscht oder nicht sichtbar)": (
        "Not found (deleted already or not visible)"
    ),
    "Nicht mehr gefunden: die Suche kennt sie nicht mehr.": (
        "No longer found: the search does not know it any more."
    ),
    "Nichts geändert.": "Nothing changed.",
    "Noch gefunden": "Still found",
    "Nur der Eigentümer fügt Mitglieder hinzu oder entfernt sie.": (
        "Only the owner adds or removes members."
    ),
    "Nutzer": "Nutzer",
    "Nutzer (Autor)": "Nutzer (author)",
    "Nächste Seite": "Next page",
    "Offene Zahlungserinnerungen": "Open payment reminders",
    "Pfad": "Path",
    "Projekt": "Project",
    "Projekte": "Projects",
    "Projekte, deren Mitglied Sie sind": "Projects you are a member of",
    "Quelle": "Source",
    "Referenz-ID (scope_vk)": "Reference ID (scope_vk)",
    "Saldo": "Balance",
    "Selbst nachsehen": "See for yourself",
    "Sie sind in keinem Projekt. Ein Projekt entsteht, wenn ein Agent mit create_project "
    "hineinschreibt.": (
        "You are in no project. A project is created when an agent writes into it with "
        "create_project."
    ),
    "Speicher": "Bucket",
    "Speichern": "Save",
    "Status": "Status",
    "Suchbegriffe": "Search terms",
    "Suche nach „{q}“:": "Search for “{q}”:",
    "Suchen": "Search",
    "Summen je Bereich und Währung": "Sums per area and currency",
    "Summen je Währung": "Sums per currency",
    "Tags": "Tags",
    "Team": "Team",
    "Teams": "Teams",
    "Teams und ihre Mitglieder verwaltet Ihr Identitätsanbieter (Claim teams im Token); "
    "hier sehen Sie, in welchen Teams Sie sind.": (
        "Your identity provider manages teams and their members (claim teams in the token); "
        "here you see which teams you are in."
    ),
    "Text": "Text",
    "Token ungültig oder abgelaufen.": "Token invalid or expired.",
    "Verknüpfte Brain-Einträge": "Linked brain entries",
    "Von": "From",
    "Vorschau": "Preview",
    "Vorschau erneut": "Preview again",
    "Vorübergehende Störung": "Temporary failure",
    "Weiter zur Anmeldung": "Continue to sign-in",
    "Weitere Buchungen: den Zeitraum eingrenzen.": "More bookings: narrow the period.",
    "Wirkung": "Effect",
    "Wählen Sie einen Filter. Die Vorschau zeigt, wie viele und welche Erinnerungen er "
    "trifft; gelöscht wird erst nach Ihrer Bestätigung, und zwar genau die gezeigten.": (
        "Choose a filter. The preview shows how many and which memories it matches; only "
        "after you confirm are exactly those deleted."
    ),
    "Währung": "Currency",
    "Wörter (Deutsch und Englisch, alle Wortformen) und, wo ein Embedder eingerichtet ist, "
    "Bedeutung. Leer: die neuesten Erinnerungen.": (
        "Words (German and English, all word forms) and, where an embedder is configured, "
        "meaning. Empty: the newest memories."
    ),
    "Zum Beispiel das Token, das brain serve beim Start ausgibt, oder eines von brain "
    "token.": "For example the token brain serve prints at start, or one from brain token.",
    "Zum Inhalt springen": "Skip to content",
    "Zur Suche": "To the search",
    "Zurück zur Erinnerung": "Back to the memory",
    "alle": "all",
    "alle lesbaren": "all readable",
    "beide": "both",
    "nie": "never",
    "woerter": "words",
    "vektor": "vector",
    "{m} entfernen": "Remove {m}",
    "{n} Erinnerung(en) gelöscht.": "{n} memory(ies) deleted.",
    "{n} Erinnerungen passen.": "{n} memories match.",
    "{n} Treffer für „{q}“": "{n} hits for “{q}”",
    "Die Anmeldung mit dem Brain-Konto hat nicht geklappt. Bitte erneut versuchen.": (
        "Signing in with your Brain account did not work. Please try again."
    ),
    "Oder ein Token einfügen (zum Beispiel für einen Server ohne Konten).": (
        "Or paste a token (for example on a server without accounts)."
    ),
    "Die Anfrage kam nicht aus dieser Konsole (Sicherheitsprüfung). Bitte die Seite neu "
    "laden und erneut senden.": (
        "The request did not come from this console (security check). Please reload the "
        "page and send again."
    ),
}
# German words for the few texts whose key is not their German wording.
DE: Final[dict[str, str]] = {"woerter": "Wörter", "vektor": "Vektor"}


def translate(text: str, lang: str, **values: Any) -> str:
    words = EN.get(text, text) if lang == "en" else DE.get(text, text)
    return words.format(**values) if values else words
