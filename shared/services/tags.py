"""Tags are names, created on demand, unique case-insensitively per tenant."""

from __future__ import annotations

from collections.abc import Iterable

from shared.storage.port import StoragePort


def ensure_tags(
    storage: StoragePort, tenant: str, tag_lists: Iterable[Iterable[str]]
) -> dict[str, str]:
    """{casefolded name: stored spelling} for every tag of every list (one storage call)."""
    names = {tag.casefold(): tag for tags in tag_lists for tag in tags}
    return storage.ensure_tags(tenant, list(names.values())) if names else {}
