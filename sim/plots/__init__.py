"""Plots (matplotlib, the ``plot`` extra; imported only by the options that draw): an attack's
odds (`sim odds --plot`), the matrix's heatmap (`sim matrix --plot`) and a batch's tally
(`sim stats --plot`), PNG or SVG with the headless Agg backend."""
