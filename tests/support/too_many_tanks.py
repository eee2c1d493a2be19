"""A battle deployed by the rules (26 step 8) whose red army cannot fit its deployment zone: two
units of three 150 mm bases into a 14" x 8" zone (one row of two such bases: neither unit fits,
so holding one in strategic reserves, all the 20.01 cap allows, does not help). ``FITS_WITH_ONE_HELD``:
the same armies with a 20" x 8" zone, where one unit fits once the other is held in reserves.
The project's own invented units."""

TEXT = """
[battle]
name = "too many tanks"
seed = 1

[weapons.gun]
range = 24
A = 1
BS = 3
S = 4
AP = 0
D = 1

[[armies]]
name = "Red"
[[armies.units]]
id = "tanks"
name = "Tank Column"
keywords = ["VEHICLE"]
models = [{ count = 3, base_mm = 150, M = 10, T = 9, Sv = 3, W = 10, Ld = 6, OC = 3, weapons = ["gun"] }]
[[armies.units]]
id = "more"
name = "Tank Column"
keywords = ["VEHICLE"]
models = [{ count = 3, base_mm = 150, M = 10, T = 9, Sv = 3, W = 10, Ld = 6, OC = 3, weapons = ["gun"] }]

[[armies]]
name = "Blue"
[[armies.units]]
id = "b1"
keywords = ["INFANTRY"]
models = [{ count = 2, M = 6, T = 4, Sv = 3, W = 1, Ld = 6, OC = 1, weapons = ["gun"] }]

[mission]
deployment = "rules"
defender = "red"
first = "red"
zones = { red = [[0, 0], [14, 0], [14, 8], [0, 8]], blue = [[0, 36], [60, 36], [60, 44], [0, 44]] }
"""

FITS_WITH_ONE_HELD = TEXT.replace("[14, 0], [14, 8]", "[20, 0], [20, 8]")
