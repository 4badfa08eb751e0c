"""How numbers are written for people: one unit and one precision each, for the dialog, the report and the CLI.

RMSE (bins) in percentage points (as Anki shows it), log loss with 4 decimals, AUC with 3,
retention in percent with 1, counts with thousands separators. The CLI's --json keeps raw fractions.
No numpy here: the dialog formats on the main thread.
"""

from __future__ import annotations

NA = "n/a"


def count(n: int | None) -> str:
    """Return a count with thousands separators ("12,345")."""
    return NA if n is None else f"{int(n):,}"


def log_loss(x: float | None) -> str:
    """Return a log loss with 4 decimals ("0.3412")."""
    return NA if x is None or x != x else f"{x:.4f}"


def auc(x: float | None) -> str:
    """Return an AUC with 3 decimals ("0.712")."""
    return NA if x is None or x != x else f"{x:.3f}"


def rmse(x: float | None) -> str:
    """Return an RMSE (bins), given as a fraction, in percentage points ("3.21 pp")."""
    return NA if x is None or x != x else f"{x * 100:.2f} pp"


def points(x: float | None, signed: bool = False) -> str:
    """Return a difference of two recall rates (fractions) in percentage points ("+6.0 pp")."""
    if x is None or x != x:  # None or NaN
        return NA
    return f"{x * 100:+.1f} pp" if signed else f"{x * 100:.1f} pp"


def percent(x: float | None, digits: int = 1) -> str:
    """Return a rate (a fraction) in percent ("91.2%")."""
    return NA if x is None or x != x else f"{x * 100:.{digits}f}%"


def interval(low: float | None, high: float | None, fmt: str = "log_loss") -> str:
    """Return a 95% interval written with the formatter named `fmt` ("0.3401–0.3423")."""
    writer = {"log_loss": log_loss, "auc": auc, "rmse": rmse, "percent": percent, "points": points}[fmt]
    return f"{writer(low)}–{writer(high)}"
