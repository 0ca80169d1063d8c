"""Tags are names, created on demand, unique case-insensitively per tenant.

A write stores its tag records in its `ahead` phase (services/writes.py), side by side with
the call record's claim: their names are scrubbed first (`scrubbed_tags`), and under policy
reject an entry with a secret in a tag gets no tag record at all.
"""

from __future__ import annotations

from collections.abc import Iterable

from shared.scrubbing import ScrubPolicy
from shared.services.secrets import clean_value
from shared.storage.port import StoragePort


def ensure_tags(
    storage: StoragePort, tenant: str, tag_lists: Iterable[Iterable[str]]
) -> dict[str, str]:
    """{casefolded name: stored spelling} for every tag of every list (one storage call)."""
    names = {tag.casefold(): tag for tags in tag_lists for tag in tags}
    return storage.ensure_tags(tenant, list(names.values())) if names else {}


def scrubbed_tags(policy: ScrubPolicy, tag_lists: Iterable[Iterable[str]]) -> list[list[str]]:
    """The tag lists as `store` will see them after scrubbing (reject: a list with a
    secret is left out, its entry fails)."""
    cleaned = [clean_value(list(tags)) for tags in tag_lists]
    reject = policy is ScrubPolicy.REJECT
    return [c.value for c in cleaned if not (reject and c.kinds)]
