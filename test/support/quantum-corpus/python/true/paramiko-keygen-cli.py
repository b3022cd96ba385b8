import argparse

import paramiko


def main() -> None:
    parser = argparse.ArgumentParser(description="Create deploy keys")
    parser.add_argument("--bits", type=int, default=4096)
    parser.add_argument("--out", default="deploy_key")
    args = parser.parse_args()
    key = paramiko.RSAKey.generate(bits=args.bits)  # expect: key-generation RSA
    key.write_private_key_file(args.out)
    host = paramiko.ECDSAKey.generate(bits=384)  # expect: key-generation ECDSA
    host.write_private_key_file(args.out + ".host")


def connect(hostname: str, key_path: str) -> paramiko.SSHClient:
    client = paramiko.SSHClient()
    client.set_missing_host_key_policy(paramiko.RejectPolicy())
    pkey = paramiko.Ed25519Key.from_private_key_file(key_path)  # expect: key-material EdDSA
    client.connect(hostname, pkey=pkey)
    return client


if __name__ == "__main__":
    main()
