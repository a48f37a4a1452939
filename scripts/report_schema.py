"""Print docs/report-schema.md: ``python scripts/report_schema.py > docs/report-schema.md``."""

from courtroom_desktop.core.reports.json_writer import schema_markdown

if __name__ == "__main__":
    print(schema_markdown(), end="")
