"""Claims -> principal, the one mapping every entry point uses."""

from __future__ import annotations

import pytest

from shared.auth.claims import ClaimMapping, InvalidToken, principal_from_claims

MAPPING = ClaimMapping()


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (["a", "b"], {"a", "b"}),
        ("a b", {"a", "b"}),
        ("a,b", {"a", "b"}),
        ("[a b]", {"a", "b"}),  # how API Gateway's JWT authorizer passes list claims
        ('["a","b"]', {"a", "b"}),
        (42, {"42"}),
        (None, set()),
        (True, set()),
    ],
)
def test_list_claims_in_every_shape(raw: object, expected: set[str]) -> None:
    principal = principal_from_claims({"tenant": "t", "sub": "s", "nutzer": raw}, MAPPING)
    assert principal.nutzer == frozenset(expected)


def test_configured_names_are_used() -> None:
    mapping = ClaimMapping(tenant="custom:tenant", scope="scp")
    claims = {"custom:tenant": "acme", "sub": "s", "scp": "memory:read", "tenant": "ignored"}
    principal = principal_from_claims(claims, mapping)
    assert (principal.tenant, principal.scopes) == ("acme", frozenset({"memory:read"}))


@pytest.mark.parametrize("claims", [{"sub": "s"}, {"tenant": " ", "sub": "s"}, {"tenant": "t"}])
def test_tenant_and_subject_are_required(claims: dict[str, object]) -> None:
    with pytest.raises(InvalidToken):
        principal_from_claims(claims, MAPPING)
