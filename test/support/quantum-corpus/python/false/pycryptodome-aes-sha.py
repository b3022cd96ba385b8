from Crypto.Cipher import AES
from Crypto.Hash import SHA256
from Crypto.Random import get_random_bytes


def encrypt(key: bytes, data: bytes):
    cipher = AES.new(key, AES.MODE_GCM)
    ciphertext, tag = cipher.encrypt_and_digest(data)
    return cipher.nonce, ciphertext, tag


def digest(data: bytes) -> str:
    return SHA256.new(data).hexdigest()


def new_key() -> bytes:
    return get_random_bytes(32)
