"""Ratings and recency as ranking signals: what they change on a labelled set (issue 25).

Data (`data/ranking_{dev,holdout}.jsonl`, written by hand, German and English): per topic a
query, two equally relevant memories `a` and `b` (the same answer in other words: the twins,
grade 2) and a related memory `r` (grade 1). Every text of the duplicate set
(`data/duplicates_*.jsonl`, other subjects) is background (grade 0). All texts have their
all-MiniLM-L6-v2 vectors (`data/*_minilm.npz`).

Everything goes through the tool dispatcher (`call_tool`) on a SQLite store, as
`brain serve` runs it: the memories are inserted with their vectors at their creation time
(the services' clock), rated with `rate_brain_memories` (`datum` in the past), and each
query is asked through `search_memory` (limit 10) with its vector, once with the ranking
signals on and once off (`Settings.rank_signals`), over the same store.

Scenarios (a fresh store each; seeded, so every run is the same):
- `bewertung`: one twin rated 9 (three ratings), the other 2 (three ratings), both 30 days
  old: the 9-rated twin should come first.
- `aktualitaet`: both twins unrated, one created 2 days ago, the other 400 days ago: the
  newer should come first.
In both, a third of the background is rated 9-10 (one to five ratings, recently), a sixth
rated 0-3, the rest unrated; ages spread over two years.

Figures per scenario and setting: `vorn` (share of queries whose preferred twin ranks above
the other, both in the top 10), nDCG@10 (grades 2/1/0), recall@10 of the twins, and
`eindringlinge`: highly rated (average >= 8) background memories in the top 10 that were
not there with the signals off (a rating that pulls an irrelevant memory in).

Run: .venv/bin/python benchmarks/ranking.py [--set dev|holdout] [--rating-weight W]
     [--recency-weight W] [--half-life DAYS] [--sweep]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from shared.auth.principal import ALL_SCOPES, Principal  # noqa: E402
from shared.config import Settings  # noqa: E402
from shared.services.context import ServiceContext  # noqa: E402
from shared.storage.sqlite import SqliteStorage  # noqa: E402
from shared.tools.dispatch import call_tool  # noqa: E402
from shared.validation.rules import DUPLICATE_FLAG  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
PROFILE = "all-minilm-l6-v2-384"
TOP = 10
NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
NUTZER = "bench"
PRINCIPAL = Principal(
    tenant="bench",
    subject="bench",
    nutzer=frozenset({NUTZER}),
    agents=frozenset({"bench"}),
    scopes=frozenset(ALL_SCOPES),
)
CALLER = {"nutzer": NUTZER, "agent": "bench"}
SCENARIOS = ("bewertung", "aktualitaet")
SEED = 25


@dataclass(frozen=True)
class Topic:
    key: str
    lang: str
    query: str
    a: str
    b: str
    related: str


@dataclass
class Item:
    """A memory to store: text, age (days), ratings (score, days ago)."""

    text: str
    age_days: float
    ratings: list[tuple[int, float]] = field(default_factory=list)

    @property
    def average(self) -> float | None:
        return sum(s for s, _ in self.ratings) / len(self.ratings) if self.ratings else None


def _vectors(name: str) -> dict[str, list[float]]:
    import numpy as np

    archive = np.load(DATA / name)
    return {
        str(text): [float(x) for x in vector]
        for text, vector in zip(archive["texts"], archive["vectors"], strict=True)
    }


def load_topics(name: str) -> list[Topic]:
    topics = []
    for line in (DATA / f"ranking_{name}.jsonl").read_text("utf-8").splitlines():
        row = json.loads(line)
        topics.append(Topic(row["t"], row["lang"], row["q"], row["a"], row["b"], row["r"]))
    return topics


def background_texts() -> list[str]:
    texts: list[str] = []
    for name in ("dev", "holdout"):
        for line in (DATA / f"duplicates_{name}.jsonl").read_text("utf-8").splitlines():
            row = json.loads(line)
            items = [row["e"], *row["p"]] + [row[k] for k in ("u", "r", "x") if k in row]
            texts += [text for _, text in items]
    return list(dict.fromkeys(texts))


def background(rng: random.Random) -> list[Item]:
    items = []
    for text in background_texts():
        age = rng.uniform(0, 720)
        draw = rng.random()
        ratings: list[tuple[int, float]] = []
        if draw < 1 / 3:
            ratings = [
                (rng.choice((9, 10)), rng.uniform(0, min(age, 14)))
                for _ in range(rng.randint(1, 5))
            ]
        elif draw < 0.5:
            ratings = [(rng.randint(0, 3), rng.uniform(0, age)) for _ in range(rng.randint(1, 3))]
        items.append(Item(text, age, ratings))
    return items


def scenario_items(
    scenario: str, topics: Sequence[Topic], rng: random.Random
) -> tuple[list[Item], dict[str, tuple[str, str]]]:
    """The topic memories of a scenario and, per topic, (preferred twin, other twin) texts."""
    items: list[Item] = []
    preferred: dict[str, tuple[str, str]] = {}
    for topic in topics:
        first, second = (topic.a, topic.b) if rng.random() < 0.5 else (topic.b, topic.a)
        if scenario == "bewertung":
            items += [Item(first, 30, [(9, 3), (9, 2), (9, 1)]), Item(second, 30, [(2, 3)] * 3)]
        else:
            items += [Item(first, 2), Item(second, 400)]
        preferred[topic.key] = (first, second)
        related_age = rng.uniform(0, 720)
        ratings = [(rng.randint(0, 10), rng.uniform(0, related_age))] if rng.random() < 0.5 else []
        items.append(Item(topic.related, related_age, ratings))
    return items, preferred


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now


@contextmanager
def store(settings: Settings) -> Iterator[tuple[SqliteStorage, Clock]]:
    with tempfile.TemporaryDirectory(prefix="ranking-") as tmp:
        storage = SqliteStorage.in_data_dir(Path(tmp))
        try:
            yield storage, Clock()
        finally:
            storage.close()


def _call(ctx: ServiceContext, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    answer = call_tool(ctx, PRINCIPAL, tool, args)
    if not answer.get("erfolg"):
        raise RuntimeError(f"{tool}: {answer.get('fehler', answer)!s:.300}")
    return answer


def fill(
    ctx: ServiceContext, clock: Clock, items: Sequence[Item], vectors: dict[str, list[float]]
) -> dict[str, str]:
    """Insert every item at its creation time, then rate it; {memory ID: text}."""
    ids: dict[str, str] = {}
    zone = ZoneInfo(ctx.settings.timezone)
    for item in sorted(items, key=lambda i: -i.age_days):
        clock.now = NOW - timedelta(days=item.age_days)
        entry = {
            "kurzbeschreibung": item.text[:60],
            "memory": item.text,
            "tags": [],
            "scope": "",
            "scope_vk": "",
            "embedding": vectors[item.text],
            "embedding_profil_hash": PROFILE,
            **CALLER,
        }
        answer = _call(
            ctx,
            "insert_brain_longterm_memory",
            # the twins are near-duplicates on purpose: both stored (docs/truth.md)
            {"inhalt": {"memories": [entry], **CALLER}, "referenzfelder": {DUPLICATE_FLAG: True}},
        )
        memory_id = answer["daten"][0]["ID"]
        ids[memory_id] = item.text
        item_id = memory_id
        if item.ratings:
            clock.now = NOW
            entries = [
                {
                    "typ": "longterm",
                    "parameter": {
                        "memory_ID": item_id,
                        "agent": "bench",
                        "score": score,
                        "datum": (NOW - timedelta(days=days_ago))
                        .astimezone(zone)
                        .strftime("%Y-%m-%d %H:%M:%S"),
                    },
                }
                for score, days_ago in item.ratings
            ]
            _call(ctx, "rate_brain_memories", {"inhalt": {"memories": entries, **CALLER}})
    clock.now = NOW
    return ids


def ndcg(found: Sequence[int], grades_total: Sequence[int]) -> float:
    dcg = sum(g / math.log2(i + 2) for i, g in enumerate(found[:TOP]))
    ideal = sorted(grades_total, reverse=True)[:TOP]
    best = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / best if best else 0.0


@dataclass
class Figures:
    vorn: list[float] = field(default_factory=list)
    ndcg: list[float] = field(default_factory=list)
    recall: list[float] = field(default_factory=list)
    # relevant memories the signals pushed out of the top 10, per grade (2 answer, 1 related)
    verdraengt: dict[int, int] = field(default_factory=lambda: {2: 0, 1: 0})
    # (highly rated irrelevant, relevant) pairs the signals swapped, per grade
    ueberholt: dict[int, int] = field(default_factory=lambda: {2: 0, 1: 0})
    eindringlinge: int = 0  # highly rated irrelevant memories the signals pulled in

    def row(self) -> str:
        mean = lambda values: sum(values) / len(values) if values else math.nan  # noqa: E731
        return (
            f"vorn {mean(self.vorn):.3f}  nDCG@10 {mean(self.ndcg):.3f}  "
            f"recall@10 {mean(self.recall):.3f}  verdraengt {self.verdraengt[2]}/"
            f"{self.verdraengt[1]}  ueberholt {self.ueberholt[2]}/{self.ueberholt[1]}  "
            f"eindringlinge {self.eindringlinge}"
        )


def evaluate(set_name: str, scenario: str, variants: Sequence[Settings]) -> list[Figures]:
    """The figures of each settings variant (signals on) and, last, of the signals off."""
    rng = random.Random(f"{SEED}-{scenario}")
    topics = load_topics(set_name)
    vectors = _vectors(f"ranking_{set_name}_minilm.npz")
    for name in ("dev", "holdout"):
        vectors |= _vectors(f"duplicates_{name}_minilm.npz")
    noise = background(rng)
    items, preferred = scenario_items(scenario, topics, rng)
    off = variants[0].model_copy(update={"rank_signals": False})
    results = [Figures() for _ in range(len(variants) + 1)]
    with store(off) as (storage, clock):
        ids = fill(ServiceContext(storage, off, clock=clock), clock, [*noise, *items], vectors)
        text_id = {text: memory_id for memory_id, text in ids.items()}
        high = {text_id[i.text] for i in noise if (i.average or 0) >= 8}
        for topic in topics:
            first, second = (text_id[t] for t in preferred[topic.key])
            grades = {first: 2, second: 2, text_id[topic.related]: 1}
            args = {
                "query": topic.query,
                "limit": TOP,
                "embedding": vectors[topic.query],
                "embedding_profil_hash": PROFILE,
            }
            runs: list[list[str]] = []
            for settings, figures in zip([*variants, off], results, strict=True):
                ctx = ServiceContext(storage, settings, clock=clock)
                ranked = [
                    hit["ID"] for hit in _call(ctx, "search_memory", args)["daten"]["treffer"]
                ]
                runs.append(ranked)
                both = first in ranked and second in ranked
                figures.vorn.append(float(both and ranked.index(first) < ranked.index(second)))
                figures.ndcg.append(ndcg([grades.get(i, 0) for i in ranked], list(grades.values())))
                figures.recall.append(len({first, second} & set(ranked)) / 2)
            baseline = runs[-1]
            for ranked, figures in zip(runs[:-1], results, strict=False):
                for memory_id, grade in grades.items():
                    if memory_id in baseline and memory_id not in ranked:
                        figures.verdraengt[grade] += 1
                    if memory_id not in ranked:
                        continue
                    figures.ueberholt[grade] += sum(
                        1
                        for x in high & set(ranked)
                        if ranked.index(x) < ranked.index(memory_id)
                        and (
                            x not in baseline
                            or (
                                memory_id in baseline
                                and baseline.index(x) > baseline.index(memory_id)
                            )
                        )
                    )
                figures.eindringlinge += len((set(ranked) - set(baseline)) & high)
    return results


def locomo_adversarial(settings: Settings, share: float = 1 / 3) -> dict[str, float]:
    """LoCoMo (dev half, `benchmarks/locomo.py`'s task): a third of the turns that are no
    question's evidence rated 10 (highly rated, irrelevant), then recall@10 of hybrid
    `search_memory` with the signals on and off, over the same store."""
    import locomo

    rng = random.Random(SEED)
    recall: dict[str, list[float]] = {"an": [], "aus": []}
    off = settings.model_copy(update={"rank_signals": False})
    with locomo.brain() as base:
        for conversation in locomo.load():
            ids = locomo.store(base, conversation, with_vectors=True)
            evidence = {e for q in conversation.questions for e in q["evidence"]}
            chosen = [m for m, dia in ids.items() if dia not in evidence and rng.random() < share]
            principal = conversation.principal()
            caller = {"nutzer": conversation.nutzer, "agent": "bench"}
            for start in range(0, len(chosen), 100):
                entries = [
                    {
                        "typ": "longterm",
                        "parameter": {"memory_ID": m, "agent": "bench", "score": 10},
                    }
                    for m in chosen[start : start + 100]
                ]
                answer = call_tool(
                    base,
                    principal,
                    "rate_brain_memories",
                    {"inhalt": {"memories": entries, **caller}},
                )
                assert answer["erfolg"], answer
            for label, variant in (("an", settings), ("aus", off)):
                ctx = ServiceContext(base.storage, variant, clock=base.clock)
                for index, question in enumerate(conversation.questions):
                    found, _ = locomo.ask(ctx, conversation, ids, index, True)
                    recall[label].append(locomo.recall_at(found, question["evidence"]))
    return {label: sum(v) / len(v) for label, v in recall.items()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=("dev", "holdout"), default="dev")
    parser.add_argument("--rating-weight", type=float)
    parser.add_argument("--recency-weight", type=float)
    parser.add_argument("--half-life", type=float)
    parser.add_argument("--gate", type=float)
    parser.add_argument("--locomo", action="store_true", help="LoCoMo with adversarial ratings")
    parser.add_argument(
        "--sweep", nargs="?", const="grid", choices=("grid", "wide"), help="weights (dev only)"
    )
    args = parser.parse_args(argv)
    overrides: dict[str, Any] = {}
    if args.rating_weight is not None:
        overrides["rank_rating_weight"] = args.rating_weight
    if args.recency_weight is not None:
        overrides["rank_recency_weight"] = args.recency_weight
    if args.half_life is not None:
        overrides["rank_recency_half_life_days"] = args.half_life
    if args.gate is not None:
        overrides["rank_gate_power"] = args.gate
    settings = Settings(**overrides)
    variants = [settings]
    if args.sweep:
        variants = [
            Settings(
                rank_rating_weight=w,
                rank_recency_weight=t,
                rank_recency_half_life_days=h,
                rank_gate_power=g,
            )
            for w in (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8)
            for t in (0.05, 0.1, 0.2, 0.3, 0.4, 0.5)
            for h in (30.0, 90.0, 365.0)
            for g in (1.0, 2.0, 4.0, 6.0)
            if args.sweep == "wide" or (w <= 0.5 and t <= 0.3 and g <= 4.0)
        ]
    if args.locomo:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        result = locomo_adversarial(settings)
        print(f"LoCoMo dev, a third of the non-evidence turns rated 10: recall@10 hybrid {result}")
        return 0
    print(f"set {args.set}")
    for scenario in SCENARIOS:
        results = evaluate(args.set, scenario, variants)
        for variant, figures in zip(variants, results, strict=False):
            weights = (
                f"w_bewertung {variant.rank_rating_weight} w_aktualitaet "
                f"{variant.rank_recency_weight} halbwert {variant.rank_recency_half_life_days:g}"
                f" gate {variant.rank_gate_power:g}"
            )
            print(f"{scenario:12} an  {weights:52} {figures.row()}")
        print(f"{scenario:12} aus {'':52} {results[-1].row()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
