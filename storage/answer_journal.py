"""Keep the answers promised before their move is saved in a local file, so a slow database cannot lose them.

A move still saving near Discord's 3 s deadline is acknowledged first ("thinking…"); the answer it then owes
must outlive a crash although the database is what is slow. Each process appends those promises to its own
file (`answers-<pid>-<random>.jsonl`, 0600: it holds interaction tokens) under an exclusive `flock`, fsynced
before the acknowledgement goes out. A process that starts takes over every file whose lock is free (its
owner died; the kernel drops the lock of a killed process) and answers those interactions itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import os
import secrets
import threading
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from storage.answers import PendingAnswer

PREFIX = "answers-"
SUFFIX = ".jsonl"
PRIVATE_MODE = 0o600


def _lines(answers: Sequence[PendingAnswer]) -> bytes:
    """Return the journal lines of some answers (one JSON object a line)."""
    return b"".join(json.dumps(asdict(a), separators=(",", ":")).encode() + b"\n" for a in answers)


def _read(fd: int) -> list[PendingAnswer]:
    """Return the answers a journal file holds; a line cut short by a crash is skipped."""
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    found = []
    for line in b"".join(chunks).splitlines():
        with contextlib.suppress(ValueError, TypeError):
            found.append(PendingAnswer(**json.loads(line)))
    return found


def _locked(path: Path) -> int | None:
    """Open a file and take its exclusive lock; None when another process holds it or the file went away."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND)
    except FileNotFoundError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        if os.fstat(fd).st_ino != os.stat(path).st_ino:  # taken over and removed by another process meanwhile
            raise FileNotFoundError(path)
    except OSError:
        os.close(fd)
        return None
    return fd


class AnswerJournal:
    """Append promised answers to this process's own locked file; take over the files of processes gone."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path: Path | None = None
        self._fd: int | None = None
        self._lock = threading.Lock()

    def _create(self) -> int:
        """Create, lock and return a new file of this process (locked before anyone can see it by its name)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"{PREFIX}{os.getpid()}-{secrets.token_hex(4)}{SUFFIX}"
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_EXCL, PRIVATE_MODE)
        fcntl.flock(fd, fcntl.LOCK_EX)
        self.path = path
        return fd

    def _append(self, answers: Sequence[PendingAnswer]) -> None:
        """Write answers to this process's file and wait until they are on disk."""
        with self._lock:
            if self._fd is None:
                self._fd = self._create()
            os.write(self._fd, _lines(answers))
            os.fsync(self._fd)

    async def save_many(self, answers: Sequence[PendingAnswer]) -> None:
        """Remember answers owed, on disk once this returns (one fsync for all)."""
        if answers:
            await asyncio.to_thread(self._append, answers)

    def _replace(self, answers: Sequence[PendingAnswer]) -> None:
        """Write a new file holding only these answers in place of this process's file (none: remove it)."""
        with self._lock:
            old, old_path = self._fd, self.path
            self._fd = self.path = None
            if answers:
                fd = self._create()
                os.write(fd, _lines(answers))
                os.fsync(fd)
                self._fd = fd
            if old_path is not None:
                with contextlib.suppress(FileNotFoundError):
                    old_path.unlink()
            if old is not None:
                os.close(old)

    async def keep_only(self, answers: Sequence[PendingAnswer]) -> None:
        """Keep only these answers in the journal (the others were given or are saved in the database)."""
        await asyncio.to_thread(self._replace, answers)

    def _take_over(self) -> list[PendingAnswer]:
        """Move the answers of every file whose owner is gone into this process's own file; return them."""
        if not self.folder.is_dir():
            return []
        taken: list[PendingAnswer] = []
        held: list[tuple[int, Path]] = []
        try:
            for path in sorted(self.folder.glob(f"{PREFIX}*{SUFFIX}")):
                if path == self.path:
                    continue
                fd = _locked(path)
                if fd is not None:
                    held.append((fd, path))
                    taken += _read(fd)
            if taken:
                self._append(taken)  # on disk under this process's lock before the old files go
            for _fd, path in held:
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()
        finally:
            for fd, _path in held:
                os.close(fd)
        return taken

    async def take_over(self) -> list[PendingAnswer]:
        """Return the answers that processes gone (killed) had promised, now kept in this process's file."""
        return await asyncio.to_thread(self._take_over)

    def close(self) -> None:
        """Release this process's file (left on disk if it still holds answers, for the next start)."""
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None
