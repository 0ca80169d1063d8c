"""The (pk, sk) keys of the authorization server's records, shared by both state adapters.

Free-form parts (tenant, subject, user name, client id) are percent-quoted, so `#` inside
them cannot forge another record's key.
"""

from __future__ import annotations

from typing import Final
from urllib.parse import quote

GRANT_PREFIX: Final = "GRANTS#"
USERS: Final = "LOCALUSERS"


def _part(value: str) -> str:
    return quote(value, safe="")


def client(client_id: str) -> tuple[str, str]:
    return f"CLIENT#{_part(client_id)}", "C"


def pending(tx_id: str) -> tuple[str, str]:
    return f"TX#{_part(tx_id)}", "T"


def code(code_hash: str) -> tuple[str, str]:
    return f"CODE#{code_hash}", "K"


def grant(tenant: str, subject: str, grant_id: str) -> tuple[str, str]:
    return f"{GRANT_PREFIX}{_part(tenant)}#{_part(subject)}", f"G#{_part(grant_id)}"


def refresh(token_hash: str) -> tuple[str, str]:
    return f"REFRESH#{token_hash}", "R"


def user(username: str) -> tuple[str, str]:
    return USERS, f"U#{_part(username)}"
