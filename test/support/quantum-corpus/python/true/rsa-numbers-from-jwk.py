import base64

from cryptography.hazmat.primitives.asymmetric import rsa


def _int(value: str) -> int:
    return int.from_bytes(base64.urlsafe_b64decode(value + "=="), "big")


def public_key_from_jwk(jwk: dict):
    numbers = rsa.RSAPublicNumbers(_int(jwk["e"]), _int(jwk["n"]))  # expect: key-material RSA
    return numbers.public_key()
