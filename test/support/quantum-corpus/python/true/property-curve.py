from cryptography.hazmat.primitives.asymmetric import ec


class BrainpoolIssuer:
    @property
    def curve(self):
        return ec.BrainpoolP256R1()

    def issue(self):
        return ec.generate_private_key(self.curve)  # expect: key-generation ECDSA
