"""Brain as the OAuth 2.1 authorization server of its own MCP endpoint and REST API.

Invariants (docs/connect.md, docs/security.md):
- Access tokens are Brain-signed JWTs (RFC 9068 `typ: at+jwt`) carrying Brain's identity
  model through the configured claim mapping; `aud` is the resource the client asked for
  (RFC 8707), one of this server's own resources; they live minutes, not days.
- Codes, refresh tokens and client secrets are stored only as SHA-256 hashes; codes are single
  use, refresh tokens rotate, a reused one revokes its whole connection (grant).
- Everything a browser or client sends is validated before it is stored or echoed; refusals
  never echo a refused value.
"""
