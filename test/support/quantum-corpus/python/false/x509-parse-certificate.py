from cryptography import x509


def describe(pem: bytes) -> dict:
    cert = x509.load_pem_x509_certificate(pem)
    return {
        "subject": cert.subject.rfc4514_string(),
        "not_after": cert.not_valid_after_utc.isoformat(),
        "serial": cert.serial_number,
    }
