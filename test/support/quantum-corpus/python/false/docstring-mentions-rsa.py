"""Key management helpers.

Keys used to be created with ``rsa.generate_private_key(public_exponent=65537, key_size=2048)``
and signed with ``private_key.sign(data, padding.PSS(...), hashes.SHA256())``. They now live in
the KMS (RSA-3072 and ECDSA P-256); this module only tracks their rotation dates.
"""
import datetime

ROTATION = datetime.timedelta(days=90)


def next_rotation(last: datetime.datetime) -> datetime.datetime:
    # ec.generate_private_key(ec.SECP256R1()) is not called here on purpose.
    return last + ROTATION
