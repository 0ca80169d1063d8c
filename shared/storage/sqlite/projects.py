"""Projects: the records of the `projects/<name>` areas and their members."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from shared.domain import Project
from shared.storage.sqlite.base import SqliteBase
from shared.storage.values import from_us, to_us


def member_projects(conn: sqlite3.Connection, tenant: str, nutzer: str) -> frozenset[str]:
    """The projects `nutzer` is a member of (index `project_members_by_nutzer`)."""
    rows = conn.execute(
        "SELECT project FROM project_members WHERE tenant = ? AND nutzer = ?", (tenant, nutzer)
    ).fetchall()
    return frozenset(project for (project,) in rows)


class ProjectStore(SqliteBase):
    """The project part of `StoragePort`."""

    def create_project(self, project: Project) -> bool:
        members = sorted({project.owner, *project.members})
        with self._write() as conn:
            try:
                conn.execute(
                    "INSERT INTO projects (tenant, name, owner, created_at) VALUES (?, ?, ?, ?)",
                    (project.tenant, project.name, project.owner, to_us(project.created_at)),
                )
            except sqlite3.IntegrityError:
                return False
            self._insert_members(conn, project.tenant, project.name, members)
        return True

    def get_project(self, tenant: str, name: str) -> Project | None:
        with self._snapshot() as conn:
            rows = conn.execute(
                "SELECT owner, created_at FROM projects WHERE tenant = ? AND name = ?",
                (tenant, name),
            ).fetchall()
            if not rows:
                return None
            members = conn.execute(
                "SELECT nutzer FROM project_members WHERE tenant = ? AND project = ?",
                (tenant, name),
            ).fetchall()
        owner, created_at = rows[0]
        return Project(
            tenant=tenant,
            name=name,
            owner=owner,
            created_at=from_us(created_at),
            members=frozenset(nutzer for (nutzer,) in members),
        )

    def add_project_members(self, tenant: str, name: str, members: Sequence[str]) -> bool:
        with self._write() as conn:
            exists = conn.execute(
                "SELECT 1 FROM projects WHERE tenant = ? AND name = ?", (tenant, name)
            ).fetchall()
            if not exists:
                return False
            self._insert_members(conn, tenant, name, sorted(set(members)))
        return True

    def remove_project_members(self, tenant: str, name: str, members: Sequence[str]) -> bool:
        with self._write() as conn:
            exists = conn.execute(
                "SELECT 1 FROM projects WHERE tenant = ? AND name = ?", (tenant, name)
            ).fetchall()
            if not exists:
                return False
            conn.executemany(
                "DELETE FROM project_members WHERE tenant = ? AND project = ? AND nutzer = ?",
                [(tenant, name, nutzer) for nutzer in sorted(set(members))],
            )
        return True

    def projects_of(self, tenant: str, nutzer: str) -> frozenset[str]:
        return member_projects(self._conn(), tenant, nutzer)

    @staticmethod
    def _insert_members(
        conn: sqlite3.Connection, tenant: str, name: str, members: Sequence[str]
    ) -> None:
        conn.executemany(
            "INSERT OR IGNORE INTO project_members (tenant, project, nutzer) VALUES (?, ?, ?)",
            [(tenant, name, nutzer) for nutzer in members],
        )
