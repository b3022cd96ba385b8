from cryptography.hazmat.primitives.asymmetric import ec


def make_key(curve):
    # The curve comes from the caller; the finding is here, its curve at the call below.
    return ec.generate_private_key(curve)  # expect: key-generation ECDSA


LEDGER_KEY = make_key(ec.SECP256K1())
