from cryptography.hazmat.primitives.asymmetric import dh

PARAMETERS = dh.generate_parameters(generator=2, key_size=2048)  # expect: key-generation DH


def shared_secret(peer_public_key):
    private_key = PARAMETERS.generate_private_key()
    return private_key.exchange(peer_public_key)  # expect: key-agreement DH
