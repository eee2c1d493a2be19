"""What analysts ask over many battles, built on the battle, the players and the odds engine:
``stats`` (thousands of seeded battles, on one machine or a Ray cluster: `sim stats`),
``matrix`` (every attacking unit against every defending unit: `sim matrix`) and ``locate``
(the attack a scenario's step makes, found by playing the battle to it: `sim odds SCENARIO`)."""
