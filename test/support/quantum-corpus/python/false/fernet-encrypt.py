from cryptography.fernet import Fernet


def encrypt_note(key: bytes, note: str) -> bytes:
    return Fernet(key).encrypt(note.encode())


def decrypt_note(key: bytes, token: bytes) -> str:
    return Fernet(key).decrypt(token).decode()
