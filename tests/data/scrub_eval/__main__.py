"""Build the evaluation corpora: `python -m tests.data.scrub_eval [--check]`.

Writes `tests/data/scrub_eval_dev.jsonl` (development templates, seed 20251),
`tests/data/scrub_eval_heldout.jsonl` (held-out templates, seed 90357; measured once, spent)
and `tests/data/scrub_eval_dev2.jsonl` (second development round, seed 61423, makers in
`secrets_r2`/`content_r2`) and `tests/data/scrub_eval_heldout2.jsonl` (second held-out set,
seed 77149, makers in `heldout2_values`; measured once, never tuned on) and
`tests/data/scrub_eval_dev3.jsonl` (third development round, seed 52817, makers in
`dev3_values`/`dev3_content`) and `tests/data/scrub_eval_heldout3.jsonl` (third held-out set,
seed 31877, written by the judge track apart from the scrubber's rules; makers in
`heldout3_values`/`heldout3_content`) and `tests/data/scrub_eval_heldout4.jsonl` (fourth
held-out set, seed 40613, by the judge4 track; makers in `heldout4_values`) and
`tests/data/scrub_eval_heldout5.jsonl` (fifth held-out set, seed 55291, by the judge5 track;
makers in `heldout5_values`/`heldout5_content`) and
`tests/data/scrub_eval_heldout6.jsonl` (sixth held-out set, seed 64219, by the judge6 track;
makers in `heldout6_values`) and `tests/data/scrub_eval_heldout7.jsonl` (seventh held-out set,
seed 83471, by the judge7 track; makers in `heldout7_values`/`heldout7_content`) and
`tests/data/scrub_eval_heldout8.jsonl` (eighth held-out set, seed 18839, by the judge8 track;
makers in `heldout8_values`/`heldout8_content`) and `tests/data/scrub_eval_heldout9.jsonl`
(ninth held-out set, seed 47093, by the judge9 track; makers in
`heldout9_values`/`heldout9_content`) and `tests/data/scrub_eval_heldout11.jsonl` (eleventh
held-out set, seed 11863, by the judge11 track; makers in `heldout11_values`/`heldout11_content`)
and `tests/data/scrub_eval_heldout12.jsonl` (twelfth held-out set, seed 60917, the judge11
track's judge; makers in `heldout12_values`/`heldout12_content`) and
`tests/data/scrub_eval_heldout13.jsonl` (thirteenth held-out set, seed 13579, by the judge13
track; makers in `heldout13_values`/`heldout13_content`): different seeds
and different templates. `tests/data/scrub_public.jsonl` (the public set, module `public`) is
not generated: it is the fixtures of public secret scanners, labelled and wrapped (see there).
Each line: `text`,
`secrets` ([{kind, value}], kind = the value maker), `keep` (content values that must
survive), `group` (the template group), `lang`.
`--check` rebuilds in memory and fails if a committed file differs.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from types import ModuleType

from tests.data.scrub_eval import (
    content,
    content_r2,
    dev2_templates,
    dev3_content,
    dev3_templates,
    dev3_values,
    dev_templates,
    heldout2_templates,
    heldout2_values,
    heldout3_content,
    heldout3_templates,
    heldout3_values,
    heldout4_templates,
    heldout4_values,
    heldout5_content,
    heldout5_templates,
    heldout5_values,
    heldout6_templates,
    heldout6_values,
    heldout7_content,
    heldout7_templates,
    heldout7_values,
    heldout8_content,
    heldout8_templates,
    heldout8_values,
    heldout9_content,
    heldout9_templates,
    heldout9_values,
    heldout11_content,
    heldout11_templates,
    heldout11_values,
    heldout12_content,
    heldout12_templates,
    heldout12_values,
    heldout13_content,
    heldout13_templates,
    heldout13_values,
    heldout_templates,
    public,
    secrets_r2,
    values,
)

HERE = Path(__file__).resolve().parents[1]
SPLITS = {
    "dev": (dev_templates, 20251, HERE / "scrub_eval_dev.jsonl"),
    "heldout": (heldout_templates, 90357, HERE / "scrub_eval_heldout.jsonl"),
    "dev2": (dev2_templates, 61423, HERE / "scrub_eval_dev2.jsonl"),
    "heldout2": (heldout2_templates, 77149, HERE / "scrub_eval_heldout2.jsonl"),
    "dev3": (dev3_templates, 52817, HERE / "scrub_eval_dev3.jsonl"),
    "heldout3": (heldout3_templates, 31877, HERE / "scrub_eval_heldout3.jsonl"),
    "heldout4": (heldout4_templates, 40613, HERE / "scrub_eval_heldout4.jsonl"),
    "heldout5": (heldout5_templates, 55291, HERE / "scrub_eval_heldout5.jsonl"),
    "heldout6": (heldout6_templates, 64219, HERE / "scrub_eval_heldout6.jsonl"),
    "heldout7": (heldout7_templates, 83471, HERE / "scrub_eval_heldout7.jsonl"),
    "heldout8": (heldout8_templates, 18839, HERE / "scrub_eval_heldout8.jsonl"),
    "heldout9": (heldout9_templates, 47093, HERE / "scrub_eval_heldout9.jsonl"),
    "heldout11": (heldout11_templates, 11863, HERE / "scrub_eval_heldout11.jsonl"),
    "heldout12": (heldout12_templates, 60917, HERE / "scrub_eval_heldout12.jsonl"),
    "heldout13": (heldout13_templates, 13579, HERE / "scrub_eval_heldout13.jsonl"),
}
MAKERS = (
    values,
    content,
    secrets_r2,
    content_r2,
    dev3_values,
    dev3_content,
    heldout2_values,
    heldout3_values,
    heldout3_content,
    heldout4_values,
    heldout5_values,
    heldout5_content,
    heldout6_values,
    heldout7_values,
    heldout7_content,
    heldout8_values,
    heldout8_content,
    heldout9_values,
    heldout9_content,
    heldout11_values,
    heldout11_content,
    heldout12_values,
    heldout12_content,
    heldout13_values,
    heldout13_content,
)
PUBLIC = HERE / "scrub_public.jsonl"
REPEATS = 4
_SLOT = re.compile(r"\{([skf]):(\w+)\}")

FILLERS = {
    "svc": ["Jira", "das Lohnportal", "Grafana", "the staging cluster", "Nextcloud", "den Shop"],
    "user": ["jana.k", "deploy", "svc_backup", "admin", "m.weber", "reporting"],
    "host": ["db01.internal", "10.0.4.12", "pg.prod.acme.example", "cache-2.lan", "erp.local"],
}


def maker(name: str) -> values.Maker:
    for module in MAKERS:
        found = getattr(module, name, None)
        if found is not None:
            return found  # type: ignore[no-any-return]
    raise SystemExit(f"unknown maker {name}")


def instantiate(
    template: str, group: str, rng: random.Random, fillers: dict[str, list[str]] | None = None
) -> dict[str, object]:
    lang, text = template.split("|", 1)
    secrets: list[dict[str, str]] = []
    keep: list[str] = []

    def fill(m: re.Match[str]) -> str:
        role, name = m.group(1), m.group(2)
        if role == "f":
            if name == "person":
                return content.person(rng)
            return rng.choice({**FILLERS, **(fillers or {})}[name])
        value = maker(name)(rng)
        (secrets.append({"kind": name, "value": value}) if role == "s" else keep.append(value))
        return value

    body = _SLOT.sub(fill, text)
    return {"text": body, "secrets": secrets, "keep": keep, "group": group, "lang": lang}


def build(module: ModuleType, seed: int) -> list[dict[str, object]]:
    rng = random.Random(seed)
    entries = []
    groups = [("secret:" + g, t) for g, ts in module.SECRETS.items() for t in ts]
    groups += [("content:" + g, t) for g, ts in module.CONTENT.items() for t in ts]
    for group, template in groups:
        for _ in range(REPEATS):
            entry = instantiate(template, group, rng, getattr(module, "FILLERS", None))
            prefix, suffix = rng.choice(module.FRAMES)
            entry["text"] = prefix + str(entry["text"]) + suffix
            entries.append(entry)
    rng.shuffle(entries)
    return entries


def main() -> None:
    check = "--check" in sys.argv
    built = {name: (build(module, seed), path) for name, (module, seed, path) in SPLITS.items()}
    built["public"] = (public.build(), PUBLIC)
    for name, (entries, path) in built.items():
        lines = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries)
        if check:
            if path.read_text(encoding="utf-8") != lines:
                raise SystemExit(f"{path.name} is not what the generator builds")
            continue
        path.write_text(lines, encoding="utf-8")
        print(f"{name}: {lines.count(chr(10))} texts -> {path}")


if __name__ == "__main__":
    main()
