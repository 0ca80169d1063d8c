"""SnapStart: what a snapshot may share and what each restored environment re-creates.

Every function publishes versions with SnapStart (template.yaml, Globals): Lambda runs the
init phase once per version, snapshots the process and resumes that snapshot in every new
execution environment. So whatever the snapshot holds is shared by all of them:

- shared on purpose (the point of SnapStart): imported modules, settings, pydantic validators,
  the fastmcp app, and botocore's parsed service models (`warm_loader`, no secrets);
- re-created after each restore (`register_after_restore` hooks, run in registration order):
  every AWS client, since a client carries its credentials, its connection pool and, in the
  storage, a thread pool; and the seed of `random` (retry jitter), which would otherwise
  produce the same sequence in every restored environment.

The before-snapshot hooks (`prime`) build the expensive objects during init, so the snapshot
contains them. Without SnapStart (local runs, tests) the hooks are never called and
everything is built on first use as before. The hook library ships with Lambda's Python
runtimes and must not be packaged into a layer: a second copy would hold its own registry,
which the runtime never reads.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

import boto3
import botocore.session
from botocore.loaders import Loader
from snapshot_restore_py import register_after_restore, register_before_snapshot


@cache
def warm_loader() -> Loader:
    """The process's botocore data loader: it caches the parsed service models (JSON), which
    hold no credentials and so may live in the snapshot."""
    loader: Loader = botocore.session.get_session().get_component("data_loader")
    return loader


def aws_session() -> boto3.session.Session:
    """A new boto3 session (its own credential resolution; clients get their own connection
    pools) that reuses the already parsed service models: a client costs ~60 ms instead of
    ~300 ms with a cold loader."""
    core = botocore.session.get_session()
    core.register_component("data_loader", warm_loader())
    return boto3.session.Session(botocore_session=core)


def reseed_random() -> None:
    """A fresh seed from os.urandom: restored environments must not share random sequences."""
    random.seed()


_registered: set[str] = set()


def on_snapshot(name: str, prime: Callable[[], object], renew: Callable[[], None]) -> None:
    """Register `prime` (before the snapshot) and `renew` (after each restore) once per name;
    the random seed is always renewed first."""
    if not _registered:
        register_after_restore(reseed_random)
    if name in _registered:
        return
    _registered.add(name)
    register_before_snapshot(prime)
    register_after_restore(renew)
