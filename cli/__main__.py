"""`python -m fsrs_calibration.cli`: the `fsrs-calibration` program."""

import sys

from . import run

sys.exit(run())
