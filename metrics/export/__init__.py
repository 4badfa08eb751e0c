"""metrics.export."""
