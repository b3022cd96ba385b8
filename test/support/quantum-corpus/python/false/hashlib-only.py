import hashlib
import hmac


def etag(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


def legacy_checksum(body: bytes) -> str:
    return hashlib.md5(body, usedforsecurity=False).hexdigest()


def webhook_signature(secret: bytes, body: bytes) -> str:
    return hmac.new(secret, body, hashlib.sha256).hexdigest()
