"""``python -m tables.engine.phh FILE...``: check hand history files (see :func:`main`)."""

import sys

from tables.engine.phh.check import main

sys.exit(main())
