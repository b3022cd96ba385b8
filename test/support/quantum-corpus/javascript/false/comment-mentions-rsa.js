/**
 * Key rotation policy.
 *
 * We used to call crypto.generateKeyPairSync('rsa', { modulusLength: 1024 }) here; the keys now
 * come from the KMS (RSA-3072 for signing, ECDSA P-256 for the mobile clients), so this module
 * only schedules the rotation.
 */
const ROTATION_DAYS = 90;

// TODO: createECDH('prime256v1') was removed in 2023, see ADR-12.
function nextRotation(lastRotated) {
  return new Date(lastRotated.getTime() + ROTATION_DAYS * 24 * 3600 * 1000);
}

module.exports = { nextRotation };
