from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey


class Handshake:
    def __init__(self):
        self.identity = Ed25519PrivateKey.generate()  # expect: key-generation EdDSA
        self.ephemeral = X25519PrivateKey.generate()  # expect: key-generation X25519

    def hello(self) -> bytes:
        return self.identity.sign(b"hello")  # expect: signature EdDSA

    def finish(self, peer_bytes: bytes) -> bytes:
        peer = X25519PublicKey.from_public_bytes(peer_bytes)  # expect: key-material X25519
        return self.ephemeral.exchange(peer)  # expect: key-agreement X25519
