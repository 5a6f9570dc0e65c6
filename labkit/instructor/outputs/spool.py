"""The run's records on disk: each student's record and feedback in a file of the staging folder as they are
made, read back in the class's order as often as an output needs them, so memory stays flat in the class."""

from __future__ import annotations

import hashlib
import json


class Spool:
    """Each student's record and feedback on disk as they are made (in a file of the run's staging folder), read
    back in the class's order as often as an output needs them: memory holds only where each one is and its
    digest.  What is read back must match that digest: outside any sandbox (level `none`) a submission can
    write wherever the grader can while it runs, and nothing it wrote may reach an output (a change raises
    `SpoolChanged`; bytes added at the end are never read)."""

    def __init__(self, path) -> None:
        self.file = open(path, "x+b", buffering=0)  # noqa: SIM115  (unbuffered: every read is what the disk holds)
        self.places: dict[int, tuple] = {}  # index -> (offset, record's length, feedback's length, digest)
        self.end = 0

    def put(self, index: int, document: dict, feedback: str) -> None:
        record, said = json.dumps(document, ensure_ascii=False).encode("utf-8"), feedback.encode("utf-8")
        entry = memoryview(record + said)
        self.places[index] = (self.end, len(record), len(said), hashlib.sha256(entry).digest())
        self.file.seek(self.end)
        while entry:
            entry = entry[self.file.write(entry) :]
        self.end += len(record) + len(said)

    def __len__(self) -> int:
        return len(self.places)

    def __iter__(self):
        """The records, in the class's order."""
        for document, _ in self.entries():
            yield document

    def entries(self):
        """(record, feedback) of every student, in the class's order."""
        for index in sorted(self.places):
            offset, record, feedback, digest = self.places[index]
            self.file.seek(offset)
            entry = self.file.read(record + feedback)
            if hashlib.sha256(entry).digest() != digest:
                raise SpoolChanged(f"{self.file.name} was changed while grading (by a submission outside any sandbox?)")
            yield json.loads(entry[:record]), entry[record:].decode("utf-8")

    def close(self) -> None:
        self.file.close()


class SpoolChanged(OSError):
    """The run's own record of a student is not what it wrote: nothing of this run may be written."""
