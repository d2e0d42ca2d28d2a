#!/usr/bin/env python3
"""Put a generated section into a page of docs/ between two markers.

A page that docs/ shows may hold sections that a long target measured
(make bench-linux's table in docs/benchmarks.md, make linux-test-all's in
docs/linux.md).  The target writes the section under build/; make
docs-figures puts it into the page between "<!-- NAME: begin -->" and
"<!-- NAME: end -->", so that the prose around it stays hand-written.

Usage: python3 -m tools.splice NAME --splice SECTION.md PAGE.md
       python3 -m tools.splice NAME --keep OLD-PAGE.md PAGE.md
--keep puts back what OLD (an earlier copy of PAGE) had between the
markers, if it had any.
"""

import argparse
import sys


def markers(name):
    return f"<!-- {name}: begin -->", f"<!-- {name}: end -->"


def block_of(text, where, name):
    """What text has between NAME's markers, or None if it has neither."""
    begin, end = markers(name)
    if begin not in text and end not in text:
        return None
    if not (begin in text and end in text and
            text.index(begin) < text.index(end)):
        raise SystemExit(f"{name}: {where}: the markers '{begin}' and "
                         f"'{end}' do not pair")
    return text[text.index(begin) + len(begin):text.index(end)].strip("\n")


def splice(body, page, name):
    """Put body into page between NAME's markers (appended if page has
    none)."""
    begin, end = markers(name)
    with open(page) as f:
        text = f.read()
    block = f"{begin}\n{body}\n{end}"
    if block_of(text, page, name) is not None:
        a = text.index(begin)
        b = text.index(end) + len(end)
        text = text[:a] + block + text[b:]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    with open(page, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("name", help="the markers' name, e.g. bench-linux")
    ap.add_argument("--splice", nargs=2, metavar=("SECTION", "PAGE"))
    ap.add_argument("--keep", nargs=2, metavar=("OLD", "PAGE"))
    args = ap.parse_args()
    if bool(args.splice) == bool(args.keep):
        ap.error("give one of --splice and --keep")
    if args.splice:
        with open(args.splice[0]) as f:
            splice(f.read().strip("\n"), args.splice[1], args.name)
    else:
        with open(args.keep[0]) as f:
            old = block_of(f.read(), args.keep[0], args.name)
        if old is not None:
            splice(old, args.keep[1], args.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
