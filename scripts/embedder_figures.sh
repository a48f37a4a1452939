#!/bin/bash
# The figures of docs/embedders.md: `courtroom eval passages` on the Chinese labelled set with the bundled MiniLM, then
# with the same MiniLM served over HTTP by testkit/fake_embed.py (Ollama /api/embed and OpenAI-compatible
# /v1/embeddings). Run from the repository root: flock /tmp/cpu-heavy.lock scripts/embedder_figures.sh [QUERIES.jsonl]
set -e
export HF_HUB_OFFLINE=1
W=$(mktemp -d /tmp/embedder-figures-XXXX); mkdir -p "$W/bundled" "$W/data"
CMD=".venv/bin/courtroom --data-dir $W/data"
QUERIES=${1:-tests/retrieval/data/zh_queries.jsonl}  # or tests/retrieval/data/zh_queries_heldout.jsonl
Q="eval passages --pdfs resources/samples-zh --queries $QUERIES"
echo "== bundled (default config)"
$CMD --config-dir "$W/bundled" $Q
.venv/bin/python -m testkit.fake_embed --minilm > "$W/server.json" &
SERVER=$!
trap 'kill $SERVER; rm -rf "$W"' EXIT
for _ in $(seq 60); do [ -s "$W/server.json" ] && break; sleep 1; done
OLLAMA=$(.venv/bin/python -c "import json,sys; print(json.load(open(sys.argv[1]))['ollama'])" "$W/server.json")
OPENAI=$(.venv/bin/python -c "import json,sys; print(json.load(open(sys.argv[1]))['openai'])" "$W/server.json")
for variant in "ollama $OLLAMA en" "openai $OPENAI en" "ollama $OLLAMA all"; do
  set -- $variant
  mkdir -p "$W/$1-$3"
  printf '[library]\nembedder = "%s"\nembedding_model = "all-minilm"\nembedding_url = "%s"\nembedding_languages = "%s"\n' \
    "$1" "$2" "$3" > "$W/$1-$3/config.toml"
  echo "== $1 endpoint $2, embedding_languages = $3"
  $CMD --config-dir "$W/$1-$3" $Q
done
