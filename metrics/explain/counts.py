"""How many findings of each kind, in words with the right plural ("1 thing to do", "7 checks passed")."""

from __future__ import annotations


def _plural(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


def things_to_do(n: int) -> str:
    """Problems and suggestions: "Nothing to do", "1 thing to do", "6 things to do"."""
    return "Nothing to do" if n == 0 else _plural(n, "thing to do", "things to do")


def checks_passed(n: int) -> str:
    """The findings that are fine: "1 check passed", "7 checks passed"."""
    return _plural(n, "check passed", "checks passed")


def not_enough_data(n: int) -> str:
    """The findings the data cannot decide: "1 check without enough data", "3 checks without enough data"."""
    return _plural(n, "check without enough data", "checks without enough data")


def decks(n: int) -> str:
    """ "1 deck", "3 decks"."""
    return _plural(n, "deck", "decks")


def steps(n: int) -> str:
    """The plan's steps: "Nothing to do", "1 step", "4 steps"."""
    return "Nothing to do" if n == 0 else _plural(n, "step", "steps")


def checks_behind(n: int) -> str:
    """The findings the plan's steps rest on: "1 check behind the plan", "9 checks behind the plan"."""
    return _plural(n, "check behind the plan", "checks behind the plan")
