"""Sealed secrets at rest: AES-GCM with keys from ``FLOORMAN_SEAL_KEYS`` (docs/operations.md).

A token is ASCII: ``fm1.<key id>.<base64url(nonce + ciphertext)>``. The key id (the first eight
hex digits of the key's SHA-256) names the key that sealed it, so tokens sealed before a
rotation open as long as their key is still listed. The header is authenticated with the data.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import logging
import secrets
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.signals import setting_changed
from django.dispatch import receiver

from config.startup import kept_secret

logger = logging.getLogger(__name__)

PREFIX = b"fm1."
KEY_BYTES = 32  # AES-256
NONCE_BYTES = 12  # GCM's standard nonce, random per token


class SealError(ValueError):
    """A token that does not open: not a token, an unknown key, or tampered with."""


@dataclass(frozen=True, slots=True)
class SealKey:
    """One AES-256 key and the id its tokens carry."""

    key_id: bytes  # eight ASCII hex digits
    aead: AESGCM


def key_id_of(key: bytes) -> bytes:
    """The id a key's tokens carry: not secret, it only names the key."""
    return hashlib.sha256(key).hexdigest()[:8].encode("ascii")


def new_key() -> str:
    """A fresh key as ``FLOORMAN_SEAL_KEYS`` takes it (standard base64 of 32 random bytes)."""
    return base64.b64encode(secrets.token_bytes(KEY_BYTES)).decode("ascii")


def parse_key(text: str) -> bytes:
    """A key from its base64 text; ImproperlyConfigured with the reason when it is not one."""
    try:
        key = base64.b64decode(text.strip(), altchars=b"-_", validate=True)
    except (binascii.Error, ValueError) as error:
        raise ImproperlyConfigured(
            f"FLOORMAN_SEAL_KEYS: a key is not base64 ({error}); make one with "
            "`python -c 'import base64,os; print(base64.b64encode(os.urandom(32)).decode())'`"
        ) from error
    if len(key) != KEY_BYTES:
        raise ImproperlyConfigured(
            f"FLOORMAN_SEAL_KEYS: a key must be {KEY_BYTES} bytes in base64, this one is {len(key)}"
        )
    return key


def _key_file_key(path: Path) -> str:
    """The embedded default's key, kept in ``path`` (0600), made on first use."""
    text, made = kept_secret(path, new_key)
    if made:
        logger.warning(
            "Floorman made a new key to seal running hands' decks in %s (embedded default). "
            "Keep it with the database; production sets FLOORMAN_SEAL_KEYS instead.",
            path,
        )
    return text


@cache
def _keys() -> tuple[SealKey, ...]:
    """The configured keys, newest (the one that seals) first."""
    texts: list[str] = list(getattr(settings, "FLOORMAN_SEAL_KEYS", []))
    if not texts:
        texts = [_key_file_key(Path(settings.FLOORMAN_SEAL_KEY_FILE))]
    keys = [parse_key(text) for text in texts]
    return tuple(SealKey(key_id=key_id_of(key), aead=AESGCM(key)) for key in keys)


def reset_keys() -> None:
    """Read the keys again (after the settings changed: tests, a rotation in a shell)."""
    _keys.cache_clear()


@receiver(setting_changed)
def _keys_changed(*, setting: str, **kwargs: object) -> None:
    if setting in {"FLOORMAN_SEAL_KEYS", "FLOORMAN_SEAL_KEY_FILE"}:
        reset_keys()


def seal(data: bytes) -> bytes:
    """``data`` encrypted and authenticated with the newest key, as an ASCII token."""
    key = _keys()[0]
    header = PREFIX + key.key_id + b"."
    nonce = secrets.token_bytes(NONCE_BYTES)
    sealed = key.aead.encrypt(nonce, data, header)
    return header + base64.urlsafe_b64encode(nonce + sealed)


def unseal(token: bytes) -> bytes:
    """The data a token was sealed from; SealError if it is not a token of ours or was altered."""
    if not token.startswith(PREFIX):
        raise SealError("not a sealed token (it does not start with fm1.)")
    key_id, dot, body = token[len(PREFIX) :].partition(b".")
    if not dot:
        raise SealError("not a sealed token (no key id)")
    key = next((k for k in _keys() if k.key_id == key_id), None)
    if key is None:
        raise SealError(
            f"sealed with key {key_id.decode('ascii', 'replace')}, which FLOORMAN_SEAL_KEYS "
            "no longer holds (keep old keys listed after the new one until their tokens are gone)"
        )
    try:
        raw = base64.urlsafe_b64decode(body)
    except (binascii.Error, ValueError) as error:
        raise SealError("the sealed token is damaged (not base64)") from error
    if len(raw) <= NONCE_BYTES:
        raise SealError("the sealed token is damaged (too short)")
    try:
        return key.aead.decrypt(raw[:NONCE_BYTES], raw[NONCE_BYTES:], PREFIX + key_id + b".")
    except InvalidTag as error:
        raise SealError("the sealed token was altered or sealed with another key") from error


def is_sealed(value: str | bytes) -> bool:
    """Whether a stored value is a token (rather than an opened value)."""
    raw = value.encode("ascii", "replace") if isinstance(value, str) else value
    return raw.startswith(PREFIX)
