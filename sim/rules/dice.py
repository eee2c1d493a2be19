"""01.05 Dice: the battle's single seeded dice stream and dice expressions.

Every random number in a battle comes from one :class:`Dice` object. D6 results are
derived from ``random.Random.random()`` (Mersenne Twister, 53-bit floats), whose stream
for an integer seed is promised stable across Python versions; ``randint``/``choice``
are not used because their streams are not promised stable.
"""

from __future__ import annotations

import random
import re
from typing import Callable, NamedTuple

__all__ = ["Dice", "ForcedDice", "KeyedDice", "DiceExpr", "DiceExhausted", "parse_dice_expr", "SEED_LIMIT"]

SEED_LIMIT = 2**63 - 1
"""A battle's seed is a whole number from -SEED_LIMIT to SEED_LIMIT: the one range a scenario
file, a replay log and every command that takes a seed accept (a whole number of a scenario
file is bounded so too: sim.scenario.load.MAX_INT)."""


class DiceExhausted(RuntimeError):
    """A ForcedDice ran out of scripted results (a test asked for more dice than it gave)."""


class Dice:
    """01.05 The battle's dice: one seeded stream; every roll is reported with its purpose.

    ``listener`` (if set) is called as ``listener(purpose, results)`` after every roll, so the
    battle can log each roll. Results are plain ints 1..6 in a tuple.
    """

    __slots__ = ("seed", "_rng", "listener", "count")

    def __init__(self, seed: int, listener: Callable[[str, tuple[int, ...]], None] | None = None):
        self.seed = int(seed)
        self._rng = random.Random(self.seed)
        self.listener = listener
        self.count = 0

    def _d6(self) -> int:
        return int(self._rng.random() * 6.0) + 1

    def d6(self, n: int, purpose: str) -> tuple[int, ...]:
        """Roll ``n`` D6 at once (01.05)."""
        rand = self._rng.random
        results = tuple([int(rand() * 6.0) + 1 for _ in range(n)])
        self.count += n
        if self.listener is not None:
            self.listener(purpose, results)
        return results

    def d3(self, n: int, purpose: str) -> tuple[int, ...]:
        """01.05 D3: a D6 halved, rounding up. Logged as the D6 rolled, purpose tagged D3."""
        return tuple((r + 1) // 2 for r in self.d6(n, purpose + " (D3)"))


class ForcedDice(Dice):
    """Dice that return scripted results, for rules tests with forced dice.

    ``ForcedDice([1, 6, 4])`` yields those D6 results in order and raises DiceExhausted when
    asked for more. Rolls are recorded in ``log`` as ``(purpose, results)``.
    """

    __slots__ = ("_queue", "log")

    def __init__(self, results, listener=None):
        super().__init__(0, listener)
        self._queue = list(results)
        self.log: list[tuple[str, tuple[int, ...]]] = []
        for r in self._queue:
            if not (isinstance(r, int) and 1 <= r <= 6):
                raise ValueError(f"forced die must be an int 1..6, got {r!r}")

    def d6(self, n: int, purpose: str) -> tuple[int, ...]:
        if n > len(self._queue):
            raise DiceExhausted(f"{purpose}: needed {n} dice, {len(self._queue)} left")
        results = tuple(self._queue[:n])
        del self._queue[:n]
        self.count += n
        self.log.append((purpose, results))
        if self.listener is not None:
            self.listener(purpose, results)
        return results

    @property
    def remaining(self) -> int:
        return len(self._queue)


class KeyedDice(Dice):
    """Dice for a look ahead (a search player's fork, never a battle's own stream): each roll's
    results are drawn from a stream of their own, seeded by the fork's ``seed``, the roll's
    context (``context()``: the unit whose attacks are resolving, if any), its purpose and how
    many rolls of that context and purpose came before it in this fork. Two forks of one seed
    that play different commands so see the same dice wherever they make the same roll (the
    same unit's charge roll, its hit rolls at whatever target, the first dice of a larger pool):
    common random numbers, so that the difference between two options is their difference, not
    their dice's. Each roll's dice are uniform and independent of every other roll's, as a
    stream's are. A str seed of ``random.Random`` is hashed by SHA-512, a promise stable across
    Python versions, as ``Dice``'s integer seed is."""

    __slots__ = ("context", "_seen")

    def __init__(self, seed: int, context: Callable[[], object] = lambda: None):
        self.seed = int(seed)
        self._rng = None  # (no stream: each roll seeds its own)
        self.listener = None
        self.count = 0
        self.context = context
        self._seen: dict[str, int] = {}

    def d6(self, n: int, purpose: str) -> tuple[int, ...]:
        key = f"{self.context()}/{purpose}"
        k = self._seen.get(key, 0)
        self._seen[key] = k + 1
        rand = random.Random(f"{self.seed}/{key}/{k}").random
        results = tuple([int(rand() * 6.0) + 1 for _ in range(n)])
        self.count += n
        if self.listener is not None:
            self.listener(purpose, results)
        return results


MAX_EXPR = 20  # characters in a dice expression: a longer one is refused before the pattern sees it
_DICE_RE = re.compile(r"^\s*(?:(\d*)\s*[dD]\s*(3|6))?\s*(?:([+])?\s*(\d+))?\s*$")


class DiceExpr(NamedTuple):
    """02.02.03 A characteristic that may be random: ``n``D``sides`` + ``k`` (sides 0 = fixed).
    (A named tuple: immutable, and hashed at C speed inside the attack keys that hold it.)"""

    n: int = 0
    sides: int = 0
    k: int = 0

    @property
    def is_random(self) -> bool:
        return self.n > 0 and self.sides > 0

    @property
    def minimum(self) -> int:
        return self.value(self.n) if self.is_random else self.k

    @property
    def maximum(self) -> int:
        return self.value(self.n * self.sides) if self.is_random else self.k

    @property
    def mean(self) -> float:
        if not self.is_random:
            return float(self.k)
        if self.n + self.k >= 1:
            return self.n * (self.sides + 1) / 2 + self.k
        ways = {0: 1}  # (a modifier took k below the floor: the ways to roll each sum)
        for _ in range(self.n):
            nxt: dict[int, int] = {}
            for s, w in ways.items():
                for f in range(1, self.sides + 1):
                    nxt[s + f] = nxt.get(s + f, 0) + w
            ways = nxt
        return sum(self.value(s) * w for s, w in ways.items()) / self.sides ** self.n

    def plus(self, k: int) -> "DiceExpr":
        return DiceExpr(self.n, self.sides, self.k + k)

    def value(self, rolled_sum: int) -> int:
        """The expression's value when its dice add up to ``rolled_sum``: the sum and ``k``,
        never below 1 (02.02.01's caps: a random A, S or D a modifier lowered, "D3-1", rolls
        1, 1, 2; a printed expression never goes below 1 anyway)."""
        v = rolled_sum + self.k
        return v if v > 0 else 1

    def reroll_change(self, was: int, now: int) -> int:
        """How the value changes when one of its dice, ``was``, is re-rolled to ``now`` (15.02):
        exact for one die (D3-1: 1 -> 3 is +1); with several dice the floor of :meth:`value`
        only matters when every die shows 1 and ``k`` is -n or less (2D6-2), which no profile
        or modifier of the data reaches: the difference of the dice is taken."""
        if self.n == 1:
            return self.value(now) - self.value(was)
        return now - was

    def roll(self, dice: Dice, purpose: str) -> int:
        """Roll the expression (a D3 is a halved D6; 'D6+2' adds 2 as part of the value;
        never below 1: :meth:`value`)."""
        if not self.is_random:
            return self.k
        if self.sides == 3:
            v = sum(dice.d3(self.n, purpose)) + self.k
        else:
            v = sum(dice.d6(self.n, purpose)) + self.k
        return v if v > 0 else 1

    def roll_dice(self, dice: Dice, purpose: str) -> tuple[int, ...]:
        """The expression's dice rolled, each die's result (a D3's halved): what :meth:`roll`
        adds up, logged the same way, for a rule that picks one of them (15.02)."""
        if not self.is_random:
            return ()
        return dice.d3(self.n, purpose) if self.sides == 3 else dice.d6(self.n, purpose)

    def die(self, dice: Dice, purpose: str) -> int:
        """One more die of the expression's kind (a D3 or a D6), to re-roll one of its dice."""
        return dice.d3(1, purpose)[0] if self.sides == 3 else dice.d6(1, purpose)[0]

    def __str__(self) -> str:
        if not self.is_random:
            return str(self.k)
        head = f"{self.n if self.n > 1 else ''}D{self.sides}"
        return f"{head}+{self.k}" if self.k > 0 else f"{head}{self.k}" if self.k else head


def parse_dice_expr(text) -> DiceExpr:
    """Parse '3', 'D6', 'D3+1', '2D6', 'd6 + 2' into a DiceExpr. Raises ValueError."""
    if isinstance(text, bool):
        raise ValueError(f"expected a number or dice like 'D6+1', found {text!r}")
    if isinstance(text, int):
        if text < 0:
            raise ValueError(f"expected a non-negative number, found {text}")
        return DiceExpr(0, 0, text)
    if not isinstance(text, str) or len(text) > MAX_EXPR:
        raise ValueError(f"expected a number or dice like 'D6+1', found {text[:40] if isinstance(text, str) else text!r}")
    m = _DICE_RE.match(text)
    if not m or (m.group(2) is None and m.group(4) is None) or (m.group(2) is None and m.group(3)):
        raise ValueError(f"expected a number or dice like 'D6+1', found {text!r}")
    n_txt, sides, _plus, k = m.groups()
    if sides is None:
        return DiceExpr(0, 0, int(k))
    n = int(n_txt) if n_txt else 1
    if n < 1:
        raise ValueError(f"expected at least one die, found {text!r}")
    return DiceExpr(n, int(sides), int(k) if k else 0)
