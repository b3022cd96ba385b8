from nacl.public import Box, PrivateKey
from nacl.signing import SigningKey


def identity():
    signing_key = SigningKey.generate()  # expect: key-generation EdDSA
    signed = signing_key.sign(b"register")  # expect: signature EdDSA
    return signing_key, signed


def channel(peer_public):
    mine = PrivateKey.generate()  # expect: key-generation X25519
    return Box(mine, peer_public)  # expect: key-agreement X25519
