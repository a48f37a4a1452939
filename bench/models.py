"""Benchmark of the embedded chat model (llama.cpp in process, the bundled SmolLM2-135M by default).

    python bench/models.py [--runs 5] [--calls 50] [--model PATH.gguf] [--max-tokens 64]

Prints: load time; first-token latency and tokens/s (medians over --runs free-text generations); and the share of
schema-valid rulings over --calls structured calls (first attempt, and after the layer's repair + one retry).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from courtroom_desktop.core.config import ModelSpec  # noqa: E402
from courtroom_desktop.core.errors import ModelError  # noqa: E402
from courtroom_desktop.core.llm import build_chat_model  # noqa: E402
from courtroom_desktop.core.llm.llama_setup import default_threads, use_extra_buffer_types  # noqa: E402


class Ruling(BaseModel):
    """A judge's ruling, reduced to the fields the stop and switch rules read."""

    summary: str = Field(max_length=400, description="One or two sentences on the round.")
    tendency: Literal["support", "refute", "unclear"]
    confidence: float = Field(ge=0, le=1, description="0 to 1.")
    switch_request: bool = Field(description="Should counsel swap sides?")
    ready_for_verdict: bool
    reason: str = Field(max_length=400, description="Why the case is or is not ready.")


CLAIMS = [
    "Vitamin D supplements prevent respiratory infections in adults.",
    "Drinking purified water for years depletes the body's minerals.",
    "Remote work lowers the productivity of software teams.",
    "A four-day work week reduces employee burnout.",
    "Intermittent fasting improves insulin sensitivity.",
    "Electric cars have a lower lifetime carbon footprint than petrol cars.",
    "Reading on screens harms reading comprehension in children.",
    "Microplastics in drinking water damage human health.",
    "Coffee consumption lowers the risk of type 2 diabetes.",
    "Bilingual children perform better on executive-function tests.",
]

EVIDENCE = [
    "[E1] A randomised trial of 2,000 adults found no significant difference between groups.",
    "[E2] A cohort study reported a modest association, confounded by income.",
    "[E3] A systematic review rated the overall evidence as low certainty.",
]


def ruling_messages(i: int) -> list[dict]:
    claim = CLAIMS[i % len(CLAIMS)]
    evidence = "\n".join(EVIDENCE[: 1 + i % len(EVIDENCE)])
    return [
        {"role": "system", "content": "You are a neutral judge. Rule on the round of debate."},
        {"role": "user", "content": f"Claim: {claim}\nEvidence cited this round:\n{evidence}\n"
                                    f"Prosecution: the evidence is weak.\nDefense: the evidence is consistent.\n"
                                    f"Round {1 + i % 4} of 4. Give your ruling."},
    ]


async def bench(args) -> None:
    spec = ModelSpec(model=args.model or "", max_tokens=args.max_tokens, num_ctx=4096)
    model = build_chat_model(spec, "judge")
    start = time.perf_counter()
    await model.load()
    load_s = time.perf_counter() - start
    print(f"model        {model.model_name} ({model.path})")
    print(f"threads      {default_threads()}  extra buffer types: {'on' if use_extra_buffer_types() else 'off'}  "
          f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', '')}")
    print(f"load         {load_s:.2f} s")

    # Free text: first-token latency and throughput.
    await model.complete([{"role": "user", "content": "Say hello."}], max_tokens=4)  # warm-up
    firsts, decode_rates, overall_rates, outs = [], [], [], []
    for i in range(args.runs):
        messages = [{"role": "system", "content": "You are counsel for the defense."},
                    {"role": "user", "content": f"Argue briefly that this claim is true: {CLAIMS[i % len(CLAIMS)]}"}]
        _, usage = await model.complete(messages, max_tokens=args.max_tokens)
        outs.append(usage.tokens_out)
        firsts.append(usage.first_token_s or usage.seconds)
        overall_rates.append(usage.tokens_per_s)
        if usage.first_token_s is not None and usage.tokens_out > 1 and usage.seconds > usage.first_token_s:
            decode_rates.append((usage.tokens_out - 1) / (usage.seconds - usage.first_token_s))
    print(f"free text    {args.runs} runs, max_tokens {args.max_tokens}, "
          f"median {statistics.median(outs):.0f} tokens out")
    print(f"  first token      median {statistics.median(firsts) * 1000:.0f} ms "
          f"(min {min(firsts) * 1000:.0f}, max {max(firsts) * 1000:.0f})")
    print(f"  decode tokens/s  median {statistics.median(decode_rates):.1f}")
    print(f"  overall tokens/s median {statistics.median(overall_rates):.1f} (prompt processing included)")

    # Structured: share of schema-valid rulings.
    attempts: list[int] = []
    original = model._generate_json

    async def counting(messages, schema, max_tokens):
        attempts[-1] += 1
        return await original(messages, schema, max_tokens)

    model._generate_json = counting
    valid = first_ok = 0
    seconds: list[float] = []
    out_tokens: list[int] = []
    failures: list[str] = []
    tendencies: dict[str, int] = {}
    for i in range(args.calls):
        attempts.append(0)
        t0 = time.perf_counter()
        try:
            ruling, usage = await model.structured(ruling_messages(i), Ruling, max_tokens=256)
        except ModelError as exc:
            failures.append(f"{str(exc)[:200]} | raw: {exc.raw[:160]!r}")
        else:
            valid += 1
            first_ok += attempts[-1] == 1
            tendencies[ruling.tendency] = tendencies.get(ruling.tendency, 0) + 1
            out_tokens.append(usage.tokens_out)
        seconds.append(time.perf_counter() - t0)
    print(f"structured   {args.calls} Ruling calls (llama.cpp JSON-schema grammar, max_tokens 256)")
    print(f"  valid on the first attempt  {first_ok}/{args.calls} ({100 * first_ok / args.calls:.0f}%)")
    print(f"  valid after repair + retry  {valid}/{args.calls} ({100 * valid / args.calls:.0f}%)")
    print(f"  seconds per ruling          median {statistics.median(seconds):.2f}, max {max(seconds):.2f}")
    if out_tokens:
        print(f"  tokens per valid ruling     median {statistics.median(out_tokens):.0f}, max {max(out_tokens)}")
    print(f"  tendencies                  {dict(sorted(tendencies.items()))}")
    for failure in failures[:5]:
        print(f"  failed: {failure}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="free-text generations (default 5)")
    parser.add_argument("--calls", type=int, default=50, help="structured calls (default 50)")
    parser.add_argument("--max-tokens", type=int, default=64, help="free-text token cap (default 64)")
    parser.add_argument("--model", default="", help="a GGUF file (default: the bundled SmolLM2-135M)")
    asyncio.run(bench(parser.parse_args()))


if __name__ == "__main__":
    main()
