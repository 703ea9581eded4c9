"""Count the CPU instructions of bench/stud.py's hands under callgrind, a figure the machine's
load does not move (wall clock on a shared machine does).

Run it under valgrind with the collection off at the start; it switches the collection on
just before the first timed hand and off after the last (a callgrind client request from a
two-line C helper, compiled here with gcc against valgrind's header), so the count holds the
play only, not Python's start, the imports or the drawing of the hands::

    valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file=/dev/null \\
        .venv/bin/python bench/stud_count.py floorman 300

The ``Collected`` line valgrind prints is the count; divide by the hands for a hand's work.
``pokerkit`` plays the same hands through PokerKit. Both engines first play the first 20 hands
outside the count, so lazy imports and first-call caches are not counted.
"""

from __future__ import annotations

import argparse
import ctypes
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.stud import make_deals, play_floorman, play_pokerkit  # noqa: E402

HELPER = "#include <valgrind/callgrind.h>\nvoid toggle(void) { CALLGRIND_TOGGLE_COLLECT; }\n"


def toggler(folder: Path) -> ctypes.CDLL:
    """The C helper whose ``toggle()`` switches callgrind's collection (a no-op outside it)."""
    source, library = folder / "toggle.c", folder / "toggle.so"
    source.write_text(HELPER)
    subprocess.run(["gcc", "-O1", "-shared", "-fPIC", "-o", library, source], check=True)
    return ctypes.CDLL(str(library))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("engine", choices=("floorman", "pokerkit"))
    parser.add_argument("hands", type=int)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    play = play_floorman if args.engine == "floorman" else play_pokerkit
    deals = make_deals(args.hands, args.seed)
    for deal in deals[:20]:
        play(deal)
    with tempfile.TemporaryDirectory() as folder:
        toggle = toggler(Path(folder)).toggle
        toggle()
        for deal in deals:
            play(deal)
        toggle()
    return 0


if __name__ == "__main__":
    sys.exit(main())
