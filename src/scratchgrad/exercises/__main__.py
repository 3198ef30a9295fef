"""``python -m scratchgrad.exercises``: see `scratchgrad.exercises.cli`."""

from scratchgrad.exercises.cli import main

raise SystemExit(main())
