"""metrics.models."""
