"""The interactive battle sandbox (pygame-ce + pygame-gui).

Input becomes commands and decisions; drawing reads the world and never writes it (DESIGN.md).
"""
