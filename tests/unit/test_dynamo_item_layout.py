"""The stored layout of every item type, byte for byte (docs/dynamodb.md, "Value encoding").

The expected items were printed by the hand-written encoders before the codec
(`shared/storage/dynamo/items.py`, derived from the domain dataclasses) replaced them: a
change here is a change of what is in deployed tables, i.e. a migration. Each sample also
reads back equal to what was written (microsecond times, exact Decimals, JSON numbers as sent).
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal

from shared.domain import (
    BrainEntry,
    DuplicateSign,
    Memory,
    MemoryId,
    MemoryPosting,
    MemoryType,
    Posting,
    Rating,
    VkTyp,
)
from shared.ledger.model import LedgerArt, LedgerRecord, LedgerSatz, LedgerStatus
from shared.storage.dynamo import items, ledger, memory_items
from shared.storage.values import to_us

T = datetime(2026, 11, 30, 8, 15, 42, 123456, tzinfo=UTC)
LONG = Memory(
    tenant="acme#1",
    id=MemoryId(MemoryType.LONGTERM, 42),
    kurzbeschreibung="Kurz ä",
    memory="Der Text",
    tags=["a", "B"],
    scope="kunde",
    scope_vk="K-1",
    nutzer="u1",
    agent="ag",
    created_at=T,
    updated_at=datetime(2026, 12, 1, 0, 0, 0, 1, tzinfo=UTC),
    referenzfelder={"betrag": 1234.5, "n": 1, "ok": True, "x": None},
    embedding_dim=384,
    embedding_profil_hash="abc123",
    score_count=3,
    score_sum=Decimal("7.50"),
    last_call=T,
    version=5,
    terms={"text": 2, "der": 0},
    doc_len=7,
    area="users/u1",
    gueltig_bis=T,
    ersetzt_durch=MemoryId(MemoryType.LONGTERM, 43),
)
SHORT = Memory(
    tenant="acme",
    id=MemoryId(MemoryType.SHORTTERM, 7),
    kurzbeschreibung="k",
    memory="m",
    tags=[],
    scope="",
    scope_vk="",
    nutzer="u2",
    agent="ag",
    created_at=T,
    updated_at=T,
    expires_at=datetime(2026, 12, 2, 0, 0, 0, 500001, tzinfo=UTC),
    terms={"m": 1},
    doc_len=1,
    area="teams/t",
)
RATING = Rating(
    tenant="acme",
    insert_id=99,
    memory_id=SHORT.id,
    agent="ag",
    nutzer="u2",
    score=Decimal("0.75"),
    datum=T,
    referenzfelder={"k": 2.0},
)
BRAIN = BrainEntry(
    tenant="acme",
    id=12,
    titel="Titel",
    inhalt="Inhalt",
    vk_typ=VkTyp("kunde"),
    vk_referenz_id="K#1",
    tags=["t"],
    stammdaten={"plz": "12345", "umsatz": 1.5},
    nutzer="u",
    agent="ag",
    created_at=T,
    updated_at=T,
    referenzfelder={"a": 1},
    terms={"titel": 3, "alt": 0},
    doc_len=4,
)
LEDGER = LedgerRecord(
    tenant="acme",
    id=5,
    satz=LedgerSatz.STORNO,
    art=LedgerArt.AUSGABE,
    betrag=Decimal("12.30"),
    wirkung=Decimal("-12.30"),
    waehrung="EUR",
    datum=date(2026, 11, 3),
    area="users/u",
    path="users/u/x",
    gegenpartei="G",
    kategorie="k",
    beschreibung="b",
    status=LedgerStatus.OFFEN,
    nutzer="u",
    agent="a",
    autor="au",
    created_at=T,
    konto="K",
    faellig_am=date(2026, 12, 1),
    bezug=4,
    anker_datum=date(2026, 11, 1),
    referenzfelder={"z": 1.25},
    schluessel="key-1",
)

MEMORY_LONG = {
    "agent": {"S": "ag"},
    "area": {"S": "users/u1"},
    "area_pk": {"S": "T#acme%231#AREA#users/u1"},
    "area_sk": {"S": "00001796026542123456#longterm#00000000000000000042"},
    "created_us": {"N": "1796026542123456"},
    "doc_len": {"N": "7"},
    "embedding_dim": {"N": "384"},
    "embedding_key": {"S": "idx|key"},
    "embedding_profil_hash": {"S": "abc123"},
    "ersetzt_durch": {"S": "longterm_43"},
    "gueltig_us": {"N": "1796026542123456"},
    "kurzbeschreibung": {"S": "Kurz ä"},
    "last_call_us": {"N": "1796026542123456"},
    "memory": {"S": "Der Text"},
    "memory_id": {"S": "longterm_42"},
    "nutzer": {"S": "u1"},
    "pk": {"S": "T#acme%231#MEM#longterm_42"},
    "ref_pk": {"S": "T#acme%231#SCOPE#kunde#K-1"},
    "ref_sk": {"N": "42"},
    "referenzfelder": {"S": '{"betrag":1234.5,"n":1,"ok":true,"x":null}'},
    "scope": {"S": "kunde"},
    "scope_vk": {"S": "K-1"},
    "score_count": {"N": "3"},
    "score_sum": {"N": "7.50"},
    "sk": {"S": "MEM"},
    "tags": {"S": '["a","B"]'},
    "tenant": {"S": "acme#1"},
    "terms": {"S": '{"text":2,"der":0}'},
    "typ_pk": {"S": "T#acme%231#MTYP#longterm#users/u1"},
    "typ_sk": {"N": "42"},
    "updated_us": {"N": "1796083200000001"},
    "version": {"N": "5"},
    "write_id": {"S": "w-1"},
}

MEMORY_SHORT = {
    "agent": {"S": "ag"},
    "area": {"S": "teams/t"},
    "area_pk": {"S": "T#acme#AREA#teams/t"},
    "area_sk": {"S": "00001796026542123456#shortterm#00000000000000000007"},
    "created_us": {"N": "1796026542123456"},
    "doc_len": {"N": "1"},
    "exp_pk": {"S": "EXP#10"},
    "exp_sk": {"N": "1796169600500001"},
    "expires_at": {"N": "1796169601"},
    "expires_us": {"N": "1796169600500001"},
    "kurzbeschreibung": {"S": "k"},
    "memory": {"S": "m"},
    "memory_id": {"S": "shortterm_7"},
    "nutzer": {"S": "u2"},
    "pk": {"S": "T#acme#MEM#shortterm_7"},
    "referenzfelder": {"S": "{}"},
    "scope": {"S": ""},
    "scope_vk": {"S": ""},
    "score_count": {"N": "0"},
    "score_sum": {"N": "0"},
    "sk": {"S": "MEM"},
    "tags": {"S": "[]"},
    "tenant": {"S": "acme"},
    "terms": {"S": '{"m":1}'},
    "typ_pk": {"S": "T#acme#MTYP#shortterm#teams/t"},
    "typ_sk": {"N": "7"},
    "updated_us": {"N": "1796026542123456"},
    "version": {"N": "0"},
    "write_id": {"S": "w-2"},
}

MEMORY_POSTING = {
    "area": {"S": "teams/t"},
    "doc_len": {"N": "1"},
    # the near-duplicate sign of "m" (no terms, no tokens, no values) and: "m" is no text term
    "dup": {"S": '{"n":0,"l":0,"v":"ZLTGSQOZ566UATSNRB2Y5JTWOA","m":[]}'},
    "text_term": {"BOOL": False},
    "expires_at": {"N": "1796169601"},
    "expires_us": {"N": "1796169600500001"},
    "memory_id": {"S": "shortterm_7"},
    "nutzer": {"S": "u2"},
    "pk": {"S": "T#acme#MPOST#teams/t#m"},
    "sk": {"S": "05365#shortterm_00000000000000000007"},
    "tf": {"N": "1"},
}

RATING_ITEMS = (
    {
        "expires_at": {"N": "1764633601"},
        "memory_id": {"S": "shortterm_7"},
        "pk": {"S": "T#acme#RATING#99"},
        "sk": {"S": "RATING"},
    },
    {
        "agent": {"S": "ag"},
        "datum_us": {"N": "1796026542123456"},
        "expires_at": {"N": "1764633601"},
        "insert_id": {"N": "99"},
        "memory_id": {"S": "shortterm_7"},
        "nutzer": {"S": "u2"},
        "pk": {"S": "T#acme#MEM#shortterm_7"},
        "referenzfelder": {"S": '{"k":2.0}'},
        "score": {"N": "0.75"},
        "sk": {"S": "R#00000000000000000099"},
        "tenant": {"S": "acme"},
    },
)

BRAIN_ITEM = {
    "agent": {"S": "ag"},
    "created_us": {"N": "1796026542123456"},
    "doc_len": {"N": "4"},
    "entry_id": {"N": "12"},
    "inhalt": {"S": "Inhalt"},
    "nutzer": {"S": "u"},
    "pk": {"S": "T#acme#BRAIN#12"},
    "ref_pk": {"S": "T#acme#BREF#kunde#K%231"},
    "ref_sk": {"N": "12"},
    "referenzfelder": {"S": '{"a":1}'},
    "sk": {"S": "BRAIN"},
    "stammdaten": {"S": '{"plz":"12345","umsatz":1.5}'},
    "tags": {"S": '["t"]'},
    "tenant": {"S": "acme"},
    "terms": {"S": '{"titel":3,"alt":0}'},
    "titel": {"S": "Titel"},
    "typ_pk": {"S": "T#acme#BTYP#kunde"},
    "typ_sk": {"N": "12"},
    "updated_us": {"N": "1796026542123456"},
    "vk_referenz_id": {"S": "K#1"},
    "vk_typ": {"S": "kunde"},
}

POSTING = {
    "doc_len": {"N": "4"},
    "entry_id": {"N": "12"},
    "pk": {"S": "T#acme#TERM#titel"},
    "sk": {"S": "P#00000000000000000012"},
    "tf": {"N": "3"},
    "vk_referenz_id": {"S": "K#1"},
    "vk_typ": {"S": "kunde"},
}

LEDGER_ITEM = {
    "agent": {"S": "a"},
    "anker_datum": {"S": "2026-11-01"},
    "area": {"S": "users/u"},
    "art": {"S": "ausgabe"},
    "autor": {"S": "au"},
    "beschreibung": {"S": "b"},
    "betrag": {"S": "12.30"},
    "bezug": {"N": "4"},
    "created_us": {"N": "1796026542123456"},
    "datum": {"S": "2026-11-03"},
    "faellig_am": {"S": "2026-12-01"},
    "gegenpartei": {"S": "G"},
    "id": {"N": "5"},
    "kategorie": {"S": "k"},
    "konto": {"S": "K"},
    "nutzer": {"S": "u"},
    "path": {"S": "users/u/x"},
    "pk": {"S": "T#acme#LEDGER#users/u"},
    "referenzfelder": {"S": '{"z":1.25}'},
    "satz": {"S": "storno"},
    "schluessel": {"S": "key-1"},
    "sk": {"S": "E#2026-11-01#00000000000000000004#S"},
    "status": {"S": "offen"},
    "tenant": {"S": "acme"},
    "waehrung": {"S": "EUR"},
    "wirkung": {"S": "-12.30"},
}


def test_a_memory_item_keeps_its_layout_and_reads_back() -> None:
    assert memory_items.memory_item(LONG, write_id="w-1", embedding_key="idx|key") == MEMORY_LONG
    assert memory_items.memory_item(SHORT, write_id="w-2", embedding_key=None) == MEMORY_SHORT
    assert memory_items.memory_from_item(MEMORY_LONG) == LONG
    assert memory_items.memory_from_item(MEMORY_SHORT) == SHORT


VALUES_NONE = "ZLTGSQOZ566UATSNRB2Y5JTWOA"  # the digest of no value tokens


def test_a_memory_posting_keeps_its_layout_and_reads_back() -> None:
    assert memory_items.postings(SHORT) == [MEMORY_POSTING]  # its one term, m
    posting = memory_items.MEMORY_POSTING.read(MEMORY_POSTING)
    assert posting == MemoryPosting(SHORT.id, 1, 1, "u2", SHORT.expires_at, "teams/t")
    assert (posting.text_term, posting.sign) == (
        False,
        DuplicateSign(0, 0, VALUES_NONE, frozenset()),
    )


def test_a_rating_keeps_its_layout_and_reads_back() -> None:
    assert items.rating_items(RATING, 1764633600500001) == RATING_ITEMS
    assert items.RATING.read(RATING_ITEMS[1]) == RATING


def test_a_brain_entry_and_its_posting_keep_their_layout_and_read_back() -> None:
    assert items.brain_item(BRAIN) == BRAIN_ITEM
    assert items.BRAIN.read(BRAIN_ITEM) == BRAIN
    assert items.posting_item(BRAIN, "titel", 3) == POSTING
    assert items.POSTING.read(POSTING) == Posting(12, 3, 4, "kunde", "K#1")


def test_stats_shards_of_entries_and_memories_share_one_layout() -> None:
    # shard = crc32 of the owner's ID mod 8, brain entries in STATS, memories in MSTATS
    assert items.stats_key("tenant-a", items.BRAIN_STATS, 12) == {
        "pk": {"S": "T#tenant-a#STATS"},
        "sk": {"S": "STATS#5"},
    }
    assert items.stats_key("tenant-a", items.MEMORY_STATS, MemoryId(MemoryType.SHORTTERM, 7)) == {
        "pk": {"S": "T#tenant-a#MSTATS"},
        "sk": {"S": "STATS#0"},
    }


def test_a_ledger_record_keeps_its_layout_and_reads_back() -> None:
    assert ledger.record_key(LEDGER) | ledger.RECORD.item(LEDGER) == LEDGER_ITEM
    assert ledger.RECORD.read(LEDGER_ITEM) == LEDGER


def test_a_replace_rewrites_every_attribute_but_identity_creation_scores_and_version() -> None:
    kept = {"tenant", "memory_id", "created_us", "score_count", "score_sum", "last_call_us"}
    own = {"pk", "sk", "write_id", "version", "embedding_key"}
    every = set(MEMORY_LONG) | set(MEMORY_SHORT)
    assert set(memory_items.REPLACED_ATTRIBUTES) == every - kept - own


STALE = {("T#acme#MPOST#teams/t#alt", "99000#shortterm_00000000000000000007")}
# Session 11: the index record (sk IDX) went, nothing deployed needed it; a deleted memory
# leaves this tombstone until its postings are gone.
TOMBSTONE_ITEM = {
    "pk": {"S": "T#acme#MEM#shortterm_7"},
    "sk": {"S": "GONE"},
    "tenant": {"S": "acme"},
    "memory_id": {"S": "shortterm_7"},
    "stale": {"S": '[["T#acme#MPOST#teams/t#alt","99000#shortterm_00000000000000000007"]]'},
    "exp_pk": {"S": "EXP#10"},
    "exp_sk": {"N": "1796169600500001"},
    "expires_at": {"N": "1796112943"},  # a day after the delete
}


def test_a_tombstone_keeps_its_layout_and_items_name_their_postings() -> None:
    assert memory_items.tombstone_item(SHORT, STALE, to_us(T)) == TOMBSTONE_ITEM
    assert memory_items.named_keys(TOMBSTONE_ITEM) == STALE
    # an item names its version's postings and, while a replace runs, the stale ones too
    own = {("T#acme#MPOST#teams/t#m", "05365#shortterm_00000000000000000007")}
    assert memory_items.named_keys(MEMORY_SHORT) == own
    stale_item = {**MEMORY_SHORT, **memory_items.stale_attribute(STALE)}
    assert memory_items.named_keys(stale_item) == own | STALE
    assert memory_items.memory_from_item(stale_item) == SHORT
