"""The n-tuple learner's weights as text, for its knowledge (one JSON value the keeper stores):
float32, zlib-compressed, in base64.  Read back, anything but that many finite weights is refused
with a line naming what is wrong."""

from __future__ import annotations

import base64
import binascii
import zlib

import numpy as np


def encode_weights(weights: np.ndarray) -> str:
    return base64.b64encode(zlib.compress(np.ascontiguousarray(weights, np.float32).tobytes(), 6)).decode("ascii")


def decode_weights(text: str, count: int) -> np.ndarray:
    try:
        raw = zlib.decompress(base64.b64decode(text.encode("ascii"), validate=True))
    except (ValueError, zlib.error, binascii.Error, UnicodeEncodeError) as error:
        raise ValueError(f"ntuple knowledge: the weights are not base64 zlib data ({error})") from None
    if len(raw) != 4 * count:
        raise ValueError(f"ntuple knowledge: {len(raw) // 4} weights where the layout has {count}")
    weights = np.frombuffer(raw, np.float32).copy()
    if not np.all(np.isfinite(weights)):
        raise ValueError("ntuple knowledge: a weight is not finite")
    return weights
