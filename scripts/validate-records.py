#!/usr/bin/env python3
"""Checks kopt's records against their JSON Schemas (docs/schemas/*.schema.json).

  validate-records.py PATH...

A PATH is a run folder, a campaign folder, a folder of runs (runs/examples), a suite of
benchmarks or one file. In a folder it finds, at any depth, run.json, summary.json, events.jsonl
(line by line), candidates/*/evaluation.json, index.jsonl (line by line), benchmark.json
(manifests: a suite's, and a run's copy of its benchmark in benchmark/NAME/) and build.json (the build cache's). A tool's result inside an event (the `data` of a
`tool_call`: kopt-profile/1, kopt-roofline/1) is checked against its own tag's schema too. A document's schema is the one of
its `format` tag; an events.jsonl line's is the one of the file's header line. A document
without a known tag is checked against the schema its file name implies, which then names the
wrong tag. A single file of another name (`kopt compare --json` output, `kopt eval --json`
output) is checked by its tag; a .jsonl file line by line.

Prints one line per problem, `FILE[:LINE]: JSON-pointer: message` ((root) for the whole
document), and exits 1 when there is any; 2 on bad usage or when no record was found; 0 with
one summary line. A torn last line of an events.jsonl (a killed run) is noted on stderr, not
counted. Needs the jsonschema package (Debian: python3-jsonschema, 4.10 or later).
"""
import json
import sys
import warnings
from pathlib import Path

try:
    import jsonschema
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match
except ImportError:
    sys.exit("validate-records: needs the jsonschema package (apt-get install python3-jsonschema)")

SCHEMAS = Path(__file__).resolve().parent.parent / "docs" / "schemas"

# The format a record file's name implies; evaluation.json only inside candidates/NNNN/.
FORMAT_OF_NAME = {
    "run.json": "kopt-run/1",
    "summary.json": "kopt-summary/1",
    "evaluation.json": "kopt-evaluation/1",
    "events.jsonl": "kopt-events/1",
    "index.jsonl": "kopt-campaign-index/1",
    "benchmark.json": "kopt-benchmark/1",
    "build.json": "kopt-build/1",
}


class Validators:
    """One validator per format, the schemas' cross-file $refs resolved among themselves."""

    def __init__(self):
        self.store = {}  # Schema URI -> schema.
        self.formats = {}  # "kopt-run/1" -> its schema's URI.
        for path in sorted(SCHEMAS.glob("*.schema.json")):
            with open(path) as f:
                self.store[path.as_uri()] = json.load(f)
            name, version = path.name[: -len(".schema.json")].rsplit("-", 1)
            self.formats[f"{name}/{version}"] = path.as_uri()
        self.cache = {}

    def known(self, fmt):
        return isinstance(fmt, str) and fmt in self.formats

    def get(self, fmt):
        if fmt not in self.cache:
            uri = self.formats[fmt]
            schema = self.store[uri]
            with warnings.catch_warnings():  # RefResolver is deprecated from jsonschema 4.18.
                warnings.simplefilter("ignore", DeprecationWarning)
                resolver = jsonschema.RefResolver(uri, schema, store=self.store)
                self.cache[fmt] = Draft202012Validator(schema, resolver=resolver)
        return self.cache[fmt]


def pointer(path):
    """The RFC 6901 JSON pointer of an error's path; "(root)" for the whole document."""
    parts = [str(p).replace("~", "~0").replace("/", "~1") for p in path]
    return "/" + "/".join(parts) if parts else "(root)"


def document_order(error):
    """A sort key: by the error's place in the document, array indexes as numbers."""
    return [(isinstance(part, str), part) for part in error.absolute_path]


def short(message, limit=300):
    return message if len(message) <= limit else message[:limit] + "..."


def is_header(doc):
    return isinstance(doc, dict) and doc.get("type") == "header"


def is_record_file(path):
    if path.name == "evaluation.json":
        return path.parent.parent.name == "candidates"
    return path.name in FORMAT_OF_NAME


def find_records(root):
    """The record files under a folder, sorted; a file stands for itself."""
    if root.is_file():
        return [root]
    return sorted(p for p in root.rglob("*") if p.is_file() and is_record_file(p))


class Checker:
    def __init__(self):
        self.validators = Validators()
        self.problems = 0
        self.documents = 0

    def report(self, where, at, message):
        self.problems += 1
        print(f"{where}: {at}: {message}")

    def check(self, doc, where, fmt):
        """Validates one document against `fmt`'s schema."""
        self.documents += 1
        errors = self.validators.get(fmt).iter_errors(doc)
        for error in sorted(errors, key=document_order):
            # An anyOf (null or an object) names the deepest failure inside it, not itself.
            error = best_match([error])
            self.report(where, pointer(error.absolute_path), short(error.message))
        self.check_embedded(doc, where)

    def check_embedded(self, doc, where):
        """A tool's result inside an event, checked against its own tag's schema."""
        if not (isinstance(doc, dict) and doc.get("type") == "tool_call"):
            return
        data = doc.get("data")
        tag = data.get("format") if isinstance(data, dict) else None
        if self.validators.known(tag):
            self.check(data, f"{where} (its /data)", tag)

    def format_for(self, doc, where, implied):
        """The format to check `doc` against: its tag's, else the one its file name implies."""
        tag = doc.get("format") if isinstance(doc, dict) else None
        if self.validators.known(tag):
            if implied and tag != implied:
                self.report(where, "/format", f"{tag!r} in a file that holds {implied}")
            return tag
        if implied:
            return implied  # Its schema's const names the expected tag.
        self.report(where, "/format" if isinstance(doc, dict) else "(root)",
                    f"no known format tag ({tag!r}); known: "
                    + ", ".join(sorted(self.validators.formats)))
        return None

    def check_json(self, path):
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            self.report(path, "(root)", f"not readable JSON: {e}")
            return
        fmt = self.format_for(doc, path, FORMAT_OF_NAME.get(path.name))
        if fmt:
            self.check(doc, str(path), fmt)

    def check_jsonl(self, path):
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except (OSError, ValueError) as e:
            self.report(path, "(root)", f"not readable: {e}")
            return
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()
        implied = FORMAT_OF_NAME.get(path.name)
        fmt = None  # The first line's, for every line.
        for number, line in enumerate(lines, 1):
            where = f"{path}:{number}"
            if not line.strip() and implied == "kopt-campaign-index/1":
                continue  # kopt's index reader skips empty lines.
            try:
                doc = json.loads(line)
            except ValueError as e:
                torn = number == len(lines) > 1 and not text.endswith("\n")
                if torn and implied == "kopt-events/1":
                    print(f"{where}: note: a torn last line (a killed run; kopt resume cuts it), "
                          f"not checked", file=sys.stderr)
                else:
                    self.report(where, "(root)", f"not valid JSON: {e}")
                continue
            if fmt is None:
                fmt = self.format_for(doc, where, implied)
                if fmt is None:
                    return
                if fmt == "kopt-events/1" and not is_header(doc):
                    self.report(where, "/type", "the first line of an event log must be the "
                                "header {\"type\": \"header\", \"format\": \"kopt-events/1\"}")
            self.check(doc, where, fmt)
        if fmt is None:
            self.report(path, "(root)", "no JSON line")


def main():
    args = sys.argv[1:]
    if args in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if not args or any(a.startswith("-") for a in args):
        print("usage: validate-records.py PATH... (--help says more)", file=sys.stderr)
        return 2
    checker = Checker()
    files = []
    for arg in args:
        root = Path(arg)
        if not root.exists():
            print(f"validate-records: {arg}: no such file or folder", file=sys.stderr)
            return 2
        files += [p for p in find_records(root) if p not in files]
    if not files:
        print(f"validate-records: no records (run.json, summary.json, events.jsonl, "
              f"candidates/*/evaluation.json, index.jsonl, benchmark.json, build.json) under "
              f"{' '.join(args)}",
              file=sys.stderr)
        return 2
    for path in files:
        if path.suffix == ".jsonl":
            checker.check_jsonl(path)
        else:
            checker.check_json(path)
    if checker.problems:
        print(f"validate-records: {checker.problems} problems in {checker.documents} documents "
              f"of {len(files)} files", file=sys.stderr)
        return 1
    print(f"validate-records: {checker.documents} documents in {len(files)} files valid")
    return 0


if __name__ == "__main__":
    sys.exit(main())
