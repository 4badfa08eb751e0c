"""The command line in the environment's language, as any gettext program: LANGUAGE, LC_ALL, LC_MESSAGES,
LANG; `--json` never changes with it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

EXE = os.path.join(os.path.dirname(sys.executable), "fsrs-calibration")
LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def run(args: list[str], **language: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in LANGUAGE_VARIABLES}
    env.update(language)
    return subprocess.run([EXE, *args], capture_output=True, text=True, timeout=300, env=env)


def _outside_messages(text: str) -> list[str]:
    """Return the lines holding a Latin word outside the pseudo-language's ⟦…⟧ (names and terms aside)."""
    out = []
    for line in text.splitlines():
        rest = line
        while (shorter := re.sub(r"⟦[^⟦⟧]*⟧", " ", rest)) != rest:
            rest = shorter
        rest = re.sub(
            r"FSRS(-\d+(\.\d+)?)?|RMSE|AUC|\bP\d\b|\b[A-Z]\d?\b|deck \d+|[A-Za-z0-9_]+\.anki2|pp\b", " ", rest
        )
        if re.search(r"[A-Za-z]{2,}", rest):
            out.append(line)
    return out


def test_json_is_the_same_in_every_language(mixed_collection):
    path = mixed_collection["path"]
    english = run(["evaluate", path, "--json"], LANG="C")
    assert english.returncode == 0, english.stderr
    for language in ({"LANGUAGE": "ja"}, {"LANG": "de_DE.UTF-8"}, {"LC_ALL": "ar_SA.UTF-8"}):
        other = run(["evaluate", path, "--json"], **language)
        assert json.loads(other.stdout) == json.loads(english.stdout), language


def test_the_report_follows_the_environment_and_nothing_escapes_the_catalog(mixed_collection):
    path = mixed_collection["path"]
    pseudo = run(["evaluate", path], LANGUAGE="x-pseudo", LANG="en_US.UTF-8")
    assert pseudo.returncode == 0, pseudo.stderr
    assert "⟦" in pseudo.stdout
    assert _outside_messages(pseudo.stdout) == []
    diagnosis = run(["diagnose", path], LC_MESSAGES="x-pseudo")
    assert diagnosis.returncode == 0, diagnosis.stderr
    assert "⟦" in diagnosis.stdout
    english = run(["evaluate", path], LANG="C.UTF-8")
    assert "⟦" not in english.stdout and "Log loss" in english.stdout


def test_an_error_line_is_in_the_language_too(tmp_path):
    missing = str(tmp_path / "none.anki2")
    said = run(["evaluate", missing], LANGUAGE="x-pseudo")
    assert said.returncode != 0 and "⟦" in said.stderr and "Traceback" not in said.stderr


def test_what_libraries_print_never_reaches_the_programs_output():
    """Anki 25.07 prints "blocked main thread for …ms" and a stack to standard output when a call takes over
    0.2 s on the main thread (a slow machine): that once broke --json here. The program keeps standard output;
    what else libraries print goes to standard error, but for that report (noise to a command line's user; on a
    busy machine it came with nearly every command), printed here as Anki's _run_command prints it."""
    code = (
        "import traceback\n"
        "from fsrs_calibration.cli.output import emit, keep_stdout\n"
        "keep_stdout()\n"
        "print('blocked main thread for 354ms:')\n"
        "print(''.join(traceback.format_stack()))\n"
        "print('a library speaks')\n"
        "emit('{\"reviews\": 1}')\n"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout) == {"reviews": 1}
    assert ran.stderr == "a library speaks\n"
