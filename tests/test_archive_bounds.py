"""Archives are bounded before they are parsed (issue 27 item 6, attack 9): a zip's central directory is sized and
counted from its end record (zip64's too) and refused past the budget before zipfile reads it; folder entries
count against the budget, in a zip, a tar and a folder on disk.

Attack 9 was an 88 MB zip of a million folder entries: zipfile read its whole directory during discovery (14.6 s,
558 MB in the grader's main process) and, folder entries being skipped before they were counted, no
`too_many_files`.  The fixture below is that zip, made in the test's temp dir as bytes (one local header, a
million directory records pointing at it: zipfile reads only the directory when it opens a zip)."""

import io
import struct
import zipfile

import pytest

from conftest import SOLUTION
from lms_fixtures import RIGHT, put, zip_bytes
from labkit.instructor.lms import archives, downloads
from labkit.instructor.lms.submissions import discover

NAME = b"d/"
LOCAL = struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, 0, 0, 0, 0, 0, 0, len(NAME), 0) + NAME
RECORD = (
    struct.pack(
        "<4s6H3L5H2L", b"PK\x01\x02", 0x0314, 20, 0, 0, 0, 0, 0, 0, 0, len(NAME), 0, 0, 0, 0, (0o40755 << 16) | 0x10, 0
    )
    + NAME
)  # a folder entry, made by Unix, at offset 0


def folder_bomb(entries: int, declared: int | None = None, zip64: bool = False) -> bytes:
    """A zip of `entries` folder entries `d/`; its end record declares `declared` of them (default: the truth,
    which past 65535 needs the zip64 records, written when `zip64`)."""
    directory = RECORD * entries
    declared = entries if declared is None else declared
    offset = len(LOCAL) + len(directory)
    tail = b""
    if zip64:
        tail = struct.pack(
            "<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, declared, declared, len(directory), len(LOCAL)
        )
        tail += struct.pack("<4sLQL", b"PK\x06\x07", 0, offset, 1)
        short, size, start = 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF
    else:
        short, size, start = declared & 0xFFFF, len(directory), len(LOCAL)
    return LOCAL + directory + tail + struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, short, short, size, start, 0)


ATTACK = 1_000_000  # attack 9's entries


@pytest.fixture
def parsed(monkeypatch):
    """The largest central directory zipfile turned into ZipInfos during the test (what attack 9 cost)."""
    largest = [0]
    real = zipfile.ZipFile._RealGetContents

    def counted(self):
        real(self)
        largest[0] = max(largest[0], len(self.filelist))

    monkeypatch.setattr(zipfile.ZipFile, "_RealGetContents", counted)
    return largest


def test_the_fixture_is_attack_9_as_zipfile_reads_it():
    """The bomb is a zip zipfile opens (at a smaller size here: the full one is what must never be opened)."""
    with zipfile.ZipFile(io.BytesIO(folder_bomb(70_000, zip64=True))) as bundle:
        assert len(bundle.infolist()) == 70_000 and all(info.is_dir() for info in bundle.infolist()[:3])
    assert len(folder_bomb(ATTACK, zip64=True)) > 45_000_000  # as large as what was filed (88 MB, longer names)


@pytest.mark.parametrize("shape", ["zip64", "count_lies", "plain"])
def test_a_students_own_folder_bomb_is_refused_before_zipfile_reads_it(tmp_path, parsed, shape):
    """A class folder (a plain one and a Moodle download) where one student hands in the bomb: that student is
    `too_many_files`, zipfile never reads the bomb's directory, and the class around it is graded as before.  The
    end record's count may lie (zipfile ignores it and reads the whole directory): the records are counted."""
    bomb = {
        "zip64": lambda: folder_bomb(ATTACK, zip64=True),
        "count_lies": lambda: folder_bomb(archives.MAX_MEMBERS + 5, declared=1),
        "plain": lambda: folder_bomb(archives.MAX_MEMBERS + 5),
    }[shape]()
    folder = put(
        tmp_path / "class",
        {
            "alice/student.py": RIGHT,
            "mallory.zip": bomb,
            "Bob Jones_1873401_assignsubmission_file/lab.zip": bomb,
            "Bob Jones_1873401_assignsubmission_file/student.py": RIGHT,
        },
    )
    by_id = {s.student: s for s in discover(folder)}
    assert parsed[0] < 10, "zipfile read the bomb's central directory"
    assert by_id["mallory"].status == "too_many_files"  # was bad_archive, or the whole directory parsed
    assert by_id["alice"].gradable and by_id["1873401"].attempts[0].files == ("student.py",)
    assert ("note.skipped", {"files": "lab.zip"}) in by_id["1873401"].notes


def test_a_students_upload_inside_the_lms_zip_is_refused_before_zipfile_reads_it(tmp_path, parsed):
    """Inside the LMS's zip a student's upload is inflated in memory (a deflated bomb is small), then bounded
    before zipfile reads it: too_many_files for that student, the next one graded."""
    raw = io.BytesIO()
    with zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("mallory_10001_50001_lab.zip", folder_bomb(ATTACK, zip64=True))
        bundle.writestr("alice_10002_50002_student.py", RIGHT)
    assert len(raw.getvalue()) < 1 << 20  # 48 MB of records deflate to almost nothing
    (tmp_path / "cs101-lab09_submissions.zip").write_bytes(raw.getvalue())
    mallory, alice = discover(tmp_path / "cs101-lab09_submissions.zip")
    assert parsed[0] < 10, "zipfile read the bomb's central directory"
    assert (mallory.student, mallory.status) == ("10001", "too_many_files")
    assert alice.gradable and alice.attempts[0].files == ("student.py",)


def test_submissions_itself_a_folder_bomb_is_refused_in_one_line(tmp_path, parsed, capsys):
    """SUBMISSIONS= the bomb (or a folder holding only it): one line naming what its directory lists and what to
    do, exit 2, nothing graded, nothing written, zipfile never reading it."""
    from labkit.instructor import grade

    bomb = tmp_path / "cs101-lab09_submissions.zip"
    bomb.write_bytes(folder_bomb(ATTACK, zip64=True))
    for source in (bomb, tmp_path):
        assert grade.main([str(source), "--out", str(tmp_path / "out")]) == 2
        [line] = capsys.readouterr().err.splitlines()
        assert line.startswith(f"SUBMISSIONS: {bomb.name} 的目录列了 {ATTACK} 个条目") and "最多 100000 个" in line
        with pytest.raises(downloads.Refused):
            discover(source)
    assert parsed[0] == 0 and not (tmp_path / "out").exists()
    bomb.unlink()  # 48 MB: not kept among the temp dirs pytest leaves behind


def test_the_lms_zip_lying_about_its_count_is_counted(tmp_path, parsed):
    """A class zip whose end record declares one entry and whose directory holds more than a class's: counted by
    walking its records (at most CLASS_MEMBERS + 1 of them), refused before zipfile reads it."""
    (tmp_path / "download.zip").write_bytes(folder_bomb(downloads.CLASS_MEMBERS + 1, declared=1))
    with pytest.raises(downloads.Refused, match="100001 个条目"):
        discover(tmp_path / "download.zip")
    assert parsed[0] == 0


def test_folder_entries_count_against_the_budget_in_every_reader(tmp_path, monkeypatch):
    """A zip, a tar.gz and a folder on disk of many empty folders and one student.py: the folders are entries of
    the student's budget (before, none of them counted), so each is too_many_files; an honest one still grades."""
    import tarfile

    monkeypatch.setattr(archives, "MAX_MEMBERS", 50)
    folders = [f"lab/d{index:03d}/" for index in range(60)]
    tar = io.BytesIO()
    with tarfile.open(fileobj=tar, mode="w:gz") as bundle:
        for name in folders:
            info = tarfile.TarInfo(name.rstrip("/"))
            info.type = tarfile.DIRTYPE
            bundle.addfile(info)
        info = tarfile.TarInfo("lab/student.py")
        info.size = len(RIGHT)
        bundle.addfile(info, io.BytesIO(RIGHT))
    folder = put(
        tmp_path / "class",
        {
            "zipped.zip": zip_bytes({**dict.fromkeys(folders, b""), "lab/student.py": RIGHT}),
            "tarred.tar.gz": tar.getvalue(),
            "walked/lab/student.py": RIGHT,
            "honest.zip": zip_bytes({"lab/": b"", "lab/student.py": RIGHT}),
        },
    )
    for name in folders:
        (folder / "walked" / name).mkdir(parents=True)
    by_id = {s.student: s for s in discover(folder)}
    assert {student: s.status for student, s in by_id.items()} == {
        "zipped": "too_many_files",
        "tarred": "too_many_files",
        "walked": "too_many_files",
        "honest": None,
    }


def test_the_lms_zip_counts_a_students_folders_as_the_folder_unzipped_does(tmp_path, monkeypatch):
    """Inside the LMS's zip a student's folder entries count against their budget, as their folders do on disk:
    the same download, zipped or not, gives the same rows."""
    monkeypatch.setattr(archives, "MAX_MEMBERS", 50)
    files = {f"Bob Jones_1873401_assignsubmission_file/lab/d{index:03d}/": b"" for index in range(60)}
    files.update(
        {
            "Bob Jones_1873401_assignsubmission_file/lab/student.py": RIGHT,
            "Ann Lee_1873402_assignsubmission_file/lab/student.py": RIGHT,
        }
    )
    (tmp_path / "CS101-Lab09-42.zip").write_bytes(zip_bytes(files))
    unzipped = put(tmp_path / "unzipped", {name: content for name, content in files.items() if not name.endswith("/")})
    for name in files:
        if name.endswith("/"):
            (unzipped / name).mkdir(parents=True, exist_ok=True)
    zipped = discover(tmp_path / "CS101-Lab09-42.zip")
    assert [(s.student, s.status) for s in zipped] == [("1873401", "too_many_files"), ("1873402", None)]
    assert zipped == discover(unzipped)


def test_an_honest_class_is_read_as_before(tmp_path):
    """The bound refuses nothing an honest class hands in: a zip with folder entries and a comment after its end
    record, one with zip64 records (what large archives carry)."""
    honest = io.BytesIO()
    with zipfile.ZipFile(honest, "w") as bundle:
        bundle.writestr("lab/", b"")
        bundle.writestr("lab/student.py", SOLUTION.read_bytes())
        bundle.comment = b"made by hand"
    zip64 = folder_bomb(3, zip64=True)
    directory = archives.zip_directory(io.BytesIO(zip64), 10, 10_000)
    assert (directory.entries, directory.size) == (3, 3 * len(RECORD))
    assert archives.zip_directory(io.BytesIO(honest.getvalue()), 10, 10_000).entries == 2
    folder = put(tmp_path / "class", {"alice.zip": honest.getvalue()})
    assert [s.attempts[0].files for s in discover(folder)] == [("alice.zip/lab/student.py",)]
