"""A rules-faithful Warhammer 40,000 (11th edition) battle simulator.

Unofficial fan tool; not affiliated with Games Workshop.
"""

__version__ = "0.1.0"
