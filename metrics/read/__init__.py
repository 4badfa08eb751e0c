"""metrics.read."""
