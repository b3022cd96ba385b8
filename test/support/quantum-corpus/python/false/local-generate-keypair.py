import secrets


def generate_key_pair():
    """An API key id and secret for the developer portal (not public-key cryptography)."""
    return secrets.token_hex(8), secrets.token_urlsafe(32)


def generate_private_key(length=32):
    return secrets.token_bytes(length)


key_id, key_secret = generate_key_pair()
signing_secret = generate_private_key(64)
