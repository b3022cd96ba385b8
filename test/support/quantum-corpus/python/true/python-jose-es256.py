from jose import jwt

ALGORITHM = "ES256"


def service_token(claims: dict, key: str) -> str:
    return jwt.encode(claims, key, algorithm=ALGORITHM)  # expect: signature ECDSA
