"""`zcf-inspector plan`: exit codes, the JSON shape, DOT styling and human output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.core.continuation.spec_examples import (
    CLOCK_TEXT,
    EXAMPLES,
    dump,
    expected_results,
    mutated,
    rebind,
    report,
    session,
)
from tests.core.helpers import GOLDENS
from zcf_inspector import api
from zcf_inspector.cli import exitcodes, main
from zcf_inspector.core.errors import InputError


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["plan", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def example(name: str) -> str:
    return str(EXAMPLES / name)


def test_example_session_exits_ok(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, example("another-computer.session.json"))
    assert code == exitcodes.OK
    assert "plan continue-main (resume_native; scopes read, context, continue): pass" in out


def test_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        example("action-specific.session.json"),
        "--json",
        "--report",
        example("action-specific-model_request.report.json"),
        "--now",
        CLOCK_TEXT,
    )
    assert code == exitcodes.REFUSED  # the report says BLOCKED: a script must not go on
    doc = json.loads(out)
    assert set(doc) == {
        "kind",
        "verdict",
        "trust",
        "notChecked",
        "checks",
        "findings",
        "findingsOmitted",
        "plans",
        "report",
    }
    assert doc["verdict"] == "BLOCKED (5 blockers) · ASIF-SESSION VALID"
    assert doc["trust"] == "refused"
    assert doc["findingsOmitted"] == []
    assert doc["kind"] == "asif-session"
    plan = doc["plans"][3]
    assert set(plan) == {
        "id",
        "nextAction",
        "activeScopes",
        "nodes",
        "edges",
        "closure",
        "cycles",
        "findings",
        "findingsOmitted",
    }
    assert plan["nextAction"] == "model_request"
    assert set(plan["nodes"][0]) == {
        "id",
        "type",
        "selected",
        "required",
        "missing",
        "blockers",
        "via",
    }
    assert set(plan["edges"][0]) == {"from", "to", "kind", "pointer", "prerequisite"}
    # Issue 11: every node is reached from the plan node along the listed edges.
    targets = {e["to"] for e in plan["edges"]}
    assert plan["nodes"][0]["id"] == "plan:model_request"
    assert plan["nodes"][0]["via"] is None
    assert all(n["id"] in targets and n["via"]["kind"] for n in plan["nodes"][1:])
    assert set(plan["closure"]) == {"dependencies", "missing"}
    receipt = report("action-specific-model_request")
    assert doc["report"] == {
        "outcome": "blocked",
        "recomputedOutcome": expected_results()["same-capture-model_request"],
        "blockingReasons": [
            {
                "subject": f"{r['subject']['kind']}:"
                + (f"{r['subject']['owner_id']}/" if "owner_id" in r["subject"] else "")
                + r["subject"]["id"],
                "reason": r["reason"],
            }
            for r in receipt["blocking_reasons"]
        ],
        "times": {
            "assessedAt": receipt["assessed_at"],
            "expiresAt": receipt["expires_at"],
            "checkedAt": CLOCK_TEXT,
            "expired": False,
        },
        "findings": [],
        "findingsOmitted": [],
    }
    blockers = {n["id"]: n["blockers"] for n in plan["nodes"] if n["blockers"]}
    assert [b["code"] for b in blockers["plan:model_request"]] == ["pending_decision"]
    assert [b["code"] for b in blockers["model:model_request"]] == ["model_fit_unknown"]
    assert "'choose-next'" in blockers["plan:model_request"][0]["reason"]
    listed = {
        f"{a['subject']['kind']}:"
        + (f"{a['subject']['owner_id']}/" if "owner_id" in a["subject"] else "")
        + a["subject"]["id"]: a["required"]
        for a in receipt["assessments"]
    }
    assert {n["id"]: n["required"] for n in plan["nodes"]} == listed


def test_plan_option_selects_one_plan(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, example("action-specific.session.json"), "--json", "--plan", "await_decision"
    )
    assert code == exitcodes.OK
    assert [p["id"] for p in json.loads(out)["plans"]] == ["await_decision"]


def test_unknown_plan_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, example("action-specific.session.json"), "--plan", "nope")
    assert code == exitcodes.USAGE
    assert "no plan 'nope'" in err


def test_the_api_refuses_an_unknown_plan_as_the_cli_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = example("action-specific.session.json")
    with pytest.raises(InputError) as raised:
        api.inspect_continuation(path, plan_id="nope")
    assert raised.value.code == "input_unusable"
    _, _, err = run(capsys, path, "--plan", "nope")
    assert "has no plan 'nope'" in str(raised.value)
    assert err.endswith("has no plan 'nope'\n")
    # A plan that exists is still selected, and a refused document keeps its findings.
    assert [p.id for p in api.inspect_continuation(path, plan_id="await_decision").plans] == [
        "await_decision"
    ]
    refused = api.inspect_continuation(b"{}", plan_id="nope")
    assert not refused.ok


def test_error_exits_refused_with_finding_and_pointer(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    broken = mutated(
        session("another-computer"),
        lambda d: d["continuation"]["dependencies"][0].update(depends_on=["agent-runtime"]),
    )
    path = tmp_path / "cycle.session.json"
    path.write_bytes(dump(broken))
    code, out, _ = run(capsys, str(path))
    assert code == exitcodes.REFUSED
    assert ": ASIF-SESSION REFUSED: dependency_cycle\n" in out
    assert "error   dependency_cycle  /continuation/dependencies/0/depends_on/0" in out


def test_dot_styles_missing_required_and_cycle(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def mutate(d: dict[str, object]) -> None:
        deps = d["continuation"]["dependencies"]  # type: ignore[index]
        deps[0]["depends_on"] = ["agent-runtime"]
        deps[2]["resource_ids"].append("font-not-captured")

    path = tmp_path / "broken.session.json"
    path.write_bytes(dump(mutated(session("another-computer"), mutate)))
    code, out, _ = run(capsys, str(path), "--dot")
    assert code == exitcodes.REFUSED
    assert out.startswith('digraph "plan:continue-main" {')
    # Nodes are named n0, n1, … (issue 34, point 1: a DOT id is never the document's);
    # each node's label is its subject.
    node = {
        line.split('label="', 1)[1].split('"', 1)[0]: line.strip().split(" ", 1)[0]
        for line in out.splitlines()
        if "[label=" in line and "->" not in line
    }
    missing, plan, runtime = (
        node[name]
        for name in ("resource:font-not-captured", "plan:continue-main", "dependency:agent-runtime")
    )
    assert f'  {missing} [label="resource:font-not-captured", style="bold,dashed"]' in out
    assert f'  {plan} [label="plan:continue-main", style="bold"' in out
    assert (
        f'  {runtime} -> {runtime} [label="depends_on",'
        ' tooltip="/continuation/dependencies/0/depends_on/0", color=red];'
    ) in out
    # The plan's selections are drawn too, dashed: the plan node reaches every subject.
    assert (
        f'  {plan} -> {runtime} [label="selects_dependency",'
        ' tooltip="/continuation/plans/0/dependency_ids/0", style="dashed", color="gray40",'
        ' fontcolor="gray40"];'
    ) in out


def test_report_checked_against_session(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    expired = mutated(
        report("another-computer"), lambda r: r.update(expires_at="2026-09-26T12:01:00Z")
    )
    path = tmp_path / "expired.report.json"
    path.write_bytes(dump(expired))
    code, out, _ = run(
        capsys, example("another-computer.session.json"), "--report", str(path), "--now", CLOCK_TEXT
    )
    assert code == exitcodes.REFUSED
    assert "error   report_expired  /expires_at" in out


def test_report_alone(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, example("another-agent.report.json"), "--json", "--now", CLOCK_TEXT)
    assert code == exitcodes.UNCHECKED  # not checked against the session it binds
    doc = json.loads(out)
    assert doc["trust"] == "unchecked"
    assert doc["kind"] == "continuation-report"
    assert doc["plans"] == []
    assert doc["report"]["recomputedOutcome"] == expected_results()["another-agent"]


def test_unreadable_file_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = run(capsys, str(tmp_path / "absent.json"))
    assert code == exitcodes.USAGE
    assert out == ""
    assert "absent.json: no such file" in err
    assert "Traceback" not in err


def test_refused_json_is_a_finding(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "dup.json"
    path.write_bytes(b'{"asif_version": "0.4", "asif_version": "0.4"}')
    code, out, _ = run(capsys, str(path), "--json")
    assert code == exitcodes.REFUSED
    doc = json.loads(out)
    assert doc["kind"] is None
    assert [f["code"] for f in doc["findings"]] == ["document_refused"]


def test_bad_clock_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, example("another-computer.session.json"), "--now", "yesterday")
    assert code == exitcodes.USAGE
    assert "--now" in err


def test_json_and_dot_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["plan", example("another-computer.session.json"), "--json", "--dot"])
    assert exc.value.code == exitcodes.USAGE
    capsys.readouterr()


def test_blockers_are_listed_under_their_plan(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, example("action-specific.session.json"), "--plan", "await_user")
    assert code == exitcodes.OK
    lines = out.splitlines()
    assert lines[1] == "  unsigned | document: pass · asif-session | plan await_user: pass"
    assert lines[2].startswith("plan await_user (await_user; scopes read): pass")
    assert lines[2].endswith(", 3 known blockers")
    assert (
        "  blocker resource:missing-media (optional): resource_unavailable — resource "
        "'missing-media' is unavailable"
    ) in lines
    assert any(line.startswith("  blocker operation:remote-job (optional): ") for line in lines)


def test_no_blockers_gives_an_empty_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, example("another-computer.session.json"), "--json")
    assert code == exitcodes.OK
    (plan,) = json.loads(out)["plans"]
    assert all(n["blockers"] == [] for n in plan["nodes"])


def test_support_claimed_over_a_known_blocker_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The issue's headline case: a partial capture whose report still says ready."""
    partial = dump(
        mutated(
            session("another-computer"),
            lambda d: d["continuation"]["plans"][0]["boundary"].update(consistency="partial"),
        )
    )
    source = tmp_path / "partial.session.json"
    source.write_bytes(partial)
    receipt = tmp_path / "ready.report.json"
    receipt.write_bytes(dump(rebind(report("another-computer"), partial)))
    code, out, _ = run(capsys, str(source), "--report", str(receipt), "--now", CLOCK_TEXT)
    assert code == exitcodes.REFUSED
    assert "blocker plan:continue-main (required): boundary_not_consistent" in out
    assert (
        "error   known_blocker_claimed  /assessments/0/status\n      plan:continue-main is " in out
    )
    assert "assessed supported, but the session shows a known blocker" in out
    assert (
        "report assessment-another-computer for plan continue-main: fail · known_blocker_claimed"
        in out
    )


def test_expired_report_line_names_both_times(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(
        capsys,
        example("another-computer.session.json"),
        "--report",
        example("another-computer.report.json"),
        "--now",
        "2026-09-27T12:00:00Z",
    )
    assert code == exitcodes.REFUSED
    assert (
        "assessed 2026-09-26T12:00:00Z, expired 2026-09-26T13:00:00Z, checked at "
        "2026-09-27T12:00:00Z" in out
    )


def test_hostile_strings_are_escaped_for_the_terminal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    receipt = mutated(
        report("pending-remote-operation"),
        lambda r: r["blocking_reasons"][0].update(reason="\x1b[2Jgone\x07"),
    )
    path = tmp_path / "hostile.report.json"
    path.write_bytes(dump(receipt))
    code, out, _ = run(
        capsys,
        example("pending-remote-operation.session.json"),
        "--report",
        str(path),
        "--now",
        CLOCK_TEXT,
    )
    assert code == exitcodes.REFUSED  # the report says BLOCKED
    assert "\x1b" not in out
    assert "\x07" not in out
    assert "blocking reason service:publisher-service: \\u001b[2Jgone\\u0007" in out


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        (EXAMPLES / "another-computer.report.json", "is continuation-report, not a session"),
        (GOLDENS / "publication" / "minimal.json", "is not a continuation session or profile"),
    ],
    ids=["report", "packet"],
)
def test_dot_says_why_it_printed_nothing(
    capsys: pytest.CaptureFixture[str], name: Path, kind: str
) -> None:
    # Issue 19: `plan --dot` on a non-session printed nothing at all.
    code, out, err = run(capsys, "--dot", str(name))
    assert out == ""
    assert err.startswith("zcf-inspector: --dot printed nothing: ")
    assert kind in err
    assert "run without --dot to see its findings" in err
    assert len(err.splitlines()) == 1
    assert code in (exitcodes.OK, exitcodes.REFUSED)
