import logging

log = logging.getLogger(__name__)


def report(inventory: dict) -> None:
    log.info("Generating ECDSA key inventory")
    log.warning("%d RSA keys are below 2048 bits; regenerate with RSA.generate(3072)", inventory["weak"])
    print(f"ECDH sessions: {inventory['ecdh']}, DSA keys: {inventory['dsa']}")
