ALG = "RSA"
CURVE = "secp256k1"


def describe(kind: str, bits: int) -> str:
    if kind == ALG:
        return f"RSA-{bits}"
    return f"EC ({CURVE})"


SUPPORTED = (ALG, "EC", "Ed25519")
