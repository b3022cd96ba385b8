from docusign import Envelope


def sign_contract(envelope: Envelope, signer):
    envelope.sign(signer, reason="approved")
    envelope.verify(signer)
    return envelope.encrypt(password="owner")
