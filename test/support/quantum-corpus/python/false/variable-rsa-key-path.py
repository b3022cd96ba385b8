from pathlib import Path

BASE = Path(__file__).resolve().parent
rsa_key_path = BASE / "keys" / "rsa_private.pem"
ecdsa_cert_path = BASE / "keys" / "ecdsa_cert.pem"


def read_rsa_key() -> bytes:
    return rsa_key_path.read_bytes()


def has_ecdsa_cert() -> bool:
    return ecdsa_cert_path.exists()
