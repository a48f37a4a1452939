"""A screenshot of the judge's instructions to each side in the window's transcript (run under Xvfb:
``SCRIPT=scripts/screenshots_judge.py scripts/screenshots.sh``).

    python scripts/screenshots_judge.py OUT_DIR

Runs a short trial with scripted models (tests/court/fakes.py) into a fresh data folder, in which the judge's first
ruling directs each side for the next round; then opens the real window on that folder, opens the trial as the
history does, and grabs the window with that ruling card and its instructions in view (judge-instructions.png).
Seconds, no model.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

TO_PROSECUTION = ("Test the size and design of the randomised trial [E1]: was it powered for birth weight, and does "
                  "the null trial [E3] undo it?")
TO_DEFENSE = "Answer the null result of [E3] directly, and say why the cohort [E2] is not confounded by diet."


def scripted_trial(data: Path) -> str:
    from courtroom_desktop.core.config import DebateSettings
    from courtroom_desktop.core.court import Court, TrialSpec, TrialStore
    from tests.court.fakes import FakeRetriever, counsel, models, ruling, scripted, verdict

    def directing(confidence: float, to_prosecution: str = "", to_defense: str = "", **kwargs: object):
        base = ruling(confidence, **kwargs)
        return lambda messages: json.dumps({**json.loads(base(messages)), "to_prosecution": to_prosecution,
                                            "to_defense": to_defense})

    against = iter([
        "A single trial is not enough: a second randomized trial found no effect of vitamin D on birth weight [E3].",
        "The cohort [E2] cannot separate vitamin D from diet and sunlight; only the trials decide, and they split "
        "[E1] [E3].",
        "No dose difference is shown in [E3]; the claim rests on one positive trial [E1]."])
    for_ = iter([
        "The randomised trial of 2,000 women [E1] is direct evidence: supplements raised birth weight by 60 g.",
        "The null trial [E3] stands alone, while the cohort of 8,000 mothers [E2] links low vitamin D to lower birth "
        "weight, so the direction holds.",
        "Two independent designs point the same way [E1] [E2]; one null trial [E3] does not undo them."])

    def arguing(lines):
        return lambda messages: counsel(messages) if "JSON" in messages[0]["content"] else next(lines)

    data.mkdir(parents=True, exist_ok=True)
    store = TrialStore(data / "trials.sqlite")
    settings = DebateSettings(min_rounds=2, max_rounds=2, confidence_threshold=0.95, max_switches=0)
    judge = scripted([directing(0.55, TO_PROSECUTION, TO_DEFENSE, questions=["Was the trial randomised?"],
                                controversy="whether the null trial [E3] outweighs the randomised trial [E1]"),
                      directing(0.7), verdict(confidence=0.75)], "judge")
    court = Court(models(scripted([arguing(against)] * 40, "prosecution"),
                         scripted([arguing(for_)] * 40, "defense"), judge),
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
    from PySide6.QtWidgets import QApplication

    from courtroom_desktop.core.config import AppConfig, save_config
    from courtroom_desktop.ui.app import create_window, make_application
    from courtroom_desktop.ui.qt_models.transcript import RulingItem
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
            await wait_until(lambda: any(isinstance(i, RulingItem) for i in model.items())
                             and any(i.kind == "verdict" for i in model.items()), 60, "the trial", poll_s=0.2)
            view = window.courtroom.view
            view.flush()
            row = next(r for r, i in enumerate(model.items()) if isinstance(i, RulingItem))
            await asyncio.sleep(0.5)
            QApplication.processEvents()
            start = view.card_cursor(row)
            start.setPosition(start.selectionStart())  # no selection: the card's first character
            bar = view.verticalScrollBar()
            bar.setValue(bar.maximum())  # from the bottom, making the start visible puts the card at the top
            view.setTextCursor(start)
            view.ensureCursorVisible()
            bar.setValue(max(0, bar.value() - 60))  # with the end of the card before it in view
            await asyncio.sleep(0.5)
            QApplication.processEvents()
            text = view.card_text(row)
            print(text, flush=True)
            assert TO_PROSECUTION[:40] in text and TO_DEFENSE[:40] in text, "the instructions are not on the card"
            window.grab().save(str(out / "judge-instructions.png"))
            print(f"saved {out / 'judge-instructions.png'}", flush=True)

        try:
            loop.run_until_complete(scenario())
        finally:
            window.close()
            loop.run_until_complete(asyncio.sleep(0.2))


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"))
