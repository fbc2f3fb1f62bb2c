"""Tournament models."""
