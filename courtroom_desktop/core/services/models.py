"""Models: the model servers on this computer and their models (discovery, a proposal per role), pulls through
Ollama, the doctor's checks, API keys in the OS keyring, the demo-model label, a chat model built from its settings,
and where each role's text goes (core.privacy)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from courtroom_desktop.core.services._lazy import exports

if TYPE_CHECKING:
    from courtroom_desktop.core.llm.demo import DEMO_NOTE, SETUP_IN_WINDOW, demo_line, demo_roles, is_demo_spec
    from courtroom_desktop.core.llm.discover import (
        Detection,
        FoundModel,
        Probe,
        Proposal,
        Server,
        context_words,
        detect_blocking,
        human_bytes,
        nothing_found_lines,
        propose,
    )
    from courtroom_desktop.core.llm.doctor import DoctorRow, failed, ratings, run_doctor
    from courtroom_desktop.core.llm.embedded import resolve_gguf
    from courtroom_desktop.core.llm.ollama import same_model
    from courtroom_desktop.core.llm.pull import PullProgress, PullResult, pull_model
    from courtroom_desktop.core.llm.router import build_chat_model, list_models, release_loaded_models
    from courtroom_desktop.core.privacy import Server as TextServer
    from courtroom_desktop.core.privacy import servers, where_text_goes
    from courtroom_desktop.core.secrets import key_storage, set_api_key

__all__ = ["DEMO_NOTE", "SETUP_IN_WINDOW", "Detection", "DoctorRow", "FoundModel", "Probe", "Proposal", "PullProgress",
           "PullResult", "Server", "TextServer", "build_chat_model", "context_words", "demo_line", "demo_roles",
           "detect_blocking", "failed", "human_bytes", "is_demo_spec", "key_storage", "list_models",
           "nothing_found_lines", "propose", "pull_model", "ratings", "release_loaded_models", "resolve_gguf",
           "run_doctor", "same_model",
           "servers", "set_api_key", "where_text_goes"]

__getattr__ = exports({
    "DEMO_NOTE": "llm.demo:DEMO_NOTE", "SETUP_IN_WINDOW": "llm.demo:SETUP_IN_WINDOW",
    "demo_line": "llm.demo:demo_line", "demo_roles": "llm.demo:demo_roles", "is_demo_spec": "llm.demo:is_demo_spec",
    "context_words": "llm.discover:context_words", "detect_blocking": "llm.discover:detect_blocking",
    "human_bytes": "llm.discover:human_bytes", "nothing_found_lines": "llm.discover:nothing_found_lines",
    "propose": "llm.discover:propose",
    **{name: f"llm.discover:{name}" for name in ("Detection", "FoundModel", "Probe", "Proposal", "Server")},
    "DoctorRow": "llm.doctor:DoctorRow", "failed": "llm.doctor:failed", "ratings": "llm.doctor:ratings",
    "run_doctor": "llm.doctor:run_doctor",
    "resolve_gguf": "llm.embedded:resolve_gguf", "same_model": "llm.ollama:same_model",
    "pull_model": "llm.pull:pull_model", "PullProgress": "llm.pull:PullProgress", "PullResult": "llm.pull:PullResult",
    "build_chat_model": "llm.router:build_chat_model", "list_models": "llm.router:list_models",
    "release_loaded_models": "llm.router:release_loaded_models",
    "servers": "privacy:servers", "TextServer": "privacy:Server", "where_text_goes": "privacy:where_text_goes",
    "key_storage": "secrets:key_storage", "set_api_key": "secrets:set_api_key",
}, __name__)
