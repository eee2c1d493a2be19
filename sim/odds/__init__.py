"""Exact odds of one declared attack (issue 16)."""
