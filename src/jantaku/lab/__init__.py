"""The rule lab: what a rule change does to the game, measured with confidence intervals (``jantaku analyze``).

- :mod:`jantaku.lab.rulesets` reads ``--rules`` and ``--sweep`` (one or several: a grid) into named rule sets;
- :mod:`jantaku.lab.runner` plays the games (in processes or as Ray tasks) with common random numbers and turns
  each game into a row of numbers;
- :mod:`jantaku.lab.measures` defines every measure on those rows and its 95% interval (jackknife over games;
  Wilson with the effective number of chances for rates, the exact bound for an event never seen);
- :mod:`jantaku.lab.stats` holds the statistics (Wilson, effective chances, zero-count bound, p-values, Holm);
- :mod:`jantaku.lab.compare` compares each rule set with the reference on the same games: paired differences,
  p-values, Holm's correction;
- :mod:`jantaku.lab.analysis` ties them together into a :class:`~jantaku.lab.analysis.Report`;
- :mod:`jantaku.lab.report_text` and :mod:`jantaku.lab.report_html` (with :mod:`jantaku.lab.forest`, the
  paired-difference plots) print and draw it; :mod:`jantaku.lab.exports` writes it as CSV, Markdown and LaTeX.
"""
