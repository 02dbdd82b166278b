"""Paimon's text-to-value parsing of schema-evolution casts from CHAR / VARCHAR (``BinaryStringUtils.toInt``,
``toBoolean``, ``Float.parseFloat``, ``new BigDecimal(String)``): what Java accepts, and the read failing where
Java's does."""

from __future__ import annotations

import decimal
import math

import numpy as np

from ..errors import CorruptDataError

__all__ = ["java_bigdecimal_text", "parse_integer", "parse_float", "parse_boolean"]


def java_bigdecimal_text(text: str) -> str:
    """``new BigDecimal(String)`` accepts no blanks, no NaN/Infinity and no underscores."""
    if not text or text.strip() != text or not any(c.isdigit() for c in text) or \
            any(c not in "0123456789+-.eE" for c in text):
        raise decimal.InvalidOperation
    return text


def parse_integer(text: str, bits: int) -> int:
    """Paimon's ``BinaryStringUtils.toByte/toShort/toInt/toLong``: optional sign, digits, optional
    ``.`` and digits (the fraction is dropped); anything else (blank, overflow) fails the read."""
    body = text[1:] if text[:1] in ("+", "-") else text
    whole, _, frac = body.partition(".")
    if not body or (whole and not whole.isdigit()) or (frac and not frac.isdigit()):
        raise CorruptDataError(f"cannot cast {text!r} to an integer (Paimon's read fails on it too)")
    value = int(whole or "0") * (-1 if text[:1] == "-" else 1)
    if not -(2 ** (bits - 1)) <= value < 2 ** (bits - 1):
        raise CorruptDataError(f"cannot cast {text!r} to a {bits}-bit integer: overflow "
                               "(Paimon's read fails on it too)")
    return value


def parse_float(text: str, d: str) -> float:
    """``Float.parseFloat`` / ``Double.parseDouble`` of the trimmed text (decimal forms only here)."""
    t = text.strip()
    body = t.lstrip("+-")
    if body in ("NaN", "Infinity"):
        value = math.nan if body == "NaN" else math.inf
        return -value if t.startswith("-") else value
    if body[-1:] in "fFdD" and body:
        body = body[:-1]
        t = t[: len(t) - 1]
    if not body or any(c not in "0123456789.eE+-" for c in body):
        raise CorruptDataError(f"cannot cast {text!r} to {d} (Paimon's read fails on it too)")
    try:
        value = float(t)
    except ValueError:
        raise CorruptDataError(f"cannot cast {text!r} to {d} (Paimon's read fails on it too)") from None
    return float(np.float32(value)) if d == "FLOAT" else value


def parse_boolean(text: str) -> bool:
    """Paimon's ``BinaryStringUtils.toBoolean``: t/true/y/yes/1 and f/false/n/no/0, case-insensitive."""
    t = text.strip().lower()
    if t in ("t", "true", "y", "yes", "1"):
        return True
    if t in ("f", "false", "n", "no", "0"):
        return False
    raise CorruptDataError(f"cannot cast {text!r} to BOOLEAN (Paimon's read fails on it too)")
