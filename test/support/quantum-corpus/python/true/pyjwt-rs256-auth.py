import datetime

import jwt

JWT_ALG = "RS256"
ACCEPTED = ["RS256", "ES256"]


def issue(user_id: str, private_key: str) -> str:
    now = datetime.datetime.now(tz=datetime.timezone.utc)
    payload = {"sub": user_id, "iat": now, "exp": now + datetime.timedelta(minutes=15)}
    return jwt.encode(payload, private_key, algorithm=JWT_ALG)  # expect: signature RSA


def authenticate(token: str, public_key: str) -> dict:
    return jwt.decode(token, public_key, algorithms=ACCEPTED, audience="api")  # expect: signature RSA; signature ECDSA
