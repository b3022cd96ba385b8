package com.example.rotation;

import java.time.Duration;
import java.time.Instant;

/**
 * Schedules key rotation. Keys used to be created here with
 * {@code KeyPairGenerator.getInstance("RSA")} and {@code initialize(2048)}; they now come from the
 * KMS (RSA-3072 for signing, ECDSA P-256 for mobile clients).
 */
public class RotationSchedule {
    // Signature.getInstance("SHA256withECDSA") moved to the signing service.
    private static final Duration EVERY = Duration.ofDays(90);

    public Instant next(Instant last) {
        return last.plus(EVERY);
    }
}
