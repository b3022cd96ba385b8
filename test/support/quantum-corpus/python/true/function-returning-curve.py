from cryptography.hazmat.primitives.asymmetric import ec


def default_curve():
    return ec.SECP521R1()


def high_assurance_key():
    return ec.generate_private_key(default_curve())  # expect: key-generation ECDSA
