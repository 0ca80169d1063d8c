"""The search index as a DynamoDB Streams projection, measured: how long a write tool would
wait until its memory is searchable, against the synchronous index write it would replace.

On DynamoDB Local (tests/dynamodb_local), with its Streams endpoint:

- *stream*: the writer puts the memory item only; a consumer shaped like Lambda's event
  source mapping for DynamoDB Streams (it polls each shard; an empty poll waits
  `--poll-ms`, 250 ms = Lambda's four polls per second) writes the postings and the index
  record (conditional on the item version: idempotent per version); the writer then reads
  the index record (consistent GetItem every `--check-ms`) until it shows the item's
  version, at most `--bound-ms`. Reported: the write-to-searchable time and the writer's
  calls.
- *sync*: the item, its postings (BatchWriteItem) and its index record in one stage, as
  the adapter writes them today.

Run: .venv/bin/python -m benchmarks.streams_wait [--writes 200] [--poll-ms 250]
A measurement, not a test: it prints numbers.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

TABLE = "streams-wait"
TERMS = ("vertrag", "kunde", "rechnung", "muster", "lieferung", "termin")


def create_table(client: Any) -> str:
    client.create_table(
        TableName=TABLE,
        KeySchema=[
            {"AttributeName": "pk", "KeyType": "HASH"},
            {"AttributeName": "sk", "KeyType": "RANGE"},
        ],
        AttributeDefinitions=[
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "sk", "AttributeType": "S"},
        ],
        BillingMode="PAY_PER_REQUEST",
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
    )
    arn: str = client.describe_table(TableName=TABLE)["Table"]["LatestStreamArn"]
    return arn


def memory_item(number: int) -> dict[str, Any]:
    return {
        "pk": {"S": f"T#acme#MEM#longterm_{number}"},
        "sk": {"S": "MEM"},
        "memory": {"S": f"Erinnerung {number}: " + " ".join(TERMS)},
        "terms": {"SS": list(TERMS)},
        "version": {"N": "1"},
    }


def index_writes(item: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The postings of a memory item and its index record (the projection)."""
    pk = item["pk"]["S"]
    postings = [
        {"PutRequest": {"Item": {"pk": {"S": f"T#acme#MPOST#{t}"}, "sk": {"S": pk}}}}
        for t in item["terms"]["SS"]
    ]
    record = {"pk": {"S": pk}, "sk": {"S": "IDX"}, "version": item["version"]}
    return postings, record


def apply_index(client: Any, item: dict[str, Any]) -> None:
    postings, record = index_writes(item)
    client.batch_write_item(RequestItems={TABLE: postings})
    # A version indexed already (or a later one) refuses the put: idempotent per version.
    with contextlib.suppress(client.exceptions.ConditionalCheckFailedException):
        client.put_item(
            TableName=TABLE,
            Item=record,
            ConditionExpression="attribute_not_exists(#v) OR #v < :v",
            ExpressionAttributeNames={"#v": "version"},
            ExpressionAttributeValues={":v": record["version"]},
        )


class Consumer(threading.Thread):
    """Polls every shard like Lambda's event source mapping; processes each batch."""

    def __init__(self, streams: Any, client: Any, arn: str, poll_s: float) -> None:
        super().__init__(daemon=True)
        self.streams, self.client, self.arn, self.poll_s = streams, client, arn, poll_s
        self.stop = threading.Event()
        self.polls = 0

    def run(self) -> None:
        shards = self.streams.describe_stream(StreamArn=self.arn)["StreamDescription"]["Shards"]
        iterators = [
            self.streams.get_shard_iterator(
                StreamArn=self.arn, ShardId=shard["ShardId"], ShardIteratorType="LATEST"
            )["ShardIterator"]
            for shard in shards
        ]
        while not self.stop.is_set():
            found = False
            for i, iterator in enumerate(iterators):
                page = self.streams.get_records(ShardIterator=iterator, Limit=100)
                self.polls += 1
                iterators[i] = page["NextShardIterator"]
                for record in page["Records"]:
                    image = record["dynamodb"].get("NewImage")
                    if image is not None and image["sk"]["S"] == "MEM":
                        apply_index(self.client, image)
                        found = True
            if not found:
                time.sleep(self.poll_s)


def wait_indexed(client: Any, item: dict[str, Any], check_s: float, bound_s: float) -> int:
    """GetItem of the index record until it shows the item's version: the reads it took."""
    deadline = time.perf_counter() + bound_s
    reads = 0
    while True:
        reads += 1
        got = client.get_item(
            TableName=TABLE, Key={"pk": item["pk"], "sk": {"S": "IDX"}}, ConsistentRead=True
        ).get("Item")
        if got is not None and got["version"] == item["version"]:
            return reads
        if time.perf_counter() > deadline:
            raise TimeoutError(f"{item['pk']['S']} not searchable within {bound_s} s")
        time.sleep(check_s)


def percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return f"p50 {statistics.median(ordered):6.1f} ms  p95 {p95:6.1f} ms  max {ordered[-1]:6.1f} ms"


def main() -> None:
    from tests.dynamodb_local import DynamoDBLocal

    parser = argparse.ArgumentParser()
    parser.add_argument("--writes", type=int, default=200)
    parser.add_argument("--poll-ms", type=float, default=250.0)
    parser.add_argument("--check-ms", type=float, default=20.0)
    parser.add_argument("--bound-ms", type=float, default=5000.0)
    args = parser.parse_args()
    engine = DynamoDBLocal.start()
    try:
        client = engine.client("streamswait")
        with engine._session_lock:
            streams = engine._session.client(
                "dynamodbstreams",
                endpoint_url=engine.endpoint,
                region_name="eu-central-1",
                aws_access_key_id="streamswait",
                aws_secret_access_key="local",
            )
        arn = create_table(client)
        consumer = Consumer(streams, client, arn, args.poll_ms / 1000)
        consumer.start()
        time.sleep(1.0)  # the consumer holds its LATEST iterators

        stream_ms: list[float] = []
        reads: list[int] = []
        for number in range(1, args.writes + 1):
            item = memory_item(number)
            started = time.perf_counter()
            client.put_item(TableName=TABLE, Item=item)
            reads.append(wait_indexed(client, item, args.check_ms / 1000, args.bound_ms / 1000))
            stream_ms.append((time.perf_counter() - started) * 1000)
        consumer.stop.set()
        consumer.join()

        sync_ms: list[float] = []
        with ThreadPoolExecutor(max_workers=3) as pool:
            for number in range(args.writes + 1, 2 * args.writes + 1):
                item = memory_item(number)
                postings, record = index_writes(item)
                started = time.perf_counter()
                stage = [
                    pool.submit(client.put_item, TableName=TABLE, Item=item),
                    pool.submit(client.batch_write_item, RequestItems={TABLE: postings}),
                    pool.submit(client.put_item, TableName=TABLE, Item=record),
                ]
                for future in stage:
                    future.result()
                sync_ms.append((time.perf_counter() - started) * 1000)
        print(
            f"DynamoDB Local {engine.endpoint}, {args.writes} writes one after the other, "
            f"consumer poll {args.poll_ms:.0f} ms when idle, writer check {args.check_ms:.0f} ms"
        )
        print(f"stream: write until searchable  {percentiles(stream_ms)}")
        print(
            f"        writer calls: PutItem + {statistics.mean(reads):.1f} GetItem on average "
            f"(max {max(reads)}), i.e. {1 + statistics.mean(reads):.1f} sequential round trips"
        )
        print(f"sync:   item + postings + record, one stage  {percentiles(sync_ms)}")
    finally:
        engine.stop()


if __name__ == "__main__":
    main()
