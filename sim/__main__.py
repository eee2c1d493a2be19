"""`python -m sim`: signals answered from the first line (sim.answer_signals_early; already so
while the package was found), then the command line."""

from sim import answer_signals_early

answer_signals_early()

from sim.cli import main  # noqa: E402 - after the handlers, on purpose

raise SystemExit(main())
