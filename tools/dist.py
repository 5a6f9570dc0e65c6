"""Builds what leaves this repository: the student handout (`make dist`) and the Gradescope bundle.

handout:     dist/lab09-step8/ and dist/lab09-step8.tar.gz — the stub, the harness, the sheets, the
             Makefile; nothing of solutions/, tests/ or tools/.
gradescope:  dist/gradescope-autograder.zip — setup.sh and run_autograder at the root, the grader
             and the harness without the stub.
Both archives are reproducible: sorted entries, fixed times, owners and modes.
"""

from __future__ import annotations

import gzip
import io
import shutil
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
NAME = "lab09-step8"
HANDOUT_TOP = ("Makefile", "lab.py", "TASK.md", "TASK.en.md", "requirements.txt", "pytest.ini", ".gitignore")


def _tree(folder: str) -> list[Path]:
    return [p.relative_to(ROOT) for p in sorted((ROOT / folder).rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts]


def handout_files() -> list[Path]:
    """Every file of the handout, relative to the lab."""
    return [Path(name) for name in HANDOUT_TOP] + _tree("framework")


def gradescope_files() -> dict[str, Path]:
    """Name in the bundle -> file of the lab."""
    files = {p.as_posix(): ROOT / p for p in _tree("framework") + _tree("tools")
             if p.as_posix() != "framework/student.py" and "gradescope" not in p.parts}
    files.update({name: ROOT / "tools" / "gradescope" / name for name in ("setup.sh", "run_autograder")})
    return files


def handout() -> Path:
    folder = DIST / NAME
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        directories = sorted({parent for f in handout_files() for parent in f.parents if parent != Path(".")})
        for relative in sorted(directories + handout_files()):
            source, target = ROOT / relative, folder / relative
            info = tarfile.TarInfo(f"{NAME}/{relative.as_posix()}")
            if relative in directories:
                target.mkdir(parents=True, exist_ok=True)
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                tar.addfile(info)
                continue
            shutil.copyfile(source, target)
            data = source.read_bytes()
            info.size, info.mode = len(data), 0o644
            tar.addfile(info, io.BytesIO(data))
    archive = DIST / f"{NAME}.tar.gz"
    with open(archive, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as packed:
        packed.write(buffer.getvalue())
    return archive


def gradescope() -> Path:
    DIST.mkdir(exist_ok=True)
    archive = DIST / "gradescope-autograder.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name, source in sorted(gradescope_files().items()):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if name in ("setup.sh", "run_autograder") else 0o644) << 16
            bundle.writestr(info, source.read_bytes(), zipfile.ZIP_DEFLATED)
    return archive


if __name__ == "__main__":
    built = {"handout": handout, "gradescope": gradescope}[sys.argv[1] if len(sys.argv) > 1 else "handout"]()
    print(f"{built.relative_to(ROOT)}")
