#!/usr/bin/python3
"""Checks that each folder of interpose/src includes only what its README allows.

Each folder's README.md has a line 'May include: ...' naming other folders (`name/`), single
headers of them (`name/file.hpp`) or `runtime.hpp`; the folder src/ itself is the one named by
src/README.md. A file may always include headers of its own folder. Exits 1, listing each
include that its folder does not allow and each allowance no file uses.

    interpose/check_layers.py [interpose/src]
"""
import re
import sys
from pathlib import Path

SOURCE = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent / "src"


def folder_of(path: Path) -> str:
    relative = path.relative_to(SOURCE)
    return relative.parts[0] if len(relative.parts) > 1 else "."


def allowed(folder: str):
    readme = SOURCE / folder / "README.md"
    if not readme.exists():
        sys.exit(f"{readme}: missing (each folder of interpose/src says what it may include)")
    text = " ".join(readme.read_text().split())
    match = re.search(r"May include: (.*?)(?:\.(?: |$)|$)", text)
    if not match:
        sys.exit(f"{readme}: no 'May include:' line")
    return set(re.findall(r"`([a-z_./]+)`", match.group(1)))


def main() -> int:
    files = [p for p in SOURCE.rglob("*") if p.suffix in (".cpp", ".hpp", ".def")]
    home = {p.name: p for p in files}
    if len(home) != len(files):
        sys.exit("two files of interpose/src share a name: includes name files alone")
    rules = {folder_of(p): allowed(folder_of(p)) for p in files}
    used = {folder: set() for folder in rules}
    wrong = []
    for path in sorted(files):
        folder = folder_of(path)
        for number, line in enumerate(path.read_text().splitlines(), 1):
            match = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not match or match.group(1) not in home:
                continue
            target = home[match.group(1)]
            there = folder_of(target)
            if there == folder:
                continue
            name = target.name if there == "." else f"{there}/{target.name}"
            rule = name if there == "." else (f"{there}/" if f"{there}/" in rules[folder] else name)
            if rule in rules[folder]:
                used[folder].add(rule)
            else:
                wrong.append(f"{path.relative_to(SOURCE)}:{number}: includes {name}, which "
                             f"{folder}/README.md does not allow")
    for folder, rule_set in sorted(rules.items()):
        for rule in sorted(rule_set - used[folder]):
            wrong.append(f"{folder}/README.md allows {rule}, which no file there includes")
    for message in wrong:
        print(message)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
