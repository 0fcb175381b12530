"""Run the catalog tool: `python -m i18n update` (extract and merge) or `python -m i18n check`."""

from __future__ import annotations

import argparse
import sys

from i18n.tool import check, update


def main(argv: list[str]) -> int:
    """Update or check the catalogs; print each problem and return 1 when there is one."""
    parser = argparse.ArgumentParser(prog="python -m i18n", description="Keep the translation catalogs in step.")
    parser.add_argument("command", choices=("update", "check"))
    parser.add_argument("--domain", action="append", help="only this domain (repeatable)")
    parser.add_argument("--language", action="append", help="only this language code, e.g. pt_BR (repeatable)")
    args = parser.parse_args(argv)
    if args.command == "update":
        update(args.language, args.domain)
        return 0
    problems = check(args.language, args.domain)
    for problem in problems:
        print(problem)
    print(f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
