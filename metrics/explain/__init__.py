"""metrics.explain."""
