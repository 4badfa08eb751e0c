"""metrics.jobs."""
