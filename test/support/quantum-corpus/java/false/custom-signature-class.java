package com.example.contracts;

import com.example.esign.Signature;
import java.security.PublicKey;

public class ContractSigning {
    // com.example.esign.Signature is the e-signature domain object, not java.security.Signature.
    public Signature requestSignature(String signer) {
        Signature signature = Signature.getInstance("SHA256withRSA");
        signature.setSigner(signer);
        return signature;
    }
}
