"""Pure rules: no esper, no pygame. Each function names the rulebook section it implements."""
