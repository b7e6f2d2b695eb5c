#!/usr/bin/env python3
"""Draws the Trellis/raw and GRDB/raw ratios of a benchmark run as a PNG.

    swift run -c release TrellisBenchmarks --json results.json
    python3 plot.py results.json ratios.png

Needs matplotlib (installed with pip when missing). Not used in CI.
"""
import json
import subprocess
import sys


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else "results.json"
    target = sys.argv[2] if len(sys.argv) > 2 else "ratios.png"
    try:
        import matplotlib
    except ImportError:
        subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet", "matplotlib"])
        import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(source) as file:
        measures = json.load(file)
    labels = [measure["workload"] for measure in measures]
    trellis = [measure.get("trellisOverRaw") or 0 for measure in measures]
    grdb = [measure.get("grdbOverRaw") or 0 for measure in measures]

    positions = range(len(labels))
    width = 0.4
    figure, axes = plt.subplots(figsize=(10, 5))
    axes.bar([p - width / 2 for p in positions], trellis, width, label="Trellis / raw SQLite")
    axes.bar([p + width / 2 for p in positions], grdb, width, label="GRDB / raw SQLite")
    axes.axhline(1, color="black", linewidth=0.8)
    axes.set_xticks(list(positions))
    axes.set_xticklabels(labels)
    axes.set_yscale("log")
    axes.set_ylabel("time relative to raw SQLite (log scale, lower is better)")
    axes.set_title("Trellis and GRDB 7.10.0 against raw SQLite")
    axes.legend()
    figure.tight_layout()
    figure.savefig(target, dpi=120)
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
