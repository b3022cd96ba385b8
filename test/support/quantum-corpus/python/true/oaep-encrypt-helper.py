from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding

OAEP = padding.OAEP(
    mgf=padding.MGF1(algorithm=hashes.SHA256()),
    algorithm=hashes.SHA256(),
    label=None,
)


def seal(public_key, secret: bytes) -> bytes:
    return public_key.encrypt(secret, OAEP)  # expect: encryption RSA


def unseal(private_key, blob: bytes) -> bytes:
    return private_key.decrypt(blob, OAEP)  # expect: encryption RSA
