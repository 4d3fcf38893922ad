"""The one masking step (core/secrets/masking.py, issue 34 point 1): a text masked where it
is shown, by the scan's own rule; idempotent; before a cut; a JSON value's strings and
member names in one scan; the format's own random values left as they are."""

from __future__ import annotations

import json

from tests.core.test_secret_scan import AWS_KEY, PEM
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.secrets.masking import (
    CUT_MARGIN,
    is_format_own,
    mask_json,
    mask_text,
    mask_texts,
    masked_clip,
    masked_count,
    prime,
)
from zcf_inspector.core.secrets.scan import scan_packet

TOKEN = "ghp_" + "A1b2C3d4E5" * 4  # a GitHub token, 44 characters


def test_a_text_is_masked_as_the_scan_masks_it() -> None:
    assert mask_text(f"key {AWS_KEY} here") == "key AKIA…(20 characters, hidden) here"
    assert mask_text("nothing to hide") == "nothing to hide"
    assert mask_texts([TOKEN, "plain", TOKEN]) == [
        "ghp_…(44 characters, hidden)",
        "plain",
        "ghp_…(44 characters, hidden)",
    ]


def test_masking_what_is_masked_changes_nothing() -> None:
    # A private key's masked form keeps its header: it is not taken for a key again (the
    # scan's own finding message quotes it, and every line is masked where printed).
    once = mask_text(f"the key:\n{PEM}\nand {TOKEN}")
    assert PEM.split("\n")[1] not in once
    assert mask_text(once) == once
    hit = scan_packet({"packet": {"intent": PEM}}).hits[0]
    assert mask_text(hit.message) == hit.message
    # ... but a key body behind a forged masked header is still found.
    forged = "-----BEGIN RSA PRIVATE KEY-----…(9 characters, hidden) " + TOKEN
    assert TOKEN not in mask_text(forged)


def test_a_cut_never_shows_part_of_a_credential() -> None:
    text = "x" * 10 + " " + TOKEN + " and more" * 2000
    cut = masked_clip(text, 21)  # the cut falls inside the token
    assert cut.startswith("x" * 10 + " ghp_…(44 c")
    assert cut.endswith(f"… ({len(text):,} characters)")
    assert "A1b2C3" not in cut
    # Only a margin past the cut is read: a credential far beyond it is not this line's.
    far = "y " * (CUT_MARGIN * 3) + TOKEN
    assert masked_clip(far, 10) == "y " * 5 + f"… ({len(far):,} characters)"


def test_a_json_value_is_masked_whole_in_one_scan() -> None:
    value: JsonValue = {
        TOKEN: 1,
        TOKEN.replace("A1", "Z9"): 2,  # masked alike: still two members
        "nonce": "6lJk8Gl82jrzxQbRu0hrhQ",
        "list": ["url https://bob:hunter22hunter@x.org/", 3, None],
    }
    masked = mask_json(value, keep=is_format_own)
    assert isinstance(masked, dict)
    assert len(masked) == 4
    text = json.dumps(masked)
    assert "A1b2C3" not in text
    assert "Z9b2C3" not in text
    assert "hunter22hunter" not in text
    assert masked["nonce"] == "6lJk8Gl82jrzxQbRu0hrhQ"  # the format's own
    assert mask_json({"plain": ["a", 1]}) == {"plain": ["a", 1]}
    clean: JsonValue = {"a": "b"}
    assert mask_json(clean) is clean  # nothing to mask: not copied


def test_the_format_s_own_values() -> None:
    assert is_format_own(("packet", "nonce"))
    assert is_format_own(("authentication", "signature"))
    assert is_format_own(("authentication", "mac"))
    assert is_format_own(("signature", "value"))  # a receipt's
    assert not is_format_own(("content", "beliefs", 0, "content"))
    assert not is_format_own(())


def test_primed_texts_are_masked_as_one_by_one() -> None:
    texts = [f"id-{n} {TOKEN}" for n in range(50)] + [f"id-{n}" for n in range(50)]
    prime(texts)
    assert [mask_text(t) for t in texts] == mask_texts(texts)
    assert all(TOKEN not in mask_text(t) for t in texts[:50])


def test_masked_count_reads_every_string_and_member_name_of_a_value() -> None:
    token = "ghp_" + "A1b2C3d4E5" * 4
    value: JsonValue = {"pad": "x" * 100_000, "list": ["plain", {token: 1}, f"key {token}"], "n": 3}
    assert masked_count(value) == 2  # the member name and the string, past 100 KB
    assert masked_count({"plain": ["text", 1, None]}) == 0
    assert masked_count({"nonce": token, "other": token}, is_format_own) == 1
