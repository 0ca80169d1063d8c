"""`brain serve --backend aws --bootstrap` in local mode, driven by real MCP clients over
loopback HTTP: the production adapter end to end, without an AWS account. DynamoDB is
DynamoDB Local (`AWS_ENDPOINT_URL_DYNAMODB`, tests/dynamodb_local), S3 Vectors, which has
no local engine, a moto server subprocess (`AWS_ENDPOINT_URL`)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import boto3
import pytest
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport

from tests import dynamodb_local
from tests.contract.ledger_builders import booking_entry, ledger_args
from tests.e2e.helpers import (
    brain_entry,
    call,
    fetch_args,
    insert_args,
    memory_entry,
    rate_args,
    upsert_args,
)

pytestmark = pytest.mark.anyio
REGION = "eu-central-1"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass(frozen=True)
class LocalAws:
    dynamodb: str  # DynamoDB Local's endpoint
    vectors: str  # the moto server's endpoint (S3 Vectors)
    access_key: str  # DynamoDB Local keeps one database per access key: this test's own


@pytest.fixture
def local_aws(moto_endpoint: str) -> Iterator[LocalAws]:
    engine = dynamodb_local.engine()
    key = engine.fresh_key()
    yield LocalAws(engine.endpoint, moto_endpoint, key)
    engine.drop(engine.client(key))


@pytest.fixture
def moto_endpoint() -> Iterator[str]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    endpoint = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"{endpoint}/moto-api/", timeout=1).close()
            break
        except (urllib.error.URLError, ConnectionError):
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise
            time.sleep(0.2)
    yield endpoint
    process.terminate()
    process.wait(timeout=20)


def aws_env(aws: LocalAws, data_dir: Path) -> dict[str, str]:
    """The documented local mode (docs/aws.md): DynamoDB Local for DynamoDB, everything
    else (S3 Vectors) at the moto server; the production pool of parallel calls."""
    return {
        **os.environ,
        "AWS_ENDPOINT_URL": aws.vectors,
        "AWS_ENDPOINT_URL_DYNAMODB": aws.dynamodb,
        "AWS_ACCESS_KEY_ID": aws.access_key,
        "AWS_SECRET_ACCESS_KEY": "local",
        "AWS_REGION": REGION,
        "AWS_DEFAULT_REGION": REGION,
        "BRAIN_TABLE_NAME": "brain-e2e",
        "BRAIN_BUCKET_NAME": "brain-e2e-embeddings",
        "BRAIN_DATA_DIR": str(data_dir),
    }


@contextmanager
def serve_aws(env: dict[str, str], *extra: str) -> Iterator[tuple[str, str, list[str]]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "shared.cli", "serve", "--port", "0", "--backend", "aws", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    lines: list[str] = []
    while not any(line.startswith("Daten: ") for line in lines):
        line = process.stdout.readline()
        if not line:
            _, err = process.communicate(timeout=10)
            raise AssertionError(f"server ended early: {err[-2000:]}")
        lines.append(line.strip())
    url = next(line.split(": ", 1)[1] for line in lines if line.startswith("MCP endpoint: "))
    token = next(line.split(": ", 1)[1] for line in lines if line.startswith("Token: "))
    try:
        yield url, token, lines
    finally:
        process.send_signal(signal.SIGTERM)
        out, _ = process.communicate(timeout=20)
        assert process.returncode == 0
        assert "Brain gestoppt." in out


async def test_serve_on_dynamodb_and_s3(local_aws: LocalAws, tmp_path: Path) -> None:
    env = aws_env(local_aws, tmp_path / "data")
    # Given empty engines: --bootstrap creates the table and the bucket
    with serve_aws(env, "--bootstrap") as (url, token, lines):
        assert any("brain-e2e" in line and line.startswith("Angelegt: ") for line in lines)
        async with Client(StreamableHttpTransport(url, auth=token)) as client:
            # When memories (one with an embedding) are inserted, rated and the brain upserted
            inserted = await call(
                client,
                "insert_brain_longterm_memory",
                insert_args(
                    memory_entry(embedding=[0.25, -1.5, 3.0], embedding_profil_hash="e2e-3d"),
                    memory_entry(tags=[]),
                ),
            )
            assert [e["ID"] for e in inserted["daten"]] == ["longterm_1", "longterm_2"]
            rated = await call(
                client, "rate_brain_memories", rate_args(("longterm_1", 9), ("longterm_1", 4))
            )
            assert rated["erfolg"] is True
            upserted = await call(client, "upsert_brain", upsert_args(brain_entry()))
            assert upserted["daten"][0]["ID"] == 1
            # And two ledger bookings (the dev token acts as nutzer "dev"), one reversed
            booked = await call(
                client,
                "ledger",
                ledger_args(
                    "buchen",
                    eintraege=[
                        booking_entry(betrag="0.10", path="users/dev/finanzen"),
                        booking_entry(betrag="0.20", path="users/dev/finanzen"),
                    ],
                ),
            )
            assert [e["ID"] for e in booked["daten"]] == [1, 2]
            reversed_ = await call(client, "ledger", ledger_args("storno", eintraege=[{"ID": 2}]))
            assert reversed_["daten"][0]["storno_von"] == 2

    # Then the embedding is one vector in S3 Vectors, keyed by tenant and memory, in the
    # index of its profile and dimension
    vectors = boto3.client(
        "s3vectors",
        endpoint_url=local_aws.vectors,
        region_name=REGION,
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    listed = vectors.list_indexes(vectorBucketName="brain-e2e-embeddings")["indexes"]
    (index,) = [i["indexName"] for i in listed]
    assert index.endswith("-d3")
    found = vectors.list_vectors(
        vectorBucketName="brain-e2e-embeddings", indexName=index, returnData=True
    )["vectors"]
    assert len(found) == 1 and found[0]["key"].startswith("local/longterm_")
    assert len(found[0]["data"]["float32"]) == 3

    # When the server restarts without --bootstrap, Then nothing is created and all data is there
    with serve_aws(env) as (url, token, lines):
        assert not any(line.startswith("Angelegt: ") for line in lines)
        async with Client(StreamableHttpTransport(url, auth=token)) as client:
            fetched = await call(
                client, "fetch_brain_memories", fetch_args(longterm=["longterm_1", "longterm_2"])
            )
            first = fetched["daten"]["longterm"][0]
            assert (first["score_count"], first["score_avg"]) == (2, 6.5)
            assert first["embedding_dim"] == 3
            found = await call(
                client,
                "select_brain",
                {"nutzer": 1, "agent": 1, "query": "Maschinenbauer", "detailgrad": "texte"},
            )
            assert [hit["ID"] for hit in found["daten"]["treffer"]] == [1]
            # And the ledger's running totals survived in DynamoDB, exact
            ledger = await call(client, "ledger", ledger_args("abfragen"))
            assert ledger["daten"]["summen"][0]["saldo"] == "-0.10"
            assert [e["ID"] for e in ledger["daten"]["eintraege"]] == [3, 2, 1]


async def test_12_clients_rating_one_memory_20_times_through_mcp_count_240(
    local_aws: LocalAws, tmp_path: Path
) -> None:
    import anyio

    # Given one memory on DynamoDB Local and 12 MCP clients with 20 ratings each, every
    # rating its own event (a distinct datum)
    with serve_aws(aws_env(local_aws, tmp_path / "data"), "--bootstrap") as (url, token, _):
        async with Client(StreamableHttpTransport(url, auth=token)) as client:
            await call(client, "insert_brain_longterm_memory", insert_args(memory_entry()))
        scores = [Decimal(n % 10) + Decimal("0.5") * (n % 2) for n in range(240)]

        async def rater(worker: int) -> None:
            async with Client(StreamableHttpTransport(url, auth=token)) as client:
                for n in range(worker * 20, worker * 20 + 20):
                    datum = f"2026-01-01 {n // 60:02d}:{n % 60:02d}:00"
                    arguments = rate_args(("longterm_1", float(scores[n])), datum=datum)
                    rated = await call(client, "rate_brain_memories", arguments)
                    assert rated["erfolg"] is True, rated["fehler"]

        # When they all rate at once
        async with anyio.create_task_group() as group:
            for worker in range(12):
                group.start_soon(rater, worker)
        # Then all 240 are counted, the average exact, last_call the latest datum
        async with Client(StreamableHttpTransport(url, auth=token)) as client:
            fetched = await call(
                client, "fetch_brain_memories", fetch_args(longterm=["longterm_1"])
            )
    memory = fetched["daten"]["longterm"][0]
    assert memory["score_count"] == 240
    assert memory["score_avg"] == float(sum(scores) / 240)
    assert memory["last_call"].startswith("2026-01-01")
    assert "03:59" in memory["last_call"]
