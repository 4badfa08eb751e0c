"""How many findings of each kind, in words with the right plural ("1 thing to do", "7 checks passed")."""

from __future__ import annotations

from . import formatting as fmt
from .lang import _, n_


def checks_passed(n: int) -> str:
    """The findings that are fine: "1 check passed", "7 checks passed"."""
    return n_("{count} check passed", "{count} checks passed", n).format(count=fmt.count(n))


def not_enough_data(n: int) -> str:
    """The findings the data cannot decide: "1 check without enough data", "3 checks without enough data"."""
    said = n_("{count} check without enough data", "{count} checks without enough data", n)
    return said.format(count=fmt.count(n))


def decks(n: int) -> str:
    """ "1 deck", "3 decks"."""
    return n_("{count} deck", "{count} decks", n).format(count=fmt.count(n))


def steps(n: int) -> str:
    """The plan's steps: "Nothing to do", "1 step", "4 steps"."""
    if n == 0:
        return _("Nothing to do")
    return n_("{count} step", "{count} steps", n).format(count=fmt.count(n))


def checks_behind(n: int) -> str:
    """The findings the plan's steps and notes rest on: "1 check that found something", "9 checks that …"."""
    said = n_("The {count} check behind the steps and notes", "The {count} checks behind the steps and notes", n)
    return said.format(count=fmt.count(n))
