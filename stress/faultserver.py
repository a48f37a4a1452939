"""A loopback Ollama that plays the court (``stress.common.actor``) and injects one kind of fault into the
requests of one stage: the test kit's FakeOllama (testkit/fake_ollama.py) with per-request faults.

Stages are told apart by the JSON schema in the request's ``format`` (SearchPlan -> plan, JudgeRuling -> ruling,
VerdictDraft -> verdict, Argument or none -> argument). Faults:

    timeout      accept the request and never answer (until the server stops or max_wait_s)
    disconnect   stream a few pieces of the answer, then drop the connection without ending the stream
    broken_json  answer with prose and a JSON object that does not validate (free text: a stray brace)
    unknown_cite an answer that cites E99 (arguments, findings) or names it as the deciding evidence
    empty        an empty answer
    enormous     a ~1 MB answer, streamed whatever ``num_predict`` says
    endless      keep streaming until the client goes away (bounded by max_wait_s)

``times`` faults are injected (the first ``times`` requests of the stage once the server is ``armed``), then the
stage is answered properly. A server made with ``armed=False`` answers everything properly until a caller sets
``armed`` (``stress.faults`` arms it once the trial's first round is over, so that turns are stored when a fault
fires).
"""

from __future__ import annotations

import json
import socket
import time
from http.server import BaseHTTPRequestHandler

from stress.common import actor
from testkit.fake_ollama import FakeOllama, pieces, prompt_tokens

FAULTS = ("timeout", "disconnect", "broken_json", "unknown_cite", "empty", "enormous", "endless")
STAGES = ("plan", "argument", "assessment", "ruling", "verdict")
STAGE_OF_SCHEMA = {"SearchPlan": "plan", "Argument": "argument", "EvidenceAssessment": "assessment",
                   "JudgeRuling": "ruling", "VerdictDraft": "verdict"}


def stage_of_body(body: dict) -> str:
    schema = body.get("format")
    if isinstance(schema, dict):
        return STAGE_OF_SCHEMA.get(str(schema.get("title")), "argument")
    return "argument"


def faulty_answer(fault: str, stage: str, good: str) -> str:
    """The answer text for content faults (timeouts and disconnects are transport faults)."""
    if fault == "empty":
        return ""
    if fault == "broken_json":
        if stage == "argument":
            return good + " {\"unclosed\": [1, 2"
        broken = good.replace('"confidence": 0.', '"confidence": "very ').replace('"queries": [', '"queries": 7, "x": [')
        broken = broken.replace('"relevance": 0.', '"relevance": "very ')
        return f"Sure! Here is the JSON you asked for:\n{{{broken[1:-1]}, \"trailing\": }}\nHope it helps."
    if fault == "unknown_cite":
        if stage in ("argument", "assessment", "verdict", "ruling"):
            return good.replace("[E1]", "[E99]").replace('"E1"', '"E99"').replace("E1 ", "E99 ")
        return good
    if fault in ("enormous", "endless"):
        if stage == "argument":
            return good + " " + "The readings were taken with care and recorded. " * 22_000
        data = json.loads(good)
        for key in ("summary", "ready_reason", "evidence_assessment", "key_controversy"):
            if key in data:
                data[key] = "x" * 1_000_000
        if "queries" in data:
            data["queries"] = [f"query {i} " + "y" * 1000 for i in range(1000)]
        return json.dumps(data)
    return good


class FaultOllama(FakeOllama):
    """One fault kind on one stage, ``times`` times; everything else answered by the court actor."""

    def __init__(self, fault: str | None = None, stage: str | None = None, times: int = 1, max_wait_s: float = 15.0,
                 armed: bool = True):
        super().__init__("healthy", max_wait_s=max_wait_s)
        self.fault, self.stage, self.times = fault, stage, times
        self.armed = armed  # no fault fires while False
        self.injected = 0
        self.by_stage: dict[str, int] = {}
        self.on_inject = None  # called (in the server's thread) as each fault fires

    def __enter__(self) -> FaultOllama:
        super().__enter__()
        self._server.handle_error = lambda request, address: None  # clients that hang up mid-answer are the point
        return self

    def heal(self) -> None:
        """No more faults from now on."""
        with self._lock:
            self.fault = None

    def _chat(self, h: BaseHTTPRequestHandler, body: dict) -> None:
        stage = stage_of_body(body)
        self._log(body)
        with self._lock:
            self.by_stage[stage] = self.by_stage.get(stage, 0) + 1
            fault = self.fault if (self.armed and self.fault and stage == self.stage
                                   and self.injected < self.times) else None
            if fault:
                self.injected += 1
        if fault and self.on_inject is not None:
            self.on_inject()
        good = actor(body.get("messages", []))
        if fault == "timeout":
            self._release.wait(self.max_wait_s)
            return
        if fault == "disconnect":
            self._disconnect(h, good)
            return
        reply = faulty_answer(fault, stage, good) if fault else good
        self._stream_reply(h, body, reply, ignore_limit=fault in ("enormous", "endless"), endless=fault == "endless")

    def _disconnect(self, h: BaseHTTPRequestHandler, reply: str) -> None:
        self._begin_stream(h)
        for piece in reply.split(" ")[:3]:
            self._piece(h, piece + " ")
        h.wfile.flush()
        h.close_connection = True
        try:
            h.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def _stream_reply(self, h: BaseHTTPRequestHandler, body: dict, reply: str, ignore_limit: bool, endless: bool) -> None:
        self._begin_stream(h)
        size = 64
        parts = [reply[i:i + size] for i in range(0, len(reply), size)] if ignore_limit else pieces(reply)
        limit = (body.get("options") or {}).get("num_predict")
        if not ignore_limit and isinstance(limit, int) and limit > 0:
            parts = parts[:limit]
        began = time.monotonic()
        sent = 0
        try:
            index = 0
            while index < len(parts) or endless:
                self._piece(h, parts[index % len(parts)] if parts else " ")
                index += 1
                sent += 1
                if endless and time.monotonic() - began > self.max_wait_s:
                    break
            self._end_stream(h, prompt_tokens(body), sent)
        except (BrokenPipeError, ConnectionResetError):
            with self._lock:
                self.disconnects += 1
