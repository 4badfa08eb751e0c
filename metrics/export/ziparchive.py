"""A small zip writer whose members arrive already deflated, so that deflating can run in threads.

Python's zipfile compresses each member itself, in the writing thread. Here a member is given as
raw deflate parts made elsewhere (zlib.compressobj(level, DEFLATED, -15), every part but the last
ended with Z_SYNC_FLUSH, the last with Z_FINISH: their concatenation is one deflate stream), or as
bytes stored as they are. Every member is dated 1980-01-01 00:00 and carries no extra fields, so
the archive says nothing about when or where it was made. No zip64: members and the archive stay
under 4 GiB (a CSV of about 100 million reviews); beyond that it raises TooLarge.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import BinaryIO

STORED, DEFLATED = 0, 8
_DOS_TIME, _DOS_DATE = 0, (1 << 5) | 1  # 1980-01-01 00:00:00
_VERSION = 20  # 2.0: deflate
_MADE_BY = (3 << 8) | _VERSION  # Unix, so the file mode below applies
_FILE_MODE = 0o100644 << 16  # a regular file, rw-r--r--
_LIMIT = 0xFFFFFFFF


class TooLarge(ValueError):
    """The archive would need zip64 (a member or the whole over 4 GiB, or 65,535 members)."""


@dataclass(frozen=True)
class _Entry:
    name: bytes
    method: int
    crc: int
    compressed: int
    size: int
    offset: int


def deflate_part(data: bytes, last: bool, level: int = 1) -> bytes:
    """Return `data` as raw deflate blocks that the next part can follow (or that end the stream)."""
    compressor = zlib.compressobj(level, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH)


class ZipWriter:
    """Writes members one after another to a binary file, then the central directory on close()."""

    def __init__(self, file: BinaryIO) -> None:
        self.file = file
        self.entries: list[_Entry] = []
        self.offset = 0

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:  # a raw file may take fewer bytes than given
            written = self.file.write(view)
            view = view[len(view) if written is None else written :]
        self.offset += len(data)

    def add(self, name: str, parts: Sequence[bytes], crc: int, size: int, method: int) -> None:
        """Write a member: its bytes as stored or deflated `parts`, the CRC-32 and size of the original."""
        compressed = sum(len(p) for p in parts)
        if max(compressed, size, self.offset) >= _LIMIT:
            raise TooLarge("the export is larger than a zip without zip64 can hold (4 GiB)")
        encoded = name.encode("ascii")
        entry = _Entry(encoded, method, crc & _LIMIT, compressed, size, self.offset)
        header = (0x04034B50, _VERSION, 0, method, _DOS_TIME, _DOS_DATE, entry.crc, compressed, size, len(encoded), 0)
        self._write(struct.pack("<IHHHHHIIIHH", *header) + encoded)
        for part in parts:
            self._write(part)
        self.entries.append(entry)

    def add_bytes(self, name: str, data: bytes, deflate: bool = True) -> None:
        """Write a member given whole, deflated (at level 1) or stored."""
        parts = [deflate_part(data, last=True)] if deflate else [data]
        self.add(name, parts, zlib.crc32(data), len(data), DEFLATED if deflate else STORED)

    def close(self) -> None:
        """Write the central directory and its end record (the file itself is the caller's to close)."""
        start = self.offset
        for e in self.entries:
            versions = (0x02014B50, _MADE_BY, _VERSION, 0, e.method, _DOS_TIME, _DOS_DATE)
            sizes = (e.crc, e.compressed, e.size, len(e.name), 0, 0, 0, 0, _FILE_MODE, e.offset)
            self._write(struct.pack("<IHHHHHHIIIHHHHHII", *versions, *sizes) + e.name)
        if len(self.entries) >= 0xFFFF or self.offset >= _LIMIT:
            raise TooLarge("the export is larger than a zip without zip64 can hold (4 GiB)")
        count = len(self.entries)
        self._write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, self.offset - start, start, 0))
