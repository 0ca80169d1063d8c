"""Brain's REST API (FastAPI): one app for `brain serve` and the REST Lambda (Mangum).

`app.build_rest_app` assembles it from routers (`memory_routes`, more to come); errors are
RFC 9457 problem documents (`problems`); the caller comes from the same principal resolver
as the MCP endpoint (`security`); each resource publishes its OpenAPI 3.1 document and an
interactive page whose assets Brain serves itself (`docs_page`).
"""
