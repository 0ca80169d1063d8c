"""`benchmarks/scrub_docs.py` cuts documentation into blocks and samples the ones that name a
credential word, reproducibly, from a git mirror's HEAD (a small repository built here)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.lambda_functions.test_benchmarks import benchmark

GUIDE = """# Connecting

Set the password in the inventory, never on the command line.

```yaml
db:
  user: app
  password: "{{ vault_db_password }}"
```

Nothing of that sort here, just a paragraph that is long enough to count.

The token is read from the environment::

    export API_TOKEN=<your token>
    run --verbose
"""


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


@pytest.fixture
def mirror(tmp_path: Path) -> Path:
    repo = tmp_path / "owner+docs" / "repo"
    (repo / "docs").mkdir(parents=True)
    (repo / "i18n" / "de").mkdir(parents=True)
    (repo / "docs" / "guide.md").write_text(GUIDE, encoding="utf-8")
    (repo / "docs" / "notes.txt").write_text("The password is never here.\n", encoding="utf-8")
    (repo / "i18n" / "de" / "guide.md").write_text(GUIDE, encoding="utf-8")
    for n in range(6):
        (repo / "docs" / f"page{n}.rst").write_text(
            f"Page {n}: rotate the secret of service {n} every ninety days, as policy says.\n",
            encoding="utf-8",
        )
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "docs")
    return repo


def test_a_fence_is_one_block_and_an_indented_block_joins_its_paragraph() -> None:
    docs: Any = benchmark("scrub_docs")
    found = docs.blocks(GUIDE)
    assert found[2].startswith("```yaml") and found[2].endswith("```")
    assert "password:" in found[2]
    assert found[-1].startswith("The token is read") and "export API_TOKEN" in found[-1]
    assert len(found) == 5


def test_candidates_name_a_credential_word_and_skip_translations(mirror: Path) -> None:
    docs: Any = benchmark("scrub_docs")
    found = docs.candidates(mirror)
    paths = {e["id"].split(":", 1)[1].split("#")[0] for e in found}
    assert paths == {"docs/guide.md"} | {f"docs/page{n}.rst" for n in range(6)}
    assert all(docs.CREDENTIAL_WORD.search(e["text"]) for e in found)
    assert all(e["id"].startswith("owner/docs:") and e["secrets"] == [] for e in found)
    assert not any(e["text"].startswith("Nothing of that sort") for e in found)


def test_the_sample_is_reproducible_and_bounded(mirror: Path) -> None:
    docs: Any = benchmark("scrub_docs")
    first = docs.sample([mirror], per_repo=4, seed=5)
    assert [e["id"] for e in first] == [e["id"] for e in docs.sample([mirror], 4, 5)]
    assert len(first) == 4 and len({e["text"] for e in first}) == 4
    assert len(docs.sample([mirror], per_repo=50, seed=5)) == len(docs.candidates(mirror))
