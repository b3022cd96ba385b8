import logging

CURVE = "secp256r1"
log = logging.getLogger("keys")


def announce(key_id: str) -> None:
    log.info(f"rotating key {key_id} on curve {CURVE} (ECDSA)")
    log.debug("ec.generate_private_key(%s) is handled by the HSM", CURVE)
