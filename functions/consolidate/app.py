"""Lambda handler of the scheduled consolidation (the code lives in the core layer)."""

from shared.lambda_runtime.consolidate import handler

__all__ = ["handler"]
