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


def replace_section(section: str, *, path: Path = RESULTS) -> None:
    """Put ``section`` (its ``## `` heading first) in place of the section of that heading, or
    at the end if there is none; the others stay as they are."""
    heading = section.split("\n", 1)[0]
    content = path.read_text() if path.exists() else "# Benchmark results\n"
    body = section.rstrip("\n") + "\n"
    start = content.find(heading)
    if start == -1:
        path.write_text(content.rstrip("\n") + "\n\n" + body)
        return
    end = content.find("\n## ", start + len(heading))
    path.write_text(content[:start] + body + ("" if end == -1 else content[end:]))
