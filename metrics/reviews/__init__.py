"""metrics.reviews."""
