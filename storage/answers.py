"""Keep the answers owed to acknowledged interactions until they are given: their token, game and version."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from storage.backends import Backend


@dataclass(frozen=True)
class PendingAnswer:
    """An interaction acknowledged with "thinking…" whose answer (the board of `version`) was not yet given."""

    interaction_id: int
    application_id: int
    token: str
    game_id: int
    version: int
    user_id: int
    created_at: float
    """Unix time the interaction was created; its token is valid 15 minutes from then."""


class PendingAnswers:
    """Save, list and forget pending answers on the bot's database (SQLite or PostgreSQL)."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    @staticmethod
    def saving(answer: PendingAnswer) -> tuple[str, tuple[object, ...]]:
        """Return the statement that remembers an answer owed, to run in the transaction that saves its move."""
        return (
            "INSERT INTO pending_answers (interaction_id, application_id, token, game_id, version, user_id, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (interaction_id) DO UPDATE SET game_id = excluded.game_id, version = excluded.version",
            (
                answer.interaction_id,
                answer.application_id,
                answer.token,
                answer.game_id,
                answer.version,
                answer.user_id,
                answer.created_at,
            ),
        )

    async def save(self, answer: PendingAnswer) -> None:
        """Remember an answer owed on its own (a second save of the same interaction keeps the newest version)."""
        await self.backend.execute(*self.saving(answer))

    async def save_many(self, answers: Sequence[PendingAnswer]) -> None:
        """Remember several answers owed, in one transaction."""
        if not answers:
            return
        statement = self.saving(answers[0])[0]
        rows = [self.saving(answer)[1] for answer in answers]
        # Urgent: the moves these answers are owed for wait for this write to be acknowledged at all.
        await self.backend.run(lambda tx: tx.executemany(statement, rows), urgent=True)

    async def forget(self, *interaction_ids: int) -> None:
        """Drop answers that were given (or can no longer be)."""
        if interaction_ids:
            marks = ", ".join("?" for _ in interaction_ids)
            await self.backend.execute(
                f"DELETE FROM pending_answers WHERE interaction_id IN ({marks})", tuple(interaction_ids)
            )

    async def forget_older_than(self, created_before: float) -> int:
        """Drop every answer whose interaction was created before a Unix time; return how many."""
        return await self.backend.execute("DELETE FROM pending_answers WHERE created_at < ?", (created_before,))

    async def all(self) -> list[PendingAnswer]:
        """Return every answer still owed, oldest first."""
        rows = await self.backend.fetch(
            "SELECT interaction_id, application_id, token, game_id, version, user_id, created_at"
            " FROM pending_answers ORDER BY created_at"
        )
        return [PendingAnswer(*(r[i] for i in range(7))) for r in rows]
