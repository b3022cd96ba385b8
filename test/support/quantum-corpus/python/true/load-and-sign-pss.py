from pathlib import Path

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding


def sign_release(path: Path, data: bytes) -> bytes:
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    return key.sign(  # expect: signature RSA
        data,
        padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=padding.PSS.DIGEST_LENGTH),
        hashes.SHA256(),
    )
