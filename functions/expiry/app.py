"""Lambda handler of the scheduled expiry sweep (the code lives in the core layer)."""

from shared.lambda_runtime.expiry import handler

__all__ = ["handler"]
