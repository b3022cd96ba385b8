import argparse


def parse():
    parser = argparse.ArgumentParser(description="Request a certificate from the internal CA")
    parser.add_argument("--algorithm", choices=["rsa", "ecdsa", "ed25519"], default="ecdsa")
    parser.add_argument("--key-size", type=int, default=3072, help="RSA key size in bits")
    parser.add_argument("--curve", default="secp384r1", help="ECDSA curve")
    return parser.parse_args()
