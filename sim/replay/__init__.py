"""Replay logs: record a battle as JSON Lines and verify a log by re-executing it."""
