"""``python -m jantaku.cli``."""

import sys

from jantaku.cli import main

sys.exit(main())
