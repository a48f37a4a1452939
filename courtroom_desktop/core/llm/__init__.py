"""The one layer that talks to chat models: embedded llama.cpp (the bundled SmolLM2-135M by default), Ollama, and
any OpenAI-compatible server. Every role gets a :class:`ChatModel` from :class:`ModelRouter`:

    router = ModelRouter(config.models)
    judge = router.for_role("judge")
    text, usage = await judge.complete(messages, on_token=print)
    ruling, usage = await judge.structured(messages, Ruling)

Importing this package is cheap: llama_cpp and langchain are imported only when a model is first used.
"""

from courtroom_desktop.core.errors import Cancelled, ModelError, ModelUnavailable
from courtroom_desktop.core.llm.base import ChatModel, Messages, estimate_tokens
from courtroom_desktop.core.llm.repair import RepairError, extract_json_object, parse_structured, strip_think
from courtroom_desktop.core.llm.router import ModelRouter, build_chat_model, list_models
from courtroom_desktop.core.llm.scripted import ScriptedChatModel
from courtroom_desktop.core.records import Usage

__all__ = [
    "Cancelled",
    "ChatModel",
    "Messages",
    "ModelError",
    "ModelRouter",
    "ModelUnavailable",
    "RepairError",
    "ScriptedChatModel",
    "Usage",
    "build_chat_model",
    "estimate_tokens",
    "extract_json_object",
    "list_models",
    "parse_structured",
    "strip_think",
]
