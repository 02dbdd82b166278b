"""Test-only helpers (not part of the public API)."""
