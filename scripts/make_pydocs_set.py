"""Build the "pydocs" retrieval set, in BEIR layout: the docstrings of the Python standard library as the corpus, and
60 hand-written queries judged against it.

    python3 scripts/make_pydocs_set.py [OUT] [--max-docs 6000] [--max-bytes 4500000]

OUT defaults to tests/retrieval/data/pydocs. Writes OUT/corpus.jsonl, OUT/queries.jsonl and OUT/qrels/test.tsv.

Corpus: the modules of ``MODULES`` (a fixed list), walked pydoc-style in sorted order. For each module: the module
itself; its public classes and functions (pydoc's rule: the names of ``__all__`` when the module has one, otherwise
the objects whose home module is this one); and, for each such class, the public methods, class and static methods
and properties defined in the class itself or inherited from a private base (``io.IOBase.seek`` lives in
``_io._IOBase``). A document's ``_id`` and ``title`` are the qualified name ("shutil.copytree", "pathlib.Path.glob"),
its ``text`` the object's own ``__doc__`` (not inherited) cleaned with ``inspect.cleandoc``. Docstrings under
``MIN_CHARS`` characters and private names (a leading underscore anywhere in the qualified name) are skipped, and so
are repeated texts: an object reachable under several names (a re-export, an alias such as ``array.ArrayType``, a
method inherited by several classes) is kept once, under its own name, nearest its definition, shortest, then first
in walking order. Documents are capped at ``--max-docs`` and ``--max-bytes``, in walking order (the 3.11 walk gives
about 2,450 documents, 1.3 MB, under both caps).

The result depends on the interpreter (docstrings change between releases): run it with the system python3, 3.11.
The queries and their judgements are ``QUERIES`` below: written by hand, each judged by reading the candidate
docstrings in the corpus; the script checks that every judged id is in the corpus.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import sys
import warnings
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "retrieval" / "data" / "pydocs"
MIN_CHARS = 120

MODULES = sorted({
    # the well-known modules
    "abc", "argparse", "array", "ast", "asyncio", "base64", "bisect", "builtins", "bz2", "calendar", "cmath",
    "codecs", "collections", "collections.abc", "concurrent.futures", "configparser", "contextlib", "contextvars",
    "copy", "cProfile", "csv", "dataclasses", "datetime", "decimal", "difflib", "dis", "doctest", "email",
    "email.message", "email.utils", "enum", "filecmp", "fnmatch", "fractions", "ftplib", "functools", "getpass",
    "gettext", "glob", "graphlib", "gzip", "hashlib", "heapq", "hmac", "html", "html.parser", "http.client",
    "http.cookies", "http.server", "imaplib", "importlib", "inspect", "io", "ipaddress", "itertools", "json",
    "locale", "logging", "logging.handlers", "lzma", "mimetypes", "mmap", "multiprocessing", "operator", "os",
    "os.path", "pathlib", "pickle", "platform", "pprint", "queue", "random", "re", "sched", "secrets", "selectors",
    "shelve", "shlex", "shutil", "signal", "smtplib", "socket", "sqlite3", "ssl", "statistics", "string", "struct",
    "subprocess", "sys", "tarfile", "tempfile", "textwrap", "threading", "time", "timeit", "traceback", "types",
    "typing", "unicodedata", "unittest", "unittest.mock", "urllib.parse", "urllib.request", "uuid", "warnings",
    "weakref", "xml.etree.ElementTree", "zipfile", "zlib",
    # and more of the library, for a corpus of a useful size (most methods' docstrings are under MIN_CHARS)
    "atexit", "bdb", "binascii", "cmd", "code", "codeop", "colorsys", "compileall", "ctypes", "dbm",
    "email.charset", "email.generator", "email.header", "email.headerregistry", "email.parser", "email.policy",
    "errno", "faulthandler", "fcntl", "fileinput", "gc", "getopt", "grp", "http.cookiejar", "importlib.abc",
    "importlib.metadata", "importlib.resources", "importlib.util", "keyword", "linecache", "logging.config",
    "mailbox", "marshal", "multiprocessing.shared_memory", "netrc", "numbers", "optparse", "pdb", "pkgutil",
    "plistlib", "poplib", "profile", "pstats", "pty", "pwd", "py_compile", "pydoc", "readline", "reprlib",
    "rlcompleter", "runpy", "socketserver", "stat", "symtable", "sysconfig", "termios", "tkinter", "tkinter.ttk",
    "tokenize", "trace", "tracemalloc", "turtle", "tty", "urllib.error", "urllib.robotparser", "venv", "wave",
    "webbrowser", "wsgiref.headers", "wsgiref.util", "wsgiref.validate", "xml.dom.minidom", "xml.sax.handler",
    "xml.sax.saxutils", "xml.sax.xmlreader", "xmlrpc.client", "xmlrpc.server", "zipapp", "zoneinfo",
})


def _home(obj: object) -> str:
    return getattr(obj, "__module__", None) or ""


def _own_doc(obj: object) -> str:
    doc = getattr(obj, "__doc__", None)
    return inspect.cleandoc(doc) if isinstance(doc, str) else ""


def _public(qualname: str) -> bool:
    return not any(part.startswith("_") for part in qualname.split("."))


def _members(module: ModuleType) -> list[tuple[str, object]]:
    """The module's public classes and functions, pydoc's way (``pydoc.TextDoc.docmodule``)."""
    names = getattr(module, "__all__", None)
    found = []
    for name in sorted(set(names) if names is not None else vars(module)):
        if name.startswith("_") or not hasattr(module, name):
            continue
        value = getattr(module, name)
        if not (inspect.isclass(value) or inspect.isroutine(value)):
            continue
        if names is None and inspect.getmodule(value) is not module:
            continue
        found.append((name, value))
    return found


def _class_members(cls: type) -> list[tuple[str, object, int]]:
    """(name, object, depth) for the methods, class/static methods and properties defined in ``cls`` itself (depth 0)
    or inherited from a private base (``io.IOBase.seek`` lives in ``_io._IOBase``; depth: the base's place in the
    MRO; a base is private when its name or its module's is, like ``_socket.socket``), by name; pydoc shows both on
    the class's page. A public base's members are left to that base's page."""
    public = [base for base in cls.__mro__[1:] if _public(f"{_home(base)}.{base.__name__}")]
    covered = {ancestor for base in public for ancestor in base.__mro__}
    found: dict[str, tuple[object, int] | None] = {}
    for depth, base in enumerate(cls.__mro__):
        for name, raw in vars(base).items():
            if name in found or name.startswith("_"):
                continue
            if depth and base in covered:
                found[name] = None
                continue
            if isinstance(raw, staticmethod | classmethod):
                raw = raw.__func__
            if inspect.isroutine(raw) or isinstance(raw, property) or inspect.isdatadescriptor(raw):
                found[name] = (raw, depth)
    return [(name, *entry) for name, entry in sorted(found.items()) if entry is not None]


def walk(modules: list[str]) -> list[tuple[str, str, int, bool]]:
    """(qualified name, docstring, depth, alias) for every object walked, in order. Depth: 0 for a module, a class,
    a function or a class's own member, more for a member inherited from a private base; alias: the module names
    the class or function, or the class its member, otherwise than its ``__name__`` (``array.ArrayType``)."""
    out: list[tuple[str, str, int, bool]] = []
    for modname in modules:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                module = importlib.import_module(modname)
        except ImportError as exc:  # a platform's module (fcntl, termios, pwd, ...) elsewhere
            print(f"skipped {modname}: {exc}", file=sys.stderr)
            continue
        out.append((modname, _own_doc(module), 0, False))
        for name, value in _members(module):
            qual = f"{modname}.{name}"
            alias = getattr(value, "__name__", name) != name
            out.append((qual, _own_doc(value), 0, alias))
            if inspect.isclass(value):
                for mname, member, depth in _class_members(value):
                    renamed = getattr(member, "__name__", mname) != mname  # pdb.Pdb.do_b is do_break
                    out.append((f"{qual}.{mname}", _own_doc(member), depth, alias or renamed))
    return out


def build_corpus(max_docs: int, max_bytes: int) -> list[dict[str, str]]:
    """The documents, in walking order. Of documents with the same text, one not under an alias wins, then the one
    nearest its definition (a class's own method before the same method inherited by a sibling class), then the
    shorter name (``unicodedata.normalize`` before ``unicodedata.UCD.normalize``), then the first walked."""
    walked = [row for row in walk(MODULES) if len(row[1]) >= MIN_CHARS and _public(row[0])]
    winner: dict[str, tuple[bool, int, int, int]] = {}
    for order, (qual, text, depth, alias) in enumerate(walked):
        rank = (alias, depth, qual.count("."), order)
        winner[text] = min(winner.get(text, rank), rank)
    seen_ids: set[str] = set()
    docs: list[dict[str, str]] = []
    size = 0
    for order, (qual, text, depth, alias) in enumerate(walked):
        if winner[text] != (alias, depth, qual.count("."), order) or qual in seen_ids:
            continue
        doc = {"_id": qual, "title": qual, "text": text}
        line = len(json.dumps(doc, ensure_ascii=False).encode("utf-8")) + 1
        if len(docs) >= max_docs or size + line > max_bytes:
            break
        seen_ids.add(qual)
        docs.append(doc)
        size += line
    return docs


# (query, relevant ids). Written by hand, as a user who does not know the name would search; the first 15 are short
# and keyword-like, the other 45 paraphrased. Every relevant id was checked by reading its docstring in corpus.jsonl.
QUERIES: list[tuple[str, list[str]]] = [
    # keyword-like
    ("recursively copy a folder with all its subfolders", ["shutil.copytree"]),
    ("decode url query parameters into a dictionary", ["urllib.parse.parse_qs"]),
    ("base64 encoding safe for urls and filenames", ["base64.urlsafe_b64encode"]),
    ("convert python object to json string", ["json.dumps"]),
    ("run external program get its output raise error on failure", ["subprocess.check_output", "subprocess.run"]),
    ("unpack every file from a zip archive", ["zipfile.ZipFile.extractall"]),
    ("log file rotation by size", ["logging.handlers.RotatingFileHandler"]),
    ("combine several sorted lists into one sorted sequence", ["heapq.merge"]),
    ("remove common indentation from multiline string", ["textwrap.dedent", "inspect.cleandoc"]),
    ("sha256 checksum of a file", ["hashlib.file_digest"]),
    ("cartesian combinations of several lists like nested for loops", ["itertools.product"]),
    ("convert < > & characters to html entities", ["html.escape", "xml.sax.saxutils.escape"]),
    ("sample standard deviation", ["statistics.stdev"]),
    ("list files matching wildcard pattern *.txt", ["glob.glob", "glob.iglob", "pathlib.Path.glob"]),
    ("copy nested objects recursively, not just the outer container", ["copy"]),
    # paraphrased
    ("make a temporary file that is deleted when closed", ["tempfile.NamedTemporaryFile", "tempfile.TemporaryFile"]),
    ("find the longest common subsequence matching between two lists of strings",
     ["difflib.SequenceMatcher", "difflib.SequenceMatcher.find_longest_match"]),
    ("suggest what the user probably meant when they mistype a command name", ["difflib.get_close_matches"]),
    ("locate the full location of an executable the way the shell looks up commands", ["shutil.which"]),
    ("go through every file in every subfolder of a directory", ["os.walk", "os.fwalk", "pathlib.Path.rglob"]),
    ("how many processors does this machine have", ["os.cpu_count"]),
    ("objects of my own class raise TypeError when saving to json, how to support them",
     ["json.JSONEncoder.default", "json.JSONEncoder"]),
    ("replace each regex match with whatever a callback function returns for it", ["re.sub", "re.Pattern.sub"]),
    ("date of the monday of week 23 of 2024", ["datetime.date.fromisocalendar"]),
    ("turn a unix timestamp into a human readable local time string", ["time.ctime"]),
    ("the n most frequent words in a text and how often each occurs",
     ["collections.Counter.most_common", "collections.Counter"]),
    ("look up a setting in the user's config first, then fall back to defaults, across several dicts",
     ["collections.ChainMap"]),
    ("split a sorted list into runs of items that share the same key", ["itertools.groupby"]),
    ("remember the results of an expensive function so repeated calls with the same arguments are fast",
     ["functools.lru_cache"]),
    ("pick several items at random where some are more likely than others", ["random.choices"]),
    ("fit a straight line through x and y data points", ["statistics.linear_regression"]),
    ("round a price to exactly two digits after the point without floating point surprises",
     ["decimal.Decimal.quantize"]),
    ("generate a hard to guess random string for a password reset link",
     ["secrets.token_urlsafe", "secrets.token_hex"]),
    ("start writing to a new log file every midnight", ["logging.handlers.TimedRotatingFileHandler"]),
    ("show the default value of each command-line option in the --help output",
     ["argparse.ArgumentDefaultsHelpFormatter"]),
    ("make several threads wait for each other until all of them reach the same point",
     ["threading.Barrier", "threading.Barrier.wait"]),
    ("handle each result as soon as its job finishes instead of in submission order",
     ["concurrent.futures.as_completed", "asyncio.as_completed"]),
    ("call slow blocking code from a coroutine without freezing the event loop", ["asyncio.to_thread"]),
    ("quickly share the files of the current folder over http for a browser",
     ["http.server.SimpleHTTPRequestHandler"]),
    ("download a file from a web address and save it to disk", ["urllib.request.urlretrieve"]),
    ("loop over every part of a multipart email, attachments included", ["email.message.Message.walk"]),
    ("send an email through a mail server", ["smtplib.SMTP.send_message", "smtplib.SMTP.sendmail"]),
    ("process a huge XML file element by element without loading all of it into memory",
     ["xml.etree.ElementTree.iterparse"]),
    ("make the first letter of every word in a sentence uppercase", ["string.capwords", "builtins.str.title"]),
    ("cut a long sentence down to a maximum width at a word boundary, marking that it was cut",
     ["textwrap.shorten"]),
    ("make accented letters typed in different ways compare as equal strings", ["unicodedata.normalize"]),
    ("write integers and floats as raw bytes in a fixed binary layout for a file header",
     ["struct.pack", "struct.Struct.pack"]),
    ("run some cleanup code when an object gets garbage collected", ["weakref.finalize"]),
    ("get the full error traceback as text to put in a log",
     ["traceback.format_exception", "traceback.TracebackException.format"]),
    ("temporarily swap out a function or class for a fake in a unit test", ["unittest.mock.patch"]),
    ("how long does a one-line piece of code take, averaged over many runs",
     ["timeit", "timeit.Timer", "timeit.Timer.timeit"]),
    ("list all the usable addresses in a subnet", ["ipaddress.IPv4Network.hosts", "ipaddress.IPv6Network.hosts"]),
    ("capture what print writes into a string instead of the terminal", ["contextlib.redirect_stdout"]),
    ("order build steps so that each one comes after the steps it depends on",
     ["graphlib.TopologicalSorter.static_order"]),
    ("ask the user for a password without showing what they type", ["getpass.getpass"]),
    ("safely turn a string like \"[1, 2, {'a': 3}]\" back into a python object without using eval",
     ["ast.literal_eval"]),
    ("my recursive function crashes with maximum recursion depth exceeded, how to allow deeper recursion",
     ["sys.setrecursionlimit"]),
    ("run my own function when the user presses Ctrl+C",
     ["signal.signal", "asyncio.SelectorEventLoop.add_signal_handler"]),
    ("type hint for a dict with a fixed set of keys, each with its own value type", ["typing.TypedDict"]),
    ("what to call before drawing a shape so that the turtle paints its inside",
     ["turtle.begin_fill", "turtle.RawTurtle.begin_fill"]),
]


def write(out: Path, docs: list[dict[str, str]]) -> None:
    ids = {d["_id"] for d in docs}
    bad = [q for q, rel in QUERIES if not 1 <= len(rel) <= 3 or len(set(rel)) != len(rel)]
    if bad or len({q for q, _ in QUERIES}) != len(QUERIES):
        raise SystemExit(f"each query needs 1 to 3 distinct relevant ids, and a text of its own: {bad}")
    missing = [(q, d) for q, rel in QUERIES for d in rel if d not in ids]
    if missing:
        raise SystemExit(f"judged ids not in the corpus: {missing}")
    (out / "qrels").mkdir(parents=True, exist_ok=True)
    with (out / "corpus.jsonl").open("w", encoding="utf-8", newline="\n") as handle:
        for doc in docs:
            handle.write(json.dumps(doc, ensure_ascii=False) + "\n")
    with (out / "queries.jsonl").open("w", encoding="utf-8", newline="\n") as handle:
        for n, (text, _) in enumerate(QUERIES, 1):
            handle.write(json.dumps({"_id": f"q{n}", "text": text}, ensure_ascii=False) + "\n")
    with (out / "qrels" / "test.tsv").open("w", encoding="utf-8", newline="\n") as handle:
        handle.write("query-id\tcorpus-id\tscore\n")
        for n, (_, relevant) in enumerate(QUERIES, 1):
            for doc_id in relevant:
                handle.write(f"q{n}\t{doc_id}\t1\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=OUT)
    parser.add_argument("--max-docs", type=int, default=6000)
    parser.add_argument("--max-bytes", type=int, default=4_500_000)
    args = parser.parse_args()
    if sys.version_info[:2] != (3, 11):
        print(f"warning: Python {sys.version.split()[0]}; the published set was made with 3.11", file=sys.stderr)
    docs = build_corpus(args.max_docs, args.max_bytes)
    write(args.out, docs)
    size = (args.out / "corpus.jsonl").stat().st_size
    print(f"{len(docs)} documents ({size / 1e6:.2f} MB), {len(QUERIES)} queries, "
          f"{sum(len(r) for _, r in QUERIES)} judgements -> {args.out}")


if __name__ == "__main__":
    main()
