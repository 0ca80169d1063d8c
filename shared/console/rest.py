"""The console's only way to Brain's data: the REST API, called in-process as the signed-in
person (their bearer token), through the app's own routes — the same scope checks,
validation, areas, scrubbing, limits, retry safety and problem documents as for any REST
client. No service, storage or model is called from the console directly.

The call is an ASGI request to the REST app (`httpx2.ASGITransport`, no socket): the app that
serves the console page is the app that answers it, locally and on Lambda. It addresses the
app as the person's browser did (origin and root path): an access token of Brain's
authorization server names that root as issuer and `<root>/api` as audience. A token the API
no longer accepts (401) is renewed once by `renew` (the refresh token) and the call repeated."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import httpx2
from starlette.types import ASGIApp

# Only the in-process transport reads this; nothing leaves the process.
_BASE: Final = "http://brain-console.internal"
QueryValue = str | int | Sequence[str] | None


@dataclass(frozen=True)
class Answer:
    status: int
    body: Any

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    def field_errors(self) -> list[tuple[str, str]]:
        """(feld, meldung) of a problem document; [] for anything else."""
        if not isinstance(self.body, Mapping):
            return []
        errors = self.body.get("fehler")
        if not isinstance(errors, list):
            return []
        return [
            (str(e.get("feld", "")), str(e.get("meldung", "")))
            for e in errors
            if isinstance(e, Mapping)
        ]


class RestClient:
    """Calls the REST app at `app` with one person's token, as `origin` + `root_path`."""

    def __init__(
        self,
        app: ASGIApp,
        token: str,
        *,
        origin: str = _BASE,
        root_path: str = "",
        renew: Callable[[], Awaitable[str | None]] | None = None,
    ) -> None:
        self._app = app
        self._token = token
        self._origin = origin
        self._root_path = root_path
        self._renew = renew

    async def call(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, QueryValue] | None = None,
        json: Any = None,
        headers: Mapping[str, str] | None = None,
    ) -> Answer:
        query = {k: v for k, v in (params or {}).items() if v not in (None, "", [])}
        transport = httpx2.ASGITransport(app=self._app, root_path=self._root_path)
        async with httpx2.AsyncClient(transport=transport, base_url=self._origin) as client:
            sent = {"Authorization": f"Bearer {self._token}", **(headers or {})}
            answer = await client.request(method, path, params=query, json=json, headers=sent)
            if answer.status_code == 401 and self._renew is not None:
                renewed = await self._renew()
                if renewed is not None:
                    self._token = renewed
                    sent["Authorization"] = f"Bearer {renewed}"
                    answer = await client.request(
                        method, path, params=query, json=json, headers=sent
                    )
        body: Any = None
        if answer.content:
            try:
                body = answer.json()
            except ValueError:
                body = None
        return Answer(answer.status_code, body)

    async def get(self, route: str, /, **params: QueryValue) -> Answer:
        return await self.call("GET", route, params=params)
