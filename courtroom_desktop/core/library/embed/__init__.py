"""Embedding: the sentence embedders (the bundled MiniLM run by PyTorch or ONNX, a local folder, an Ollama or
OpenAI-compatible endpoint) and what text of a chunk gets embedded."""
