from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.kdf.hkdf import HKDF


def session_key(peer_public_key):
    private_key = ec.generate_private_key(ec.SECP256R1())  # expect: key-generation ECDSA
    shared = private_key.exchange(ec.ECDH(), peer_public_key)  # expect: key-agreement ECDH
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"session").derive(shared)
