#!/usr/bin/env python3
"""Where the instructions of one backend go, against another: two views of callgrind profiles.

Profile one workload per backend, at a tenth of the sizes (a run and its warm-up):

    valgrind --tool=callgrind --callgrind-out-file=trellis.cg \\
        .build/release/TrellisBenchmarks --only W2C --backends trellis --runs 1 --quick
    valgrind --tool=callgrind --callgrind-out-file=floor.cg \\
        .build/release/TrellisBenchmarks --only W2C --backends "codable floor" --runs 1 --quick

Then:

    python3 callgrind_diff.py diff trellis.cg floor.cg 20000      # per function, per record
    python3 callgrind_diff.py callers trellis.cg swift_retain      # who calls it, how often

`diff` prints, for each function, its own instructions (without those of its callees) in the
first profile minus those in the second, divided by the number of records both runs handled
(20,000 for W2c: 10,000 rows, twice). The fixture is built in both runs and cancels out; the
costs paid once (the runtime's first conformance lookups) do not, and show as large rows that
shrink at full sizes. `callers` lists the callers of the functions whose names contain the given
texts, with their numbers of calls: a count that is a multiple of the records is a cost per record.
"""

import re
import subprocess
import sys


def annotate(profile, *options):
    return subprocess.run(
        ["callgrind_annotate", "--auto=no", "--threshold=100", *options, profile],
        check=True, capture_output=True, text=True).stdout


def exclusive_costs(profile):
    costs = {}
    for line in annotate(profile).splitlines():
        match = re.match(r"^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)$", line)
        if not match or "PROGRAM TOTALS" in line:
            continue
        name = match.group(2).split(" [")[0]
        costs[name] = costs.get(name, 0) + int(match.group(1).replace(",", ""))
    return costs


def diff(first, second, units, rows=40):
    a, b = exclusive_costs(first), exclusive_costs(second)
    rows_by_cost = sorted(((a.get(name, 0) - b.get(name, 0), name) for name in a.keys() | b.keys()), reverse=True)
    print(f"total difference per unit: {sum(cost for cost, _ in rows_by_cost) / units:.1f}")
    for cost, name in rows_by_cost[:rows]:
        print(f"{cost / units:9.1f}  {name[:160]}")
    print("...")
    for cost, name in rows_by_cost[-6:]:
        print(f"{cost / units:9.1f}  {name[:160]}")


def callers(profile, texts, minimum_calls=1000):
    blocks = annotate(profile, "--tree=caller").split("\n\n")
    for text in texts:
        for block in blocks:
            lines = block.strip("\n").split("\n")
            callee = [line for line in lines if "*  " in line and text in line]
            if not callee:
                continue
            print("==", callee[0].strip()[:200])
            for line in lines:
                match = re.search(r"<\s+(.*) \(([\d,]+)x\)", line)
                if match and int(match.group(2).replace(",", "")) >= minimum_calls:
                    print(f"{int(match.group(2).replace(',', '')):>9} {match.group(1)[:200]}")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "diff":
        diff(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif len(sys.argv) >= 4 and sys.argv[1] == "callers":
        callers(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(__doc__)
