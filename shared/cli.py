"""`brain` command line: serve, token, expire, consolidate, import, export, reindex, project,
user, oauth."""

from __future__ import annotations

import argparse
import json
import signal
import socket
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

from starlette.types import ASGIApp

from shared.auth.claims import TokenVerifier
from shared.auth.local_tokens import LocalTokenIssuer
from shared.auth.oauth.server import OAuthServer
from shared.auth.principal import ALL_SCOPES
from shared.auth.verifiers import build_verifier, local_issuer
from shared.cli_oauth import register as register_oauth_commands
from shared.cli_oauth import serving_auth, startup_lines
from shared.config import Settings
from shared.data_dir import DataDirUnusable
from shared.domain import Project
from shared.embedding.factory import build_embedder
from shared.logs import configure_logging
from shared.services.areas import add_project_members, remove_project_members
from shared.services.context import ServiceContext, utc_now
from shared.services.expiry import PeriodicSweep, sweep_expired
from shared.storage.factory import open_storage
from shared.validation.errors import RequestRejected
from shared.validation.paths import normal_area


def _settings(args: argparse.Namespace) -> Settings:
    overrides: dict[str, Any] = {}
    if getattr(args, "data_dir", None) is not None:
        overrides["data_dir"] = Path(args.data_dir)
    if getattr(args, "backend", None) is not None:
        overrides["backend"] = args.backend
    return Settings(**overrides)


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto=IPPROTO_TCP: asyncio only sets TCP_NODELAY on accepted sockets whose proto says TCP;
    # without it every keep-alive response waits ~40 ms for a delayed ACK (Nagle).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    # Listen before the URL is printed: clients may connect while the app is still starting.
    sock.listen(2048)
    return sock


def cmd_serve(args: argparse.Namespace) -> int:
    from shared.server.app import build_app

    settings = _settings(args)
    configure_logging(settings.log_level)
    with open_storage(settings, bootstrap=args.bootstrap) as storage:
        # This server owns its store: calls left running by a dead one are over.
        storage.release_calls()
        context = ServiceContext(storage, settings, embedder=build_embedder(settings))
        verifier = build_verifier(settings)
        resolver, oauth = serving_auth(settings, verifier, args.bootstrap)
        app = build_app(context, resolver, settings, oauth=oauth)
        sweep = PeriodicSweep(storage, context.clock, args.expiry_interval)
        if args.expiry_interval > 0:
            sweep.start()
        try:
            profile = None if context.embedder is None else context.embedder.profile.hash
            _run_server(app, args.host, args.port, settings, verifier, oauth, profile)
        finally:
            sweep.stop()
            if oauth is not None:
                oauth.close()
    print("Brain gestoppt.", flush=True)
    return 0


def _run_server(
    app: ASGIApp,
    host_arg: str,
    port_arg: int,
    settings: Settings,
    verifier: TokenVerifier,
    oauth: OAuthServer | None,
    profile: str | None = None,
) -> None:
    import uvicorn

    from shared.server.app import MCP_PATH

    sock = _bind(host_arg, port_arg)
    host, port = sock.getsockname()[:2]
    shown_host = f"[{host}]" if ":" in host else host
    print(f"MCP endpoint: http://{shown_host}:{port}{MCP_PATH}", flush=True)
    if isinstance(verifier, LocalTokenIssuer):
        print(f"Token: {verifier.development_token(settings.dev_token_ttl_s)}", flush=True)
    else:
        print(f"Token: von {settings.oidc_issuer} (OIDC)", flush=True)
    if settings.backend == "sqlite":
        print(f"Daten: {settings.data_dir.resolve()}", flush=True)
    else:
        print(
            f"Daten: DynamoDB {settings.table_name}, S3 Vectors {settings.bucket_name}",
            flush=True,
        )
    if profile is not None:
        print(f"Embeddings: {settings.embedder}, Profil {profile} (serverseitig)", flush=True)
    base = f"http://{shown_host}:{port}"
    print(f"REST-API: {base}/api/memory (Dokumentation: {base}/docs/api/memory)", flush=True)
    for line in startup_lines(settings, oauth, base):
        print(line, flush=True)

    from shared.server.http_limits import guarded_protocol

    config = uvicorn.Config(
        app,
        log_level="warning",
        lifespan="on",
        http=guarded_protocol(
            settings.http_header_timeout_s,
            settings.http_max_connections,
            idle_timeout_s=settings.http_idle_timeout_s,
            max_per_client=settings.http_max_connections_per_client,
        ),
        proxy_headers=False,  # forwarded headers are validated by the app, not trusted here
    )
    server = uvicorn.Server(config)
    # While serving, uvicorn turns SIGINT/SIGTERM into a graceful shutdown and afterwards
    # re-raises the signal to the handler that was installed before; make that one a no-op so
    # the process ends through the code below with exit status 0.
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _after_shutdown)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()


def _after_shutdown(signum: int, frame: FrameType | None) -> None:
    """Signals that arrive after the graceful shutdown need no further action."""


def cmd_expire(args: argparse.Namespace) -> int:
    """Run the expiry sweep once and print what it deleted."""
    settings = _settings(args)
    with open_storage(settings) as storage:
        deleted = sweep_expired(storage, utc_now(), args.limit)
    for item in deleted:
        print(f"Gelöscht: {item.tenant} {item.memory_id}")
    print(f"Abgelaufene Erinnerungen gelöscht: {len(deleted)}")
    return 0


def cmd_consolidate(args: argparse.Namespace) -> int:
    """Merge the near-duplicate clusters of a tenant's areas once (services/consolidate.py);
    --dry-run lists them and writes nothing."""
    import time

    from shared.services.consolidate import consolidate

    settings = _settings(args)
    ends = None if args.max_seconds is None else time.monotonic() + args.max_seconds
    with open_storage(settings) as storage:
        ctx = ServiceContext(storage, settings)
        outcome = consolidate(
            ctx,
            args.tenant,
            areas=args.bereich,
            dry_run=args.dry_run,
            stop=lambda: ends is not None and time.monotonic() > ends,
        )
    verb = "würde zusammenführen" if args.dry_run else "zusammengeführt"
    for cluster in outcome.clusters:
        members = ", ".join(str(m) for m in cluster.members)
        print(f"{cluster.area}: {cluster.survivor} behalten, {verb}: {members}")
    if args.dry_run:
        print(f"Trockenlauf: {len(outcome.clusters)} Cluster, nichts geändert")
    else:
        print(
            f"Konsolidiert: {len(outcome.clusters)} Cluster, {len(outcome.removed)} "
            f"Erinnerungen entfernt, {outcome.ratings_moved} Bewertungen übernommen"
        )
    if outcome.not_reached:
        print(
            f"Zeitbudget erreicht: {len(outcome.not_reached)} Bereiche nicht bearbeitet "
            f"({', '.join(outcome.not_reached)}); erneut ausführen"
        )
    return 0


def cmd_token(args: argparse.Namespace) -> int:
    settings = _settings(args)
    issuer = local_issuer(settings)
    scopes = args.scopes.split()
    unknown = sorted(set(scopes) - set(ALL_SCOPES))
    if unknown:
        print(f"Unbekannte Scopes: {', '.join(unknown)}", file=sys.stderr)
        return 2
    token = issuer.issue(
        tenant=args.tenant,
        subject=args.subject or f"{args.tenant}:{args.nutzer}",
        nutzer=_split(args.nutzer),
        agents=_split(args.agent),
        scopes=scopes,
        teams=_split(args.teams or ""),
        projects=_split(args.projects or ""),
        profile=args.profile,
        account=args.tenant,
        device="brain-token",
        ttl_seconds=args.ttl,
    )
    print(f"Token: {token}")
    return 0


def _split(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


def cmd_import(args: argparse.Namespace) -> int:
    """Import JSON Lines as `brain export` writes them (services/imports.py), as a write of
    the operator `--nutzer`."""
    from shared.services.imports import import_file

    settings = _settings(args)
    with open_storage(settings) as storage:
        context = ServiceContext(storage, settings, embedder=build_embedder(settings))
        return import_file(
            context, Path(args.file), args.tenant, args.nutzer, args.agent, dict(args.team)
        )


def cmd_export(args: argparse.Namespace) -> int:
    """Write a tenant's brain entries and live memories as JSON Lines (`brain import`)."""
    from shared.services.export import export_lines

    settings = _settings(args)
    count = 0
    with open_storage(settings) as storage, _output(args.file) as out:
        for line in export_lines(ServiceContext(storage, settings), args.tenant):
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
            count += 1
    print(f"Exportiert: {count} Zeilen", file=sys.stderr if args.file == "-" else sys.stdout)
    return 0


@contextmanager
def _output(name: str) -> Iterator[TextIO]:
    if name == "-":
        yield sys.stdout
        return
    with open(name, "w", encoding="utf-8") as out:
        yield out


def cmd_reindex(args: argparse.Namespace) -> int:
    """Rebuild the memory word index of one tenant from its stored memories (resumable);
    with BRAIN_EMBEDDER set, memories without a vector get the embedder's."""
    from shared.services.reindex import START, Cursor, Progress, reindex

    state = Path(args.state) if args.state else None
    start = START
    try:
        if args.resume_from:
            start = Cursor.parse(args.resume_from)
        elif state is not None and state.exists():
            start = Cursor.parse(state.read_text(encoding="utf-8"))
    except ValueError as exc:
        print(str(exc), file=sys.stderr)
        return 2

    def report(progress: Progress) -> None:
        where = str(progress.cursor) if progress.cursor else "fertig"
        if state is not None and progress.cursor is not None:
            state.write_text(str(progress.cursor), encoding="utf-8")
        print(
            f"Neu indexiert: {progress.reindexed}, übersprungen: {progress.skipped}, "
            f"fehlgeschlagen: {len(progress.failed)} — weiter bei: {where}",
            flush=True,
        )

    settings = _settings(args)
    configure_logging(settings.log_level)
    with open_storage(settings) as storage:
        context = ServiceContext(storage, settings, embedder=build_embedder(settings))
        done = reindex(context, args.tenant, start, page=args.page, on_page=report)
    if state is not None and state.exists():
        state.unlink()
    for memory_id in done.failed:
        print(f"Nicht neu indexiert: {memory_id} (erneut ausführen)", file=sys.stderr)
    print(f"Reindex von {args.tenant} abgeschlossen: {done.reindexed} Erinnerungen.")
    return 0 if not done.failed else 1


def cmd_project_add_member(args: argparse.Namespace) -> int:
    """The owner of a project adds members (the same rule the REST API applies)."""
    return _change_members(args, add_project_members)


def cmd_project_remove_member(args: argparse.Namespace) -> int:
    """The owner of a project removes members (the same rule the REST API applies)."""
    return _change_members(args, remove_project_members)


def _change_members(
    args: argparse.Namespace,
    change: Callable[[ServiceContext, str, str, str, Any], Project],
) -> int:
    settings = _settings(args)
    with open_storage(settings) as storage:
        context = ServiceContext(storage, settings)
        try:
            project = change(context, args.tenant, args.owner, args.project, list(args.members))
        except RequestRejected as rejected:
            for error in rejected.errors:
                print(f"{error.feld}: {error.meldung}", file=sys.stderr)
            return 1
    print(f"Projekt {project.name} (Eigentümer {project.owner})")
    print(f"Mitglieder: {', '.join(sorted(project.members))}")
    return 0


def _team_members(text: str) -> tuple[str, list[str]]:
    """`--team <team>=<nutzer>,…` of `brain import`: the team (normal form) and its members."""
    team, _, members = text.partition("=")
    area = normal_area(f"teams/{team}")
    if area is None or not _split(members):
        raise argparse.ArgumentTypeError(
            "--team erwartet <team>=<nutzer>,<nutzer>…; Teamnamen aus a-z, 0-9, '.', '_', '-'"
        )
    return area.removeprefix("teams/"), _split(members)


def _page_size(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 100:
        raise argparse.ArgumentTypeError("muss zwischen 1 und 100 liegen")
    return value


def _positive_seconds(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError("muss eine positive Zahl von Sekunden sein")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="brain", description="Brain memory service for agents")
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="run the local MCP server (SQLite)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8787, help="0 picks a free port")
    serve.add_argument("--data-dir", default=None, help="default: .brain")
    serve.add_argument("--backend", choices=["sqlite", "aws"], default=None, help="default: sqlite")
    serve.add_argument(
        "--expiry-interval",
        type=float,
        default=60.0,
        help="seconds between expiry sweeps (0 = off); default 60",
    )
    serve.add_argument(
        "--bootstrap",
        action="store_true",
        help="aws: create the DynamoDB table and S3 bucket when missing",
    )
    serve.set_defaults(handler=cmd_serve)

    token = commands.add_parser("token", help="print a token for the local server")
    token.add_argument("--data-dir", default=None)
    token.add_argument("--tenant", required=True)
    token.add_argument("--nutzer", required=True, help="comma list; * for any")
    token.add_argument("--agent", required=True, help="comma list; * for any")
    token.add_argument("--scopes", default=" ".join(sorted(ALL_SCOPES)))
    token.add_argument("--teams", default="")
    token.add_argument("--projects", default="", help="comma list: project memberships")
    token.add_argument(
        "--profile", default="", help="client profile: empty (generic), chatgpt or claude"
    )
    token.add_argument("--subject", default="")
    token.add_argument("--ttl", type=int, default=24 * 3600, help="seconds")
    token.set_defaults(handler=cmd_token)

    expire = commands.add_parser("expire", help="delete expired short-term memories once")
    expire.add_argument("--data-dir", default=None)
    expire.add_argument("--backend", choices=["sqlite", "aws"], default=None)
    expire.add_argument("--limit", type=int, default=1000, help="at most this many per run")
    expire.set_defaults(handler=cmd_expire)

    consolidator = commands.add_parser(
        "consolidate",
        help="merge near-duplicate memories per area into their oldest (ratings, tags kept)",
    )
    _store_arguments(consolidator)
    consolidator.add_argument(
        "--dry-run", action="store_true", help="list the clusters, change nothing"
    )
    consolidator.add_argument(
        "--bereich", action="append", default=None, help="only this area (repeatable)"
    )
    consolidator.add_argument(
        "--max-seconds",
        type=_positive_seconds,
        default=None,
        help="start no new area after this many seconds (the rest: next run)",
    )
    consolidator.set_defaults(handler=cmd_consolidate)

    exporter = commands.add_parser(
        "export", help="write a tenant's brain entries and memories as JSONL (brain import)"
    )
    exporter.add_argument("file", help="output file; - for stdout")
    _store_arguments(exporter)
    exporter.set_defaults(handler=cmd_export)

    importer = commands.add_parser(
        "import", help="import brain entries and memories from a JSONL file (brain export)"
    )
    importer.add_argument("file")
    _store_arguments(importer)
    importer.add_argument("--nutzer", default="import")
    importer.add_argument("--agent", default="brain-import")
    importer.add_argument(
        "--team",
        action="append",
        type=_team_members,
        default=[],
        metavar="TEAM=NUTZER,…",
        help="members of a team (repeatable); a team memory of anyone else is refused",
    )
    importer.set_defaults(handler=cmd_import)

    reindexer = commands.add_parser(
        "reindex",
        help="rebuild a tenant's memory search index from its stored memories (resumable, "
        "safe while serving)",
    )
    _store_arguments(reindexer)
    reindexer.add_argument("--page", type=_page_size, default=100, help="IDs per page (1-100)")
    reindexer.add_argument(
        "--state", default=None, help="file that keeps the cursor: a stopped run resumes there"
    )
    reindexer.add_argument("--resume-from", default=None, help="cursor, e.g. longterm:501")
    reindexer.set_defaults(handler=cmd_reindex)

    project = commands.add_parser("project", help="project areas and their members")
    project_commands = project.add_subparsers(dest="project_command", required=True)
    for name, help_text, members_help, handler in (
        (
            "add-member",
            "as the project's owner, add members to it",
            "nutzer to add",
            cmd_project_add_member,
        ),
        (
            "remove-member",
            "as the project's owner, remove members from it",
            "nutzer to remove",
            cmd_project_remove_member,
        ),
    ):
        member = project_commands.add_parser(name, help=help_text)
        member.add_argument("project", help="project name (the <p> of projects/<p>)")
        member.add_argument("members", nargs="+", help=members_help)
        member.add_argument("--owner", required=True, help="the owner's nutzer")
        _store_arguments(member)
        member.set_defaults(handler=handler)
    register_oauth_commands(commands, _settings)
    return parser


def _store_arguments(command: argparse.ArgumentParser) -> None:
    """--tenant, --data-dir and --backend: which tenant of which store a command works on."""
    command.add_argument("--tenant", default="local")
    command.add_argument("--data-dir", default=None)
    command.add_argument("--backend", choices=["sqlite", "aws"], default=None)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        result: int = args.handler(args)
    except DataDirUnusable as exc:
        print(str(exc), file=sys.stderr)
        return 2
    return result


if __name__ == "__main__":
    raise SystemExit(main())
