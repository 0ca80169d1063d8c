"""The labelled corpus of the retrieval quality benchmark (German and English).

Built once, before any tuning, and committed as `data/quality_corpus.json`; the benchmark
reads the file, so a change here cannot silently change the labels (`--write` rewrites it).

Memories are made from vocabulary lists and a fixed random seed: German memories name a
person, a city and two compounds (modifier + head, e.g. "Kundendatenbank"); English ones a
person, a city, a noun and a past-tense verb. Distractors mention the same heads standalone.
Each query is made from one memory (its only relevant memory) in one class:

- de_exakt:      surname and first compound, verbatim
- de_wortform:   both compounds in the plural (word forms the stemmer joins)
- de_kompositum: the two compound heads alone ("Datenbank Konzept" for
                 "Kundendatenbank ... Sicherungskonzept"): no word occurs verbatim
- de_tippfehler: surname and first compound, each with two letters swapped
- en_exakt:      name and noun, verbatim
- en_wortform:   the noun in the plural and the verb as -ing form
- en_tippfehler: name and noun, each with two letters swapped

Run: .venv/bin/python benchmarks/quality_corpus.py --write
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parent / "data" / "quality_corpus.json"
SEED = 20261130
PER_CLASS = 50


def _words(text: str) -> list[str]:
    return text.split()


SURNAMES = _words(
    "Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Koch Richter "
    "Klein Wolf Schröder Neumann Schwarz Zimmermann Braun Krüger Hofmann Hartmann Lange "
    "Schmitt Werner Krause Meier Lehmann Köhler Herrmann Walter König Mayer Huber Kaiser "
    "Fuchs Peters Lang Scholz Möller Weiß Jung Hahn Schubert Vogel Friedrich Keller Günther"
)
CITIES_DE = _words(
    "Stuttgart München Hamburg Köln Leipzig Dresden Bremen Hannover Nürnberg Freiburg "
    "Mannheim Augsburg Kassel Erfurt Rostock Potsdam Bonn Mainz Ulm Regensburg"
)
MODIFIERS = _words(
    "Kunden Produkt Lager Liefer Rechnungs Personal Projekt Vertrags Server Netzwerk "
    "Sicherungs Urlaubs Reise Schulungs Wartungs"
)
# head: plural
HEADS = {
    "Datenbank": "Datenbanken",
    "Konzept": "Konzepte",
    "Plan": "Pläne",
    "Adresse": "Adressen",
    "Nummer": "Nummern",
    "Vorlage": "Vorlagen",
    "Bericht": "Berichte",
    "Termin": "Termine",
    "Liste": "Listen",
    "Handbuch": "Handbücher",
    "Vertrag": "Verträge",
    "Prüfung": "Prüfungen",
    "Freigabe": "Freigaben",
    "Rechnung": "Rechnungen",
    "Schlüssel": "Schlüssel",
    "Protokoll": "Protokolle",
    "Auftrag": "Aufträge",
    "Anfrage": "Anfragen",
    "Lizenz": "Lizenzen",
    "Zugang": "Zugänge",
    "Richtlinie": "Richtlinien",
}
DE_TEMPLATES = (
    "{person} aus {city} fragt nach der {c1}; die {c2} folgt nächste Woche.",
    "Für {person} in {city} muss die {c1} bis Freitag stehen, danach die {c2}.",
    "Notiz zu {person} ({city}): {c1} geprüft, {c2} noch offen.",
    "{person} meldet aus {city}, dass die {c1} fehlt und die {c2} veraltet ist.",
)
DE_DISTRACTORS = (
    "Allgemeiner Hinweis aus {city}: die {h1} wird überarbeitet.",
    "Im Team wurde über die {h1} und den Ablauf in {city} gesprochen.",
)

FIRST_NAMES = _words(
    "Alice Brian Carla Derek Emily Frank Grace Henry Irene Jacob Karen Liam Maria Nathan "
    "Olivia Peter Quinn Rachel Samuel Tina Victor Wendy Xavier Yvonne Zachary"
)
LAST_NAMES = _words(
    "Johnson Smith Brown Taylor Wilson Davies Evans Thomas Roberts Walker Wright Thompson "
    "White Hughes Edwards Green Hall Wood Harris Lewis"
)
CITIES_EN = _words(
    "Boston Denver Seattle Austin Chicago Portland Atlanta Dallas Phoenix Houston Toronto "
    "Dublin Glasgow Leeds Bristol Sydney Melbourne Auckland Vancouver Calgary"
)
# noun: plural
NOUNS = {
    "invoice": "invoices",
    "contract": "contracts",
    "server": "servers",
    "license": "licenses",
    "report": "reports",
    "shipment": "shipments",
    "budget": "budgets",
    "dashboard": "dashboards",
    "certificate": "certificates",
    "workshop": "workshops",
    "warehouse": "warehouses",
    "password": "passwords",
    "schedule": "schedules",
    "database": "databases",
    "proposal": "proposals",
    "payment": "payments",
    "backup": "backups",
    "laptop": "laptops",
    "ticket": "tickets",
    "campaign": "campaigns",
}
# verb: (past tense, -ing form)
VERBS = {
    "approve": ("approved", "approving"),
    "review": ("reviewed", "reviewing"),
    "migrate": ("migrated", "migrating"),
    "renew": ("renewed", "renewing"),
    "cancel": ("cancelled", "cancelling"),
    "update": ("updated", "updating"),
    "deliver": ("delivered", "delivering"),
    "install": ("installed", "installing"),
    "schedule": ("scheduled", "scheduling"),
    "archive": ("archived", "archiving"),
}
EN_TEMPLATES = (
    "{person} from {city} {past} the {noun} yesterday.",
    "Note: {person} ({city}) has {past} the {noun}; follow up next week.",
    "{person} in {city} says the {noun} was {past} last month.",
)
EN_DISTRACTORS = (
    "General reminder for {city}: every {noun} needs an owner.",
    "The team in {city} discussed how each {noun} is handled.",
)


def swap(word: str, rng: random.Random) -> str:
    """The word with two neighbouring inner letters swapped (a typical typo)."""
    if len(word) < 4:
        return word
    at = rng.randrange(1, len(word) - 2)
    return word[:at] + word[at + 1] + word[at] + word[at + 2 :]


def _german(rng: random.Random) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    memories: list[dict[str, Any]] = []
    queries: list[dict[str, Any]] = []
    pairs = list(itertools.combinations(HEADS, 2))
    rng.shuffle(pairs)
    people = list(itertools.product(SURNAMES, CITIES_DE))
    rng.shuffle(people)
    count = PER_CLASS * 4
    for n, ((h1, h2), (person, city)) in enumerate(zip(pairs, people, strict=False)):
        if n == count:
            break
        m1, m2 = rng.sample(MODIFIERS, 2)
        c1, c2 = m1 + h1.lower(), m2 + h2.lower()
        key = f"de-{n:03d}"
        text = rng.choice(DE_TEMPLATES).format(person=person, city=city, c1=c1, c2=c2)
        memories.append({"key": key, "lang": "de", "kurz": f"{person}: {c1}", "text": text})
        kind = ("de_exakt", "de_wortform", "de_kompositum", "de_tippfehler")[n % 4]
        if kind == "de_exakt":
            query = f"{person} {c1}"
        elif kind == "de_wortform":
            query = f"{m1}{HEADS[h1].lower()} {m2}{HEADS[h2].lower()}"
        elif kind == "de_kompositum":
            query = f"{h1} {h2}"
        else:
            query = f"{swap(person, rng)} {swap(c1, rng)}"
        queries.append({"class": kind, "query": query, "relevant": [key]})
    for n in range(count // 2):
        city = rng.choice(CITIES_DE)
        text = rng.choice(DE_DISTRACTORS).format(city=city, h1=rng.choice(list(HEADS)))
        memories.append({"key": f"de-x{n:03d}", "lang": "de", "kurz": "Hinweis", "text": text})
    return memories, queries


def _english(rng: random.Random) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    memories: list[dict[str, Any]] = []
    queries: list[dict[str, Any]] = []
    people = [f"{first} {last}" for first, last in itertools.product(FIRST_NAMES, LAST_NAMES)]
    rng.shuffle(people)
    count = PER_CLASS * 3
    for n in range(count):
        person, city = people[n], rng.choice(CITIES_EN)
        noun, verb = rng.choice(list(NOUNS)), rng.choice(list(VERBS))
        past, ing = VERBS[verb]
        key = f"en-{n:03d}"
        text = rng.choice(EN_TEMPLATES).format(person=person, city=city, past=past, noun=noun)
        memories.append({"key": key, "lang": "en", "kurz": f"{person}: {noun}", "text": text})
        kind = ("en_exakt", "en_wortform", "en_tippfehler")[n % 3]
        if kind == "en_exakt":
            query = f"{person} {noun}"
        elif kind == "en_wortform":
            query = f"{person.split()[1]} {ing} {NOUNS[noun]}"
        else:
            first, last = person.split()
            query = f"{swap(first, rng)} {swap(last, rng)} {swap(noun, rng)}"
        queries.append({"class": kind, "query": query, "relevant": [key]})
    for n in range(count // 2):
        text = rng.choice(EN_DISTRACTORS).format(
            city=rng.choice(CITIES_EN), noun=rng.choice(list(NOUNS))
        )
        memories.append({"key": f"en-x{n:03d}", "lang": "en", "kurz": "Reminder", "text": text})
    return memories, queries


def build() -> dict[str, Any]:
    rng = random.Random(SEED)
    de_memories, de_queries = _german(rng)
    en_memories, en_queries = _english(rng)
    memories = de_memories + en_memories
    rng.shuffle(memories)
    return {"seed": SEED, "memories": memories, "queries": de_queries + en_queries}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"rewrite {CORPUS.name}")
    args = parser.parse_args()
    corpus = build()
    if args.write:
        CORPUS.write_text(json.dumps(corpus, ensure_ascii=False, indent=1) + "\n", "utf-8")
    classes: dict[str, int] = {}
    for query in corpus["queries"]:
        classes[query["class"]] = classes.get(query["class"], 0) + 1
    print(f"{len(corpus['memories'])} memories, {len(corpus['queries'])} queries: {classes}")


if __name__ == "__main__":
    main()
