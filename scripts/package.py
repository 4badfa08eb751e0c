"""Build dist/fsrs_calibration-<version>.ankiaddon: the add-on's own files plus numpy per platform.

The zip holds, with no top folder, the files of an allow-list (never tests, bench, tooling,
caches or meta.json) and `vendor/<tag>/` with numpy for CPython 3.13 on each platform Anki
25.07+ runs on, unpacked from the exact wheels of scripts/numpy-wheels.json (sha256 checked)
and trimmed of what is never imported (tests, f2py, typing stubs, C headers, static libraries).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "scripts" / "numpy-wheels.json"
ADDON_FILES = [
    "__init__.py",
    "bundled.py",
    "manifest.json",
    "config.json",
    "config.md",
    "README.md",
    "LICENSE",
]
ADDON_PACKAGES = ["metrics", "ui"]
ADDON_SUFFIXES = {".py", ".svg", ".png", ".css", ".mo"}  # .mo: the compiled message catalogs
FIXED_TIME = (2026, 1, 1, 0, 0, 0)  # reproducible zips

# Parts of a numpy wheel that the add-on never imports.
TRIM_DIRS = {"tests", "f2py", "_pyinstaller", "include", "_examples"}
TRIM_SUFFIXES = {".pyi", ".pxd", ".h", ".c", ".a", ".lib", ".pc"}
TRIM_NAMES = {"py.typed", "conftest.py", "RECORD", "INSTALLER", "REQUESTED", "entry_points.txt"}


def sha256(path: Path) -> str:
    """Return the hex sha256 of a file."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch_wheel(spec: dict, version: str, python: str, cache: Path) -> Path:
    """Return the wheel file of `spec`, downloaded from the registry if not cached, hash checked."""
    path = cache / spec["file"]
    if not path.exists() or sha256(path) != spec["sha256"]:
        cache.mkdir(parents=True, exist_ok=True)
        flags = "--quiet --no-deps --only-binary=:all: --implementation cp".split()
        target = ["--python-version", python, "--abi", "cp" + python.replace(".", ""), "--platform", spec["platform"]]
        cmd = [sys.executable, "-m", "pip", "download", *flags, *target, "-d", str(cache), f"numpy=={version}"]
        subprocess.run(cmd, check=True)
    if not path.exists():
        raise SystemExit(f"the registry did not give {spec['file']}")
    got = sha256(path)
    if got != spec["sha256"]:
        path.unlink()
        raise SystemExit(f"{spec['file']}: sha256 {got} does not match the lock file")
    return path


def keep_member(name: str) -> bool:
    """Return True for the wheel members the bundled numpy keeps."""
    parts = PurePosixPath(name).parts
    if any(p.endswith(".data") for p in parts[:1]):  # scripts (f2py, numpy-config)
        return False
    if TRIM_DIRS.intersection(parts[:-1]):
        return False
    if parts[-1] in TRIM_NAMES or PurePosixPath(name).suffix in TRIM_SUFFIXES:
        return False
    if len(parts) >= 3 and parts[0] == "numpy" and parts[1] == "_core" and parts[2] == "lib":
        return False  # npymath static library and pkg-config files
    return not name.endswith("/")


def addon_files() -> list[Path]:
    """Return the add-on's own files, relative to the repo root (allow-list)."""
    files = [Path(f) for f in ADDON_FILES]
    for package in ADDON_PACKAGES:
        for path in sorted((ROOT / package).rglob("*")):
            if path.is_file() and path.suffix in ADDON_SUFFIXES and "__pycache__" not in path.parts:
                files.append(path.relative_to(ROOT))
    return files


def _write(z: zipfile.ZipFile, name: str, data: bytes, executable: bool = False) -> None:
    info = zipfile.ZipInfo(name, FIXED_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = (0o755 if executable else 0o644) << 16
    z.writestr(info, data, compresslevel=6)


def compile_catalogs() -> None:
    """Compile every message catalog (scripts/catalogs.py, standard library only) into its .mo."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import catalogs

    catalogs.main(["compile"])


def build(out_dir: Path, cache: Path) -> Path:
    """Write the .ankiaddon and return its path (the message catalogs compiled first: never stale)."""
    compile_catalogs()
    manifest = json.loads((ROOT / "manifest.json").read_text())
    lock = json.loads(LOCK.read_text())
    target = out_dir / f"{manifest['package']}-{manifest['human_version']}.ankiaddon"
    out_dir.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".ankiaddon.part")
    try:
        with zipfile.ZipFile(partial, "w") as z:
            for rel in addon_files():
                _write(z, rel.as_posix(), (ROOT / rel).read_bytes())
            for tag, spec in sorted(lock["wheels"].items()):
                wheel = fetch_wheel(spec, lock["version"], lock["python"], cache)
                with zipfile.ZipFile(wheel) as whl:
                    for info in sorted(whl.infolist(), key=lambda i: i.filename):
                        if keep_member(info.filename):
                            _write(z, f"vendor/{tag}/{info.filename}", whl.read(info))
        os.replace(partial, target)
    finally:
        if partial.exists():
            partial.unlink()
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default=str(ROOT / "dist"))
    parser.add_argument("--cache", default=str(ROOT / "build" / "wheels"))
    args = parser.parse_args()
    path = build(Path(args.out), Path(args.cache))
    print(f"{path} ({path.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
