"""metrics.score."""
