import hvac

client = hvac.Client(url="https://vault.internal:8200")


def encrypt(plaintext: str) -> str:
    response = client.secrets.transit.encrypt_data(name="app", plaintext=plaintext)
    return response["data"]["ciphertext"]


def sign(payload: str) -> str:
    return client.secrets.transit.sign_data(name="app-signing", hash_input=payload)["data"]["signature"]
