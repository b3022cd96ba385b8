from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding as pad, rsa as r


def make_signing_key(bits=4096):
    return r.generate_private_key(65537, bits)  # expect: key-generation RSA


def sign_artifact(key, data):
    return key.sign(  # expect: signature RSA
        data,
        pad.PSS(mgf=pad.MGF1(hashes.SHA256()), salt_length=pad.PSS.MAX_LENGTH),
        hashes.SHA256(),
    )
