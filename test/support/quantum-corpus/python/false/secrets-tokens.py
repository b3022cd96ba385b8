import secrets
import uuid


def request_id() -> str:
    return str(uuid.uuid4())


def reset_token() -> str:
    return secrets.token_urlsafe(32)


def pin() -> str:
    return f"{secrets.randbelow(1_000_000):06d}"
