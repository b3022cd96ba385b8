from Crypto.Cipher import PKCS1_OAEP
from Crypto.Hash import SHA256
from Crypto.PublicKey import RSA
from Crypto.Signature import pkcs1_15


def new_key():
    return RSA.generate(3072)  # expect: key-generation RSA


def encrypt_for(public_pem: bytes, message: bytes) -> bytes:
    key = RSA.import_key(public_pem)  # expect: key-material RSA
    return PKCS1_OAEP.new(key, hashAlgo=SHA256).encrypt(message)  # expect: encryption RSA


def sign(private_key, message: bytes) -> bytes:
    return pkcs1_15.new(private_key).sign(SHA256.new(message))  # expect: signature RSA
