"""Lambda entry points: the MCP router, one handler per tool, the expiry sweep.

Objects that are expensive to build (settings, boto3 clients, the storage adapter) are
created once per container, on first use, and reused by every warm invocation.
"""
