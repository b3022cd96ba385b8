from django.db import models


class ManagedKey(models.Model):
    class KeyType(models.TextChoices):
        RSA = "RSA", "RSA"
        ECDSA = "ECDSA", "ECDSA"
        ED25519 = "Ed25519", "Ed25519"

    key_type = models.CharField(max_length=16, choices=KeyType.choices, default=KeyType.ECDSA)
    key_size = models.PositiveIntegerField(default=3072)
    public_pem = models.TextField()
