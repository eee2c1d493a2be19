"""Effects of datasheet abilities, army rules and detachment rules: the vocabulary they are
written in (``vocabulary``), whether a grant acts now (``conditions``), the table of modelled
rules in our own words (``table``, records in ``records``) and their description in words
(``words``). The core abilities of section 24 stay in sim.rules.abilities' registry; a rule's
WEAPON_ABILITY effect confers one of those records."""
