import rsa


def legacy_keys():
    (public, private) = rsa.newkeys(512)  # expect: key-generation RSA
    return public, private


def encrypt_token(token: bytes, public) -> bytes:
    return rsa.encrypt(token, public)  # expect: encryption RSA


def sign_token(token: bytes, private) -> bytes:
    return rsa.sign(token, private, "SHA-256")  # expect: signature RSA
