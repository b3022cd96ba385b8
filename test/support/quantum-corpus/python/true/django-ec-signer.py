from django.conf import settings
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec


class ReceiptSigner:
    """Signs receipts with an ECDSA key (P-384)."""

    CURVE = ec.SECP384R1()

    def __init__(self):
        self._key = ec.generate_private_key(self.CURVE)  # expect: key-generation ECDSA

    def sign(self, receipt: bytes) -> bytes:
        return self._key.sign(receipt, ec.ECDSA(hashes.SHA384()))  # expect: signature ECDSA

    def verify(self, receipt: bytes, signature: bytes) -> None:
        self._key.public_key().verify(signature, receipt, ec.ECDSA(hashes.SHA384()))  # expect: signature ECDSA


signer = ReceiptSigner() if settings.SIGN_RECEIPTS else None
