from Crypto.PublicKey import ECC, RSA


def make_key(kind: str):
    if kind == "rsa":
        return RSA.generate(2048)  # expect: key-generation RSA
    curve = "ed25519" if kind == "ed" else "P-384"
    return ECC.generate(curve=curve)  # expect: key-generation EdDSA; key-generation ECDSA
