"""Lambda handler of the memory REST API (the code lives in the core layer)."""

from shared.lambda_runtime.rest_api import handler

__all__ = ["handler"]
