from .crypto_utils import generate_private_key, sign

# The first-party wrapper module is scanned on its own; these are calls into it.
KEY = generate_private_key(2048)


def sign_payload(payload: bytes) -> bytes:
    return sign(KEY, payload, algorithm="RS256")
