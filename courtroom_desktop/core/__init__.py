"""The headless core: no Qt, no qasync, no ui imports (an import-linter contract enforces this)."""
