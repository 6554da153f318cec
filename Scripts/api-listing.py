#!/usr/bin/env python3
"""The public API of Strata's user-facing products, one declaration per line.

Reads the symbol graphs `swift package dump-symbol-graph --minimum-access-level public` writes
(each module's own graph and its `Module@Other` extension graphs) and writes API/<Module>.txt:
every public declaration with its path, sorted. `--check` compares instead of writing and exits
1 with a diff when the surface changed: update the listing on purpose (run without --check) and
commit it with the change.

    swift package dump-symbol-graph --minimum-access-level public
    python3 Scripts/api-listing.py [--check]
"""
import difflib
import glob
import json
import os
import sys

PRODUCTS = ["Strata", "StrataStorage", "StrataLogging", "StrataSync"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def graphs_dir():
    found = sorted(glob.glob(os.path.join(ROOT, ".build", "*", "symbolgraph")))
    if not found:
        sys.exit("no symbol graphs: run `swift package dump-symbol-graph --minimum-access-level public` first")
    return found[0]


def listing(module, directory):
    lines = set()
    files = [os.path.join(directory, module + ".symbols.json")]
    files += sorted(glob.glob(os.path.join(directory, module + "@*.symbols.json")))
    for path in files:
        if not os.path.exists(path):
            continue
        extended = os.path.basename(path)[len(module):-len(".symbols.json")].lstrip("@")
        graph = json.load(open(path))
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
            declaration = " ".join(declaration.split())
            where = ".".join(symbol["pathComponents"])
            prefix = f"[extends {extended}] " if extended else ""
            lines.add(f"{prefix}{where}: {declaration}")
    return sorted(lines)


def main():
    check = "--check" in sys.argv[1:]
    directory = graphs_dir()
    changed = False
    for module in PRODUCTS:
        text = f"# Public API of {module} (Scripts/api-listing.py; do not edit by hand)\n" + "\n".join(listing(module, directory)) + "\n"
        target = os.path.join(ROOT, "API", module + ".txt")
        if check:
            old = open(target).read() if os.path.exists(target) else ""
            if old != text:
                changed = True
                sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), text.splitlines(True),
                                                           f"API/{module}.txt (committed)", f"API/{module}.txt (built)"))
        else:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w") as f:
                f.write(text)
    if changed:
        print("The public API changed without API/*.txt: if that is intended, run "
              "`python3 Scripts/api-listing.py` and commit the listing with the change.")
        sys.exit(1)


if __name__ == "__main__":
    main()
