from Cryptodome.Hash import SHA256
from Cryptodome.PublicKey import ECC
from Cryptodome.Signature import DSS

CURVE_NAME = "P-256"


def generate_device_key():
    return ECC.generate(curve=CURVE_NAME)  # expect: key-generation ECDSA


def sign(message: bytes) -> bytes:
    key = generate_device_key()
    signer = DSS.new(key, "fips-186-3")  # expect: signature ECDSA
    return signer.sign(SHA256.new(message))
