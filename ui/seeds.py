"""Derive a computer player's random seed from the game's secret deal seed one way, so it cannot rebuild the deal.

The seed is an HMAC (SHA-256) keyed with the secret seed over the seat and the position the seat sees: code that
gets it (ai/, hints) learns nothing of the secret, and the same position gets the same seed, so a computer
player's reply to a position is the same after a takeback as before it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from typing import Any


def computer_seed(secret: int, seat: int, view: Mapping[str, Any]) -> int:
    """Return the 64-bit seed a computer player (or a hint) of `seat` searches `view` with."""
    key = secret.to_bytes((secret.bit_length() + 8) // 8 or 1, "big", signed=True)
    message = json.dumps([seat, view], sort_keys=True, separators=(",", ":"), default=str).encode()
    return int.from_bytes(hmac.new(key, message, hashlib.sha256).digest()[:8], "big")
