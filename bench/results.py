"""bench/RESULTS.md: each benchmark appends its runs under its own section."""

from __future__ import annotations

from datetime import date
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


def append_run(section: str, text: str, *, path: Path = RESULTS) -> None:
    """Append a run's figures, dated, at the end of ``section`` (created at the end if new)."""
    content = path.read_text()
    if section not in content:
        content = content.rstrip("\n") + f"\n\n{section}\n"
    start = content.find(section)
    end = content.find("\n## ", start + len(section))
    end = len(content) if end == -1 else end
    block = content[start:end].rstrip("\n") + f"\n\n### Run of {date.today().isoformat()}\n\n"
    path.write_text(content[:start] + block + text + "\n" + content[end:])
