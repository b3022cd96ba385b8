from celery import shared_task
from cryptography.hazmat.primitives.asymmetric import ed448, x448


@shared_task
def rotate_partner_keys(partner_id: int) -> None:
    signing = ed448.Ed448PrivateKey.generate()  # expect: key-generation EdDSA
    agreement = x448.X448PrivateKey.generate()  # expect: key-generation X448
    store(partner_id, signing, agreement)


def store(partner_id, signing, agreement):
    raise NotImplementedError
