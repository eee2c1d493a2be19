"""A small scenario file naming a rule (Oath of Moment on army A), for the tests that read rules
from a file: a squad with a rifle of ``A`` attacks and a target unit "t" of ``W`` wounds and no
save; ``chosen``: the target marked as the battle starts."""

from __future__ import annotations


def oath_file(A: int, W: int, chosen: bool = False) -> str:
    pick = '\nchosen = { "Oath of Moment" = "t" }' if chosen else ""
    unit = """
[[armies.units]]
id = "{id}"
name = "{name}"
keywords = ["INFANTRY"]
[[armies.units.models]]
at = [[10, {y}]]
weapons = ["rifle"]
T = 4
Sv = {Sv}
W = {W}
M = 6
Ld = 6
OC = 1
"""
    return (f'[battle]\nname = "oath"\nseed = 1\nboard = [60, 44]\n\n[weapons.rifle]\nrange = 36\nA = {A}\n'
            f'BS = 3\nS = 4\nAP = 0\nD = 1\n\n[[armies]]\nname = "A"\nrules = ["Oath of Moment"]{pick}\n'
            + unit.format(id="sh", name="Test Squad", y=10, Sv=3, W=2)
            + '\n[[armies]]\nname = "B"\n' + unit.format(id="t", name="Test Boyz", y=30, Sv=7, W=W))
