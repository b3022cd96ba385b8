from flask import Blueprint, current_app, jsonify
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

bp = Blueprint("keys", __name__)

PUBLIC_EXPONENT = 65537
KEY_SIZE = 3072


@bp.post("/api/keys")
def create_key():
    private_key = rsa.generate_private_key(  # expect: key-generation RSA
        public_exponent=PUBLIC_EXPONENT,
        key_size=KEY_SIZE,
    )
    pem = private_key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    current_app.logger.info("generated RSA key for tenant")
    return jsonify(public_key=pem.decode())
