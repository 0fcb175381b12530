"""The answers journal: on disk 0600 before a promise returns, taken over only from processes gone."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from storage.answer_journal import AnswerJournal
from storage.answers import PendingAnswer


def files(folder: Path) -> list[Path]:
    """Return the files in a folder."""
    return list(folder.iterdir())


def held(path: Path) -> bool:
    """Tell whether a process holds a file's lock (a second open file's lock is refused)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def owed(interaction_id: int) -> PendingAnswer:
    return PendingAnswer(interaction_id, 2, f"token-{interaction_id}", 7, 3, 100, 1_000.0)


async def test_promises_are_on_disk_private_and_taken_over_once_their_process_is_gone(tmp_path: Path) -> None:
    killed = AnswerJournal(tmp_path)
    await killed.save_many([owed(1), owed(2)])
    assert killed.path is not None and os.stat(killed.path).st_mode & 0o777 == 0o600
    with killed.path.open("ab") as cut:
        cut.write(b'{"interaction_id": 3, "tok')  # a line the kill cut short
    alive = AnswerJournal(tmp_path)
    assert await alive.take_over() == [], "a file whose process still holds it is not taken"
    killed.close()  # the kernel drops a killed process's lock the same way
    successor = AnswerJournal(tmp_path)
    assert await successor.take_over() == [owed(1), owed(2)]
    assert successor.path is not None and files(tmp_path) == [successor.path], "the old file is gone"
    assert await AnswerJournal(tmp_path).take_over() == [], "taken over by one process only"
    successor.close()
    assert await AnswerJournal(tmp_path).take_over() == [owed(1), owed(2)], "kept until answered"


async def test_keeping_only_some_answers_rewrites_the_file_and_none_removes_it(tmp_path: Path) -> None:
    journal = AnswerJournal(tmp_path)
    await journal.save_many([owed(1), owed(2), owed(3)])
    await journal.keep_only([owed(2)])
    assert journal.path is not None and journal._fd is not None
    assert held(journal.path), "still locked by this process after the rewrite"
    await journal.save_many([owed(4)])
    journal.close()
    assert await AnswerJournal(tmp_path).take_over() == [owed(2), owed(4)]
    emptied = AnswerJournal(tmp_path / "emptied")
    await emptied.save_many([owed(5)])
    await emptied.keep_only([])
    assert emptied.path is None and files(tmp_path / "emptied") == []
    emptied.close()
