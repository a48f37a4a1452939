"""A screenshot of a role switch in the window (run under Xvfb: ``SCRIPT=scripts/screenshots_switch.py
scripts/screenshots.sh``).

    python scripts/screenshots_switch.py OUT_DIR

Runs a short trial with scripted models (tests/court/fakes.py) into a fresh data folder, in which the judge's
confidence stalls (0.50, 0.52, 0.53) and its tendency stands, and the sides switch after round 3; then opens the real window on that folder,
opens the trial as the history does, and grabs the window with the switch banner, its trigger and the numbers behind
it in view (switch-banner.png). Seconds, no model.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")


ARGUMENTS = [
    "The randomised trial {id} reports a 60 g gain in birth weight with supplements. Which result outweighs it?",
    "That gain is small, and the second randomised trial {id} found no effect on birth weight. Why ignore it?",
    "The cohort of 8,000 mothers {id} links low vitamin D to lower birth weight, as the trial predicts. Is that chance?",
    "A cohort cannot show cause: season and diet confound {id}. Where is a trial that replicates the gain?",
    "The review {id} speaks of bone density, not birth weight, so it does not weaken the trial. What else is there?",
    "Calcium matters more than vitamin D in the review {id}; the claim rests on one trial. Is one trial enough?",
    "Arguing the other side now: the null trial {id} is as large as the positive one. Which design was better?",
    "Arguing the other side now: the positive trial {id} measured birth weight directly. Why discount it?",
]


def arguing(messages) -> str:
    import json
    import re

    if "JSON" in messages[0]["content"]:
        return json.dumps({"queries": ["vitamin D birth weight", "randomised trial vitamin D"]})
    ids = sorted(set(re.findall(r'<evidence id="(E\d+)"', messages[-1]["content"])), key=lambda i: int(i[1:]))
    turn = next(TURNS)
    return ARGUMENTS[turn % len(ARGUMENTS)].format(id=f"[{ids[turn % len(ids)]}]" if ids else "[E1]")


TURNS = iter(range(1000))


def scripted_trial(data: Path) -> str:
    from courtroom_desktop.core.config import DebateSettings
    from courtroom_desktop.core.court import Court, TrialSpec, TrialStore
    from tests.court.fakes import FakeRetriever, models, ruling, scripted, verdict

    data.mkdir(parents=True, exist_ok=True)
    store = TrialStore(data / "trials.sqlite")
    settings = DebateSettings(min_rounds=2, max_rounds=4, confidence_threshold=0.8, min_new_evidence=0)
    judge = scripted([ruling(0.50, questions=["Was the trial randomised?"]), ruling(0.52), ruling(0.53),
                      ruling(0.85, ready=True, reason="the randomised trial [E1] decides it"), verdict()], "judge")
    court = Court(models(scripted([arguing] * 40, "prosecution"), scripted([arguing] * 40, "defense"), judge),
                  FakeRetriever(), store, settings)
    trial_id = court.start(TrialSpec(claim="Vitamin D supplements in pregnancy raise birth weight."))

    async def run() -> None:
        async for _ in court.run(trial_id):
            pass

    asyncio.run(run())
    store.close()
    return trial_id


def main(out: Path) -> None:
    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QTextCursor
    from PySide6.QtWidgets import QApplication

    from courtroom_desktop.core.config import AppConfig, save_config
    from courtroom_desktop.ui.app import create_window, make_application
    from courtroom_desktop.ui.qt_models.transcript import SwitchItem
    from courtroom_desktop.ui.tasks import make_event_loop, wait_until

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        trial_id = scripted_trial(tmp_path / "data")
        save_config(AppConfig(), tmp_path / "config")
        os.environ["COURTROOM_MODEL_SERVERS"] = "none"
        app = make_application()
        app.setQuitOnLastWindowClosed(False)
        loop = make_event_loop(app)
        window = create_window(tmp_path / "config", tmp_path / "data",
                               QSettings(str(tmp_path / "ui.ini"), QSettings.Format.IniFormat))
        window.resize(1500, 950)

        async def scenario() -> None:
            window.show()
            window.open_trial_of_check(trial_id)
            model = window.transcript_model
            await wait_until(lambda: any(isinstance(i, SwitchItem) for i in model.items())
                             and any(i.kind == "verdict" for i in model.items()), 60, "the trial", poll_s=0.2)
            view = window.courtroom.view
            view.flush()
            row = next(r for r, i in enumerate(model.items()) if isinstance(i, SwitchItem))
            await asyncio.sleep(0.5)
            QApplication.processEvents()
            view._follow = False  # the banner, with the ruling before it, in the middle of the view
            cursor = QTextCursor(view.document())
            cursor.setPosition(view.tables[row].firstPosition())
            top = view.document().documentLayout().blockBoundingRect(cursor.block()).top()
            view.verticalScrollBar().setValue(int(max(0, top - view.viewport().height() / 3)))
            await asyncio.sleep(0.5)
            QApplication.processEvents()
            print(view.card_text(row), flush=True)
            window.grab().save(str(out / "switch-banner.png"))
            print(f"saved {out / 'switch-banner.png'}", flush=True)

        try:
            loop.run_until_complete(scenario())
        finally:
            window.close()
            loop.run_until_complete(asyncio.sleep(0.2))


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"))
