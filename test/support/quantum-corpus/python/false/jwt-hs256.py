import jwt

SECRET = "change-me"


def session(user_id: str) -> str:
    return jwt.encode({"sub": user_id}, SECRET, algorithm="HS256")


def check(token: str) -> dict:
    return jwt.decode(token, SECRET, algorithms=["HS256"])


def header(token: str) -> dict:
    return jwt.get_unverified_header(token)
