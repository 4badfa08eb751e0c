"""The add-on's message catalogs (gettext): extract, update, compile and check.

    python scripts/catalogs.py extract   # metrics/explain/locale/fsrs_calibration.pot from the marked messages
    python scripts/catalogs.py update    # every <language>.po gets the template's new messages, loses the gone
    python scripts/catalogs.py compile [LANGUAGE ...]  # <language>/LC_MESSAGES/fsrs_calibration.mo (make does it)
    python scripts/catalogs.py check     # every message translated, same fields, the language's plural forms

A message is the string literal inside N_(...), _(...), text(...) (its first argument), n_(...) and Nn_(...) (their
first two: a message with plural forms) or Words(...) (each of its texts) in metrics/, ui/, cli/ and the root
__init__.py. Only the standard library is used, so that packaging needs nothing else.
"""

from __future__ import annotations

import ast
import os
import re
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "metrics" / "explain" / "locale"
DOMAIN = "fsrs_calibration"
TEMPLATE = LOCALE / f"{DOMAIN}.pot"
SOURCES = ["metrics", "ui", "cli", "__init__.py"]
MARKERS = {"N_": 1, "_": 1, "text": 1, "n_": 2, "Nn_": 2}
FIELD = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)(?:[:!][^{}]*)?\}")

# Each shipped language's plural rule, as gettext writes it (CLDR's cardinal categories for integers).
PLURALS = {
    "ja": "nplurals=1; plural=0;",
    "ko": "nplurals=1; plural=0;",
    "vi": "nplurals=1; plural=0;",
    "zh_CN": "nplurals=1; plural=0;",
    "zh_TW": "nplurals=1; plural=0;",
    "de": "nplurals=2; plural=(n != 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "it": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
    "pt_BR": "nplurals=2; plural=(n > 1);",
    "he": "nplurals=3; plural=(n == 1 ? 0 : n == 2 ? 1 : 2);",
    "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "uk": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "pl": "nplurals=3; plural=(n == 1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "ar": "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);",
}


@dataclass
class Message:
    """One catalog entry: its English text (and plural), where it is used, and its translation(s)."""

    msgid: str
    plural: str = ""
    places: list[str] = field(default_factory=list)
    strings: list[str] = field(default_factory=list)  # msgstr, or msgstr[0..n-1] for a plural
    fuzzy: bool = False


def _literal(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _called(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def messages_of(path: Path) -> list[tuple[str, str, int]]:
    """Return (msgid, plural, line) of every marked message of one source file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if not isinstance(node, ast.Call):
            continue
        name = _called(node)
        args = [_literal(a) for a in node.args]
        if name == "Words":
            texts = args + [_literal(k.value) for k in node.keywords if k.arg in ("summary", "action", "why")]
            found += [(t, "", node.lineno) for t in texts if t]
        elif name in ("n_", "Nn_") and len(args) >= 2 and args[0] and args[1]:
            found.append((args[0], args[1], node.lineno))
        elif name in MARKERS and name not in ("n_", "Nn_") and args and args[0]:
            found.append((args[0], "", node.lineno))
    return found


def extract() -> dict[str, Message]:
    """Return the template's messages in alphabetical order, each with where it is used (kept in memory only: the
    catalogs carry no places, so that they change only when a message does)."""
    out: dict[str, Message] = {}
    files = [p for s in SOURCES for p in ([ROOT / s] if s.endswith(".py") else sorted((ROOT / s).rglob("*.py")))]
    for path in files:
        for msgid, plural, line in messages_of(path):
            entry = out.setdefault(msgid, Message(msgid, plural))
            entry.plural = entry.plural or plural
            entry.places.append(f"{path.relative_to(ROOT).as_posix()}:{line}")
    return {msgid: out[msgid] for msgid in sorted(out, key=lambda m: (m.casefold(), m))}


def _quote(s: str) -> str:
    body = s.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\n", "\\n")
    return f'"{body}"'


def _unquote(s: str) -> str:
    return ast.literal_eval(s) if s.startswith('"') else ""


def write_po(path: Path, header: str, entries: list[Message], template: bool = False) -> None:
    """Write a catalog (a .po, or the .pot when `template`), entries in the given order, without their places."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ['msgid ""', "msgstr " + _quote(header), ""]
    for m in entries:
        flags = (["fuzzy"] if m.fuzzy else []) + (["python-brace-format"] if FIELD.search(m.msgid) else [])
        lines += [f"#, {', '.join(flags)}"] if flags else []
        lines.append("msgid " + _quote(m.msgid))
        if m.plural:
            lines.append("msgid_plural " + _quote(m.plural))
            forms = m.strings or ["", ""]
            lines += [f"msgstr[{i}] " + _quote("" if template else s) for i, s in enumerate(forms)]
        else:
            lines.append("msgstr " + _quote("" if template or not m.strings else m.strings[0]))
        lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")


def read_po(path: Path) -> tuple[str, list[Message]]:
    """Return a catalog's header and its entries (a small reader for the files write_po writes)."""
    header, entries, m, key = "", [], None, ""
    for raw in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = raw.strip()
        if not line:
            if m is not None and m.msgid == "":
                header = m.strings[0] if m.strings else ""
            elif m is not None:
                entries.append(m)
            m, key = None, ""
            continue
        m = m or Message("")
        key = _read_line(m, line, key)
    return header, entries


def _read_line(m: Message, line: str, key: str) -> str:
    if line.startswith("#,"):
        m.fuzzy = "fuzzy" in line
    elif line.startswith("#:"):
        m.places.append(line[2:].strip())
    elif line.startswith("#"):
        pass
    elif line.startswith('"'):
        _append(m, key, _unquote(line))
    else:
        key, _, value = line.partition(" ")
        if key.startswith("msgstr"):
            m.strings.append("")
        _append(m, key, _unquote(value))
    return key


def _append(m: Message, key: str, value: str) -> None:
    if key == "msgid":
        m.msgid += value
    elif key == "msgid_plural":
        m.plural += value
    elif key.startswith("msgstr"):
        m.strings[-1] += value


def header_for(language: str) -> str:
    """Return a new catalog's header for a shipped language."""
    return (
        f"Project-Id-Version: FSRS Calibration\nLanguage: {language}\nMIME-Version: 1.0\n"
        f"Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\nPlural-Forms: {PLURALS[language]}\n"
    )


def nplurals(header: str) -> int:
    """Return the number of plural forms a catalog's header declares."""
    found = re.search(r"nplurals\s*=\s*(\d+)", header)
    return int(found.group(1)) if found else 2


def update(language: str, template: dict[str, Message]) -> None:
    """Bring one language's catalog in line with the template: new messages empty, gone ones dropped."""
    path = LOCALE / f"{language}.po"
    header, old = read_po(path) if path.exists() else (header_for(language), [])
    known = {m.msgid: m for m in old}
    n = nplurals(header)
    entries = []
    for msgid, t in template.items():
        was = known.get(msgid)
        strings = was.strings if was and was.strings and (len(was.strings) == n or not t.plural) else []
        strings = strings or ([""] * n if t.plural else [""])
        entries.append(Message(msgid, t.plural, t.places, strings, bool(was and was.fuzzy)))
    write_po(path, header, entries)


def compile_po(path: Path) -> Path:
    """Write the .mo of one catalog (untranslated and fuzzy entries left out: they fall back to English)."""
    header, entries = read_po(path)
    table = {"": header}
    for m in entries:
        if m.fuzzy or not any(m.strings):
            continue
        table[m.msgid + ("\0" + m.plural if m.plural else "")] = "\0".join(m.strings)
    out = LOCALE / path.stem / "LC_MESSAGES" / f"{DOMAIN}.mo"
    out.parent.mkdir(parents=True, exist_ok=True)
    own = out.with_name(f".{out.name}.{os.getpid()}")  # whole or not at all: a reader never sees half a file
    own.write_bytes(mo_bytes(table))
    os.replace(own, out)
    return out


def mo_bytes(table: dict[str, str]) -> bytes:
    """Return a GNU .mo file holding `table` (keys sorted, as gettext's binary search needs)."""
    keys = sorted(table)
    ids = [k.encode() for k in keys]
    strs = [table[k].encode() for k in keys]
    start = 7 * 4 + 16 * len(keys)
    offsets, data = [], b""
    for blob in ids + strs:
        offsets.append((len(blob), start + len(data)))
        data += blob + b"\0"
    head = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 28, 28 + 8 * len(keys), 0, 0)
    return head + b"".join(struct.pack("ii", n, o) for n, o in offsets) + data


def problems(language: str, template: dict[str, Message]) -> list[str]:
    """Return what is wrong with one language's catalog: missing, untranslated or fuzzy messages, fields that
    differ from the English, a wrong number of plural forms."""
    path = LOCALE / f"{language}.po"
    if not path.exists():
        return [f"{language}: no catalog {path.name}"]
    header, entries = read_po(path)
    out = [] if header_for(language).split("Plural-Forms: ")[1] in header else [f"{language}: wrong Plural-Forms"]
    have = {m.msgid: m for m in entries}
    for msgid, t in template.items():
        out += [f"{language}: {p}" for p in entry_problems(have.get(msgid), t, nplurals(header))]
    return out


def entry_problems(m: Message | None, t: Message, n: int) -> list[str]:
    """Return what is wrong with one translated entry against its template entry."""
    if m is None:
        return [f"missing {t.msgid!r}"]
    if m.fuzzy or not all(m.strings):
        return [f"untranslated {t.msgid!r}"]
    if t.plural and len(m.strings) != n:
        return [f"{len(m.strings)} plural forms, not {n}: {t.msgid!r}"]
    wanted = set(FIELD.findall(t.msgid)) | set(FIELD.findall(t.plural))
    out = []
    for s in m.strings:
        got = set(FIELD.findall(s))
        if got - wanted or (not t.plural and got != wanted):
            out.append(f"fields {sorted(got)} instead of {sorted(wanted)}: {t.msgid!r}")
    return out


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "compile"
    if command == "extract":
        write_po(TEMPLATE, header_for("de").replace("Language: de\n", ""), list(extract().values()), template=True)
    elif command == "update":
        template = {m.msgid: m for m in read_po(TEMPLATE)[1]}
        for language in argv[1:] or PLURALS:
            update(language, template)
    elif command == "compile":
        for path in sorted(LOCALE.glob("*.po")):
            if not argv[1:] or path.stem in argv[1:]:
                compile_po(path)
    elif command == "check":
        template = {m.msgid: m for m in read_po(TEMPLATE)[1]}
        found = [p for language in argv[1:] or PLURALS for p in problems(language, template)]
        print("\n".join(found[:50]) or "every catalog complete")
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
