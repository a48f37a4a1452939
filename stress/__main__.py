"""`python -m stress` (`make stress`): every reliability and security runner, then the counts; exit status 1 on
any failure.

    python -m stress                       the default run (a few minutes on two cores)
    python -m stress --quick               a smaller slice of each runner
    python -m stress --only fuzz faults    some runners
    python -m stress --fuzz-variants 5 --ingest-kills 50 --trial-kills 50    more iterations
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from pathlib import Path

RUNNERS = ("fuzz", "faults", "kill", "injection", "secrets", "concurrency")


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    parser = argparse.ArgumentParser(prog="python -m stress", description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", choices=RUNNERS, default=list(RUNNERS), metavar="RUNNER",
                        help=f"run only these ({', '.join(RUNNERS)})")
    parser.add_argument("--quick", action="store_true", help="a smaller slice of each runner")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--fuzz-variants", type=int, default=1, help="files of each fuzz kind, each from its own seed")
    parser.add_argument("--file-timeout", type=float, default=10.0, help="library.file_timeout_s for the fuzzed files")
    parser.add_argument("--no-probe", action="store_true",
                        help="skip measuring the fuzzed files through in-thread extraction (no child process)")
    parser.add_argument("--ingest-kills", type=int, default=12)
    parser.add_argument("--trial-kills", type=int, default=12)
    parser.add_argument("--work", type=Path, help="folder for temporary files (default: the system's)")
    parser.add_argument("-q", "--quiet", action="store_true", help="only the summary")
    args = parser.parse_args(argv)
    log = (lambda *a: None) if args.quiet else (lambda *a: print(*a, flush=True))
    logging.basicConfig(level=logging.ERROR if args.quiet else logging.WARNING,
                        format="      (log) %(levelname)s %(name)s: %(message)s")
    if args.quick:
        args.ingest_kills, args.trial_kills = min(args.ingest_kills, 4), min(args.trial_kills, 4)

    from stress import concurrency, faults, ingest_fuzz, injection, kill, secrets_check

    began = time.perf_counter()
    sections = []
    for name in args.only:
        log(f"== {name}")
        if name == "fuzz":
            kinds = ["zero_byte", "truncated", "encrypted", "enormous_page", "javascript", "nested_outlines"] \
                if args.quick else None
            sections.append(ingest_fuzz.run(args.seed, args.fuzz_variants, args.file_timeout, kinds, args.work,
                                            do_probe=not args.no_probe and not args.quick, log=log))
        elif name == "faults":
            sections.append(faults.run(args.quick, args.work, log))
        elif name == "kill":
            sections.extend(kill.run(args.ingest_kills, args.trial_kills, args.seed, args.work, log))
        elif name == "injection":
            sections.append(injection.run(args.work, log))
        elif name == "secrets":
            sections.append(secrets_check.run(args.work, log))
        elif name == "concurrency":
            sections.append(concurrency.run(args.seed, args.work, log))
    total = time.perf_counter() - began
    print("\n" + "=" * 100)
    for section in sections:
        status = "PASS" if section.ok else "FAIL"
        counts = ", ".join(f"{k} {v}" for k, v in section.counts.items())
        print(f"{status}  {section.name:<26} {section.seconds:6.1f} s  {counts}")
        for failure in section.failures:
            print(f"      - {failure}")
    failed = [s.name for s in sections if not s.ok]
    print(f"{'FAILED: ' + ', '.join(failed) if failed else 'all passed'} in {total:.0f} s "
          f"(python -m stress {' '.join(sys.argv[1:] if argv is None else argv)})".rstrip())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
