"""Lambda handler of the OAuth authorization server (the code lives in the core layer)."""

from shared.lambda_runtime.oauth_api import handler

__all__ = ["handler"]
