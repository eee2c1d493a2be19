"""Scenario files: load, validate and save (TOML)."""
