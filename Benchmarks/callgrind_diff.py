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

A retain or a release is an atomic instruction, which costs several nanoseconds where an ordinary
instruction costs a fraction of one: count them apart. With a profile made with
`valgrind --tool=callgrind --dump-instr=yes`:

    python3 callgrind_diff.py atomics trellis.cg 20000            # per record, and where from

`atomics` counts the executions of the lock-prefixed instructions of `swift_retain`,
`swift_release` and their `_n` forms (a release of a small string or of an immortal object calls
`swift_release` but executes none), and lists the call sites of those functions by their number of
calls per record.

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


REFCOUNTING = ("swift_retain", "swift_release", "swift_retain_n", "swift_release_n")


def lock_offsets(library):
    """The offsets of the lock-prefixed instructions in each reference counting function."""
    offsets = {}
    for function in REFCOUNTING:
        listing = subprocess.run(["objdump", "-d", "--no-show-raw-insn", library, f"--disassemble={function}"],
                                 check=True, capture_output=True, text=True).stdout
        start = None
        for line in listing.splitlines():
            if match := re.match(r"^([0-9a-f]+) <(\w+)>:", line):
                start = int(match.group(1), 16)
            elif (match := re.match(r"\s+([0-9a-f]+):\s+lock", line)) and start is not None:
                offsets.setdefault(function, set()).add(int(match.group(1), 16) - start)
    return offsets


def atomics(profile, units, library="/opt/swift/usr/lib/swift/linux/libswiftCore.so"):
    """Reads a callgrind profile made with --dump-instr=yes (positions: instr line)."""
    names, costs, sites = {}, {}, {}
    function = callee = None
    address, in_call, calls = 0, False, 0

    def name(text):
        match = re.match(r"\((\d+)\)(?: (.*))?", text)
        if not match:
            return text
        if match.group(2):
            names[match.group(1)] = match.group(2)
        return names.get(match.group(1), match.group(1))

    for line in open(profile):
        line = line.rstrip("\n")
        if line.startswith("fn="):
            function = name(line[3:]).split(" ")[0]
        elif line.startswith("cfn="):
            callee = name(line[4:]).split(" ")[0]
        elif line.startswith("calls="):
            in_call, calls = True, int(line[6:].split()[0])
        elif line and (line[0].isdigit() or line[0] in "+-*"):
            position = line.split()
            token = position[0]
            if token.startswith("0x"):
                address = int(token, 16)
            elif token[0] == "+":
                address += int(token[1:])
            elif token[0] == "-":
                address -= int(token[1:])
            if in_call:
                if callee in REFCOUNTING and function not in REFCOUNTING:
                    sites[(function, callee)] = sites.get((function, callee), 0) + calls
                in_call = False
            elif function in REFCOUNTING and len(position) > 2:
                costs.setdefault(function, {})
                costs[function][address] = costs[function].get(address, 0) + int(position[2])
    offsets = lock_offsets(library)
    counts = []
    for function, by_address in costs.items():
        start = min(by_address)
        executed = sum(count for address, count in by_address.items() if address - start in offsets.get(function, ()))
        counts.append(f"{function}={executed / units:.2f}")
    print("atomic instructions per unit:", " ".join(sorted(counts)))
    for (caller, callee), count in sorted(sites.items(), key=lambda item: -item[1]):
        if count / units >= 0.5:
            print(f"{count / units:6.2f} {callee:16} {caller[:140]}")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "diff":
        diff(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif len(sys.argv) >= 4 and sys.argv[1] == "callers":
        callers(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) == 4 and sys.argv[1] == "atomics":
        atomics(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(__doc__)
