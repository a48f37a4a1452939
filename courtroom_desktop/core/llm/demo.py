"""Honest labelling: is a role running the bundled demo model (SmolLM2-135M through llama.cpp)?

The bundled model is there to try the app with no setup; its verdicts are not worth relying on. Wherever a verdict
is shown (the window, the command line, every report) and any role ran on it, the verdict carries :data:`DEMO_NOTE`
and says where the model setup is. A role runs the demo model when its provider is ``embedded`` with no model path
(or the bundled model's own name).

Two shapes are recognised: a :class:`~courtroom_desktop.core.config.ModelSpec` (what a role will use) and a trial
spec's model label (``TrialSpec.models``: role -> ``"embedded:bundled SmolLM2-135M"``, see
``core.workspace.Workspace.model_labels``: what a role used). Cheap to import: no llama.cpp, no HTTP.
"""

from __future__ import annotations

from collections.abc import Mapping

from courtroom_desktop.core.config import ROLES, ModelSettings, ModelSpec

BUNDLED_NAME = "SmolLM2-135M-Instruct"
DEMO_NOTE = "demo model: try the app, do not rely on this verdict"
SETUP_IN_WINDOW = "set up a model in Settings \u2192 Models (Find models on this computer)"
SETUP_IN_CLI = "set up a model: `courtroom models list`"

_BUNDLED_WORDS = ("", "bundled", BUNDLED_NAME.lower(), "bundled smollm2-135m")


def _is_bundled_model(model: str) -> bool:
    word = model.strip().lower()
    return word in _BUNDLED_WORDS or word.startswith("bundled ")


def is_demo_spec(spec: ModelSpec) -> bool:
    """The spec runs the bundled demo model: provider embedded, no model path."""
    return spec.provider == "embedded" and _is_bundled_model(spec.model)


def is_demo_label(label: str) -> bool:
    """A trial's model label (``provider:model``) names the bundled demo model."""
    provider, _, model = str(label).partition(":")
    return provider.strip() == "embedded" and _is_bundled_model(model)


def demo_roles(models: ModelSettings | Mapping[str, str] | None) -> list[str]:
    """The roles (in court order) that run, or ran, the bundled demo model: from the settings, or from a trial's
    ``role -> label`` map."""
    if models is None:
        return []
    if isinstance(models, ModelSettings):
        return [role for role in ROLES if is_demo_spec(models.for_role(role))]
    return [role for role in ROLES if role in models and is_demo_label(models[role])]


def demo_line(models: ModelSettings | Mapping[str, str] | None, setup: str = SETUP_IN_CLI) -> str:
    """'' when no role runs the demo model; else the note, the roles, and where the model setup is:
    'demo model: try the app, do not rely on this verdict (prosecution, defense, judge on the bundled SmolLM2-135M;
    set up a model: `courtroom models list`)'."""
    roles = demo_roles(models)
    if not roles:
        return ""
    who = "every role" if len(roles) == len(ROLES) else ", ".join(roles)
    return f"{DEMO_NOTE} ({who} on the bundled SmolLM2-135M; {setup})"
