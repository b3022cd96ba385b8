"""Signs firmware for devices that only verify DSA (vendor requirement, see INFRA-211)."""
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import dsa

LEGACY_BITS = 1024

firmware_key = dsa.generate_private_key(key_size=LEGACY_BITS)  # expect: key-generation DSA


def sign_firmware(image: bytes) -> bytes:
    return firmware_key.sign(image, hashes.SHA1())  # expect: signature DSA
