"""``python -m trustme_analysis.play``: see :mod:`trustme_analysis.play`."""

import sys

from trustme_analysis.play.cli import main

sys.exit(main())
