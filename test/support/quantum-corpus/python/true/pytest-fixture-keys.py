import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from app.tokens import verify_token


@pytest.fixture(scope="module")
def rsa_key():
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)  # expect: key-generation RSA


def test_verify_token_accepts_signed(rsa_key):
    signature = rsa_key.sign(b"token", padding.PKCS1v15(), hashes.SHA256())  # expect: signature RSA
    assert verify_token(rsa_key.public_key(), b"token", signature)
