from datetime import timedelta

SIMPLE_JWT = {
    "ALGORITHM": "RS256",
    "ACCESS_TOKEN_LIFETIME": timedelta(minutes=5),
    "SIGNING_KEY": None,
}

KEY_ALGORITHMS = ["RSA", "ECDSA", "Ed25519"]
RSA_KEY_SIZE = 3072
