"""The rule lab: what a rule change does to the game, measured with confidence intervals (``jantaku analyze``).

- :mod:`jantaku.lab.rulesets` reads ``--rules`` and ``--sweep`` into named rule sets;
- :mod:`jantaku.lab.runner` plays the games (in processes or as Ray tasks) with common random numbers and turns
  each game into a row of numbers;
- :mod:`jantaku.lab.measures` defines every measure on those rows and its 95% interval (jackknife over games);
- :mod:`jantaku.lab.analysis` ties them together into a :class:`~jantaku.lab.analysis.Report`;
- :mod:`jantaku.lab.report_text` and :mod:`jantaku.lab.report_html` print and draw it.
"""
