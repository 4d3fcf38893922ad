"""Mutation families that change the session alone (a report, when drawn, is left as it was)."""

from __future__ import annotations

import base64
import copy
import hashlib
from decimal import Decimal

from mutation_draft import Draft, Json, _index


def tool_correlation(d: Draft) -> None:
    doc = d.doc
    inputs = doc["contexts"][0]["inputs"]
    tools = [i for i, x in enumerate(inputs) if x["kind"] in ("tool_call", "tool_result")]
    j = d.pick(tools)
    at = f"/contexts/0/inputs/{j}"
    item = inputs[j]
    choice = d.rng.randrange(9)
    if choice == 0:
        d.s("replace", at + "/call_id", d.pick(["absent", "call-2", item["call_id"]]))
    elif choice == 1 and item["kind"] == "tool_result":
        d.s("replace", at + "/result_index", d.pick([0, 1, 2]))
    elif choice == 2 and item["kind"] == "tool_result":
        terminal = d.pick([True, False])
        d.s("replace", at + "/terminal", terminal)
        d.s("replace", at + "/outcome", "unknown" if not terminal else d.pick(["success", "error"]))
    elif choice == 3 and item["kind"] == "tool_call":
        d.s("replace", at + "/arguments", d.pick([{}, {"resource_id": "other"}, item["arguments"]]))
    elif choice == 4:
        d.s("add", at + "/transformation", "Mutation: re-encoded for the destination.")
        if item["kind"] == "tool_call":
            d.s("replace", at + "/arguments", {"changed": True})
        else:
            d.s("replace", at + "/parts", [])
    elif choice == 5:
        d.s("add", "/contexts/0/inputs/-", copy.deepcopy(item) | {"id": "dup-" + item["id"]})
    elif choice == 6:
        d.s("remove", at)
    elif choice == 7:
        others = [e["id"] for e in doc["events"]]
        d.s("replace", at + "/source_events", [{"event_id": d.pick(others)}])
    elif item["kind"] == "tool_call":
        d.s("replace", at + "/arguments_status", d.pick(["partial", "unknown", "complete"]))
    else:
        d.s("replace", at + "/parts", [{"kind": "text", "text": "changed"}])


def instruction_binding(d: Draft) -> None:
    doc = d.doc
    at = "/continuation/configuration_bindings/0"
    binding = doc["continuation"]["configuration_bindings"][0]
    choice = d.rng.randrange(8)
    if choice == 0:
        d.s("replace", at + "/instruction_rules", [])
    elif choice == 1:
        d.s(
            "replace",
            at + "/effective_order",
            d.pick([[], ["other"], binding["effective_order"] * 1]),
        )
    elif choice == 2:
        rule = copy.deepcopy(binding["instruction_rules"][0]) | {"instruction_id": "extra"}
        d.s("add", at + "/instruction_rules/-", rule)
        if d.rng.random() < 0.5:
            d.s("add", at + "/effective_order/-", "extra")
    elif choice == 3:
        d.s("replace", at + "/policy_ids", d.pick([[], ["workspace-only", "other"], ["other"]]))
    elif choice == 4:
        # A second instruction, bound, ordered by priority or against it.
        instruction = copy.deepcopy(doc["configurations"][0]["instructions"][0]) | {"id": "second"}
        d.s("add", "/configurations/0/instructions/-", instruction)
        rule = copy.deepcopy(binding["instruction_rules"][0]) | {
            "instruction_id": "second",
            "priority": d.pick([-1, 0, 5]),
        }
        d.s("add", at + "/instruction_rules/-", rule)
        order = d.pick([["workspace-rule", "second"], ["second", "workspace-rule"]])
        d.s("replace", at + "/effective_order", order)
    elif choice == 5:
        d.s("replace", at + "/instruction_rules/0/priority", d.pick([-3, 0, 7]))
    elif choice == 6:
        d.s(
            "replace",
            at + "/instruction_rules/0/activation",
            d.pick([{"kind": "always"}, {"kind": "predicate", "dialect": "x", "expression": True}]),
        )
    else:
        d.s("replace", at + "/instruction_rules/0/group_id", "other-group")


def resource_integrity(d: Draft) -> None:
    doc = d.doc
    embedded = [i for i, r in enumerate(doc["resources"]) if r["availability"] == "embedded"]
    i = d.pick(embedded)
    res = doc["resources"][i]
    at = f"/resources/{i}"
    raw = res["text"].encode()
    choice = d.rng.randrange(6)
    if choice == 0:
        d.s("replace", at + "/sha256", hashlib.sha256(raw + b"x").hexdigest())
    elif choice == 1:
        d.s("replace", at + "/bytes", res["bytes"] + d.pick([-1, 1]))
    elif choice == 2:
        d.s("replace", at + "/text", res["text"] + d.pick(["", " ", "\n"]))
    elif choice == 3:
        d.s("remove", at + "/text")
        d.s("add", at + "/data", base64.b64encode(raw).decode())
    elif choice == 4:
        d.s("remove", at + "/text")
        d.s("add", at + "/data", d.pick(["not base64!", "YWJj", "YW=J"]))
    else:
        text = d.pick(["é", "e\u0301", "日本"])
        d.s("replace", at + "/text", text)
        data = text.encode()
        d.s("replace", at + "/bytes", len(data) + d.pick([0, 0, 1]))
        d.s("replace", at + "/sha256", hashlib.sha256(data).hexdigest())


def instruction_roots(d: Draft) -> None:
    at = "/continuation/configuration_bindings/0/instruction_rules/0/scope"
    d.s(
        "replace",
        at,
        d.pick(
            [
                {"kind": "global"},
                {"kind": "root", "root_id": "project"},
                {"kind": "root", "root_id": "elsewhere"},
                {"kind": "path_prefix", "root_id": "project", "relative_path": "docs"},
                {"kind": "path_prefix", "root_id": "elsewhere", "relative_path": ""},
                {"kind": "path_prefix", "root_id": "project", "relative_path": "../up"},
            ]
        ),
    )


def context_configuration(d: Draft) -> None:
    if d.rng.random() < 0.5:
        d.s("remove", "/contexts/0/configuration_id")
        if d.doc["contexts"][0]["fidelity"] == "exact":
            d.s("replace", "/contexts/0/fidelity", "reconstructed")
    else:
        d.s("replace", "/contexts/0/configuration_id", d.pick(["other", "effective"]))


def stale_context(d: Draft) -> None:
    doc = d.doc
    events = [e["id"] for e in doc["events"]]
    choice = d.rng.randrange(3)
    if choice == 0:
        d.s("replace", "/contexts/0/at_event_id", d.pick(events))
    elif choice == 1:
        j = d.rng.randrange(len(doc["contexts"][0]["inputs"]))
        d.s("replace", f"/contexts/0/inputs/{j}/source_events", [{"event_id": d.pick(events)}])
    else:
        d.s("replace", "/checkpoints/0/at_event_id", d.pick(events))


def open_calls(d: Draft) -> None:
    doc = d.doc
    choice = d.rng.randrange(4)
    if choice == 0:
        d.s(
            "replace",
            "/checkpoints/0/open_calls",
            d.pick([[], [{"call_id": "call-1", "state": "pending"}]]),
        )
    elif choice == 1 and doc["continuation"]["operations"]:
        op = copy.deepcopy(doc["continuation"]["operations"][0]) | {"id": "second-op"}
        d.s("add", "/continuation/operations/-", op)
        d.s("add", "/continuation/plans/0/operation_ids/-", "second-op")
    elif choice == 2 and doc["continuation"]["operations"]:
        d.s("add", "/continuation/operations/0/call_id", d.pick(["call-1", "call-9"]))
        d.s("replace", "/continuation/operations/0/kind", "tool")
    else:
        d.s("replace", "/continuation/plans/0/operation_ids", [])


def history_order(d: Draft) -> None:
    doc = d.doc
    n = len(doc["events"])
    choice = d.rng.randrange(5)
    if choice == 0:
        i = d.rng.randrange(n)
        d.s("replace", f"/events/{i}/sequence", d.pick([0, 1, 5, 99]))
    elif choice == 1:
        i = d.rng.randrange(n)
        d.s(
            "replace",
            f"/events/{i}/causes",
            [{"event_id": d.pick([e["id"] for e in doc["events"]])}],
        )
    elif choice == 2:
        d.s("replace", "/branches/0/head_event_id", d.pick([e["id"] for e in doc["events"]]))
    elif choice == 3:
        d.s(
            "replace",
            f"/events/{d.rng.randrange(n)}/actor_id",
            d.pick(["person", "agent", "nobody"]),
        )
    else:
        results = [i for i, e in enumerate(doc["events"]) if e["kind"] == "tool_result"]
        if results:
            d.s("replace", f"/events/{d.pick(results)}/data/result_index", d.pick([0, 1]))


def tool_schema(d: Draft) -> None:
    schema = d.pick(
        [
            {"type": "objekt"},
            {"type": ["object", "object"]},
            {"type": []},
            {"required": ["a", "a"]},
            {"required": "a"},
            {"pattern": "("},
            {"pattern": "^[a-z]+$"},
            {"properties": []},
            {"properties": {"a": 3}},
            {"properties": {"a": {"type": "string"}}},
            {"minLength": -1},
            {"minLength": 1.5},
            {"items": [{"type": "string"}]},
            {"items": {"type": "string"}},
            {"$id": "urn:x#frag"},
            {"$id": "urn:x#"},
            {"$anchor": "9bad"},
            {"enum": "a"},
            {"enum": []},
            {"allOf": []},
            {"anyOf": [{"type": "string"}, True]},
            {"not": 5},
            {"x-unknown": {"anything": 1}},
            {"patternProperties": {"(": {}}},
            {"dependentRequired": {"a": ["b", "b"]}},
            {"dependencies": {"a": ["b"], "c": {"type": "string"}}},
            {"dependencies": {"a": 3}},
            {"multipleOf": 0},
            {"$vocabulary": {"urn:v": "yes"}},
            {"uniqueItems": "yes"},
        ]
    )
    d.s(
        "replace",
        "/tools/0/input_schema",
        d.pick([schema, True, False, {"type": "object"}]) if d.rng.random() < 0.15 else schema,
    )
    if d.rng.random() < 0.3:
        d.s("add", "/tools/0/output_schema", d.pick([{"type": "object"}, {"type": 3}, False]))


def _blob(text: str, fmt: str) -> str:
    raw = text.encode()
    return hashlib.new(fmt, b"blob %d\0" % len(raw) + raw).hexdigest()


def git_state(d: Draft) -> None:
    doc = d.doc
    fmt = d.pick(["sha1", "sha256"])  # other formats: a deliberate difference
    length = 64 if fmt == "sha256" else 40
    source = doc["resources"][0]
    good = _blob(source["text"], fmt if fmt != "md5" else "sha1")
    entry = {
        "path": d.pick(["inventory.csv", "../x", "a/b.txt"]),
        "stage": d.pick([0, 0, 1, 2]),
        "mode": d.pick(["100644", "100755", "644", "040000"]),
        "resource_id": d.pick([source["id"], source["id"], None, "absent"]),
        "object_id": d.pick([good, good, "0" * length, None, "A" * length]),
    }
    entries = [entry]
    if d.rng.random() < 0.4:
        entries.append(entry | {"stage": d.pick([0, 1, 2, 3])})
    git = {
        "object_format": fmt,
        "head": d.pick(["a" * length, None, "z" * length, "a" * (length - 1)]),
        "branch": d.pick(["main", None]),
        "bundle_resource_ids": d.pick([[], [source["id"]], ["absent"]]),
        "prerequisites": d.pick(
            [
                [],
                [{"object_id": "b" * length, "availability": "external"}],
                [{"object_id": "b" * length, "availability": "embedded"}],
                [{"object_id": "xyz", "availability": "unknown"}],
            ]
        ),
        "index_entries": d.pick([[], entries, entries]),
        "submodules": d.pick(
            [
                [],
                [
                    {
                        "path": "vendor/lib",
                        "object_id": "c" * length,
                        "dependency_id": doc["continuation"]["dependencies"][0]["id"],
                    }
                ],
                [{"path": "vendor/lib", "object_id": "c" * length, "dependency_id": "absent"}],
            ]
        ),
        "lfs_dependency_ids": d.pick(
            [[], [doc["continuation"]["dependencies"][0]["id"]], ["absent"]]
        ),
    }
    d.s("add", "/continuation/workspaces/0/git", git)


def streams(d: Draft) -> None:
    doc = d.doc
    results = [e for e in doc["events"] if e["kind"] == "tool_result"]
    calls = [e for e in doc["events"] if e["kind"] == "tool_call"]
    text_resource = doc["resources"][0]
    size = text_resource["bytes"]
    kind = d.pick(["tool_arguments", "tool_result_text"])
    event = d.pick(calls if kind == "tool_arguments" else results or calls)
    segments = []
    offset = 0
    for index in range(d.rng.randrange(0, 3)):
        length = d.rng.randrange(0, size + 2)
        segments.append(
            {
                "index": d.pick([index, index, index + 1]),
                "resource_id": d.pick([text_resource["id"], text_resource["id"], "absent"]),
                "offset": offset,
                "length": length,
                "terminal": False,
            }
        )
        offset = 0
    if segments and d.rng.random() < 0.6:
        segments[d.pick([-1, -1, 0])]["terminal"] = True
    stream = {
        "id": "stream-1",
        "kind": kind,
        "event_id": event["id"],
        "call_id": d.pick([event["data"].get("call_id", "x"), "other"]),
        "status": d.pick(["complete", "partial"]),
        "segments": segments,
    }
    if kind == "tool_result_text" or d.rng.random() < 0.2:
        stream["result_index"] = d.pick([0, 0, 1])
    d.s("add", "/streams", d.pick([[stream], [stream, stream]]))
    d.s("add", "/required_features/-", "asif.streams/0.1")


def external_bindings(d: Draft) -> None:
    doc = d.doc
    tool = doc["tools"][0]["id"]
    bindings = []
    if d.rng.random() < 0.7:
        bindings.append(
            {
                "kind": "call",
                "id": d.pick(["ext-call", "call-1"]),
                "source": {"session_id": "s0", "capture_id": "c0", "event_id": "x1"},
                "descriptor": {
                    "tool_id": d.pick([tool, "absent"]),
                    "arguments": {},
                    "arguments_status": "complete",
                },
            }
        )
    if d.rng.random() < 0.7:
        bindings.append(
            {
                "kind": "request",
                "id": d.pick(["ext-request", "choose-next"]),
                "source": {"session_id": "s0", "capture_id": "c0", "event_id": "x2"},
                "descriptor": {
                    "decision_kind": "question",
                    "prompt": d.pick([[], [{"kind": "resource", "resource_id": "absent"}]]),
                    "options": d.pick([[], [{"id": "a", "label": "A"}, {"id": "a", "label": "B"}]]),
                },
            }
        )
    if bindings and d.rng.random() < 0.3:
        bindings.append(copy.deepcopy(bindings[0]))
    d.s("add", "/external_bindings", bindings)
    if d.rng.random() < 0.9:
        d.s("add", "/required_features/-", "asif.external-bindings/0.1")


def _integer_leaves(value: Json, path: str = "") -> list[tuple[str, int]]:
    """Every integer in ``value`` (never a bool) with its pointer: the integer fields."""
    if isinstance(value, dict):
        return [
            leaf
            for key, member in value.items()
            for leaf in _integer_leaves(
                member, f"{path}/{key.replace('~', '~0').replace('/', '~1')}"
            )
        ]
    if isinstance(value, list):
        return [
            leaf for i, item in enumerate(value) for leaf in _integer_leaves(item, f"{path}/{i}")
        ]
    if isinstance(value, int) and not isinstance(value, bool):
        return [(path, value)]
    return []


def _number_variants(value: int) -> list[Json]:
    """Exact numbers near ``value`` and far from any double: integral spellings (1.0,
    1e0), values a double rounds to it, and magnitudes beyond ±2^53 and a double."""
    below = f"{value - 1}.99999999999999999999" if value > 0 else "-0.00000000000000000001"
    return [
        Decimal(f"{value}.0"),
        Decimal(f"{value}e0"),
        Decimal(f"{value}.0000000000000000001"),
        Decimal(below),
        Decimal("1e-400"),
        Decimal("-0.0"),
        2**53,
        2**53 + 1,
        2**64,
        Decimal("1e400"),
        Decimal("9007199254740993.5"),
    ]


_FREE_NUMBERS: list[Json] = [
    9007199254740993,
    2**64,
    -(2**70),
    Decimal("1e400"),
    Decimal("-1e400"),
    Decimal("1e-400"),
    Decimal("0.70000000000000000001"),
    Decimal("1.00000000000000001"),
    Decimal("1.0"),
    1,
    True,
]


def exact_numbers(d: Draft) -> None:
    """Big and non-integral numbers in every integer field and in free JSON."""
    choice = d.rng.randrange(4)
    if choice == 0 or (choice == 1 and d.report_name is None):
        path, value = d.pick(_integer_leaves(d.doc))
        d.s("replace", path, d.pick(_number_variants(value)))
    elif choice == 1:
        path, value = d.pick(_integer_leaves(d.rep))
        d.r("replace", path, d.pick(_number_variants(value)))
    elif choice == 2:
        doc = d.doc
        where = d.pick(
            [
                f"/contexts/{i}/request_parameters"
                for i, c in enumerate(doc["contexts"])
                if isinstance(c.get("request_parameters"), dict)
            ]
            + [f"/tools/{i}/input_schema" for i in range(len(doc["tools"]))]
        )
        key = "maximum" if "input_schema" in where else "seed"
        d.s("add", f"{where}/{key}", d.pick(_FREE_NUMBERS))
    else:
        # A tool call's arguments in its event and in a context input, exactly equal or
        # not: equal exactly is no transformation, a double's equality is not enough.
        doc = d.doc
        for c, ctx in enumerate(doc["contexts"]):
            for j, item in enumerate(ctx["inputs"]):
                if item["kind"] == "tool_call" and isinstance(item.get("arguments"), dict):
                    source = item["source_events"][0]["event_id"]
                    e = _index(doc["events"], lambda ev, source=source: ev["id"] == source)
                    first = d.pick(_FREE_NUMBERS)
                    second = first if d.rng.random() < 0.5 else d.pick(_FREE_NUMBERS)
                    d.s("add", f"/events/{e}/data/arguments/n", first)
                    d.s("add", f"/contexts/{c}/inputs/{j}/arguments/n", second)
                    return


def _insert_event(d: Draft, event: Json) -> None:
    """Insert ``event`` into main's history just before the head, keeping the head."""
    doc = d.doc
    events = doc["events"]
    head = len(events) - 1
    while events[head]["id"] != doc["branches"][0]["head_event_id"]:
        head -= 1
    for i in range(head, len(events)):
        d.s("replace", f"/events/{i}/sequence", events[i]["sequence"] + 1)
    event = event | {"sequence": events[head]["sequence"]}
    d.s("add", f"/events/{head}", event)
    position = doc["branches"][0]["event_ids"].index(events[head]["id"])
    d.s("add", f"/branches/0/event_ids/{position}", event["id"])
    for k in range(len(doc["continuation"]["plans"])):
        d.s(
            "add",
            f"/continuation/plans/{k}/context_accounting/-",
            {
                "event_id": event["id"],
                "disposition": "not_input",
                "input_ids": [],
                "explanation": "Inserted by a mutation.",
            },
        )


def history_insert(d: Draft) -> None:
    doc = d.doc
    provenance = doc["events"][0]["provenance"]
    calls = [e["data"]["call_id"] for e in doc["events"] if e["kind"] == "tool_call"]
    requests = [e["data"]["request_id"] for e in doc["events"] if e["kind"] == "decision_request"]
    base = {"id": "ins", "actor_id": "agent", "causes": [], "provenance": provenance}
    kind = d.pick(
        [
            "tool_result",
            "decision_request",
            "decision_resolution",
            "task_update",
            "tool_call",
            "execution_transition",
        ]
    )
    if kind == "tool_result":
        data = {
            "call_id": d.pick([*calls, "nope"]),
            "result_index": d.pick([0, 1, 5]),
            "terminal": False,
            "outcome": "unknown",
            "parts": [],
        }
    elif kind == "tool_call":
        data = {
            "call_id": d.pick([*calls, "call-new"]),
            "tool_id": doc["tools"][0]["id"],
            "arguments": {},
            "arguments_status": "complete",
        }
        if d.rng.random() < 0.3:
            data["retry_of"] = d.pick([*calls, data["call_id"]])
    elif kind == "decision_request":
        data = {
            "request_id": d.pick([*requests, "ask-new"]),
            "decision_kind": "question",
            "prompt": [],
            "options": d.pick(
                [
                    [{"id": "y", "label": "Y"}],
                    [{"id": "y", "label": "Y"}, {"id": "y", "label": "Z"}],
                ]
            ),
        }
        if d.rng.random() < 0.3:
            data["call_id"] = d.pick([*calls, "nope"])
    elif kind == "decision_resolution":
        data = {"request_id": d.pick([*requests, "nope"]), "outcome": "answered", "answer": []}
        if d.rng.random() < 0.5:
            data["selected_option_id"] = d.pick(["approve", "y", "nope"])
    elif kind == "task_update":
        data = {
            "task_id": "t1",
            "revision": d.pick([0, 1]),
            "status": d.pick(["pending", "completed"]),
        }
        if d.rng.random() < 0.4:
            data["previous_revision"] = d.pick([0, 1, 3])
        if d.rng.random() < 0.3:
            data["dependencies"] = d.pick([["t1"], ["t9"], []])
    else:
        data = {"execution_id": d.pick(["exec-1", "nope"]), "status": "running"}
    _insert_event(d, base | {"kind": kind, "data": data})
