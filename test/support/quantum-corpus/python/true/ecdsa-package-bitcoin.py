import hashlib

from ecdsa import SECP256k1, SigningKey, VerifyingKey
from ecdsa.util import sigencode_der


def new_wallet():
    sk = SigningKey.generate(curve=SECP256k1)  # expect: key-generation ECDSA
    return sk, sk.get_verifying_key()


def sign_tx(sk_hex: str, tx: bytes) -> bytes:
    sk = SigningKey.from_string(bytes.fromhex(sk_hex), curve=SECP256k1)  # expect: key-material ECDSA
    return sk.sign_deterministic(tx, hashfunc=hashlib.sha256, sigencode=sigencode_der)  # expect: signature ECDSA


def check(pub: bytes, sig: bytes, tx: bytes) -> bool:
    vk = VerifyingKey.from_string(pub, curve=SECP256k1)  # expect: key-material ECDSA
    return vk.verify(sig, tx, hashfunc=hashlib.sha256)  # expect: signature ECDSA
