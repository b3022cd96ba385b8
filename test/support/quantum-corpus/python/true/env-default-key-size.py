import os

from cryptography.hazmat.primitives.asymmetric import rsa

KEY_SIZE = int(os.environ.get("RSA_KEY_SIZE", "2048"))


def generate():
    return rsa.generate_private_key(public_exponent=65537, key_size=KEY_SIZE)  # expect: key-generation RSA
